/* Thumb reach: the thumb tip goes toward a point on the palm side of the other fingers'
 * posed positions (see limber/grip_pose.h). An aim at the thumb root plus one bend shared
 * by the distal joints; the bend is found by a fixed number of bisection steps, so the
 * work and the result never depend on how close a previous step was. */
#include "finger_pose_internal.h"

#include <string.h>

#define LB_THUMB_BISECT_STEPS 24

typedef struct lb_thumb_chain {
  const lb_hand_rig_finger *rf;
  const lb_transform *local;
  lb_transform parent; /* model transform of the thumb root's parent */
} lb_thumb_chain;

/* Poses the chain with root rotation r0 and the distal joints bent by `deg` from rest;
 * fills rotations, joint positions and the tip; returns the tip. */
static void lb_thumb_fk(const lb_thumb_chain *c, const versor r0, float deg,
                        versor rot[LB_FINGER_MAX_SEGMENTS], vec3 pos[LB_FINGER_MAX_SEGMENTS + 1]) {
  const lb_hand_rig_finger *rf = c->rf;
  lb_transform m = c->parent;
  for (int s = 0; s < rf->segment_count; ++s) {
    if (s == 0) {
      memcpy(rot[0], r0, sizeof(versor));
    } else {
      lb_turn_from_rest(rf->bend_axis[s], deg, rf->rest[s], rot[s]);
    }
    lb_pose_joint(&m, &c->local[rf->joints[s]], rot[s], &m);
    memcpy(pos[s], m.t, sizeof(vec3));
  }
  if (rf->tip >= 0) {
    lb_transform_point(&m, c->local[rf->tip].t, pos[LB_FINGER_MAX_SEGMENTS]);
  } else {
    memcpy(pos[LB_FINGER_MAX_SEGMENTS], m.t, sizeof(vec3));
  }
}

static float lb_dist3(const float *a, const float *b) {
  vec3 d = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return lb_vec3_length(d);
}

static void lb_write(lb_finger_pose_job *job, const versor rot[LB_FINGER_MAX_SEGMENTS],
                     vec3 pos[LB_FINGER_MAX_SEGMENTS + 1]) {
  const lb_hand_rig_finger *rf = &job->rig->fingers[LB_FINGER_THUMB];
  for (int s = 0; s < rf->segment_count; ++s) {
    memcpy(job->out_local[rf->joints[s]].r, rot[s], sizeof(versor));
    memcpy(job->positions[LB_FINGER_THUMB][s], pos[s], sizeof(vec3));
  }
  memcpy(job->positions[LB_FINGER_THUMB][LB_FINGER_MAX_SEGMENTS], pos[LB_FINGER_MAX_SEGMENTS],
         sizeof(vec3));
}

void lb_thumb_reach(lb_finger_pose_job *job) {
  const lb_hand_rig *rig = job->rig;
  const lb_hand_rig_finger *rf = &rig->fingers[LB_FINGER_THUMB];
  if (!rf->found) {
    return;
  }
  lb_thumb_chain c = {rf, job->local, job->model[rf->root_parent]};
  versor rot[LB_FINGER_MAX_SEGMENTS];
  vec3 pos[LB_FINGER_MAX_SEGMENTS + 1];
  lb_thumb_fk(&c, rf->rest[0], 0.0f, rot, pos);

  const lb_grip_thumb_def *th = &job->pose->thumb;
  lb_finger target_finger = th->to == LB_THUMB_TO_INDEX ? LB_FINGER_INDEX : LB_FINGER_MIDDLE;
  const lb_hand_rig_finger *tf = &rig->fingers[target_finger];
  if (th->opposition == 0.0f || !tf->found) {
    lb_write(job, rot, pos); /* rest, exactly */
    return;
  }
  int k = LB_FINGER_MAX_SEGMENTS; /* the tip */
  if (th->to == LB_THUMB_TO_FINGERS && tf->segment_count >= 2) {
    k = 1;
  }
  const float *ref = job->positions[target_finger][k];
  vec3 y;
  vec3 unit_y = {0.0f, 1.0f, 0.0f};
  lb_quat_rotate(job->palm.r, unit_y, y);
  float lift = th->gap * job->index_length;
  const float *rest_tip = pos[LB_FINGER_MAX_SEGMENTS];
  vec3 target;
  for (int a = 0; a < 3; ++a) {
    float goal = ref[a] + lift * y[a];
    target[a] = rest_tip[a] + th->opposition * (goal - rest_tip[a]);
  }

  /* Distance first (the root's rotation does not change it), then the aim. */
  vec3 root;
  memcpy(root, pos[0], sizeof root);
  float want = lb_dist3(target, root);
  float deg = 0.0f;
  if (rf->segment_count >= 2) {
    float straight = lb_dist3(pos[LB_FINGER_MAX_SEGMENTS], root);
    lb_thumb_fk(&c, rf->rest[0], LB_GRIP_THUMB_BEND_MAX_DEG, rot, pos);
    float closed = lb_dist3(pos[LB_FINGER_MAX_SEGMENTS], root);
    if (want >= straight) {
      deg = 0.0f;
    } else if (want <= closed) {
      deg = LB_GRIP_THUMB_BEND_MAX_DEG;
    } else {
      float lo = 0.0f, hi = LB_GRIP_THUMB_BEND_MAX_DEG;
      for (int i = 0; i < LB_THUMB_BISECT_STEPS; ++i) {
        float mid = 0.5f * (lo + hi);
        lb_thumb_fk(&c, rf->rest[0], mid, rot, pos);
        if (lb_dist3(pos[LB_FINGER_MAX_SEGMENTS], root) > want) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      deg = 0.5f * (lo + hi);
    }
  }
  lb_thumb_fk(&c, rf->rest[0], deg, rot, pos);

  /* Aim: the shortest model-space turn taking root→tip onto root→target, carried into
   * the root's local rotation: local = parent^-1 * turn * parent * rest. */
  vec3 from, to, d_from, d_to;
  for (int a = 0; a < 3; ++a) {
    d_from[a] = pos[LB_FINGER_MAX_SEGMENTS][a] - pos[0][a];
    d_to[a] = target[a] - pos[0][a];
  }
  if (lb_vec3_normalize_to(d_from, from) > 0.0f && lb_vec3_normalize_to(d_to, to) > 0.0f) {
    versor turn, pinv, tmp, r0;
    lb_quat_from_to(from, to, turn);
    lb_quat_conj(c.parent.r, pinv);
    lb_quat_mul(turn, c.parent.r, tmp);
    lb_quat_mul(pinv, tmp, r0);
    lb_quat_mul(r0, rf->rest[0], tmp);
    lb_quat_normalize(tmp);
    lb_thumb_fk(&c, tmp, deg, rot, pos);
  }
  lb_write(job, rot, pos);
}
