/* Quaternion and transform operations on one value per lb_f4 (x, y, z, w lanes), with the
 * exact operations of math_inline.h's scalar ones in their order (bit-identical): each lane
 * sums its own products left to right, and a subtraction is the addition of a negated
 * product (exact in IEEE arithmetic). */
#ifndef LB_MATH_SIMD4_XF_H
#define LB_MATH_SIMD4_XF_H

#include "limber/math.h"
#include "math_inline.h"
#include "simd4.h"

#include <stddef.h>

/* The constants of lb_f4_qmul_k and lb_f4_xf_mul_k: lb_f4_xf_constants() before a loop. */
typedef struct lb_f4_xf_k {
  lb_f4 s2, s3, s4; /* lb_f4_qmul's sign flips */
  lb_f4 xyz;        /* all bits set in lanes x, y, z: and-ing clears the padding lane */
} lb_f4_xf_k;

/* The constants as constants: for one operation outside a loop. */
LB_F4_INLINE lb_f4_xf_k lb_f4_xf_constants_once(void) {
  lb_f4_xf_k k;
  k.s2 = lb_f4_set(0.0f, -0.0f, 0.0f, -0.0f);
  k.s3 = lb_f4_set(0.0f, 0.0f, -0.0f, -0.0f);
  k.s4 = lb_f4_set(-0.0f, 0.0f, 0.0f, -0.0f);
  k.xyz = lb_f4_gt(lb_f4_set(1.0f, 1.0f, 1.0f, 0.0f), lb_f4_set1(0.0f));
  return k;
}

/* The constants held (LB_F4_HOLD) for a loop: made once per call, not at every use. */
LB_F4_INLINE lb_f4_xf_k lb_f4_xf_constants(void) {
  lb_f4_xf_k k = lb_f4_xf_constants_once();
  LB_F4_HOLD(k.s2);
  LB_F4_HOLD(k.s3);
  LB_F4_HOLD(k.s4);
  LB_F4_HOLD(k.xyz);
  return k;
}

/* a * b, as lb_qmul. */
LB_F4_INLINE lb_f4 lb_f4_qmul_k(lb_f4 a, lb_f4 b, const lb_f4_xf_k *k) {
  lb_f4 t1 = lb_f4_mul(LB_F4_SHUFFLE(a, 3, 3, 3, 3), b);
  lb_f4 t2 =
      lb_f4_mul(LB_F4_SHUFFLE(a, 0, 0, 0, 0), lb_f4_xor(LB_F4_SHUFFLE(b, 3, 2, 1, 0), k->s2));
  lb_f4 t3 =
      lb_f4_mul(LB_F4_SHUFFLE(a, 1, 1, 1, 1), lb_f4_xor(LB_F4_SHUFFLE(b, 2, 3, 0, 1), k->s3));
  lb_f4 t4 =
      lb_f4_mul(LB_F4_SHUFFLE(a, 2, 2, 2, 2), lb_f4_xor(LB_F4_SHUFFLE(b, 1, 0, 3, 2), k->s4));
  return lb_f4_add(lb_f4_add(lb_f4_add(t1, t2), t3), t4);
}

/* lb_f4_qmul_k outside loops. */
LB_F4_INLINE lb_f4 lb_f4_qmul(lb_f4 a, lb_f4 b) {
  lb_f4_xf_k k = lb_f4_xf_constants_once();
  return lb_f4_qmul_k(a, b, &k);
}

/* lb_qnormalize on four quaternions held one component per register (lane l = quaternion
 * l): q / sqrt(|q|^2), or (0, 0, 0, 1) where |q|^2 <= 1e-30. */
