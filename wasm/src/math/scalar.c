/* Deterministic scalar math: see limber/math.h for the contract.
 *
 * Everything is binary32 arithmetic (+ - * / and the correctly rounded sqrtf) in a fixed
 * order, so gcc, clang and emcc (scalar or SIMD) produce the same bits. No double is used:
 * a double intermediate would be rounded differently than a float one on some targets.
 *
 * Polynomial coefficients are near-minimax fits (Chebyshev least squares, computed with
 * 40-digit arithmetic for this file) on the reduced intervals named at each kernel, then
 * rounded to float. Their approximation error is below 3e-9, well under the rounding noise.
 */
#include "limber/math.h"

#include "trig_internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static uint32_t lb_float_bits(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

static float lb_bits_float(uint32_t u) {
  float x;
  memcpy(&x, &u, sizeof x);
  return x;
}

/* Flipping the sign bit (rather than testing x < 0) keeps f(-x) == -f(x) bit for bit,
 * including -0. */
static float lb_with_sign(float x, uint32_t sign) {
  return lb_bits_float(lb_float_bits(x) ^ sign);
}

bool lb_is_finite(float x) {
  return (lb_float_bits(x) & 0x7F800000u) != 0x7F800000u;
}

float lb_clamp(float x, float lo, float hi) {
  if (x < lo) {
    return lo;
  }
  if (x > hi) {
    return hi;
  }
  return x;
}

float lb_sqrt(float x) {
  /* x <= 0 (not !(x > 0)) so NaN reaches sqrtf and stays NaN instead of becoming a
   * plausible-looking 0. */
  if (x <= 0.0f) {
    return 0.0f;
  }
  return sqrtf(x);
}

/* ---- sin / cos ------------------------------------------------------------------------ */

/* Above 2^24 adjacent floats are >= 2 rad apart: the input carries no phase, and k would
 * no longer split into two 12-bit halves. */
#define TRIG_MAX 16777216.0f

typedef struct trig_reduced {
  float r, r_lo; /* |x| - k*pi/2 = r + r_lo, |r| <= ~pi/4 */
  int quadrant;  /* k mod 4 */
} trig_reduced;

/* Cody-Waite reduction of ax >= 0, ax < TRIG_MAX, by a given k < 2^24.
 * k is split as kh + kl with kl < 2^12 so every k*part product is exact. The subtractions
 * of the big parts are then exact too (the operands share a grid of 2^-11 or 2^-17 and
 * the results stay small enough to fit 24 bits), leaving one rounding in the last step,
 * whose error is recovered exactly with TwoSum into r_lo. This keeps the reduction error
 * near 1e-9 instead of the ~6e-8 of a plain r = x - k*c1 - k*c2 - k*c3. */
static trig_reduced lb_trig_reduce_by(float ax, int k) {
  trig_reduced out;
  int kl = k & 0xFFF;
  float fk = (float)k;
  float fkl = (float)kl;
  float fkh = (float)(k - kl);

  float t = ax - fkh * PIO2_1;
  t = t - fkl * PIO2_1;
  t = t - fkh * PIO2_2;
  float c = fkl * PIO2_2 + fk * PIO2_3;

  /* TwoSum: r + e == t - c exactly, no assumption on which operand is larger. */
  float r = t - c;
  float b = r - t;
  float e = (t - (r - b)) + (-c - b);

  out.r = r;
  out.r_lo = e;
  out.quadrant = k & 3;
  return out;
}

/* Past |x| ~ 1e6 the float product ax * 2/pi is off by up to ~1.3 (its ulp reaches 1),
 * so k can miss and leave |r| well beyond pi/4. The reduction itself stays exact for any
 * nearby k, so its r tells how far k is off; one corrected pass lands in range. */
static trig_reduced lb_trig_reduce(float ax) {
  float fk = ax * TWO_OVER_PI + 0.5f;
  if (fk < 1.0f) {
    /* k = 0: trig_reduce_by gives r = ax - 0 = ax and r_lo = (ax - ax) + (-0 - 0) = +0
     * exactly, without its eleven operations (most slerp and yaw angles land here) */
    trig_reduced out = {ax, 0.0f, 0};
    return out;
  }
  int k = (int)fk;
  trig_reduced red = lb_trig_reduce_by(ax, k);
  if (red.r > LB_TRIG_REDUCED_MAX || red.r < -LB_TRIG_REDUCED_MAX) {
    float dk = red.r * TWO_OVER_PI;
    k += (int)(dk + (dk >= 0.0f ? 0.5f : -0.5f));
    red = lb_trig_reduce_by(ax, k);
  }
  return red;
}

