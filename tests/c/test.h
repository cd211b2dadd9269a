/* Tiny test harness: each test file is one executable registered with ctest.
 * A test is a `static void name(void)`; checks record failures and go on. */
#ifndef LIMBER_TEST_H
#define LIMBER_TEST_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

static int lb_test_checks_failed;
static int lb_tests_passed, lb_tests_failed;

#define LB_CHECK(cond)                                                                             \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                     \
      lb_test_checks_failed++;                                                                     \
    }                                                                                              \
  } while (0)

/* |a - b| <= tol, with both values printed on failure. */
#define LB_CHECK_NEAR(a, b, tol)                                                                   \
  do {                                                                                             \
    double lb_a_ = (double)(a), lb_b_ = (double)(b);                                               \
    if (!(fabs(lb_a_ - lb_b_) <= (double)(tol))) {                                                 \
      fprintf(stderr, "%s:%d: |%s - %s| = |%.9g - %.9g| = %.3g > %.3g\n", __FILE__, __LINE__, #a,  \
              #b, lb_a_, lb_b_, fabs(lb_a_ - lb_b_), (double)(tol));                               \
      lb_test_checks_failed++;                                                                     \
    }                                                                                              \
  } while (0)

#define LB_RUN(test)                                                                               \
  do {                                                                                             \
    int lb_before_ = lb_test_checks_failed;                                                        \
    test();                                                                                        \
    if (lb_test_checks_failed == lb_before_) {                                                     \
      lb_tests_passed++;                                                                           \
    } else {                                                                                       \
      lb_tests_failed++;                                                                           \
      fprintf(stderr, "FAILED %s\n", #test);                                                       \
    }                                                                                              \
  } while (0)

/* Deterministic PRNG for tests (xorshift32); never rand(). Seed must be non-zero. */
typedef struct rng {
  uint32_t s;
} rng;

static inline uint32_t rng_u32(rng *r) {
  uint32_t x = r->s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  r->s = x;
  return x;
}

/* Plain closing line that CI reads; exit status follows it. */
#define LB_TEST_MAIN_END()                                                                         \
  do {                                                                                             \
    printf("%d passed, %d failed\n", lb_tests_passed, lb_tests_failed);                            \
    return lb_tests_failed == 0 && lb_tests_passed > 0 ? 0 : 1;                                    \
  } while (0)

#endif
