/* The rig module: the Rig component (a skeleton instance with its pose buffers), the
 * systems that start each step from the animation pose, take it to model space and write
 * the output matrices, the bone hash, and joints for Transform.parentJoint. */
#include "../base/fnv.h"
#include "../math/math_inline.h"
#include "../world/parallel.h"
#include "rig_internal.h"
#include <assert.h>
#include <string.h>

#define LB_SCHEMA_STRUCT lb_rig_c
LB_COMPONENT_INFO(lb_rig_info, "Rig", LB_RIG_FIELDS);
#undef LB_SCHEMA_STRUCT

typedef struct lb_rig_prep {
  bool replace; /* a new instance in `inst` replaces the state */
  lb_rig_instance inst;
} lb_rig_prep;
_Static_assert(sizeof(lb_rig_prep) <= LB_WRITE_PREP_BYTES, "lb_rig_prep outgrew the prep area");

static lb_result lb_rig_stage(lb_write *wr) {
  lb_world *w = wr->world;
  const lb_rig_c *c = wr->value;
  lb_rig_prep *prep = (lb_rig_prep *)wr->prep;
  if (wr->had && ((const lb_rig_c *)wr->current)->asset == c->asset) {
    return LB_OK; /* same skeleton: keep the buffers (and any host animation pose) */
  }
  if (!lb_skeleton_get(w, c->asset)) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME, "%s: field 'asset' = %u is not a skeleton asset",
                   wr->where, c->asset);
  }
  lb_result r = lb_rig_instance_init(w, &prep->inst, c->asset);
  if (r != LB_OK) {
    return lb_fail(w, r, "%s: cannot allocate pose buffers", wr->where);
  }
  prep->replace = true;
  return LB_OK;
}

static void lb_rig_commit(lb_write *wr, void *state) {
  lb_rig_prep *prep = (lb_rig_prep *)wr->prep;
  if (prep->replace) {
    lb_rig_instance_release(wr->world, state);
    memcpy(state, &prep->inst, sizeof prep->inst);
    lb_world_reattach_children(wr->world, wr->slot);
  }
}

static void lb_rig_remove(lb_world *w, uint32_t slot, void *value, void *state) {
  (void)slot;
  (void)value;
  lb_rig_instance_release(w, state);
}

/* 1 Animate: each step starts from this step's animation pose. Per rig, in parallel. */
static void lb_rig_start_one(lb_world *w, uint32_t s, uint32_t worker, void *context) {
  (void)worker;
  (void)context;
  lb_rig_instance *inst = lb_component_state(w, s, LB_RIG);
  inst->model_done = false;
  if (!inst->driven) {
    memcpy(inst->local, inst->anim, inst->joint_count * sizeof(lb_transform));
  }
}

static void lb_system_rig_start(lb_world *w, float dt) {
  (void)dt;
  lb_parallel_each(w, LB_RIG, lb_rig_start_one, NULL);
}

#ifndef NDEBUG
/* Debug builds: a rig finished in the Animate phase (lb_rig_pose_final) has the model pose
 * its local pose gives now, i.e. nothing changed the local pose since. */
static void lb_rig_check_final(const lb_skeleton *sk, const lb_rig_instance *inst) {
  lb_transform model[LB_MAX_JOINTS];
  lb_rig_instance fresh = *inst;
  fresh.model = model;
  lb_rig_local_to_model(sk, &fresh, 0, inst->joint_count);
  for (uint32_t j = 0; j < inst->joint_count; ++j) {
    assert(lb_xf_same_bits(&model[j], &inst->model[j]));
  }
}
#endif

/* 3 Model space, before entity transforms (attachments read the rigs): local->model and the
 * matrices of every rig the Animate phase did not finish already. */
static void lb_rig_model_one(lb_world *w, uint32_t s, uint32_t worker, void *context) {
  (void)worker;
  (void)context;
  lb_rig_instance *inst = lb_component_state(w, s, LB_RIG);
  const lb_skeleton *sk = lb_skeleton_get(w, inst->asset);
  if (inst->model_done) {
#ifndef NDEBUG
    lb_rig_check_final(sk, inst);
#endif
    return;
  }
  lb_rig_pose_update(sk, inst);
}

static void lb_system_rig_model(lb_world *w, float dt) {
  (void)dt;
  lb_parallel_each(w, LB_RIG, lb_rig_model_one, NULL);
}

#ifndef NDEBUG
/* Debug builds: every matrix is the one its model transform gives (no edit went unmarked)
 * and finite (inputs are validated so that no entry can be NaN or infinite). */
static void lb_rig_check_matrices(const lb_world *w, uint32_t s, const lb_rig_instance *inst) {
  for (uint32_t j = 0; j < inst->joint_count; ++j) {
    mat4 m;
    lb_transform_to_mat4(&inst->model[j], m);
    assert(memcmp(m, inst->matrices[j], sizeof m) == 0);
    for (int k = 0; k < 16; ++k) {
      assert(lb_is_finite(inst->matrices[j][k / 4][k % 4]));
    }
  }
  assert(lb_is_finite(w->world_xf[s].t[0]) && lb_is_finite(w->world_xf[s].t[1]) &&
         lb_is_finite(w->world_xf[s].t[2]) && lb_is_finite(w->world_xf[s].s[0]) &&
         lb_is_finite(w->world_xf[s].s[1]) && lb_is_finite(w->world_xf[s].s[2]));
}
#endif

