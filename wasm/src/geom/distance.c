/* Point-to-shape signed distance (limber/geom.h); the per-shape formulas are in
 * distance_internal.h, shared with the finger wrap. */
#include "distance_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

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

float lb_shape_closest(const lb_shape *s, const vec3 p, vec3 out_point, vec3 out_normal) {
  if (!s || !out_point || !out_normal) {
    return FLT_MAX;
  }
  float sum = p[0] + p[1] + p[2];
  if (sum - sum != 0.0f) {
    return NAN;
  }
  vec3 d = {p[0] - s->center[0], p[1] - s->center[1], p[2] - s->center[2]};
  vec3 q, lq, ln;
  versor inv = {-s->rotation[0], -s->rotation[1], -s->rotation[2], s->rotation[3]};
  /* A sphere's distance needs no rotation (as lb_shape_distance); its radial fallback
   * axis does, so only the normal is turned below. */
  if (s->type == LB_SHAPE_SPHERE) {
    float dd = lb_shape_closest_local(s->type, s->radius, 0.0f, s->half_extents, d, lq, ln);
    if (d[0] == 0.0f && d[1] == 0.0f && d[2] == 0.0f) {
      vec3 y = {0.0f, 1.0f, 0.0f};
      lb_quat_rotate(s->rotation, y, ln);
    }
    for (int k = 0; k < 3; ++k) {
      out_normal[k] = ln[k];
      out_point[k] = s->center[k] + ln[k] * s->radius;
    }
    return dd;
  }
  lb_quat_rotate(inv, d, q);
  int ax = s->type == LB_SHAPE_BOX ? 0 : (int)s->axis;
  vec3 r = {q[ax], q[(ax + 1) % 3], q[(ax + 2) % 3]};
  if (s->type == LB_SHAPE_BOX) {
    memcpy(r, q, sizeof r);
  }
  float dist =
      lb_shape_closest_local(s->type, s->radius, s->half_height, s->half_extents, r, lq, ln);
  vec3 bq, bn; /* back to the shape's own axis order */
  for (int k = 0; k < 3; ++k) {
    bq[(ax + k) % 3] = lq[k];
    bn[(ax + k) % 3] = ln[k];
  }
  vec3 wq;
  lb_quat_rotate(s->rotation, bq, wq);
  lb_quat_rotate(s->rotation, bn, out_normal);
  for (int k = 0; k < 3; ++k) {
    out_point[k] = s->center[k] + wq[k];
  }
  return dist;
}
