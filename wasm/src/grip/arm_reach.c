/* Arms: the palm centre onto an anchor with two-bone IK (elbow keeps its animated side,
 * wrist turns to the anchor), plus the optional shoulder assist (clavicle and spine close part of
 * an out-of-reach gap). */
#include "grip_internal.h"
#include <string.h>

/* Largest turns the assist may give, so a far anchor never folds the torso. */
#define LB_ASSIST_CLAVICLE_MAX (20.0f * LB_DEG2RAD)
#define LB_ASSIST_SPINE_MAX (15.0f * LB_DEG2RAD)

void lb_grip_palm_model(const lb_grip_hand *h, const lb_rig_instance *inst, lb_transform *out) {
  lb_transform_mul(&inst->model[h->def->info.hand], &h->def->palm_in_hand, out);
  out->s[0] = out->s[1] = out->s[2] = 1.0f;
}

/* Where the hand joint must be for its palm to sit on the anchor. */
static void lb_hand_target(const lb_grip_hand *h, const lb_rig_instance *inst,
                           const lb_transform *anchor, lb_transform *out) {
  const lb_transform *hand = &inst->model[h->def->info.hand];
  versor palm_inv;
  lb_quat_conj(h->def->palm_in_hand.r, palm_inv);
  lb_quat_mul(anchor->r, palm_inv, out->r);
  lb_quat_normalize(out->r);
  vec3 off = {hand->s[0] * h->def->palm_in_hand.t[0], hand->s[1] * h->def->palm_in_hand.t[1],
              hand->s[2] * h->def->palm_in_hand.t[2]};
  vec3 rotated;
  lb_quat_rotate(out->r, off, rotated);
  for (int i = 0; i < 3; ++i) {
    out->t[i] = anchor->t[i] - rotated[i];
    out->s[i] = hand->s[i];
  }
}

/* Turns `joint` about its own position so that `point` (a model position below it) moves
 * up to `move` metres toward `goal`, at most `max_angle` radians. */
static void lb_turn_toward(const lb_skeleton *sk, lb_rig_instance *inst, int joint,
                           const vec3 point, const vec3 goal, float move, float max_angle) {
  const float *pivot = inst->model[joint].t;
  vec3 to_goal = {goal[0] - point[0], goal[1] - point[1], goal[2] - point[2]};
  vec3 dir, from, to;
  if (lb_vec3_normalize_to(to_goal, dir) < 1e-6f) {
    return;
  }
  vec3 arm = {point[0] - pivot[0], point[1] - pivot[1], point[2] - pivot[2]};
  vec3 moved = {arm[0] + dir[0] * move, arm[1] + dir[1] * move, arm[2] + dir[2] * move};
  if (lb_vec3_normalize_to(arm, from) < 1e-6f || lb_vec3_normalize_to(moved, to) < 1e-6f) {
    return;
  }
  versor q, id, turn, r;
  lb_quat_from_to(from, to, q);
  float angle = lb_quat_angle(q);
  if (angle > max_angle) {
    lb_quat_identity(id);
    lb_quat_slerp(id, q, max_angle / angle, turn);
  } else {
    memcpy(turn, q, sizeof turn);
  }
  lb_quat_mul(turn, inst->model[joint].r, r);
  lb_quat_normalize(r);
  lb_apply_rotation(inst, sk, joint, r);
  lb_rig_local_to_model(sk, inst, (uint32_t)joint, sk->subtree_end[joint]);
}

static float lb_gap(const lb_grip_hand *h, const lb_rig_instance *inst, const vec3 target) {
  const float *sh = inst->model[h->def->upper].t;
  vec3 d = {target[0] - sh[0], target[1] - sh[1], target[2] - sh[2]};
  return lb_vec3_length(d) - h->arm_length;
}

/* Whether every finger hangs off the hand joint itself (no palm bones): then only the hand's
 * model transform is read before the Grip phase's fingers part refreshes the hand's subtree. */
