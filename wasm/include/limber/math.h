/* Limber deterministic math.
 *
 * Every function here is built only from + - * / and sqrt, evaluated in a fixed
 * order, so the same inputs give bit-identical outputs natively (gcc, clang) and in
 * WebAssembly (scalar and SIMD builds). Nothing here calls libm transcendentals.
 * Compile with -ffp-contract=off and with no fast-math option.
 *
 * Types are cglm's (vec3 = float[3], versor = float[4] as x,y,z,w).
 * Angles are radians. Quaternions are unit length unless stated.
 */
#ifndef LIMBER_MATH_H
#define LIMBER_MATH_H

#include <cglm/types.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LB_PI 3.14159265358979323846f
#define LB_DEG2RAD (LB_PI / 180.0f)
#define LB_RAD2DEG (180.0f / LB_PI)

/* ---- scalar ------------------------------------------------------------- */
/* Max abs error vs. libm (double reference) is measured by tests/c/test_math_scalar.c
 * and stated in docs there; all are below 2e-7 on their full input range. */
float lb_sin(float x); /* any finite x; range-reduced by 2*pi */
float lb_cos(float x); /* any finite x */
void lb_sincos(float x, float *s, float *c);
float lb_atan2(float y, float x); /* (-pi, pi]; atan2(0,0) = 0 */
float lb_atan(float x);
float lb_acos(float x); /* x clamped to [-1, 1]; [0, pi] */
float lb_asin(float x); /* x clamped to [-1, 1]; [-pi/2, pi/2] */
float lb_exp(float x);  /* x clamped to [-87, 88]; relative error < 3e-7 */
float lb_sqrt(float x); /* IEEE sqrt (correctly rounded everywhere); 0 for x <= 0 */
float lb_clamp(float x, float lo, float hi);
bool lb_is_finite(float x); /* not NaN, not +-Inf; no libm */

/* ---- vec3 ---------------------------------------------------------------
 * Length and normalisation (their zero-length policy) are here. Inside the core, add, sub,
 * scale, dot, cross and a + b s are the inline lb_vec3_* of wasm/src/math/vec3_inline.h:
 * cglm's plain-C glm_vec3_* (element by element, the same bits natively and in wasm), the
 * one set every module uses instead of private copies. */
float lb_vec3_length(const vec3 v);
/* Normalises v into out; returns the original length. Zero (< 1e-20) → out = 0 and 0. */
float lb_vec3_normalize_to(const vec3 v, vec3 out);
/* Any unit vector perpendicular to unit v, chosen stably from v's smallest axis. */
void lb_vec3_any_perpendicular(const vec3 v, vec3 out);

/* ---- quaternion (x, y, z, w) -------------------------------------------- */
void lb_quat_identity(versor q);
void lb_quat_mul(const versor a, const versor b, versor out); /* out = a * b (apply b then a) */
void lb_quat_conj(const versor q, versor out);
void lb_quat_normalize(versor q);                            /* zero quat → identity */
void lb_quat_rotate(const versor q, const vec3 v, vec3 out); /* out = q v q^-1 */
void lb_quat_from_axis_angle(const vec3 unit_axis, float angle, versor out);
/* Shortest rotation taking unit a onto unit b. Opposite vectors: 180 deg about a
 * stable perpendicular of a. */
void lb_quat_from_to(const vec3 a, const vec3 b, versor out);
/* Spherical interpolation on the shorter arc; t in [0,1]. Falls back to nlerp when
 * the quaternions are nearly equal. */
void lb_quat_slerp(const versor a, const versor b, float t, versor out);
void lb_quat_nlerp(const versor a, const versor b, float t, versor out);
/* The rotation (w >= 0, normalised) whose matrix has the unit columns x, y, z (a right-handed
 * orthonormal basis). */
void lb_quat_from_basis(const vec3 x, const vec3 y, const vec3 z, versor q);
/* Angle of a rotation in radians, [0, pi]. */
float lb_quat_angle(const versor q);

/* ---- transform (translation, rotation, scale) ---------------------------- */
typedef struct lb_transform {
  vec3 t;   /* translation, metres */
  versor r; /* rotation, unit quaternion x,y,z,w */
  vec3 s;   /* scale, per axis (non-uniform scale is not propagated as shear) */
} lb_transform;

void lb_transform_identity(lb_transform *out);
/* Every component finite and the rotation not (near) zero: |r|^2 > 1e-12. */
bool lb_transform_valid(const lb_transform *xf);
/* out = parent * local: t = pt + pr*(ps*lt); r = pr*lr; s = ps*ls. out may alias local. */
void lb_transform_mul(const lb_transform *parent, const lb_transform *local, lb_transform *out);
/* local such that parent * local = model (uniform or axis-aligned scale). */
void lb_transform_inverse_mul(const lb_transform *parent, const lb_transform *model,
                              lb_transform *out);
void lb_transform_point(const lb_transform *xf, const vec3 p, vec3 out);
void lb_transform_to_mat4(const lb_transform *xf, mat4 out); /* column-major */

#ifdef __cplusplus
}
#endif
#endif