/* sin(r + r_lo) on |r| <= pi/4 (fitted to pi/4 + 1e-3; still < 3e-9 at 0.9, which covers
 * the 0.8 slack trig_reduce allows).
 * sin(r + d) ~ sin r + d*cos r with cos r ~ 1 - z/2; the dropped terms are < 1e-9. */
static float lb_sin_kernel(float r, float r_lo, float z) {
  float p = LB_SIN_S1 + z * (LB_SIN_S2 + z * (LB_SIN_S3 + z * LB_SIN_S4));
  return r + (r * z * p + r_lo * (1.0f - 0.5f * z));
}

/* cos(r + r_lo) on the same interval. 1 - z/2 is rounded once into w and its rounding
 * error ((1 - w) - hz, exact by Sterbenz since w is in [0.69, 1]) is added back with the
 * small terms, so the only sizeable rounding is the final add. */
static float lb_cos_kernel(float r, float r_lo, float z) {
  float hz = 0.5f * z;
  float w = 1.0f - hz;
  float p = LB_COS_C2 + z * (LB_COS_C3 + z * (LB_COS_C4 + z * LB_COS_C5));
  return w + (((1.0f - w) - hz) + (z * z * p - r * r_lo));
}

/* Shared by lb_sin, lb_cos and lb_sincos so that all three produce identical bits. */
static void lb_sincos_abs(float ax, float *s, float *c) {
  trig_reduced red = lb_trig_reduce(ax);
  float z = red.r * red.r;
  float ks = lb_sin_kernel(red.r, red.r_lo, z);
  float kc = lb_cos_kernel(red.r, red.r_lo, z);
  switch (red.quadrant) {
  case 0:
    *s = ks;
    *c = kc;
    break;
  case 1:
    *s = kc;
    *c = -ks;
    break;
  case 2:
    *s = -ks;
    *c = -kc;
    break;
  default:
    *s = -kc;
    *c = ks;
    break;
  }
}

/* Handles what the reduction cannot: NaN/Inf give NaN; huge finite values give the
 * deterministic (0, 1) since they hold no phase information. Returns false when done. */
static bool lb_trig_in_range(float ax, float *s, float *c) {
  if (ax < TRIG_MAX) {
    return true;
  }
  if (lb_is_finite(ax)) {
    *s = 0.0f;
    *c = 1.0f;
  } else {
    *s = ax - ax;
    *c = ax - ax;
  }
  return false;
}

void lb_sincos(float x, float *s, float *c) {
  uint32_t sign = lb_float_bits(x) & 0x80000000u;
  float ax = lb_bits_float(lb_float_bits(x) & 0x7FFFFFFFu);
  float ss, cc;
  if (lb_trig_in_range(ax, &ss, &cc)) {
    lb_sincos_abs(ax, &ss, &cc);
  }
  *s = lb_with_sign(ss, sign);
  *c = cc;
}

/* One of sincos_abs's results with one kernel (the quadrant picks which): the same bits,
 * half the work (slerp calls lb_sin twice per interpolated lane). */
static float lb_sin_or_cos_abs(float ax, bool want_cos) {
  trig_reduced red = lb_trig_reduce(ax);
  float z = red.r * red.r;
  uint32_t q = (uint32_t)red.quadrant + (want_cos ? 1u : 0u); /* cos x = sin(x + pi/2) */
  float k = (q & 1u) ? lb_cos_kernel(red.r, red.r_lo, z) : lb_sin_kernel(red.r, red.r_lo, z);
  return (q & 2u) ? -k : k;
}

float lb_sin(float x) {
  uint32_t sign = lb_float_bits(x) & 0x80000000u;
  float ax = lb_bits_float(lb_float_bits(x) & 0x7FFFFFFFu);
  float ss, cc;
  if (!lb_trig_in_range(ax, &ss, &cc)) {
    return lb_with_sign(ss, sign);
  }
  return lb_with_sign(lb_sin_or_cos_abs(ax, false), sign);
}

