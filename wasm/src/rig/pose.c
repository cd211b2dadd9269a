/* Rig instances: pose buffers and local→model. */
#include "../world/world_internal.h"
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
  lb_rig_local_to_model(s, inst, 0, n);
  for (uint32_t j = 0; j < n; ++j) {
    lb_transform_to_mat4(&inst->model[j], inst->matrices[j]);
  }
  return LB_OK;
}

void lb_rig_instance_release(lb_world *w, lb_rig_instance *inst) {
  lb_free(w, inst->anim);
  lb_free(w, inst->local);
  lb_free(w, inst->model);
  lb_free(w, inst->matrices);
  memset(inst, 0, sizeof *inst);
}

/* lb_transform_mul (with lb_quat_rotate and lb_quat_mul) written out so that it inlines into
 * the joint loop: the same operations in the same order, so the same bits. */
static inline void transform_mul(const lb_transform *parent, const lb_transform *local,
                                 lb_transform *out) {
  const float *q = parent->r;
  float ux = q[0], uy = q[1], uz = q[2], w = q[3];
  float v0 = parent->s[0] * local->t[0];
  float v1 = parent->s[1] * local->t[1];
  float v2 = parent->s[2] * local->t[2];
  float tx = 2.0f * (uy * v2 - uz * v1);
  float ty = 2.0f * (uz * v0 - ux * v2);
  float tz = 2.0f * (ux * v1 - uy * v0);
  float rx = v0 + w * tx + (uy * tz - uz * ty);
  float ry = v1 + w * ty + (uz * tx - ux * tz);
  float rz = v2 + w * tz + (ux * ty - uy * tx);
  const float *b = local->r;
  float x = w * b[0] + ux * b[3] + uy * b[2] - uz * b[1];
  float y = w * b[1] - ux * b[2] + uy * b[3] + uz * b[0];
  float z = w * b[2] + ux * b[1] - uy * b[0] + uz * b[3];
  float qw = w * b[3] - ux * b[0] - uy * b[1] - uz * b[2];
  float s0 = parent->s[0] * local->s[0];
  float s1 = parent->s[1] * local->s[1];
  float s2 = parent->s[2] * local->s[2];
  out->t[0] = parent->t[0] + rx;
  out->t[1] = parent->t[1] + ry;
  out->t[2] = parent->t[2] + rz;
  out->r[0] = x;
  out->r[1] = y;
  out->r[2] = z;
  out->r[3] = qw;
  out->s[0] = s0;
  out->s[1] = s1;
  out->s[2] = s2;
}

void lb_rig_local_to_model(const lb_skeleton *s, lb_rig_instance *inst, uint32_t first,
                           uint32_t end) {
  lb_transform *model = inst->model;
  const lb_transform *local = inst->local;
  for (uint32_t j = first; j < end; ++j) {
    int p = s->parents[j];
    if (p < 0) {
      model[j] = local[j];
    } else {
      transform_mul(&model[p], &local[j], &model[j]);
    }
  }
}

static lb_rig_instance *lb_rig_of(const lb_world *w, lb_entity e) {
  int s = lb_slot_of(w, e);
  return s >= 0 && lb_slot_has(w, (uint32_t)s, LB_RIG) ? &w->rigs[s] : NULL;
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
    if (!(v[7] > 0.0f) || !(v[8] > 0.0f) || !(v[9] > 0.0f)) {
      return lb_fail(w, LB_ERR_OUT_OF_RANGE, "animation pose on %s: joint '%s' scale must be > 0",
                     lb_entity_label(e, lbl, sizeof lbl), s->names[j]);
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
