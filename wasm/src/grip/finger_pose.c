/* The finger pose job: a grip pose's target local rotations for one hand (see
 * limber/grip_pose.h). Fingers first, then the thumb, which reaches for their posed
 * positions. */
#include "../math/simd4.h"
#include "finger_pose_internal.h"
#include "grip_internal.h"

#include <string.h>

lb_finger_pose_job lb_finger_pose_default_job(void) {
  lb_finger_pose_job job;
  memset(&job, 0, sizeof job);
  lb_transform_identity(&job.palm);
  return job;
}

/* Finiteness checks as one sum of lb_f4_zero_terms, far cheaper than a call per value in a
 * job that runs every step. */
static lb_f4 lb_model_zero(lb_f4 acc, const lb_transform *m) {
  acc = lb_f4_zero_terms(acc, lb_f4_load3(m->t));
  acc = lb_f4_zero_terms(acc, lb_f4_load(m->r));
  return lb_f4_zero_terms(acc, lb_f4_load3(m->s));
}

static lb_f4 lb_local_zero(lb_f4 acc, const lb_transform *l) {
  return lb_f4_zero_terms(lb_f4_zero_terms(acc, lb_f4_load3(l->t)), lb_f4_load3(l->s));
}

/* The job's checks; the pose definition's too with `check_def`. */
static lb_result lb_pose_job_check(const lb_finger_pose_job *job, bool check_def) {
  if (!job || !job->rig || !job->pose || !job->local || !job->model || !job->out_local ||
      !job->rig->valid || job->joint_count != job->rig->joint_count || job->rig->hand < 0 ||
      job->rig->hand >= (int)job->joint_count) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!lb_is_finite(job->trigger)) {
    return LB_ERR_NOT_FINITE;
  }
  if (job->trigger < 0.0f || job->trigger > 1.0f) {
    return LB_ERR_OUT_OF_RANGE;
  }
  lb_result r = check_def ? lb_grip_pose_validate(job->pose) : LB_OK;
  if (r != LB_OK) {
    return r;
  }
  const lb_hand_rig *rig = job->rig;
  int n = (int)job->joint_count;
  lb_f4 acc = lb_model_zero(lb_f4_set1(0.0f), &job->model[rig->hand]);
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_hand_rig_finger *rf = &rig->fingers[f];
    if (!rf->found) {
      continue;
    }
    if (rf->root_parent < 0 || rf->root_parent >= n || rf->tip >= n || rf->segment_count < 1 ||
        rf->segment_count > LB_FINGER_MAX_SEGMENTS) {
      return LB_ERR_INVALID_ARGUMENT;
    }
    /* Most roots hang off the hand itself, checked above. */
    if (rf->root_parent != rig->hand) {
      acc = lb_model_zero(acc, &job->model[rf->root_parent]);
    }
    for (int s = 0; s < rf->segment_count; ++s) {
      if (rf->joints[s] < 0 || rf->joints[s] >= n) {
        return LB_ERR_INVALID_ARGUMENT;
      }
      acc = lb_local_zero(acc, &job->local[rf->joints[s]]);
    }
    if (rf->tip >= 0) {
      acc = lb_local_zero(acc, &job->local[rf->tip]);
    }
  }
  return lb_f4_zero_terms_failed(acc) ? LB_ERR_NOT_FINITE : LB_OK;
}

lb_result lb_finger_pose_job_validate(const lb_finger_pose_job *job) {
  return lb_pose_job_check(job, true);
}

/* The sine and cosine of half of deg degrees, computed once per distinct angle in a job:
 * poses repeat angles across fingers (a fist bends every finger alike). Same value, same
 * bits as lb_quat_from_axis_angle(axis, deg * LB_DEG2RAD). */
static void lb_half_turn(lb_turn_cache *cache, float deg, float *s, float *c) {
  if (cache) {
    for (int i = 0; i < cache->count; ++i) {
      if (cache->deg[i] == deg) {
        *s = cache->s[i];
        *c = cache->c[i];
        return;
      }
    }
  }
  lb_sincos(0.5f * (deg * LB_DEG2RAD), s, c);
  if (cache && cache->count < LB_TURN_CACHE_MAX) {
    cache->deg[cache->count] = deg;
    cache->s[cache->count] = *s;
    cache->c[cache->count] = *c;
    cache->count++;
  }
}

