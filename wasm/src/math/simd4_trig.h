/* lb_sin on four lanes, for the arguments animation slerps take (angles in [0, pi/2]). Each
 * lane runs lb_sin's operations in its order (math/scalar.c, constants in trig_internal.h),
 * so the bits are lb_sin's; a lane that would need what is left out here (a reduction by
 * k >= 2, the corrected second pass, a non-finite argument) is reported instead, for the
 * caller to run lb_sin on. Not public. */
#ifndef LB_MATH_SIMD4_TRIG_H
#define LB_MATH_SIMD4_TRIG_H

#include "simd4.h"
#include "trig_internal.h"

/* c0 + z (c1 + z (c2 + z c3)), the kernels' polynomial. */
LB_F4_INLINE lb_f4 lb_f4_poly3(lb_f4 z, float c0, float c1, float c2, float c3) {
  lb_f4 p = lb_f4_add(lb_f4_set1(c2), lb_f4_mul(z, lb_f4_set1(c3)));
  p = lb_f4_add(lb_f4_set1(c1), lb_f4_mul(z, p));
  return lb_f4_add(lb_f4_set1(c0), lb_f4_mul(z, p));
}

/* sin x per lane for |x| < 3 pi / 4: bit l of *outside is set where lane l is not (its
 * result is then unspecified). */
LB_F4_INLINE lb_f4 lb_f4_sin_low(lb_f4 x, int *outside) {
  const lb_f4 zero = lb_f4_set1(0.0f), one = lb_f4_set1(1.0f), half = lb_f4_set1(0.5f);
  lb_f4 ax = lb_f4_abs(x);
  /* trig_reduce: fk = |x| 2/pi + 1/2; k = 0 below 1, else k = (int) fk, here 1 */
  lb_f4 fk = lb_f4_add(lb_f4_mul(ax, lb_f4_set1(TWO_OVER_PI)), half);
  lb_f4 k1 = lb_f4_ge(fk, one);
  /* trig_reduce_by(x, 1): kh = 0, kl = 1, the same products and sums */
  const lb_f4 fkh = zero, fkl = one, fk1 = one;
  lb_f4 t = lb_f4_sub(ax, lb_f4_mul(fkh, lb_f4_set1(PIO2_1)));
  t = lb_f4_sub(t, lb_f4_mul(fkl, lb_f4_set1(PIO2_1)));
  t = lb_f4_sub(t, lb_f4_mul(fkh, lb_f4_set1(PIO2_2)));
  lb_f4 c = lb_f4_add(lb_f4_mul(fkl, lb_f4_set1(PIO2_2)), lb_f4_mul(fk1, lb_f4_set1(PIO2_3)));
  lb_f4 r1 = lb_f4_sub(t, c);
  lb_f4 b = lb_f4_sub(r1, t);
  lb_f4 e1 = lb_f4_add(lb_f4_sub(t, lb_f4_sub(r1, b)), lb_f4_sub(lb_f4_neg(c), b));
  /* k = 0 keeps r = x, r_lo = +0 (quadrant 0: the sine kernel); k = 1 takes the cosine one */
  lb_f4 r = lb_f4_select(k1, r1, ax);
  lb_f4 r_lo = lb_f4_select(k1, e1, zero);
  lb_f4 z = lb_f4_mul(r, r);
  lb_f4 ps = lb_f4_poly3(z, LB_SIN_S1, LB_SIN_S2, LB_SIN_S3, LB_SIN_S4);
  lb_f4 ks = lb_f4_add(r, lb_f4_add(lb_f4_mul(lb_f4_mul(r, z), ps),
                                    lb_f4_mul(r_lo, lb_f4_sub(one, lb_f4_mul(half, z)))));
  lb_f4 hz = lb_f4_mul(half, z);
  lb_f4 w = lb_f4_sub(one, hz);
  lb_f4 pc = lb_f4_poly3(z, LB_COS_C2, LB_COS_C3, LB_COS_C4, LB_COS_C5);
  lb_f4 kc = lb_f4_add(w, lb_f4_add(lb_f4_sub(lb_f4_sub(one, w), hz),
                                    lb_f4_sub(lb_f4_mul(lb_f4_mul(z, z), pc), lb_f4_mul(r, r_lo))));
  lb_f4 s = lb_f4_select(k1, kc, ks);
  /* with_sign: the sign bit of x flips the result's */
  s = lb_f4_xor(s, lb_f4_and(x, lb_f4_set1(-0.0f)));
  /* kept: fk < 2 (k <= 1; false for NaN and infinity), and k = 0 or |r| within the bound */
  const lb_f4 bound = lb_f4_set1(LB_TRIG_REDUCED_MAX);
  lb_f4 in_k = lb_f4_lt(fk, lb_f4_set1(2.0f));
  lb_f4 r_ok = lb_f4_and(lb_f4_ge(bound, r1), lb_f4_ge(r1, lb_f4_neg(bound)));
  lb_f4 ok = lb_f4_and(in_k, lb_f4_select(k1, r_ok, in_k));
  *outside |= 15 & ~lb_f4_mask_bits(ok);
  return s;
}

#endif
