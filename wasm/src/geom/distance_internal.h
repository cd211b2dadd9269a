/* Point-to-shape signed distance on a point already in the shape's own frame (not public):
 * shared by lb_shape_distance and the finger wrap, which moves its points into each shape's
 * frame with one precomputed matrix instead of a quaternion per query.
 *
 * Each shape is reduced to a 2-D or 3-D "rounded box" whose exact signed distance is
 * length(max(q, 0)) + min(max_i q_i, 0) for the per-axis excess q:
 *   box       q = |p| - half_extents                          (3-D)
 *   cylinder  q = (radial distance - radius, |axial| - half)  (2-D: caps and rims included)
 *   capsule   distance to the core segment minus the radius
 *   sphere    distance to the centre minus the radius
 * The outside part is the distance to the nearest face, edge or corner; the inside part the
 * depth below the nearest face, so both sides are exact. A cylinder's length(max(q, 0)) with
 * one positive excess is that excess itself, so only the region beyond its rims pays for a
 * second square root. */
#ifndef LIMBER_GEOM_DISTANCE_INTERNAL_H
#define LIMBER_GEOM_DISTANCE_INTERNAL_H

#include "limber/geom.h"

/* IEEE square root (correctly rounded, like lb_sqrt) without a call per query; x >= 0. */
static inline float lb_geom_sqrt(float x) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_sqrtf(x);
#else
  return lb_sqrt(x);
#endif
}

static inline float lb_geom_max(float a, float b) {
  return a > b ? a : b;
}

static inline float lb_geom_min(float a, float b) {
  return a < b ? a : b;
}

/* |x| with the sign bit cleared (one instruction, unlike a compare and select). */
static inline float lb_geom_abs(float x) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_fabsf(x);
#else
  return x < 0.0f ? -x : x;
#endif
}

/* Signed distance from q, relative to the centre in the shape's own frame with, for a
 * cylinder or capsule, q[0] along the shape's axis (the caller rotates the axis first). */
static inline float lb_shape_distance_local(lb_shape_type type, float radius, float half_height,
                                            const float *half_extents, const float q[3]) {
  if (type == LB_SHAPE_BOX) {
    float x = lb_geom_abs(q[0]) - half_extents[0];
    float y = lb_geom_abs(q[1]) - half_extents[1];
    float z = lb_geom_abs(q[2]) - half_extents[2];
    float ox = lb_geom_max(x, 0.0f), oy = lb_geom_max(y, 0.0f), oz = lb_geom_max(z, 0.0f);
    float inside = lb_geom_min(lb_geom_max(x, lb_geom_max(y, z)), 0.0f);
    return lb_geom_sqrt(ox * ox + oy * oy + oz * oz) + inside;
  }
  float a = q[0], u = q[1], v = q[2];
  if (type == LB_SHAPE_SPHERE) {
    return lb_geom_sqrt(a * a + u * u + v * v) - radius;
  }
  if (type == LB_SHAPE_CAPSULE) {
    float core = half_height - radius;
    float e = a - lb_geom_max(-core, lb_geom_min(a, core));
    return lb_geom_sqrt(u * u + v * v + e * e) - radius;
  }
  float dr = lb_geom_sqrt(u * u + v * v) - radius;
  float da = lb_geom_abs(a) - half_height;
  if (dr > 0.0f && da > 0.0f) {
    return lb_geom_sqrt(dr * dr + da * da); /* beyond the rim */
  }
  return lb_geom_max(dr, da);
}

/* lb_shape_closest_local for a box: outside, the clamped point; inside, the nearest face
 * (ties: the lower axis first). */
static inline float lb_box_closest_local(const float *e, const float q[3], float out_q[3],
                                         float out_n[3]) {
  float x[3] = {lb_geom_abs(q[0]) - e[0], lb_geom_abs(q[1]) - e[1], lb_geom_abs(q[2]) - e[2]};
  if (x[0] > 0.0f || x[1] > 0.0f || x[2] > 0.0f) {
    float d2 = 0.0f;
    for (int k = 0; k < 3; ++k) {
      out_q[k] = q[k] < -e[k] ? -e[k] : (q[k] > e[k] ? e[k] : q[k]);
      out_n[k] = q[k] - out_q[k];
      d2 += out_n[k] * out_n[k];
    }
    float d = lb_geom_sqrt(d2);
    for (int k = 0; k < 3; ++k) {
      out_n[k] = out_n[k] / d;
    }
    return d;
  }
  int k = 0;
  if (x[1] > x[k]) {
    k = 1;
  }
  if (x[2] > x[k]) {
    k = 2;
  }
  for (int j = 0; j < 3; ++j) {
    out_q[j] = q[j];
    out_n[j] = 0.0f;
  }
  out_q[k] = q[k] < 0.0f ? -e[k] : e[k];
  out_n[k] = q[k] < 0.0f ? -1.0f : 1.0f;
  return x[k];
}