LB_F4_INLINE void lb_f4_qnormalize4(lb_f4 *q) {
  lb_f4 n2 = lb_f4_add(
      lb_f4_add(lb_f4_add(lb_f4_mul(q[0], q[0]), lb_f4_mul(q[1], q[1])), lb_f4_mul(q[2], q[2])),
      lb_f4_mul(q[3], q[3]));
  lb_f4 ok = lb_f4_gt(n2, lb_f4_set1(1e-30f));
  lb_f4 inv = lb_f4_div(lb_f4_set1(1.0f), lb_f4_sqrt(n2));
  for (int c = 0; c < 4; ++c) {
    q[c] = lb_f4_mul(q[c], inv);
  }
  if (lb_f4_mask_bits(ok) != 15) { /* rare: skip the selects when every lane is fine */
    const lb_f4 zero = lb_f4_set1(0.0f);
    q[0] = lb_f4_select(ok, q[0], zero);
    q[1] = lb_f4_select(ok, q[1], zero);
    q[2] = lb_f4_select(ok, q[2], zero);
    q[3] = lb_f4_select(ok, q[3], lb_f4_set1(1.0f));
  }
}

/* u x v on lanes x, y, z (lane w: whatever). */
LB_F4_INLINE lb_f4 lb_f4_cross(lb_f4 u, lb_f4 v) {
  return lb_f4_sub(lb_f4_mul(LB_F4_SHUFFLE(u, 1, 2, 0, 3), LB_F4_SHUFFLE(v, 2, 0, 1, 3)),
                   lb_f4_mul(LB_F4_SHUFFLE(u, 2, 0, 1, 3), LB_F4_SHUFFLE(v, 1, 2, 0, 3)));
}

/* base + q v q^-1, as lb_qrot_add. */
LB_F4_INLINE lb_f4 lb_f4_qrot_add(lb_f4 q, lb_f4 v, lb_f4 base) {
  lb_f4 t = lb_f4_mul(lb_f4_set1(2.0f), lb_f4_cross(q, v));
  lb_f4 r = lb_f4_add(lb_f4_add(v, lb_f4_mul(LB_F4_SHUFFLE(q, 3, 3, 3, 3), t)), lb_f4_cross(q, t));
  return lb_f4_add(base, r);
}

/* Translation and scale are each four floats (vec3 + padding) in a 48-byte transform: then
 * they load and store as whole lanes, the padding lane masked to 0. */
#define LB_F4_XF_LANES (sizeof(lb_transform) == 48u && offsetof(lb_transform, s) == 32u)

/* On the portable lanes one transform's operations would also run the padding lane and mask
 * it with integer round trips: there the transform product and the matrices below take
 * math_inline.h's scalar forms, the same operations (scalar wasm anim.stage.model 16,881 ->
 * 12,059 instructions per character). */
#if defined(LB_SIMD4_WASM) || defined(LB_SIMD4_SSE2)
#define LB_F4_XF_VECTOR 1
#endif

/* out = parent * local, as lb_xf_mul_r(parent, local, local->r, out). out may alias local.
 * The vector builds write the translation as four floats: the fourth lands in the padding (0). */
LB_F4_INLINE void lb_f4_xf_mul_k(const lb_transform *parent, const lb_transform *local,
                                 lb_transform *out, const lb_f4_xf_k *k) {
#if !defined(LB_F4_XF_VECTOR)
  (void)k;
  lb_xf_mul_r(parent, local, local->r, out);
#else
  lb_f4 p = lb_f4_load(parent->r);
  if (LB_F4_XF_LANES) {
    /* and-ing with xyz is the select of 0 in the padding lane, in one operation */
    lb_f4 ps = lb_f4_load(parent->s);
    lb_f4 st = lb_f4_and(lb_f4_mul(ps, lb_f4_load(local->t)), k->xyz);
    lb_f4 t = lb_f4_qrot_add(p, st, lb_f4_and(lb_f4_load(parent->t), k->xyz));
    lb_f4 q = lb_f4_qmul_k(p, lb_f4_load(local->r), k);
    lb_f4 sc = lb_f4_and(lb_f4_mul(ps, lb_f4_load(local->s)), k->xyz);
    lb_f4_store(out->t, t);
    lb_f4_store(out->r, q);
    lb_f4_store(out->s, sc);
    return;
  }
  lb_f4 st = lb_f4_set(parent->s[0] * local->t[0], parent->s[1] * local->t[1],
                       parent->s[2] * local->t[2], 0.0f);
  lb_f4 t = lb_f4_qrot_add(p, st, lb_f4_set(parent->t[0], parent->t[1], parent->t[2], 0.0f));
  lb_f4 q = lb_f4_qmul_k(p, lb_f4_load(local->r), k);
  float s0 = parent->s[0] * local->s[0], s1 = parent->s[1] * local->s[1],
        s2 = parent->s[2] * local->s[2];
  lb_f4_store(out->t, t);
  lb_f4_store(out->r, q);
  out->s[0] = s0;
  out->s[1] = s1;
  out->s[2] = s2;
#endif
}