static bool lb_fingers_off_hand(const lb_grip_hand *h) {
  const lb_hand_rig *rig = &h->def->rig;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    if (rig->fingers[f].found && rig->fingers[f].root_parent != h->def->info.hand) {
      return false;
    }
  }
  return true;
}

/* lb_rig_commit_two_bone; with `skip_fingers`, the last refresh leaves out the joints below
 * the hand (the Grip phase's fingers part refreshes them after posing them). */
static void lb_arm_commit(const lb_skeleton *sk, lb_rig_instance *inst, const lb_grip_hand *h,
                          const lb_two_bone_ik_job *job, bool skip_fingers) {
  int root = h->def->upper, mid = h->def->lower, tip = h->def->info.hand;
  if (!skip_fingers) {
    lb_rig_commit_two_bone(sk, inst, root, mid, tip, job);
    return;
  }
  lb_rig_set_two_bone(sk, inst, root, mid, tip, job);
  /* Depth-first: the hand's descendants are [tip + 1, subtree_end[tip]). */
  lb_rig_local_to_model(sk, inst, (uint32_t)root, (uint32_t)tip + 1u);
  lb_rig_local_to_model(sk, inst, sk->subtree_end[tip], sk->subtree_end[root]);
}

static void lb_arm_reach(const lb_skeleton *sk, lb_rig_instance *inst, const lb_grip_hand *h,
                         const lb_transform *anchor_model, float weight, float assist,
                         bool lean_spine, bool skip_fingers) {
  if (weight <= 0.0f || h->def->upper < 0 || h->def->lower < 0) {
    return;
  }
  lb_transform target;
  lb_hand_target(h, inst, anchor_model, &target);
  if (assist > 0.0f) {
    /* The remaining gap after each joint decides the next one's share. */
    const int16_t joints[2] = {h->def->clavicle, lean_spine ? h->def->spine : (int16_t)-1};
    const float limits[2] = {LB_ASSIST_CLAVICLE_MAX, LB_ASSIST_SPINE_MAX};
    float wanted = assist * weight * lb_gap(h, inst, target.t);
    for (int k = 0; k < 2 && wanted > 1e-5f; ++k) {
      if (joints[k] < 0) {
        continue;
      }
      float before = lb_gap(h, inst, target.t);
      vec3 shoulder;
      memcpy(shoulder, inst->model[h->def->upper].t, sizeof shoulder);
      lb_turn_toward(sk, inst, joints[k], shoulder, target.t, wanted, limits[k] * weight);
      wanted -= before - lb_gap(h, inst, target.t);
    }
  }
  lb_two_bone_ik_job job = lb_two_bone_ik_default_job();
  job.root = &inst->model[h->def->upper];
  job.mid = &inst->model[h->def->lower];
  job.tip = &inst->model[h->def->info.hand];
  memcpy(job.target, target.t, sizeof(vec3));
  memcpy(job.target_rotation, target.r, sizeof(versor));
  job.weight = weight;
  job.rotation_weight = weight;
  if (lb_two_bone_ik_job_run(&job) == LB_OK) {
    lb_arm_commit(sk, inst, h, &job, skip_fingers);
  }
}

void lb_grip_arm_reach(const lb_skeleton *sk, lb_rig_instance *inst, const lb_grip_hand *h,
                       const lb_transform *anchor_model, float weight, float assist,
                       bool lean_spine) {
  lb_arm_reach(sk, inst, h, anchor_model, weight, assist, lean_spine, false);
}

void lb_grip_arm_reach_held(const lb_skeleton *sk, lb_rig_instance *inst, const lb_grip_hand *h,
                            const lb_transform *anchor_model, float weight, float assist,
                            bool lean_spine) {
  lb_arm_reach(sk, inst, h, anchor_model, weight, assist, lean_spine, lb_fingers_off_hand(h));
}
