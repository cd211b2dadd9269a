/* Rig instances: pose buffers and local→model. */
#include "../math/math_inline.h"
#include "../math/simd4_xf.h"
#include "limber/ik.h"
#include "rig_internal.h"
#include <string.h>

lb_result lb_rig_instance_init(lb_world *w, lb_rig_instance *inst, uint32_t asset) {
  const lb_skeleton *s = lb_skeleton_get(w, asset);
  memset(inst, 0, sizeof *inst);
  if (!s) {
    return LB_ERR_UNKNOWN_NAME;
  }
  uint32_t n = s->joint_count;
  inst->anim = lb_alloc_array(w, n, sizeof(lb_transform));
  inst->local = lb_alloc_array(w, n, sizeof(lb_transform));
  inst->model = lb_alloc_array(w, n, sizeof(lb_transform));
  inst->matrices = lb_alloc_array(w, n, sizeof(mat4));
  if (!inst->anim || !inst->local || !inst->model || !inst->matrices) {
    lb_rig_instance_release(w, inst);
    return LB_ERR_OUT_OF_MEMORY;
  }
  inst->asset = asset;
  inst->joint_count = n;
  memcpy(inst->anim, s->rest, n * sizeof(lb_transform));
  memcpy(inst->local, s->rest, n * sizeof(lb_transform));
  lb_rig_pose_update(s, inst);
  return LB_OK;
}

void lb_rig_write_matrices(lb_rig_instance *inst, uint32_t first, uint32_t end) {
  uint32_t j = first;
  for (; j + 4u <= end; j += 4u) {
    lb_f4_xf_matrix4(&inst->model[j], &inst->matrices[j][0][0]);
  }
  for (; j < end; ++j) {
    lb_f4_xf_matrix(&inst->model[j], &inst->matrices[j][0][0]);
  }
}

void lb_rig_mark_edited(lb_rig_instance *inst, uint32_t first, uint32_t end) {
  if (first >= end) {
    return;
  }
  if (inst->edited_first >= inst->edited_end) {
    inst->edited_first = first;
    inst->edited_end = end;
    return;
  }
  inst->edited_first = first < inst->edited_first ? first : inst->edited_first;
  inst->edited_end = end > inst->edited_end ? end : inst->edited_end;
}

void lb_rig_pose_update(const lb_skeleton *s, lb_rig_instance *inst) {
  uint32_t n = inst->joint_count;
  lb_rig_local_to_model(s, inst, 0, n);
  uint32_t lf = inst->late_first < n ? inst->late_first : n;
  uint32_t le = inst->late_end < n ? inst->late_end : n;
  if (lf >= le) {
    lf = le = n;
  }
  lb_rig_write_matrices(inst, 0, lf);
  lb_rig_write_matrices(inst, le, n);
  inst->edited_first = inst->edited_end = 0;
}

void lb_rig_pose_final(const lb_skeleton *s, lb_rig_instance *inst) {
  lb_rig_pose_update(s, inst);
  inst->model_done = true;
}

void lb_rig_write_late(lb_rig_instance *inst) {
  uint32_t ef = inst->edited_first, ee = inst->edited_end;
  /* the hull of the joints lb_rig_pose_update left and the ones edited since */
  lb_rig_mark_edited(inst, inst->late_first, inst->late_end);
  if (inst->edited_first < inst->edited_end) {
    lb_rig_write_matrices(inst, inst->edited_first, inst->edited_end);
  }
  inst->late_first = ef;
  inst->late_end = ee;
  inst->edited_first = inst->edited_end = 0;
}

void lb_rig_instance_release(lb_world *w, lb_rig_instance *inst) {
  lb_free(w, inst->anim);
  lb_free(w, inst->local);
  lb_free(w, inst->model);
  lb_free(w, inst->matrices);
  memset(inst, 0, sizeof *inst);
}

void lb_rig_local_to_model(const lb_skeleton *s, lb_rig_instance *inst, uint32_t first,
                           uint32_t end) {
  /* Locals, not struct fields: the stores into model could alias the fields as far as the
   * compiler knows, which would reload them every joint. */
  const int16_t *parents = s->parents;
  const lb_transform *local = inst->local;
  lb_transform *model = inst->model;
  const lb_f4_xf_k k = lb_f4_xf_constants();
  lb_rig_mark_edited(inst, first, end);
  if (first == 0 && end == s->joint_count && s->by_depth) {
    /* the same operations per joint as below, in an order whose neighbours are independent */
    const uint16_t *order = s->by_depth;
    for (uint32_t i = 0; i < end; ++i) {
      uint32_t j = order[i];
      int p = parents[j];
      if (p < 0) {
        model[j] = local[j];
      } else {
        lb_f4_xf_mul_k(&model[p], &local[j], &model[j], &k);
      }
    }
    return;
  }
  for (uint32_t j = first; j < end; ++j) {
    int p = parents[j];
    if (p < 0) {
      model[j] = local[j];
    } else {
      lb_f4_xf_mul_k(&model[p], &local[j], &model[j], &k);
    }
  }
}

void lb_apply_rotation(lb_rig_instance *inst, const lb_skeleton *sk, int j, const versor model_r) {
  int p = sk->parents[j];
  versor inv;
  if (p < 0) {
    memcpy(inst->local[j].r, model_r, sizeof(versor));
  } else {
    lb_quat_conj(inst->model[p].r, inv);
    lb_quat_mul(inv, model_r, inst->local[j].r);
    lb_quat_normalize(inst->local[j].r);
  }
}