/* The column-major 4x4 of a transform, as lb_transform_to_mat4. */
LB_F4_INLINE void lb_f4_xf_matrix(const lb_transform *xf, float *m) {
#if !defined(LB_F4_XF_VECTOR)
  lb_xf_matrix(xf, m);
#else
  float x = xf->r[0], y = xf->r[1], z = xf->r[2], w = xf->r[3];
  float xx = x * x, yy = y * y, zz = z * z;
  float xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
  const lb_f4 two = lb_f4_set1(2.0f);
  /* column c: lane c is 1 - 2 (..), the others 2 (..); lane 3 is 0 */
  lb_f4 c0 = lb_f4_mul(two, lb_f4_add(lb_f4_set(yy, xy, xz, 0.0f), lb_f4_set(zz, wz, -wy, 0.0f)));
  lb_f4 c1 = lb_f4_mul(two, lb_f4_add(lb_f4_set(xy, xx, yz, 0.0f), lb_f4_set(-wz, zz, wx, 0.0f)));
  lb_f4 c2 = lb_f4_mul(two, lb_f4_add(lb_f4_set(xz, yz, xx, 0.0f), lb_f4_set(wy, -wx, yy, 0.0f)));
  const lb_f4 d0 = lb_f4_set(-0.0f, 0.0f, 0.0f, 0.0f), d1 = lb_f4_set(0.0f, -0.0f, 0.0f, 0.0f),
              d2 = lb_f4_set(0.0f, 0.0f, -0.0f, 0.0f);
  const lb_f4 e0 = lb_f4_set(1.0f, 0.0f, 0.0f, 0.0f), e1 = lb_f4_set(0.0f, 1.0f, 0.0f, 0.0f),
              e2 = lb_f4_set(0.0f, 0.0f, 1.0f, 0.0f);
  /* The diagonal lane becomes 1 - v = 1 + (-v); the others keep v (adding 0 would turn a
   * -0 into +0). */
  c0 = lb_f4_select(lb_f4_gt(e0, lb_f4_set1(0.0f)), lb_f4_add(e0, lb_f4_xor(c0, d0)), c0);
  c1 = lb_f4_select(lb_f4_gt(e1, lb_f4_set1(0.0f)), lb_f4_add(e1, lb_f4_xor(c1, d1)), c1);
  c2 = lb_f4_select(lb_f4_gt(e2, lb_f4_set1(0.0f)), lb_f4_add(e2, lb_f4_xor(c2, d2)), c2);
  lb_f4_store(m, lb_f4_mul(c0, lb_f4_set(xf->s[0], xf->s[0], xf->s[0], 0.0f)));
  lb_f4_store(m + 4, lb_f4_mul(c1, lb_f4_set(xf->s[1], xf->s[1], xf->s[1], 0.0f)));
  lb_f4_store(m + 8, lb_f4_mul(c2, lb_f4_set(xf->s[2], xf->s[2], xf->s[2], 0.0f)));
  lb_f4_store(m + 12, lb_f4_set(xf->t[0], xf->t[1], xf->t[2], 1.0f));
#endif
}

/* lb_f4_xf_matrix for four transforms (x[0], x[stride], ...), the products four joints
 * per operation; `m` receives 4 column-major matrices of 16 floats, 16 floats apart. Each
 * lane runs lb_transform_to_mat4's operations in its order. */
