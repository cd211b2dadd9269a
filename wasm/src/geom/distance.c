/* Point-to-shape signed distance (limber/geom.h).
 *
 * Each shape is reduced to a 2-D or 3-D "rounded box" in its own frame, whose exact signed
 * distance is length(max(q, 0)) + min(max_i q_i, 0) for the per-axis excess q:
 *   box       q = |p| - half_extents                          (3-D)
 *   cylinder  q = (radial distance - radius, |axial| - half)  (2-D: caps and rims included)
 *   capsule   distance to the core segment minus the radius
 *   sphere    distance to the centre minus the radius
 * The outside part is the distance to the nearest face, edge or corner; the inside part
 * the depth below the nearest face, so both sides are exact. */
#include "limber/geom.h"

#include <float.h>
#include <math.h>

static float lb_maxf(float a, float b) {
  return a > b ? a : b;
}

static float lb_minf(float a, float b) {
  return a < b ? a : b;
}

static float lb_absf(float x) {
  return x < 0.0f ? -x : x;
}

/* p in the shape's own frame: rotation^-1 (p - center). */
static void lb_to_local(const lb_shape *s, const vec3 p, vec3 out) {
  vec3 d = {p[0] - s->center[0], p[1] - s->center[1], p[2] - s->center[2]};
  versor inv = {-s->rotation[0], -s->rotation[1], -s->rotation[2], s->rotation[3]};
  lb_quat_rotate(inv, d, out);
}

float lb_shape_distance(const lb_shape *s, const vec3 p) {
  if (!s) {
    return FLT_MAX;
  }
  /* NaN or Inf in p makes the sum's difference NaN: answer NaN, since the clamps below
   * would otherwise swallow it into a plausible number. */
  float sum = p[0] + p[1] + p[2];
  if (sum - sum != 0.0f) {
    return NAN;
  }
  if (s->type == LB_SHAPE_SPHERE) {
    vec3 d = {p[0] - s->center[0], p[1] - s->center[1], p[2] - s->center[2]};
    return lb_sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) - s->radius;
  }
  vec3 q;
  lb_to_local(s, p, q);
  if (s->type == LB_SHAPE_BOX) {
    float x = lb_absf(q[0]) - s->half_extents[0];
    float y = lb_absf(q[1]) - s->half_extents[1];
    float z = lb_absf(q[2]) - s->half_extents[2];
    float ox = lb_maxf(x, 0.0f), oy = lb_maxf(y, 0.0f), oz = lb_maxf(z, 0.0f);
    float outside = lb_sqrt(ox * ox + oy * oy + oz * oz);
    return outside + lb_minf(lb_maxf(x, lb_maxf(y, z)), 0.0f);
  }
  int ax = (int)s->axis;
  float a = q[ax];
  float u = q[(ax + 1) % 3], v = q[(ax + 2) % 3];
  if (s->type == LB_SHAPE_CAPSULE) {
    float core = s->half_height - s->radius;
    float e = a - lb_maxf(-core, lb_minf(a, core));
    return lb_sqrt(u * u + v * v + e * e) - s->radius;
  }
  float dr = lb_sqrt(u * u + v * v) - s->radius;
  float da = lb_absf(a) - s->half_height;
  float or_ = lb_maxf(dr, 0.0f), oa = lb_maxf(da, 0.0f);
  return lb_sqrt(or_ * or_ + oa * oa) + lb_minf(lb_maxf(dr, da), 0.0f);
}
