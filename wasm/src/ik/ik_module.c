/* The ik module: the TwoBoneIK component (its joints resolved on write) and the Reach
 * system that solves every constraint in entity order. */
#include "../rig/rig_internal.h"
#include "../world/parallel.h"
#include "limber/ik.h"
#include <string.h>

#define LB_SCHEMA_STRUCT lb_two_bone_ik_c
LB_COMPONENT_INFO(lb_two_bone_ik_info, "TwoBoneIK", LB_TWO_BONE_IK_FIELDS);
#undef LB_SCHEMA_STRUCT

/* Joint indices resolved at write time, and again when the Rig changes skeleton (the
 * `changed` hook); a tip the new skeleton lacks leaves the constraint idle. */
typedef struct lb_ik_chain {
  uint32_t asset;
  int16_t root, mid, tip;
} lb_ik_chain;

static lb_result lb_ik_stage(lb_write *wr) {
  lb_world *w = wr->world;
  const lb_two_bone_ik_c *c = wr->value;
  lb_ik_chain *chain = (lb_ik_chain *)wr->prep;
  lb_entity rig_e = c->rig != LB_NULL_ENTITY ? c->rig : wr->entity;
  int rs = lb_slot_of(w, rig_e);
  if (c->rig != LB_NULL_ENTITY && rs < 0) {
    /* The rig was despawned (the schema check lets only a kept reference through): the
     * constraint idles, as it does at step time, until a live rig is written. */
    memset(chain, 0, sizeof *chain);
    return LB_OK;
  }
  const lb_rig_instance *inst = rs >= 0 ? lb_rig_of_slot(w, (uint32_t)rs) : NULL;
  if (!inst) {
    return lb_fail(w, LB_ERR_MISSING_COMPONENT, "%s: field 'rig': %s has no Rig", wr->where,
                   c->rig != LB_NULL_ENTITY ? "the named entity" : "this entity (rig is null)");
  }
  if (c->target == LB_NULL_ENTITY) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "%s: field 'target' is null (an entity is required)",
                   wr->where);
  }
  const lb_skeleton *sk = lb_skeleton_get(w, inst->asset);
  const char *tip_name = lb_name_text(w, c->tip);
  int tip = lb_skeleton_lookup(sk, tip_name);
  if (tip < 0) {
    return lb_fail(w, LB_ERR_JOINT_NOT_FOUND, "%s: field 'tip': joint '%s' not found in the rig",
                   wr->where, tip_name);
  }
  int mid = sk->parents[tip];
  int root = mid >= 0 ? sk->parents[mid] : -1;
  if (root < 0) {
    return lb_fail(w, LB_ERR_JOINT_NOT_FOUND,
                   "%s: field 'tip': joint '%s' needs a parent and a grandparent", wr->where,
                   tip_name);
  }
  chain->asset = inst->asset;
  chain->root = (int16_t)root;
  chain->mid = (int16_t)mid;
  chain->tip = (int16_t)tip;
  return LB_OK;
}