LB_F4_INLINE void lb_f4_xf_matrix4(const lb_transform *x, float *m) {
#if !defined(LB_F4_XF_VECTOR)
  for (int k = 0; k < 4; ++k) {
    lb_xf_matrix(&x[k], m + 16 * k);
  }
#else
  lb_f4 qx = lb_f4_load(x[0].r), qy = lb_f4_load(x[1].r), qz = lb_f4_load(x[2].r),
        qw = lb_f4_load(x[3].r);
  lb_f4_transpose(&qx, &qy, &qz, &qw);
  lb_f4 xx = lb_f4_mul(qx, qx), yy = lb_f4_mul(qy, qy), zz = lb_f4_mul(qz, qz);
  lb_f4 xy = lb_f4_mul(qx, qy), xz = lb_f4_mul(qx, qz), yz = lb_f4_mul(qy, qz);
  lb_f4 wx = lb_f4_mul(qw, qx), wy = lb_f4_mul(qw, qy), wz = lb_f4_mul(qw, qz);
  const lb_f4 one = lb_f4_set1(1.0f), two = lb_f4_set1(2.0f), zero = lb_f4_set1(0.0f);
  lb_f4 s0, s1, s2;
  if (LB_F4_XF_LANES) {
    lb_f4 pad = lb_f4_load(x[3].s);
    s0 = lb_f4_load(x[0].s);
    s1 = lb_f4_load(x[1].s);
    s2 = lb_f4_load(x[2].s);
    lb_f4_transpose(&s0, &s1, &s2, &pad);
  } else {
    s0 = lb_f4_set(x[0].s[0], x[1].s[0], x[2].s[0], x[3].s[0]);
    s1 = lb_f4_set(x[0].s[1], x[1].s[1], x[2].s[1], x[3].s[1]);
    s2 = lb_f4_set(x[0].s[2], x[1].s[2], x[2].s[2], x[3].s[2]);
  }
  /* column 0 */
  lb_f4 a = lb_f4_mul(lb_f4_sub(one, lb_f4_mul(two, lb_f4_add(yy, zz))), s0);
  lb_f4 b = lb_f4_mul(lb_f4_mul(two, lb_f4_add(xy, wz)), s0);
  lb_f4 c = lb_f4_mul(lb_f4_mul(two, lb_f4_sub(xz, wy)), s0);
  lb_f4 d = zero;
  lb_f4_transpose(&a, &b, &c, &d);
  lb_f4_store(m, a);
  lb_f4_store(m + 16, b);
  lb_f4_store(m + 32, c);
  lb_f4_store(m + 48, d);
  /* column 1 */
  a = lb_f4_mul(lb_f4_mul(two, lb_f4_sub(xy, wz)), s1);
  b = lb_f4_mul(lb_f4_sub(one, lb_f4_mul(two, lb_f4_add(xx, zz))), s1);
  c = lb_f4_mul(lb_f4_mul(two, lb_f4_add(yz, wx)), s1);
  d = zero;
  lb_f4_transpose(&a, &b, &c, &d);
  lb_f4_store(m + 4, a);
  lb_f4_store(m + 20, b);
  lb_f4_store(m + 36, c);
  lb_f4_store(m + 52, d);
  /* column 2 */
  a = lb_f4_mul(lb_f4_mul(two, lb_f4_add(xz, wy)), s2);
  b = lb_f4_mul(lb_f4_mul(two, lb_f4_sub(yz, wx)), s2);
  c = lb_f4_mul(lb_f4_sub(one, lb_f4_mul(two, lb_f4_add(xx, yy))), s2);
  d = zero;
  lb_f4_transpose(&a, &b, &c, &d);
  lb_f4_store(m + 8, a);
  lb_f4_store(m + 24, b);
  lb_f4_store(m + 40, c);
  lb_f4_store(m + 56, d);
  /* column 3: translation, 1 */
  const lb_f4 xyz = lb_f4_gt(lb_f4_set(1.0f, 1.0f, 1.0f, 0.0f), zero);
  for (int k = 0; k < 4; ++k) {
    lb_f4 t =
        LB_F4_XF_LANES ? lb_f4_load(x[k].t) : lb_f4_set(x[k].t[0], x[k].t[1], x[k].t[2], 0.0f);
    lb_f4_store(m + 16 * k + 12, lb_f4_select(xyz, t, one));
  }
#endif
}

#endif
