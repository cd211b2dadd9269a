/* Shared between the finger pose job and the thumb reach (not public). */
#ifndef LIMBER_FINGER_POSE_INTERNAL_H
#define LIMBER_FINGER_POSE_INTERNAL_H

#include "../math/math_inline.h"
#include "limber/grip_pose.h"

/* out = parent * (local's translation and scale, rotation r). out may alias parent. */
static inline void lb_pose_joint(const lb_transform *parent, const lb_transform *local,
                                 const versor r, lb_transform *out) {
  lb_xf_mul_r(parent, local, r, out);
}

/* Half-angle sines and cosines already computed in this job, by angle in degrees. */
#define LB_TURN_CACHE_MAX 16
typedef struct lb_turn_cache {
  int count;
  float deg[LB_TURN_CACHE_MAX];
  float s[LB_TURN_CACHE_MAX], c[LB_TURN_CACHE_MAX];
} lb_turn_cache;

/* r = axis_angle(axis, deg) * rest, normalised; exactly rest when deg is 0 so an empty
 * pose gives back the rest rotations bit for bit. `cache` (may be NULL) remembers the
 * half-angle sine and cosine per angle. */
void lb_turn_from_rest(lb_turn_cache *cache, const vec3 axis, float deg, const versor rest,
                       versor r);

/* Solves the thumb (see limber/grip_pose.h) after the other fingers of the job were
 * posed: writes its rotations to job->out_local and its positions to job->positions. */
void lb_thumb_reach(lb_finger_pose_job *job);

#endif