static void lb_ik_commit(lb_write *wr, void *state) {
  memcpy(state, wr->prep, sizeof(lb_ik_chain));
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

/* The slot of the rig a constraint moves, or -1 (a stale rig). */
static int lb_ik_rig_slot(const lb_world *w, uint32_t s) {
  const lb_two_bone_ik_c *c = lb_component_ptr(w, s, LB_TWO_BONE_IK);
  return c->rig != LB_NULL_ENTITY ? lb_slot_of(w, c->rig) : (int)s;
}

/* One constraint; reads the rig's model pose and other entities' world transforms (the Model
 * phase's, which nothing in this system writes). */
static void lb_ik_solve(lb_world *w, uint32_t s, int rs) {
  lb_two_bone_ik_c *c = lb_component_ptr(w, s, LB_TWO_BONE_IK);
  const lb_ik_chain *chain = lb_component_state(w, s, LB_TWO_BONE_IK);
  c->reached = 0;
  c->distance = 0.0f;
  lb_rig_instance *inst = rs >= 0 ? lb_rig_of_slot(w, (uint32_t)rs) : NULL;
  if (!inst || inst->asset != chain->asset) {
    return; /* the rig went away or changed skeleton: the constraint idles */
  }
  const lb_skeleton *sk = lb_skeleton_get(w, inst->asset);
  lb_transform target, hint;
  if (!lb_target_in_rig_space(w, c->target, (uint32_t)rs, &target)) {
    return;
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
    return; /* leave the pose bit-identical */
  }
  if (lb_two_bone_ik_job_run(&job) != LB_OK) {
    c->distance = job.distance;
    return;
  }
  lb_rig_commit_two_bone(sk, inst, chain->root, chain->mid, chain->tip, &job);
  vec3 d = {inst->model[chain->tip].t[0] - target.t[0], inst->model[chain->tip].t[1] - target.t[1],
            inst->model[chain->tip].t[2] - target.t[2]};
  c->distance = lb_vec3_length(d);
  c->reached = c->distance <= 1e-4f;
}

static void lb_ik_one(lb_world *w, uint32_t s, uint32_t worker, void *context) {
  (void)worker;
  (void)context;
  lb_ik_solve(w, s, lb_ik_rig_slot(w, s));
}

/* 4 Reach: TwoBoneIK constraints in entity order. They run in parallel when no two move the
 * same rig, which holds when their rigs' slots rise strictly in entity order (each constraint
 * on its own entity's rig, or on rigs in the same order); else serially, as constraints on one
 * rig build on each other's results (two arms of one character). */
static void lb_system_two_bone_ik(lb_world *w, float dt) {
  (void)dt;
  uint32_t s;
  int last = -1;
  bool distinct = true;
  for (lb_each it = lb_each_begin(w, LB_TWO_BONE_IK); distinct && lb_each_next(&it, &s);) {
    int rs = lb_ik_rig_slot(w, s);
    distinct = rs < 0 || rs > last; /* a stale rig idles: it moves nothing */
    last = rs > last ? rs : last;
  }
  if (distinct) {
    lb_parallel_each(w, LB_TWO_BONE_IK, lb_ik_one, NULL);
    return;
  }
  for (lb_each it = lb_each_begin(w, LB_TWO_BONE_IK); lb_each_next(&it, &s);) {
    lb_ik_solve(w, s, lb_ik_rig_slot(w, s));
  }
}

/* A Rig that changed skeleton: the constraints on it find their joints again by name. */
static void lb_ik_changed(lb_world *w, uint32_t type, uint32_t slot) {
  if (type != LB_RIG) {
    return;
  }
  const lb_rig_instance *inst = lb_rig_of_slot(w, slot);
  uint32_t s;
  for (lb_each it = lb_each_begin(w, LB_TWO_BONE_IK); lb_each_next(&it, &s);) {
    const lb_two_bone_ik_c *c = lb_component_ptr(w, s, LB_TWO_BONE_IK);
    int rs = c->rig != LB_NULL_ENTITY ? lb_slot_of(w, c->rig) : (int)s;
    lb_ik_chain *chain = lb_component_state(w, s, LB_TWO_BONE_IK);
    if (rs != (int)slot || !inst || chain->asset == inst->asset) {
      continue;
    }
    const lb_skeleton *sk = lb_skeleton_get(w, inst->asset);
    int tip = lb_skeleton_lookup(sk, lb_name_text(w, c->tip));
    int mid = tip >= 0 ? sk->parents[tip] : -1;
    int root = mid >= 0 ? sk->parents[mid] : -1;
    chain->asset = root >= 0 ? inst->asset : 0;
    chain->root = (int16_t)root;
    chain->mid = (int16_t)mid;
    chain->tip = (int16_t)tip;
  }
}

static const lb_component_def lb_ik_components[] = {
    {.type = LB_TWO_BONE_IK,
     .info = &lb_two_bone_ik_info,
     .state_size = sizeof(lb_ik_chain),
     .stage = lb_ik_stage,
     .commit = lb_ik_commit},
};

static const lb_system_def lb_ik_systems[] = {
    {LB_PHASE_REACH, 0, "ik.two_bone", lb_system_two_bone_ik},
};

const lb_module_def lb_module_ik = {
    .name = "ik",
    .components = lb_ik_components,
    .component_count = 1,
    .systems = lb_ik_systems,
    .system_count = 1,
    .changed = lb_ik_changed,
};
