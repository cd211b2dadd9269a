/* Fingers of one hand: pose target → wrap onto the held object's surfaces → weight over
 * the animated fingers. Captured poses set their named joints directly (no mirror). */
#include "grip_internal.h"
#include "limber/grip_pose.h"
#include "limber/grip_wrap.h"
#include <string.h>

uint32_t lb_grip_gather_shapes(const lb_world *w, uint32_t rig_slot, int object,
                               lb_shape out[LB_GRIP_SHAPES_MAX]) {
  uint32_t tree[LB_GRIP_SUBTREE_MAX], found[LB_GRIP_SUBTREE_MAX];
  uint32_t count = lb_world_subtree(w, (uint32_t)object, tree, LB_GRIP_SUBTREE_MAX), m = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (lb_slot_has(w, tree[i], LB_GRIP_SURFACE)) {
      /* Insertion keeps entity order: the first 16 surfaces are the same whatever the
       * order the children were attached in. */
      uint32_t at = m++;
      while (at > 0 && found[at - 1] > tree[i]) {
        found[at] = found[at - 1];
        --at;
      }
      found[at] = tree[i];
    }
  }
  uint32_t n = 0;
  for (uint32_t k = 0; k < m && n < LB_GRIP_SHAPES_MAX; ++k) {
    uint32_t s = found[k];
    const lb_grip_surface_c *c = lb_component_ptr(w, s, LB_GRIP_SURFACE);
    lb_shape_def def = lb_grip_surface_def(c);
    lb_transform space_from_entity;
    lb_transform_inverse_mul(&w->world_xf[rig_slot], &w->world_xf[s], &space_from_entity);
    if (lb_shape_resolve(&def, &space_from_entity, &out[n]) == LB_OK) {
      ++n;
    }
  }
  return n;
}

/* Captured pose: named joints below this hand take the stored rotations (the names were
 * mapped to joints on registration, lb_grip_hand_def_map_pose). */
static void lb_apply_captured(const int16_t *map, lb_rig_instance *inst, const lb_finger_pose *fp,
                              float weight) {
  for (uint32_t k = 0; k < fp->count; ++k) {
    int j = map[k];
    if (j >= 0) {
      versor target;
      memcpy(target, fp->rotations[k], sizeof target);
      lb_quat_slerp(inst->local[j].r, target, weight, inst->local[j].r);
      lb_quat_normalize(inst->local[j].r);
    }
  }
}

/* The wrap: the posed fingers close onto the held object's GripSurface shapes (gathered once
 * per object); the fingers that touch are marked in h->contacts. */
static void lb_wrap_fingers(lb_world *w, uint32_t s, lb_grip_hand *h, lb_rig_instance *inst,
                            const lb_skeleton *sk, int object, lb_grip_shapes *shapes,
                            float index_length) {
  if (shapes->object != object) {
    shapes->count = lb_grip_gather_shapes(w, s, object, shapes->shapes);
    shapes->object = object;
  }
  uint32_t n = shapes->count;
  if (n == 0) {
    return;
  }
  lb_wrap_job wrap = lb_wrap_default_job();
  wrap.hand = &h->def->info;
  wrap.joint_count = inst->joint_count;
  wrap.parents = sk->parents;
  wrap.local = inst->local;
  wrap.open_local = sk->rest;
  wrap.pose_local = inst->local;
  wrap.model = inst->model;
  wrap.shapes = shapes->shapes;
  wrap.shape_count = n;
  wrap.margin = LB_WRAP_MARGIN_FRACTION * index_length;
  wrap.end_mask = h->def->rig.tip_estimated;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    memcpy(wrap.end_local[f], h->def->rig.fingers[f].tip_local, sizeof(vec3));
  }
  wrap.out_local = inst->local;
  if (lb_wrap_job_run_posed(&wrap) == LB_OK) {
    for (int f = 0; f < LB_FINGER_COUNT; ++f) {
      h->contacts |= (uint8_t)((wrap.fingers[f].contact ? 1u : 0u) << f);
    }
  }
}

/* The finger rotations as animated, kept for the weight. */
static void lb_fingers_keep(const lb_hand_rig *rig, const lb_rig_instance *inst,
                            versor anim[LB_FINGER_COUNT][LB_FINGER_MAX_SEGMENTS]) {
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_hand_rig_finger *fi = &rig->fingers[f];
    for (int k = 0; fi->found && k < fi->segment_count; ++k) {
      memcpy(anim[f][k], inst->local[fi->joints[k]].r, sizeof(versor));
    }
  }
}

/* The posed fingers back toward the kept animated rotations by 1 - weight. */
static void lb_fingers_weigh(const lb_hand_rig *rig, lb_rig_instance *inst,
                             versor anim[LB_FINGER_COUNT][LB_FINGER_MAX_SEGMENTS], float weight) {
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_hand_rig_finger *fi = &rig->fingers[f];
    for (int k = 0; fi->found && k < fi->segment_count; ++k) {
      float *r = inst->local[fi->joints[k]].r;
      lb_quat_slerp(anim[f][k], r, weight, r);
      lb_quat_normalize(r);
    }
  }
}

void lb_grip_hand_fingers(lb_world *w, uint32_t s, lb_grip_hand *h, lb_grip_driver_kind kind,
                          lb_name pose, float weight, float trigger, int object,
                          lb_grip_shapes *shapes) {
  h->contacts = 0;
  if (kind == LB_GRIP_DRIVER_NONE || weight <= 0.0f) {
    return;
  }
  lb_rig_instance *inst = lb_rig_of_slot(w, s);
  const lb_skeleton *sk = lb_skeleton_get(w, inst->asset);
  lb_grip_pose_def def;
  int32_t ref = lb_grip_pose_ref(w, pose);
  if (!lb_grip_pose_of_ref(w, ref, &def)) {
    const lb_finger_pose *fp = lb_grip_finger_pose_of_ref(w, ref);
    if (fp) {
      lb_apply_captured(h->def->captured[-ref - 1], inst, fp, weight);
    }
    return;
  }
  if (!h->def->rig.valid) {
    return;
  }
  /* The animated finger rotations, for the weight. */
  versor anim[LB_FINGER_COUNT][LB_FINGER_MAX_SEGMENTS];
  lb_fingers_keep(&h->def->rig, inst, anim);
  lb_finger_pose_job job = lb_finger_pose_default_job();
  job.rig = &h->def->rig;
  job.pose = &def;
  job.trigger = trigger;
  job.joint_count = inst->joint_count;
  job.local = inst->local;
  job.model = inst->model;
  job.out_local = inst->local;
  if (lb_finger_pose_job_run_registered(&job) != LB_OK) {
    return;
  }
  const lb_grip_profile_c *prof =
      object >= 0 ? lb_component_ptr(w, (uint32_t)object, LB_GRIP_PROFILE) : NULL;
  if (prof && prof->wrap) {
    lb_wrap_fingers(w, s, h, inst, sk, object, shapes, job.index_length);
  }
  if (weight < 1.0f) {
    lb_fingers_weigh(&h->def->rig, inst, anim, weight);
  }
}
