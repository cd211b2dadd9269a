/* Fingers of one hand: pose target → wrap onto the held object's surfaces → weight over
 * the animated fingers. Captured poses set their named joints directly (no mirror). */
#include "grip_internal.h"
#include "limber/grip_pose.h"
#include <string.h>

/* The pose a hand should take: per-joint fingers of the profile, else a GripPose name. */
static bool lb_pose_def_for(const lb_world *w, int object, lb_grip_driver_kind kind,
                            const char *name, lb_grip_pose_def *out) {
  if (object >= 0 && w->grip[object]) {
    int role = kind == LB_GRIP_DRIVER_SUPPORT ? 1 : 0;
    if (w->grip[object]->has_fingers[role]) {
      *out = w->grip[object]->fingers[role];
      return true;
    }
  }
  return name[0] && lb_grip_pose_registry_find(w->grip_poses, name, out) == LB_OK;
}

/* Captured pose: named joints below this hand take the stored rotations. */
static void lb_apply_captured(const lb_world *w, lb_grip_hand *h, const lb_skeleton *sk,
                              lb_rig_instance *inst, const lb_finger_pose *fp, float weight) {
  if (h->captured_serial != fp->serial) {
    /* Map joint names once per registration (string work only when it changes). */
    for (uint32_t k = 0; k < fp->count; ++k) {
      int j = lb_skeleton_lookup(sk, fp->joints[k]);
      bool below = j > h->info.hand && (uint32_t)j < sk->subtree_end[h->info.hand];
      h->captured_map[k] = (int16_t)(below ? j : -1);
    }
    h->captured_serial = fp->serial;
  }
  (void)w;
  for (uint32_t k = 0; k < fp->count; ++k) {
    int j = h->captured_map[k];
    if (j >= 0) {
      versor target;
      memcpy(target, fp->rotations[k], sizeof target);
      lb_quat_slerp(inst->local[j].r, target, weight, inst->local[j].r);
      lb_quat_normalize(inst->local[j].r);
    }
  }
}

void lb_grip_hand_fingers(lb_world *w, uint32_t s, lb_grip_hand *h, lb_grip_driver_kind kind,
                          const char *pose, float weight, float trigger, int object) {
  h->contacts = 0;
  if (kind == LB_GRIP_DRIVER_NONE || weight <= 0.0f) {
    return;
  }
  lb_rig_instance *inst = &w->rigs[s];
  const lb_skeleton *sk = lb_skeleton_get(w, inst->asset);
  lb_grip_pose_def def;
  if (!lb_pose_def_for(w, object, kind, pose, &def)) {
    const lb_finger_pose *fp = lb_grip_finger_pose(w, pose);
    if (fp) {
      lb_apply_captured(w, h, sk, inst, fp, weight);
    }
    return;
  }
  if (!h->rig.valid) {
    return;
  }
  /* The animated finger rotations, for the weight. */
  versor anim[LB_FINGER_COUNT][LB_FINGER_MAX_SEGMENTS];
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_hand_rig_finger *fi = &h->rig.fingers[f];
    for (int k = 0; fi->found && k < fi->segment_count; ++k) {
      memcpy(anim[f][k], inst->local[fi->joints[k]].r, sizeof(versor));
    }
  }
  lb_finger_pose_job job = lb_finger_pose_default_job();
  job.rig = &h->rig;
  job.pose = &def;
  job.trigger = trigger;
  job.joint_count = inst->joint_count;
  job.local = inst->local;
  job.model = inst->model;
  job.out_local = inst->local;
  if (lb_finger_pose_run(&job) != LB_OK) {
    return;
  }
  if (weight < 1.0f) {
    for (int f = 0; f < LB_FINGER_COUNT; ++f) {
      const lb_hand_rig_finger *fi = &h->rig.fingers[f];
      for (int k = 0; fi->found && k < fi->segment_count; ++k) {
        float *r = inst->local[fi->joints[k]].r;
        lb_quat_slerp(anim[f][k], r, weight, r);
        lb_quat_normalize(r);
      }
    }
  }
}