void lb_rig_set_two_bone(const lb_skeleton *sk, lb_rig_instance *inst, int root, int mid, int tip,
                         const lb_two_bone_ik_job *job) {
  versor root_r, mid_r, tip_r;
  lb_quat_mul(job->root_correction, inst->model[root].r, root_r);
  lb_quat_mul(job->mid_correction, inst->model[mid].r, mid_r);
  lb_quat_mul(job->tip_correction, inst->model[tip].r, tip_r);
  /* Locals from new model rotations, parent first, refreshing model as we go. */
  lb_apply_rotation(inst, sk, root, root_r);
  lb_rig_local_to_model(sk, inst, (uint32_t)root, (uint32_t)root + 1u);
  lb_apply_rotation(inst, sk, mid, mid_r);
  lb_rig_local_to_model(sk, inst, (uint32_t)mid, (uint32_t)mid + 1u);
  lb_apply_rotation(inst, sk, tip, tip_r);
}

void lb_rig_commit_two_bone(const lb_skeleton *sk, lb_rig_instance *inst, int root, int mid,
                            int tip, const lb_two_bone_ik_job *job) {
  lb_rig_set_two_bone(sk, inst, root, mid, tip, job);
  lb_rig_local_to_model(sk, inst, (uint32_t)root, sk->subtree_end[root]);
}

static lb_rig_instance *lb_rig_of(const lb_world *w, lb_entity e) {
  int s = lb_slot_of(w, e);
  return s >= 0 ? lb_rig_of_slot(w, (uint32_t)s) : NULL;
}

lb_result lb_rig_set_animation_pose(lb_world *w, lb_entity e, const lb_transform *local,
                                    uint32_t count) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  char lbl[48];
  if (lb_slot_checked(w, e, "animation pose") < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  lb_rig_instance *inst = lb_rig_of(w, e);
  if (!inst) {
    return lb_fail(w, LB_ERR_MISSING_COMPONENT, "animation pose: %s has no Rig",
                   lb_entity_label(e, lbl, sizeof lbl));
  }
  if (!local || count != inst->joint_count) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                   "animation pose on %s: %u joints given, the rig has %u",
                   lb_entity_label(e, lbl, sizeof lbl), count, inst->joint_count);
  }
  const lb_skeleton *s = lb_skeleton_get(w, inst->asset);
  /* Model-space scale per joint (product along the parents, parents first), so that no
   * chain of allowed scales leaves the float range. */
  double model_scale[LB_MAX_JOINTS][3];
  for (uint32_t j = 0; j < count; ++j) {
    const lb_transform *x = &local[j];
    float v[10] = {x->t[0], x->t[1], x->t[2], x->r[0], x->r[1],
                   x->r[2], x->r[3], x->s[0], x->s[1], x->s[2]};
    for (int k = 0; k < 10; ++k) {
      if (!lb_is_finite(v[k])) {
        return lb_fail(w, LB_ERR_NOT_FINITE, "animation pose on %s: joint '%s' is not finite",
                       lb_entity_label(e, lbl, sizeof lbl), s->names[j]);
      }
    }
    for (int k = 0; k < 3; ++k) {
      if (!(v[k] >= -LB_POSE_TRANSLATION_MAX && v[k] <= LB_POSE_TRANSLATION_MAX)) {
        return lb_fail(w, LB_ERR_OUT_OF_RANGE,
                       "animation pose on %s: joint '%s' translation[%d] = %g is outside [-%g, %g]",
                       lb_entity_label(e, lbl, sizeof lbl), s->names[j], k, (double)v[k],
                       (double)LB_POSE_TRANSLATION_MAX, (double)LB_POSE_TRANSLATION_MAX);
      }
      int p = s->parents[j];
      double ms = (p >= 0 ? model_scale[p][k] : 1.0) * (double)v[7 + k];
      model_scale[j][k] = ms;
      if (!(v[7 + k] >= LB_POSE_SCALE_MIN && v[7 + k] <= LB_POSE_SCALE_MAX) ||
          !(ms >= LB_POSE_SCALE_MIN && ms <= LB_POSE_SCALE_MAX)) {
        return lb_fail(w, LB_ERR_OUT_OF_RANGE,
                       "animation pose on %s: joint '%s' scale[%d] = %g (model space %g) is "
                       "outside [%g, %g]",
                       lb_entity_label(e, lbl, sizeof lbl), s->names[j], k, (double)v[7 + k], ms,
                       (double)LB_POSE_SCALE_MIN, (double)LB_POSE_SCALE_MAX);
      }
    }
    if (!(v[3] * v[3] + v[4] * v[4] + v[5] * v[5] + v[6] * v[6] > 1e-12f)) {
      return lb_fail(w, LB_ERR_OUT_OF_RANGE, "animation pose on %s: joint '%s' rotation is zero",
                     lb_entity_label(e, lbl, sizeof lbl), s->names[j]);
    }
  }
  memcpy(inst->anim, local, count * sizeof(lb_transform));
  for (uint32_t j = 0; j < count; ++j) {
    lb_quat_normalize(inst->anim[j].r);
  }
  inst->has_anim = true;
  return LB_OK;
}

const lb_transform *lb_rig_local_pose(const lb_world *w, lb_entity e, uint32_t *count) {
  lb_rig_instance *inst = lb_rig_of(w, e);
  if (count) {
    *count = inst ? inst->joint_count : 0;
  }
  return inst ? inst->local : NULL;
}

const lb_transform *lb_rig_model_pose(const lb_world *w, lb_entity e, uint32_t *count) {
  lb_rig_instance *inst = lb_rig_of(w, e);
  if (count) {
    *count = inst ? inst->joint_count : 0;
  }
  return inst ? inst->model : NULL;
}

const float *lb_rig_model_matrices(const lb_world *w, lb_entity e, uint32_t *count) {
  lb_rig_instance *inst = lb_rig_of(w, e);
  if (count) {
    *count = inst ? inst->joint_count : 0;
  }
  return inst ? &inst->matrices[0][0][0] : NULL;
}
