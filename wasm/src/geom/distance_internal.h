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

#endif
