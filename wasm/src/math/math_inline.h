/* The bodies of the hot quaternion and transform helpers of limber/math.h, inline (not
 * public). math/quat.c and math/transform.c are defined through these, so there is one
 * implementation; inner loops (grip pose, wrap) include this header to save the call, which
 * neither gcc nor emcc inline across translation units here. Same operations, same bits. */
#ifndef LIMBER_MATH_INLINE_H
#define LIMBER_MATH_INLINE_H

#include "../base/bytes.h"
#include "limber/math.h"

/* out = a * b: lb_quat_mul. out may alias a or b. */
static inline void lb_qmul(const float *a, const float *b, float *out) {
  float x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
  float y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
  float z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
  float w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
  out[0] = x;
  out[1] = y;
  out[2] = z;
  out[3] = w;
}

/* out = q v q^-1 (unit q): lb_quat_rotate. v' = v + 2w (u x v) + 2 u x (u x v), with u
 * the vector part. out may alias v. */
static inline void lb_qrot(const float *q, const float *v, float *out) {
  float ux = q[0], uy = q[1], uz = q[2], w = q[3];
  float tx = 2.0f * (uy * v[2] - uz * v[1]);
  float ty = 2.0f * (uz * v[0] - ux * v[2]);
  float tz = 2.0f * (ux * v[1] - uy * v[0]);
  float rx = v[0] + w * tx + (uy * tz - uz * ty);
  float ry = v[1] + w * ty + (uz * tx - ux * tz);
  float rz = v[2] + w * tz + (ux * ty - uy * tx);
  out[0] = rx;
  out[1] = ry;
  out[2] = rz;
}

/* out = base + q v q^-1: the rotation, then the addition of lb_transform_mul and
 * lb_transform_point. out may alias v or base. */
static inline void lb_qrot_add(const float *q, const float *v, const float *base, float *out) {
  float r[3];
  lb_qrot(q, v, r);
  out[0] = base[0] + r[0];
  out[1] = base[1] + r[1];
  out[2] = base[2] + r[2];
}

/* lb_quat_normalize (a zero quaternion becomes the identity). */
static inline void lb_qnormalize(float *q) {
  float n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (!(n2 > 1e-30f)) {
    q[0] = q[1] = q[2] = 0.0f;
    q[3] = 1.0f;
    return;
  }
#if defined(__GNUC__) || defined(__clang__)
  float inv = 1.0f / __builtin_sqrtf(n2); /* n2 > 0: the IEEE root, as lb_sqrt */
#else
  float inv = 1.0f / lb_sqrt(n2);
#endif
  q[0] *= inv;
  q[1] *= inv;
  q[2] *= inv;
  q[3] *= inv;
}

/* Whether two transforms hold the same bits in t, r and s. Not the struct's bytes: the
 * padding after t and s (the rotation is 16-byte aligned) is whatever a copy left there. */
static inline bool lb_xf_same_bits(const lb_transform *a, const lb_transform *b) {
  return lb_same_bytes(a->t, b->t, sizeof(vec3)) && lb_same_bytes(a->r, b->r, sizeof(versor)) &&
         lb_same_bytes(a->s, b->s, sizeof(vec3));
}

/* out = parent * local with local's rotation replaced by r: lb_transform_mul. out may alias
 * parent or local. One output field at a time (rotation, scale, translation), each input read
 * before its field of out is written: fewer values live at once than all loads first (the
 * scalar wasm build spilled a third of them), and no store can change a later load. */
static inline void lb_xf_mul_r(const lb_transform *parent, const lb_transform *local,
                               const float *r, lb_transform *out) {
  float pr[4] = {parent->r[0], parent->r[1], parent->r[2], parent->r[3]};
  versor q;
  lb_qmul(pr, r, q);
  out->r[0] = q[0];
  out->r[1] = q[1];
  out->r[2] = q[2];
  out->r[3] = q[3];
  float ps0 = parent->s[0], ps1 = parent->s[1], ps2 = parent->s[2];
  float s0 = ps0 * local->s[0], s1 = ps1 * local->s[1], s2 = ps2 * local->s[2];
  out->s[0] = s0;
  out->s[1] = s1;
  out->s[2] = s2;
  vec3 st = {ps0 * local->t[0], ps1 * local->t[1], ps2 * local->t[2]};
  vec3 t;
  lb_qrot_add(pr, st, parent->t, t);
  out->t[0] = t[0];
  out->t[1] = t[1];
  out->t[2] = t[2];
}

/* The column-major 4x4 of xf into m[16]: lb_transform_to_mat4. */
static inline void lb_xf_matrix(const lb_transform *xf, float *m) {
  /* every input read before the first store: m may alias xf as far as the compiler knows */
  float x = xf->r[0], y = xf->r[1], z = xf->r[2], w = xf->r[3];
  float s0 = xf->s[0], s1 = xf->s[1], s2 = xf->s[2], t0 = xf->t[0], t1 = xf->t[1], t2 = xf->t[2];
  float xx = x * x, yy = y * y, zz = z * z;
  float xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
  m[0] = (1.0f - 2.0f * (yy + zz)) * s0;
  m[1] = 2.0f * (xy + wz) * s0;
  m[2] = 2.0f * (xz - wy) * s0;
  m[3] = 0.0f;
  m[4] = 2.0f * (xy - wz) * s1;
  m[5] = (1.0f - 2.0f * (xx + zz)) * s1;
  m[6] = 2.0f * (yz + wx) * s1;
  m[7] = 0.0f;
  m[8] = 2.0f * (xz + wy) * s2;
  m[9] = 2.0f * (yz - wx) * s2;
  m[10] = (1.0f - 2.0f * (xx + yy)) * s2;
  m[11] = 0.0f;
  m[12] = t0;
  m[13] = t1;
  m[14] = t2;
  m[15] = 1.0f;
}

/* out = xf applied to p: lb_transform_point. */
static inline void lb_xf_point(const lb_transform *xf, const float *p, float *out) {
  vec3 sp = {xf->s[0] * p[0], xf->s[1] * p[1], xf->s[2] * p[2]};
  lb_qrot_add(xf->r, sp, xf->t, out);
}

#endif
