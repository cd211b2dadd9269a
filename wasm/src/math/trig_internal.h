/* The sine and cosine constants, shared by math/scalar.c (lb_sin, lb_cos, lb_sincos) and the
 * four-lane sine of math/simd4_trig.h, so both run the same operations on the same numbers.
 * Not public. */
#ifndef LIMBER_MATH_TRIG_INTERNAL_H
#define LIMBER_MATH_TRIG_INTERNAL_H

/* pi/2 = PIO2_1 + PIO2_2 + PIO2_3 (+ 6e-18). The first two parts have 12 significant bits,
 * so k * part is exact for k < 2^12 and, with k split below, for k < 2^24. */
#define PIO2_1 0x1.922p0f
#define PIO2_2 -0x1.2aep-18f
#define PIO2_3 -0x1.de973ep-31f
#define TWO_OVER_PI 0x1.45f306p-1f

/* sin(r + r_lo) on |r| <= pi/4 (fitted to pi/4 + 1e-3; still < 3e-9 at 0.9, which covers the
 * 0.8 slack of the reduction): r + (r z p + r_lo (1 - z/2)), p = S1 + z (S2 + z (S3 + z S4)). */
#define LB_SIN_S1 -1.66666672e-1f
#define LB_SIN_S2 8.33333191e-3f
#define LB_SIN_S3 -1.98400812e-4f
#define LB_SIN_S4 2.72491479e-6f

/* cos(r + r_lo) on the same interval: w + (((1 - w) - z/2) + (z z p - r r_lo)), w = 1 - z/2,
 * p = C2 + z (C3 + z (C4 + z C5)). */
#define LB_COS_C2 4.16666679e-2f
#define LB_COS_C3 -1.38888881e-3f
#define LB_COS_C4 2.48005945e-5f
#define LB_COS_C5 -2.73003081e-7f

/* A reduced |x| - k pi/2 beyond this (either sign) means k missed: one corrected pass. */
#define LB_TRIG_REDUCED_MAX 0.8f

#endif
