/* The frame pipeline (see world.h): fixed order, one way, no allocation. */
#include "limber/ik.h"
#include "world_internal.h"
#include <string.h>

/* 1 Animate: each step starts from this step's animation pose. */
static void lb_phase_animate(lb_world *w) {
  for (uint32_t s = 0; s < w->high_water; ++s) {
    if (w->alive[s] && lb_slot_has(w, s, LB_RIG)) {
      lb_rig_instance *inst = &w->rigs[s];
      memcpy(inst->local, inst->anim, inst->joint_count * sizeof(lb_transform));
    }
  }
}

static void lb_local_of(const lb_transform_c *c, lb_transform *out) {
  memcpy(out->t, c->position, sizeof(vec3));
  memcpy(out->r, c->rotation, sizeof(versor));
  memcpy(out->s, c->scale, sizeof(vec3));
}

/* World transform of one slot whose parent (if any) is already done. */
static void lb_resolve_slot(lb_world *w, uint32_t s) {
  lb_transform local;
  if (!lb_slot_has(w, s, LB_TRANSFORM)) {
    lb_transform_identity(&w->world_xf[s]);
    return;
  }
  const lb_transform_c *c = lb_component_ptr(w, s, LB_TRANSFORM);
  lb_local_of(c, &local);
  int p = lb_slot_of(w, c->parent);
  if (p < 0) {
    w->world_xf[s] = local;
    return;
  }
  lb_transform parent = w->world_xf[p];
  int j = w->attach_joint[s];
  if (j >= 0 && lb_slot_has(w, (uint32_t)p, LB_RIG) && (uint32_t)j < w->rigs[p].joint_count) {
    lb_transform_mul(&w->world_xf[p], &w->rigs[p].model[j], &parent);
  }
  lb_transform_mul(&parent, &local, &w->world_xf[s]);
}

/* World transforms of every slot whose xf_state is 0, parents before children via an
 * explicit walk (no recursion in wasm). */
static void lb_resolve_pending(lb_world *w) {
  for (uint32_t s = 0; s < w->high_water; ++s) {
    if (!w->alive[s] || w->xf_state[s]) {
      continue;
    }
    uint32_t depth = 0, cur = s;
    for (;;) {
      w->xf_stack[depth++] = cur;
      if (!lb_slot_has(w, cur, LB_TRANSFORM)) {
        break;
      }
      const lb_transform_c *c = lb_component_ptr(w, cur, LB_TRANSFORM);
      int p = lb_slot_of(w, c->parent);
      /* Cycles are refused on write, so the walk ends; the depth guard is for
       * safety only. */
      if (p < 0 || w->xf_state[p] || depth >= w->high_water) {
        break;
      }
      cur = (uint32_t)p;
    }
    while (depth > 0) {
      uint32_t t = w->xf_stack[--depth];
      lb_resolve_slot(w, t);
      w->xf_state[t] = 1;
    }
  }
}

bool lb_world_is_below(const lb_world *w, uint32_t slot, uint32_t ancestor) {
  uint32_t cur = slot;
  for (uint32_t guard = 0; guard <= w->high_water; ++guard) {
    if (!lb_slot_has(w, cur, LB_TRANSFORM)) {
      return false;
    }
    const lb_transform_c *c = lb_component_ptr(w, cur, LB_TRANSFORM);
    int p = lb_slot_of(w, c->parent);
    if (p < 0) {
      return false;
    }
    if ((uint32_t)p == ancestor) {
      return true;
    }
    cur = (uint32_t)p;
  }
  return false;
}

void lb_world_refresh_below(lb_world *w, uint32_t slot) {
  for (uint32_t s = 0; s < w->high_water; ++s) {
    if (w->alive[s] && s != slot && lb_world_is_below(w, s, slot)) {
      w->xf_state[s] = 0;
    }
  }
  lb_resolve_pending(w);
}

/* 3 Model space: rigs first (attachments read them), then entity transforms. */
void lb_phase_model_space(lb_world *w) {
  for (uint32_t s = 0; s < w->high_water; ++s) {
    if (w->alive[s] && lb_slot_has(w, s, LB_RIG)) {
      lb_rig_instance *inst = &w->rigs[s];
      lb_rig_local_to_model(lb_skeleton_get(w, inst->asset), inst, 0, inst->joint_count);
    }
  }
  memset(w->xf_state, 0, w->high_water);
  lb_resolve_pending(w);
}

