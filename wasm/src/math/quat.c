/* Quaternions (x, y, z, w) written out in scalar form: cglm's versor functions take
 * SSE paths natively, which would change the operation order against wasm. */
#include "limber/math.h"
#include "math_inline.h"

void lb_quat_identity(versor q) {
  q[0] = q[1] = q[2] = 0.0f;
  q[3] = 1.0f;
}

void lb_quat_mul(const versor a, const versor b, versor out) {
  lb_qmul(a, b, out);
}

void lb_quat_conj(const versor q, versor out) {
  out[0] = -q[0];
  out[1] = -q[1];
  out[2] = -q[2];
  out[3] = q[3];
}

void lb_quat_normalize(versor q) {
  lb_qnormalize(q);
}

void lb_quat_rotate(const versor q, const vec3 v, vec3 out) {
  lb_qrot(q, v, out);
}

void lb_quat_from_axis_angle(const vec3 unit_axis, float angle, versor out) {
  float s, c;
  lb_sincos(0.5f * angle, &s, &c);
  out[0] = unit_axis[0] * s;
  out[1] = unit_axis[1] * s;
  out[2] = unit_axis[2] * s;
  out[3] = c;
}

/* (a x b, 1 + a.b) normalised: the shortest rotation, exact for unit inputs when a.b >= 0. */
static void lb_quat_half_way(const vec3 a, const vec3 b, float d, versor out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
  out[3] = 1.0f + d;
  lb_quat_normalize(out);
}

void lb_quat_from_to(const vec3 a, const vec3 b, versor out) {
  float d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  if (d >= 0.0f) {
    lb_quat_half_way(a, b, d, out);
    return;
  }
  /* Far apart, 1 + a.b cancels: near-opposite vectors missed b by up to 1.4e-3 rad. The same
   * rotation in two exact parts: half a turn about the axis k (a x b made perpendicular to a,
   * or a stable perpendicular when a and b are opposite) takes a to -a, then the short, well
   * conditioned arc from -a to b about -k. */
  vec3 c = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  float ca = c[0] * a[0] + c[1] * a[1] + c[2] * a[2];
  vec3 kp = {c[0] - ca * a[0], c[1] - ca * a[1], c[2] - ca * a[2]};
  vec3 k;
  if (lb_vec3_normalize_to(kp, k) == 0.0f) {
    lb_vec3_any_perpendicular(a, k);
  }
  versor half = {k[0], k[1], k[2], 0.0f}, rest;
  vec3 na = {-a[0], -a[1], -a[2]};
  lb_quat_half_way(na, b, -d, rest);
  lb_quat_mul(rest, half, out);
}

void lb_quat_nlerp(const versor a, const versor b, float t, versor out) {
  float d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  float sb = d < 0.0f ? -t : t;
  float sa = 1.0f - t;
  for (int i = 0; i < 4; ++i) {
    out[i] = a[i] * sa + b[i] * sb;
  }
  lb_quat_normalize(out);
}

void lb_quat_slerp(const versor a, const versor b, float t, versor out) {
  /* The end points are returned exactly, so weight 0 or 1 leaves poses bit-equal. */
  if (t <= 0.0f || t >= 1.0f) {
    const float *src = t <= 0.0f ? a : b;
    for (int i = 0; i < 4; ++i) {
      out[i] = src[i];
    }
    return;
  }
  float d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  float sign = 1.0f;
  if (d < 0.0f) {
    d = -d;
    sign = -1.0f;
  }
  if (d > 0.9995f) {
    lb_quat_nlerp(a, b, t, out);
    return;
  }
  float theta = lb_acos(d);
  float inv_sin = 1.0f / lb_sin(theta);
  float wa = lb_sin((1.0f - t) * theta) * inv_sin;
  float wb = lb_sin(t * theta) * inv_sin * sign;
  for (int i = 0; i < 4; ++i) {
    out[i] = a[i] * wa + b[i] * wb;
  }
  lb_quat_normalize(out);
}

float lb_quat_angle(const versor q) {
  float w = q[3] < 0.0f ? -q[3] : q[3];
  float v = lb_sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
  return 2.0f * lb_atan2(v, w);
}

void lb_quat_from_basis(const vec3 x, const vec3 y, const vec3 z, versor q) {
  float m00 = x[0], m01 = y[0], m02 = z[0];
  float m10 = x[1], m11 = y[1], m12 = z[1];
  float m20 = x[2], m21 = y[2], m22 = z[2];
  float trace = m00 + m11 + m22;
  if (trace > 0.0f) {
    float s = lb_sqrt(trace + 1.0f) * 2.0f;
    q[3] = 0.25f * s;
    q[0] = (m21 - m12) / s;
    q[1] = (m02 - m20) / s;
    q[2] = (m10 - m01) / s;
  } else if (m00 > m11 && m00 > m22) {
    float s = lb_sqrt(1.0f + m00 - m11 - m22) * 2.0f;
    q[3] = (m21 - m12) / s;
    q[0] = 0.25f * s;
    q[1] = (m01 + m10) / s;
    q[2] = (m02 + m20) / s;
  } else if (m11 > m22) {
    float s = lb_sqrt(1.0f + m11 - m00 - m22) * 2.0f;
    q[3] = (m02 - m20) / s;
    q[0] = (m01 + m10) / s;
    q[1] = 0.25f * s;
    q[2] = (m12 + m21) / s;
  } else {
    float s = lb_sqrt(1.0f + m22 - m00 - m11) * 2.0f;
    q[3] = (m10 - m01) / s;
    q[0] = (m02 + m20) / s;
    q[1] = (m12 + m21) / s;
    q[2] = 0.25f * s;
  }
  if (q[3] < 0.0f) {
    q[0] = -q[0];
    q[1] = -q[1];
    q[2] = -q[2];
    q[3] = -q[3];
  }
  lb_quat_normalize(q);
}