/* lb_shape_closest_local for a sphere or capsule: out from the nearest core point. */
static inline float lb_round_closest_local(lb_shape_type type, float radius, float half_height,
                                           const float q[3], float out_q[3], float out_n[3]) {
  float a = q[0], u = q[1], v = q[2];
  float ac = 0.0f; /* axial coordinate of the core point (sphere and capsule) */
  if (type == LB_SHAPE_CAPSULE) {
    float core = half_height - radius;
    ac = lb_geom_max(-core, lb_geom_min(a, core));
  }
  float e = type == LB_SHAPE_SPHERE ? a : a - ac;
  /* The sums of lb_shape_distance_local, term for term. */
  float l = type == LB_SHAPE_SPHERE ? lb_geom_sqrt(a * a + u * u + v * v)
                                    : lb_geom_sqrt(u * u + v * v + e * e);
  float n0 = l > 0.0f ? e / l : 0.0f, n1 = l > 0.0f ? u / l : 1.0f, n2 = l > 0.0f ? v / l : 0.0f;
  out_n[0] = n0;
  out_n[1] = n1;
  out_n[2] = n2;
  out_q[0] = ac + n0 * radius;
  out_q[1] = n1 * radius;
  out_q[2] = n2 * radius;
  return l - radius;
}

/* lb_shape_closest_local for a cylinder: inside, the cap or the side, whichever is nearer
 * (the cap on a tie); outside, the point clamped to the rim, side or cap. */
static inline float lb_cylinder_closest_local(float radius, float half_height, const float q[3],
                                              float out_q[3], float out_n[3]) {
  float a = q[0], u = q[1], v = q[2];
  float rho = lb_geom_sqrt(u * u + v * v);
  float ru = rho > 0.0f ? u / rho : 1.0f, rv = rho > 0.0f ? v / rho : 0.0f;
  float dr = rho - radius;
  float da = lb_geom_abs(a) - half_height;
  float sa = a < 0.0f ? -1.0f : 1.0f;
  if (dr <= 0.0f && da <= 0.0f) {
    if (da >= dr) { /* nearer the cap (or as near) */
      out_q[0] = sa * half_height;
      out_q[1] = u;
      out_q[2] = v;
      out_n[0] = sa;
      out_n[1] = out_n[2] = 0.0f;
      return da;
    }
    out_q[0] = a;
    out_q[1] = ru * radius;
    out_q[2] = rv * radius;
    out_n[0] = 0.0f;
    out_n[1] = ru;
    out_n[2] = rv;
    return dr;
  }
  out_q[0] = da > 0.0f ? sa * half_height : a;
  out_q[1] = dr > 0.0f ? ru * radius : u;
  out_q[2] = dr > 0.0f ? rv * radius : v;
  float w0 = a - out_q[0], w1 = u - out_q[1], w2 = v - out_q[2];
  float d = lb_geom_sqrt(w0 * w0 + w1 * w1 + w2 * w2);
  out_n[0] = w0 / d;
  out_n[1] = w1 / d;
  out_n[2] = w2 / d;
  return d;
}

/* Closest surface point (out_q) and unit normal out of the shape (out_n) for a point q in
 * the same local frame as lb_shape_distance_local; returns the same signed distance. Inside,
 * the nearest face wins (ties: the cap before the side, the lower box axis first); on the
 * axis of a sphere, capsule or cylinder the radial direction is the frame's second axis. */
static inline float lb_shape_closest_local(lb_shape_type type, float radius, float half_height,
                                           const float *half_extents, const float q[3],
                                           float out_q[3], float out_n[3]) {
  if (type == LB_SHAPE_BOX) {
    return lb_box_closest_local(half_extents, q, out_q, out_n);
  }
  if (type == LB_SHAPE_SPHERE || type == LB_SHAPE_CAPSULE) {
    return lb_round_closest_local(type, radius, half_height, q, out_q, out_n);
  }
  return lb_cylinder_closest_local(radius, half_height, q, out_q, out_n);
}

#endif
