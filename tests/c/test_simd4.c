/* The four-lane paths (wasm/src/math/simd4.h, simd4_xf.h) against the scalar functions they
 * replace: transform composition and 4x4 matrices, bit for bit, on random and edge inputs
 * (zeros of both signs, negative and tiny scales, unnormalised rotations). The same file is
 * built again with LB_SIMD4_SCALAR (test_simd4_scalar.c) for the portable path. */
#include "../../wasm/src/math/math_inline.h"
#include "../../wasm/src/math/simd4_xf.h"
#include "limber/math.h"
#include "test.h"

#include <string.h>

static float rnd(rng *r, float lo, float hi) {
  return lo + (hi - lo) * (float)(rng_u32(r) >> 8) * (1.0f / 16777216.0f);
}

/* Random transform; every 7th value is a signed zero, every 13th scale is tiny or negative. */
static void random_xf(rng *r, lb_transform *x) {
  float *all[10] = {&x->t[0], &x->t[1], &x->t[2], &x->r[0], &x->r[1],
                    &x->r[2], &x->r[3], &x->s[0], &x->s[1], &x->s[2]};
  for (int i = 0; i < 10; ++i) {
    uint32_t k = rng_u32(r);
    float v = i >= 7 ? rnd(r, 0.01f, 3.0f) : rnd(r, -2.0f, 2.0f);
    if (k % 7 == 0) {
      v = (k & 16) ? -0.0f : 0.0f;
    } else if (i >= 7 && k % 13 == 0) {
      v = (k & 32) ? -v : 1e-6f;
    }
    *all[i] = v;
  }
  if (rng_u32(r) % 2) {
    lb_quat_normalize(x->r);
  }
}

static bool same3(const float *a, const float *b) {
  return memcmp(a, b, 3 * sizeof(float)) == 0;
}

static void test_xf_mul_bits(void) {
  rng r = {0x9e3779b9u};
  uint32_t differ = 0;
  const uint32_t n = 1000000u;
  const lb_f4_xf_k k = lb_f4_xf_constants();
  for (uint32_t i = 0; i < n; ++i) {
    lb_transform p, l, a, b;
    random_xf(&r, &p);
    random_xf(&r, &l);
    lb_xf_mul_r(&p, &l, l.r, &a);
    lb_f4_xf_mul_k(&p, &l, &b, &k);
    if (!same3(a.t, b.t) || memcmp(a.r, b.r, sizeof a.r) != 0 || !same3(a.s, b.s)) {
      ++differ;
    }
  }
  printf("xf_mul (%s): %u random compositions, %u differ in any bit\n", LB_SIMD4_NAME, n, differ);
  LB_CHECK(differ == 0);
}

static void test_matrix_bits(void) {
  rng r = {0x85ebca6bu};
  uint32_t differ = 0;
  const uint32_t n = 1000000u;
  for (uint32_t i = 0; i < n; ++i) {
    lb_transform x;
    random_xf(&r, &x);
    mat4 a;
    float b[16];
    lb_transform_to_mat4(&x, a);
    lb_f4_xf_matrix(&x, b);
    if (memcmp(&a[0][0], b, sizeof b) != 0) {
      ++differ;
    }
  }
  printf("matrix (%s): %u random transforms, %u differ in any bit\n", LB_SIMD4_NAME, n, differ);
  LB_CHECK(differ == 0);
}

static void test_matrix4_bits(void) {
  rng r = {0x27d4eb2fu};
  uint32_t differ = 0;
  const uint32_t n = 250000u;
  for (uint32_t i = 0; i < n; ++i) {
    lb_transform x[4];
    for (int k = 0; k < 4; ++k) {
      random_xf(&r, &x[k]);
    }
    mat4 a[4], b[4];
    for (int k = 0; k < 4; ++k) {
      lb_transform_to_mat4(&x[k], a[k]);
    }
    lb_f4_xf_matrix4(x, &b[0][0][0]);
    if (memcmp(a, b, sizeof a) != 0) {
      ++differ;
    }
  }
  printf("matrix4 (%s): %u groups of 4 random transforms, %u differ in any bit\n", LB_SIMD4_NAME, n,
         differ);
  LB_CHECK(differ == 0);
}

int main(void) {
  LB_RUN(test_xf_mul_bits);
  LB_RUN(test_matrix_bits);
  LB_RUN(test_matrix4_bits);
  LB_TEST_MAIN_END();
}