/* 6 Output: the matrices of joints a Reach or Grip system moved after lb_rig_pose_update, and of
 * the ones it left for them (moved the step before). */
static void lb_rig_output_one(lb_world *w, uint32_t s, uint32_t worker, void *context) {
  (void)worker;
  (void)context;
  lb_rig_instance *inst = lb_component_state(w, s, LB_RIG);
  lb_rig_write_late(inst);
#ifndef NDEBUG
  lb_rig_check_matrices(w, s, inst);
#endif
}

static void lb_system_rig_output(lb_world *w, float dt) {
  (void)dt;
  lb_parallel_each(w, LB_RIG, lb_rig_output_one, NULL);
}

static uint64_t lb_fnv_transform(uint64_t h, const lb_transform *x) {
  for (int i = 0; i < 3; ++i) {
    h = lb_fnv_f32(h, x->t[i]);
  }
  for (int i = 0; i < 4; ++i) {
    h = lb_fnv_f32(h, x->r[i]);
  }
  for (int i = 0; i < 3; ++i) {
    h = lb_fnv_f32(h, x->s[i]);
  }
  return h;
}

/* Field by field, so padding and struct layout never enter it. */
static uint64_t lb_rig_hash(const lb_world *w, uint64_t h) {
  uint32_t s;
  for (lb_each it = lb_each_begin(w, LB_RIG); lb_each_next(&it, &s);) {
    const lb_rig_instance *inst = lb_component_state(w, s, LB_RIG);
    h = lb_fnv_u32(h, s);
    h = lb_fnv_u32(h, inst->joint_count);
    h = lb_fnv_transform(h, &w->world_xf[s]);
    for (uint32_t j = 0; j < inst->joint_count; ++j) {
      h = lb_fnv_transform(h, &inst->model[j]);
    }
  }
  return h;
}

static int lb_rig_joint_find(const lb_world *w, uint32_t slot, const char *path) {
  const lb_rig_instance *inst = lb_rig_of_slot(w, slot);
  return inst ? lb_skeleton_lookup(lb_skeleton_get(w, inst->asset), path) : -2;
}

static const lb_transform *lb_rig_joint_model(const lb_world *w, uint32_t slot, int joint) {
  const lb_rig_instance *inst = lb_rig_of_slot(w, slot);
  return inst && joint >= 0 && (uint32_t)joint < inst->joint_count ? &inst->model[joint] : NULL;
}

static void lb_rig_asset_mark(const lb_world *w, const void *state, lb_asset_mark *out) {
  (void)w;
  out->count[0] = ((const lb_rig_world *)state)->skeleton_count;
}

static void lb_rig_asset_rollback(lb_world *w, void *state, const lb_asset_mark *mark) {
  lb_skeletons_release(w, state, mark->count[0]);
}

static lb_result lb_rig_asset_reserve(lb_world *w, void *state, const lb_asset_mark *upto) {
  return lb_skeletons_reserve(w, state, upto->count[0]);
}

static bool lb_rig_asset_in_use(const lb_world *w, const void *state, const lb_asset_mark *mark) {
  (void)state;
  uint32_t s;
  for (lb_each it = lb_each_begin(w, LB_RIG); lb_each_next(&it, &s);) {
    if (((const lb_rig_instance *)lb_component_state(w, s, LB_RIG))->asset > mark->count[0]) {
      return true;
    }
  }
  return false;
}

static void lb_rig_release(lb_world *w, void *state) {
  lb_skeletons_release(w, state, 0);
}

static const lb_component_def lb_rig_components[] = {
    {.type = LB_RIG,
     .info = &lb_rig_info,
     .state_size = sizeof(lb_rig_instance),
     .stage = lb_rig_stage,
     .commit = lb_rig_commit,
     .remove = lb_rig_remove},
};

static const lb_system_def lb_rig_systems[] = {
    {LB_PHASE_ANIMATE, 0, "rig.start_pose", lb_system_rig_start},
    {LB_PHASE_MODEL, 0, "rig.local_to_model", lb_system_rig_model},
    {LB_PHASE_OUTPUT, 0, "rig.matrices", lb_system_rig_output},
};

const lb_module_def lb_module_rig = {
    .name = "rig",
    .state_size = sizeof(lb_rig_world),
    .release = lb_rig_release,
    .components = lb_rig_components,
    .component_count = 1,
    .systems = lb_rig_systems,
    .system_count = 3,
    .asset_mark = lb_rig_asset_mark,
    .asset_reserve = lb_rig_asset_reserve,
    .asset_rollback = lb_rig_asset_rollback,
    .asset_in_use = lb_rig_asset_in_use,
    .joint_find = lb_rig_joint_find,
    .joint_model = lb_rig_joint_model,
    .hash = lb_rig_hash,
};
