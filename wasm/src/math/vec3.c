/* vec3 helpers for the bone path. cglm's vec3 functions are scalar on every
 * target, but length/normalise live here so that the zero-length policy is one. */
#include "limber/math.h"

float lb_vec3_length(const vec3 v) {
  return lb_sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

float lb_vec3_normalize_to(const vec3 v, vec3 out) {
  float len2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
  if (!(len2 > 1e-20f)) {
    out[0] = out[1] = out[2] = 0.0f;
    return 0.0f;
  }
  float len = lb_sqrt(len2);
  float inv = 1.0f / len;
  out[0] = v[0] * inv;
  out[1] = v[1] * inv;
  out[2] = v[2] * inv;
  return len;
}

void lb_vec3_any_perpendicular(const vec3 v, vec3 out) {
  /* Cross with the world axis least aligned with v: well conditioned, and the
   * choice depends only on v, so it is stable from step to step. */
  float ax = v[0] < 0 ? -v[0] : v[0];
  float ay = v[1] < 0 ? -v[1] : v[1];
  float az = v[2] < 0 ? -v[2] : v[2];
  vec3 c;
  if (ax <= ay && ax <= az) { /* axis X */
    c[0] = 0.0f;
    c[1] = v[2];
    c[2] = -v[1];
  } else if (ay <= az) { /* axis Y */
    c[0] = -v[2];
    c[1] = 0.0f;
    c[2] = v[0];
  } else { /* axis Z */
    c[0] = v[1];
    c[1] = -v[0];
    c[2] = 0.0f;
  }
  if (lb_vec3_normalize_to(c, out) == 0.0f) {
    out[0] = 1.0f;
    out[1] = 0.0f;
    out[2] = 0.0f;
  }
}