float lb_cos(float x) {
  float ax = lb_bits_float(lb_float_bits(x) & 0x7FFFFFFFu);
  float ss, cc;
  if (!lb_trig_in_range(ax, &ss, &cc)) {
    return cc;
  }
  return lb_sin_or_cos_abs(ax, true);
}

/* ---- atan / atan2 --------------------------------------------------------------------- */

#define TAN_PI_8 0.414213568f

/* m*pi/4 as hi + lo, so adding the constant costs one rounding instead of two. */
static const float quarter_pi_hi[5] = {0.0f, 0x1.921fb6p-1f, 0x1.921fb6p0f, 0x1.2d97c8p1f,
                                       0x1.921fb6p1f};
static const float quarter_pi_lo[5] = {0.0f, -0x1.777a5cp-26f, -0x1.777a5cp-25f, -0x1.99bc5cp-28f,
                                       -0x1.777a5cp-24f};

/* atan(u) for |u| <= tan(pi/8) (fitted to tan(pi/8) + 1e-4). */
static float lb_atan_kernel(float u) {
  const float a1 = -3.33333343e-1f;
  const float a2 = 1.99999779e-1f;
  const float a3 = -1.42841488e-1f;
  const float a4 = 1.10713147e-1f;
  const float a5 = -8.62429962e-2f;
  const float a6 = 5.04716747e-2f;
  float z = u * u;
  return u * z * (a1 + z * (a2 + z * (a3 + z * (a4 + z * (a5 + z * a6)))));
}

/* Angle of (ax, ay) with ax, ay >= 0 not both zero, folded to [0, pi] when x_neg.
 * All octant symmetries are gathered into one m*pi/4 +- atan(u), so the constant
 * (hi + lo) and the kernel meet in a single final rounding. */
static float lb_atan_octant(float ay, float ax, bool x_neg) {
  bool swapped = ay > ax;
  float num = swapped ? ax : ay;
  float den = swapped ? ay : ax;
  float u;
  int m;
  bool plus = true;
  if (num > TAN_PI_8 * den) {
    /* atan(t) = pi/4 + atan((t - 1) / (t + 1)), formed from num and den directly so the
     * rounding of t = num / den does not enter. */
    u = (num - den) / (num + den);
    m = 1;
  } else {
    u = num / den;
    m = 0;
  }
  if (swapped) {
    m = 2 - m;
    plus = !plus;
  }
  if (x_neg) {
    m = 4 - m;
    plus = !plus;
  }
  /* Fast2Sum (|hi| >= pi/4 > |u| whenever hi != 0) recovers the rounding of hi +- u, so
   * the result is rounded essentially once. */
  float hi = quarter_pi_hi[m];
  float su = plus ? u : -u;
  float sk = plus ? lb_atan_kernel(u) : -lb_atan_kernel(u);
  float d = hi + su;
  float e = (hi - d) + su;
  return d + ((e + quarter_pi_lo[m]) + sk);
}

float lb_atan2(float y, float x) {
  float ay = lb_bits_float(lb_float_bits(y) & 0x7FFFFFFFu);
  float ax = lb_bits_float(lb_float_bits(x) & 0x7FFFFFFFu);
  if (ay == 0.0f && ax == 0.0f) {
    return 0.0f;
  }
  /* Comparisons, not sign bits: -0 counts as non-negative so the range is (-pi, pi]. */
  float a = lb_atan_octant(ay, ax, x < 0.0f);
  return y < 0.0f ? -a : a;
}

float lb_atan(float x) {
  uint32_t sign = lb_float_bits(x) & 0x80000000u;
  float ax = lb_bits_float(lb_float_bits(x) & 0x7FFFFFFFu);
  return lb_with_sign(lb_atan_octant(ax, 1.0f, false), sign);
}

/* ---- asin / acos ---------------------------------------------------------------------- */

#define PIO2_HI 0x1.921fb6p0f
#define PIO2_LO -0x1.777a5cp-25f
#define PI_HI 0x1.921fb6p1f
#define PI_LO -0x1.777a5cp-24f

/* asin(s) - s for 0 <= s <= 0.5. */
static float lb_asin_tail(float s) {
  const float b1 = 1.66666657e-1f;
  const float b2 = 7.50009418e-2f;
  const float b3 = 4.45994027e-2f;
  const float b4 = 3.11006624e-2f;
  const float b5 = 1.71492379e-2f;
  const float b6 = 3.36908475e-2f;
  float z = s * s;
  return s * z * (b1 + z * (b2 + z * (b3 + z * (b4 + z * (b5 + z * b6)))));
}

