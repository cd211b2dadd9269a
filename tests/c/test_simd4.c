/* The four-lane paths (wasm/src/math/simd4.h, simd4_xf.h, simd4_trig.h) against the scalar
 * functions they replace: transform composition, 4x4 matrices and the slerp sine, bit for bit,
 * on random and edge inputs (zeros of both signs, negative and tiny scales, unnormalised
 * rotations, the sine's reduction boundaries). The same file is
 * built again with LB_SIMD4_SCALAR (test_simd4_scalar.c) for the portable path, where the
 * transform product and the matrices are math_inline.h's scalar forms themselves (simd4_xf.h:
 * the lanes would only emulate them), so there the sine is the lane code under test. */
#include "../../wasm/src/math/math_inline.h"
#include "../../wasm/src/math/simd4_trig.h"
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

/* lb_f4_sin_low against lb_sin: every lane it keeps has lb_sin's bits, it keeps every lane of
 * [0, pi/2] (the slerp angles), and it reports the lanes it cannot do. */
static void test_sin_low_bits(void) {
  rng r = {0x27d4eb2fu};
  const float pio2 = 1.57079637f, pio4 = 0.785398185f;
  /* edges: zeros, tiny and subnormal, both sides of the k = 0 / 1 split (fk = 1) and of
   * pi/2, the reduction's bound near 3 pi / 4 and past it, non-finite and huge values */
  const float edge[] = {
      0.0f,  -0.0f,       1e-30f,      1e-40f,     -1e-40f, pio4,        0.78539813f,  0.78539824f,
      -pio4, pio2,        1.57079625f, 1.5707965f, -pio2,   2.35619449f, 2.3561945f,   2.35619473f,
      2.4f,  3.14159274f, -3.0f,       10.0f,      1e30f,   1.0f / 0.0f, -1.0f / 0.0f, 0.0f / 0.0f,
      1e-8f, 0.5f,        1.0f,        2.0f,       -2.3f,   2.3561e0f};
  const uint32_t n_edge = (uint32_t)(sizeof edge / sizeof edge[0]);
  const uint32_t n = 400000u;
  uint32_t differ = 0, kept = 0, outside_in_range = 0;
  for (uint32_t i = 0; i < n + n_edge; i += 4u) {
    float x[4], got[4];
    bool slerp_range = i < n && (i / 4u) % 2u == 0u;
    for (uint32_t l = 0; l < 4u; ++l) {
      uint32_t k = i + l;
      x[l] = k >= n        ? edge[(k - n) % n_edge]
             : slerp_range ? rnd(&r, 0.0f, pio2)
                           : rnd(&r, -2.5f, 2.5f);
    }
    int outside = 0;
    lb_f4_store(got, lb_f4_sin_low(lb_f4_load(x), &outside));
    for (uint32_t l = 0; l < 4u; ++l) {
      if ((outside >> l) & 1) {
        outside_in_range += x[l] >= 0.0f && x[l] <= pio2;
        continue;
      }
      float want = lb_sin(x[l]);
      ++kept;
      differ += memcmp(&want, &got[l], sizeof want) != 0;
    }
  }
  printf(
      "sin_low (%s): %u lanes kept, %u differ from lb_sin in any bit, %u of [0, pi/2] not kept\n",
      LB_SIMD4_NAME, kept, differ, outside_in_range);
  LB_CHECK(differ == 0);
  LB_CHECK(outside_in_range == 0);
  LB_CHECK(kept > n / 2u);
}

int main(void) {
  LB_RUN(test_xf_mul_bits);
  LB_RUN(test_matrix_bits);
  LB_RUN(test_matrix4_bits);
  LB_RUN(test_sin_low_bits);
  LB_TEST_MAIN_END();
}
