/* Tiny test harness: each test file is one executable registered with ctest.
 * A test is a `static void name(void)`; checks record failures and go on. */
#ifndef LIMBER_TEST_H
#define LIMBER_TEST_H

#include "limber/world.h"
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Counting allocator for lb_allocator hooks (user = an lb_test_counter): tests check that
 * steps allocate nothing and that everything allocated is freed. */
typedef struct lb_test_counter {
  size_t allocs, frees, bytes;
  long live;
} lb_test_counter;

/* Whether n transforms hold the same bits in t, r and s. Not memcmp of the structs: the
 * padding after t and s is whatever a copy left there (memcheck flags comparing it). */
static inline bool lb_test_same_transforms(const lb_transform *a, const lb_transform *b, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (memcmp(a[i].t, b[i].t, sizeof a[i].t) != 0 || memcmp(a[i].r, b[i].r, sizeof a[i].r) != 0 ||
        memcmp(a[i].s, b[i].s, sizeof a[i].s) != 0) {
      return false;
    }
  }
  return true;
}

static inline void *lb_test_count_alloc(size_t size, void *user) {
  lb_test_counter *c = (lb_test_counter *)user;
  c->allocs++;
  c->live++;
  c->bytes += size;
  return malloc(size);
}

static inline void lb_test_count_free(void *p, void *user) {
  lb_test_counter *c = (lb_test_counter *)user;
  c->frees++;
  c->live--;
  free(p);
}

/* World def whose allocator hooks count into `c`. */
static inline lb_world_def lb_test_counting_def(lb_test_counter *c) {
  lb_world_def d = lb_world_default_def();
  d.allocator.alloc = lb_test_count_alloc;
  d.allocator.free = lb_test_count_free;
  d.allocator.user = c;
  return d;
}

/* A whole file (tests run from the repository root), NUL-terminated; free() it. NULL
 * (with a message) when it cannot be read. */
static inline void *lb_test_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "cannot open %s (run from the repository root)\n", path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) {
    buf[n] = 0;
    *len = (size_t)n;
  }
  return buf;
}

/* Plain closing line that CI reads; exit status follows it. */
#define LB_TEST_MAIN_END()                                                                         \
  do {                                                                                             \
    printf("%d passed, %d failed\n", lb_tests_passed, lb_tests_failed);                            \
    return lb_tests_failed == 0 && lb_tests_passed > 0 ? 0 : 1;                                    \
  } while (0)

#endif