static bool lb_target_in_rig_space(const lb_world *w, lb_entity e, uint32_t rig_slot,
                                   lb_transform *out) {
  int s = lb_slot_of(w, e);
  if (s < 0) {
    return false;
  }
  lb_transform_inverse_mul(&w->world_xf[rig_slot], &w->world_xf[s], out);
  return true;
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

void lb_rig_commit_two_bone(const lb_skeleton *sk, lb_rig_instance *inst, int root, int mid,
                            int tip, const lb_two_bone_ik_job *job) {
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
  lb_rig_local_to_model(sk, inst, (uint32_t)root, sk->subtree_end[root]);
}

/* 4 Reach: TwoBoneIK constraints in entity order. */
void lb_phase_reach(lb_world *w) {
  for (uint32_t s = 0; s < w->high_water; ++s) {
    if (!w->alive[s] || !lb_slot_has(w, s, LB_TWO_BONE_IK)) {
      continue;
    }
    lb_two_bone_ik_c *c = lb_component_ptr(w, s, LB_TWO_BONE_IK);
    const lb_ik_chain *chain = &w->ik_chains[s];
    c->reached = 0;
    c->distance = 0.0f;
    int rs = c->rig != LB_NULL_ENTITY ? lb_slot_of(w, c->rig) : (int)s;
    if (rs < 0 || !lb_slot_has(w, (uint32_t)rs, LB_RIG) || w->rigs[rs].asset != chain->asset) {
      continue; /* the rig went away or changed skeleton: the constraint idles */
    }
    lb_rig_instance *inst = &w->rigs[rs];
    const lb_skeleton *sk = lb_skeleton_get(w, inst->asset);
    lb_transform target, hint;
    if (!lb_target_in_rig_space(w, c->target, (uint32_t)rs, &target)) {
      continue;
    }
    lb_two_bone_ik_job job = lb_two_bone_ik_default_job();
    job.root = &inst->model[chain->root];
    job.mid = &inst->model[chain->mid];
    job.tip = &inst->model[chain->tip];
    memcpy(job.target, target.t, sizeof(vec3));
    memcpy(job.target_rotation, target.r, sizeof(versor));
    job.has_hint = lb_target_in_rig_space(w, c->hint, (uint32_t)rs, &hint);
    if (job.has_hint) {
      memcpy(job.hint, hint.t, sizeof(vec3));
    }
    job.weight = c->weight;
    job.rotation_weight = c->rotation_weight;
    job.soften = c->soften;
    if (c->weight == 0.0f && c->rotation_weight == 0.0f) {
      vec3 d = {job.tip->t[0] - target.t[0], job.tip->t[1] - target.t[1],
                job.tip->t[2] - target.t[2]};
      c->distance = lb_vec3_length(d);
      continue; /* leave the pose bit-identical */
    }
    if (lb_two_bone_ik_run(&job) != LB_OK) {
      c->distance = job.distance;
      continue;
    }
    lb_rig_commit_two_bone(sk, inst, chain->root, chain->mid, chain->tip, &job);
    vec3 d = {inst->model[chain->tip].t[0] - target.t[0],
              inst->model[chain->tip].t[1] - target.t[1],
              inst->model[chain->tip].t[2] - target.t[2]};
    c->distance = lb_vec3_length(d);
    c->reached = c->distance <= 1e-4f;
  }
}

/* 6 Output: model-space matrices for the renderer. */
void lb_phase_output(lb_world *w) {
  for (uint32_t s = 0; s < w->high_water; ++s) {
    if (w->alive[s] && lb_slot_has(w, s, LB_RIG)) {
      lb_rig_instance *inst = &w->rigs[s];
      for (uint32_t j = 0; j < inst->joint_count; ++j) {
        lb_transform_to_mat4(&inst->model[j], inst->matrices[j]);
      }
    }
  }
}

lb_result lb_world_step(lb_world *w, float dt) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!lb_is_finite(dt) || dt < 0.0f || dt > 1.0f) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE, "step: dt = %g must be finite and within [0, 1] s",
                   (double)dt);
  }
  lb_phase_animate(w);
  lb_phase_animator(w, dt);
  /* 2 Move: root motion (nav, controllers and vault land here too). */
  lb_phase_root_motion(w);
  lb_phase_model_space(w);
  lb_phase_reach(w);
  lb_phase_grip(w, dt);
  lb_phase_output(w);
  w->steps++;
  return LB_OK;
}

lb_result lb_world_entity_transform(const lb_world *w, lb_entity e, lb_transform *out) {
  int s = lb_slot_of(w, e);
  if (!w || !out) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  *out = w->world_xf[s];
  return LB_OK;
}