/* (c_hi + c_lo) - (hi + lo) with |hi| <= |c_hi| and lo, c_lo small. The big subtraction's
 * rounding error is recovered exactly (Fast2Sum), so the result is rounded essentially
 * once; otherwise acos near x = -0.5 collects three roundings at the 2.4e-7 ulp of [2, 4). */
static float lb_const_minus(float c_hi, float c_lo, float hi, float lo) {
  float d = c_hi - hi;
  float e = (c_hi - d) - hi;
  return d + ((e + c_lo) - lo);
}

/* For a in (0.5, 1]: 1 - a = 2 sin^2(theta/2) gives asin(a) = pi/2 - 2 asin(s) with
 * s = sqrt((1 - a) / 2) <= 0.5. Near 1 this avoids the infinite slope of asin; 1 - a and
 * the halving are exact, so s carries only the sqrt rounding. 2 asin(s) = *hi + *lo. */
static void lb_two_asin_half_complement(float a, float *hi, float *lo) {
  float s = sqrtf((1.0f - a) * 0.5f);
  *hi = 2.0f * s;
  *lo = 2.0f * lb_asin_tail(s);
}

float lb_asin(float x) {
  uint32_t sign = lb_float_bits(x) & 0x80000000u;
  float a = lb_bits_float(lb_float_bits(x) & 0x7FFFFFFFu);
  float r;
  if (a > 1.0f) {
    a = 1.0f;
  }
  if (a <= 0.5f) {
    r = a + lb_asin_tail(a);
  } else {
    float hi, lo;
    lb_two_asin_half_complement(a, &hi, &lo);
    r = lb_const_minus(PIO2_HI, PIO2_LO, hi, lo);
  }
  return lb_with_sign(r, sign);
}

float lb_acos(float x) {
  float a = lb_bits_float(lb_float_bits(x) & 0x7FFFFFFFu);
  float hi, lo;
  if (x > 1.0f) {
    x = 1.0f;
  } else if (x < -1.0f) {
    x = -1.0f;
  }
  if (a <= 0.5f) {
    return lb_const_minus(PIO2_HI, PIO2_LO, x, lb_asin_tail(x)); /* pi/2 - asin(x) */
  }
  if (x > 0.0f) {
    lb_two_asin_half_complement(x, &hi, &lo);
    return hi + lo;
  }
  lb_two_asin_half_complement(-x, &hi, &lo);
  return lb_const_minus(PI_HI, PI_LO, hi, lo); /* acos(x) = pi - acos(-x) */
}

/* ---- exp ------------------------------------------------------------------------------ */

/* ln 2 = LN2_HI + LN2_LO (+ 2e-12); LN2_HI has 12 bits so k * LN2_HI is exact for
 * |k| <= 127, and x - k * LN2_HI is exact by Sterbenz. */
#define LN2_HI 0x1.62ep-1f
#define LN2_LO 0x1.0bfbe8p-15f
#define LOG2E 0x1.715476p0f

float lb_exp(float x) {
  const float e2 = 5.0e-1f;
  const float e3 = 1.66666672e-1f;
  const float e4 = 4.16664630e-2f;
  const float e5 = 8.33331048e-3f;
  const float e6 = 1.39336672e-3f;
  const float e7 = 1.98910100e-4f;
  if (x != x) {
    return x; /* NaN must not reach the int conversion below (undefined behaviour). */
  }
  x = lb_clamp(x, -87.0f, 88.0f);
  float kf = x * LOG2E;
  int k = (int)(kf + (kf >= 0.0f ? 0.5f : -0.5f));
  float fk = (float)k;
  /* |r| <= ln2/2 + tiny (fitted to ln2/2 + 1e-4). */
  float r = (x - fk * LN2_HI) - fk * LN2_LO;
  float q = r + r * r * (e2 + r * (e3 + r * (e4 + r * (e5 + r * (e6 + r * e7)))));
  float p = 1.0f + q;
  /* k is in [-126, 127], so 2^k is a normal float and the scaling is exact; the result
   * (>= exp(-87) > FLT_MIN) never goes subnormal. */
  return p * lb_bits_float((uint32_t)(k + 127) << 23);
}
