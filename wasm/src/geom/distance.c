/* Point-to-shape signed distance (limber/geom.h); the per-shape formulas are in
 * distance_internal.h, shared with the finger wrap. */
#include "distance_internal.h"

#include <float.h>
#include <math.h>

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
  vec3 d = {p[0] - s->center[0], p[1] - s->center[1], p[2] - s->center[2]};
  vec3 q;
  if (s->type == LB_SHAPE_SPHERE) {
    return lb_shape_distance_local(s->type, s->radius, 0.0f, s->half_extents, d);
  }
  /* p in the shape's own frame: rotation^-1 (p - center), axis coordinate first. */
  versor inv = {-s->rotation[0], -s->rotation[1], -s->rotation[2], s->rotation[3]};
  lb_quat_rotate(inv, d, q);
  if (s->type != LB_SHAPE_BOX) {
    int ax = (int)s->axis;
    vec3 r = {q[ax], q[(ax + 1) % 3], q[(ax + 2) % 3]};
    return lb_shape_distance_local(s->type, s->radius, s->half_height, s->half_extents, r);
  }
  return lb_shape_distance_local(s->type, s->radius, s->half_height, s->half_extents, q);
}