void lb_turn_from_rest(lb_turn_cache *cache, const vec3 axis, float deg, const versor rest,
                       versor r) {
  if (deg == 0.0f) {
    memcpy(r, rest, sizeof(versor));
    return;
  }
  float s, c;
  lb_half_turn(cache, deg, &s, &c);
  versor q = {axis[0] * s, axis[1] * s, axis[2] * s, c};
  lb_qmul(q, rest, r);
  lb_qnormalize(r);
}

/* Finger f's rotations, and with `place` its model positions (none of the rotations depend
 * on them). */
static void lb_pose_finger(lb_finger_pose_job *job, lb_finger f, lb_turn_cache *cache, bool place) {
  const lb_hand_rig_finger *rf = &job->rig->fingers[f];
  float bend[3], fan;
  lb_grip_pose_finger_angles(job->pose, f, job->trigger, bend, &fan);
  lb_transform parent = job->model[rf->root_parent];
  for (int s = 0; s < rf->segment_count; ++s) {
    int j = rf->joints[s];
    versor r;
    lb_turn_from_rest(cache, rf->bend_axis[s], bend[s], rf->rest[s], r);
    if (s == 0 && fan != 0.0f) {
      /* Fan after bend, both in the parent frame: the curled finger turns as a whole. */
      versor bent;
      memcpy(bent, r, sizeof bent);
      lb_turn_from_rest(cache, rf->fan_axis, fan, bent, r);
    }
    memcpy(job->out_local[j].r, r, sizeof r);
    if (place) {
      lb_pose_joint(&parent, &job->local[j], r, &parent);
      memcpy(job->positions[f][s], parent.t, sizeof(vec3));
    }
  }
  if (!place) {
    return;
  }
  if (rf->tip >= 0) {
    lb_xf_point(&parent, job->local[rf->tip].t, job->positions[f][LB_FINGER_MAX_SEGMENTS]);
  } else if (rf->tip_estimated) {
    lb_xf_point(&parent, rf->tip_local, job->positions[f][LB_FINGER_MAX_SEGMENTS]);
  } else {
    memcpy(job->positions[f][LB_FINGER_MAX_SEGMENTS], parent.t, sizeof(vec3));
  }
}

/* The pose, fingers then thumb, positions of the fingers in place_mask (bit per finger). */
static void lb_pose_solve(lb_finger_pose_job *job, uint32_t place_mask) {
  const lb_hand_rig *rig = job->rig;
  const lb_transform *hand = &job->model[rig->hand];
  lb_transform_mul(hand, &rig->palm, &job->palm);
  job->palm.s[0] = job->palm.s[1] = job->palm.s[2] = 1.0f;
  lb_quat_normalize(job->palm.r);
  float scale = hand->s[0] < 0.0f ? -hand->s[0] : hand->s[0];
  job->index_length = rig->index_length * scale;
  memset(job->positions, 0, sizeof job->positions);
  lb_turn_cache cache;
  cache.count = 0;
  for (int f = LB_FINGER_INDEX; f < LB_FINGER_COUNT; ++f) {
    if (rig->fingers[f].found) {
      lb_pose_finger(job, (lb_finger)f, &cache, (place_mask >> f) & 1u);
    }
  }
  lb_thumb_reach(job);
}

lb_result lb_finger_pose_job_run(lb_finger_pose_job *job) {
  lb_result r = lb_finger_pose_job_validate(job);
  if (r == LB_OK) {
    lb_pose_solve(job, ~0u);
  }
  return r;
}

lb_result lb_finger_pose_job_run_registered(lb_finger_pose_job *job) {
  lb_result r = lb_pose_job_check(job, false);
  if (r == LB_OK) {
    lb_finger target =
        job->pose->thumb.to == LB_THUMB_TO_INDEX ? LB_FINGER_INDEX : LB_FINGER_MIDDLE;
    lb_pose_solve(job, 1u << target);
  }
  return r;
}
