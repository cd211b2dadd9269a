/* Environment interaction benchmarks: the per-character cost of the Reach phase's
 * EnvironmentInteraction (detection-box overlap, closest points on the candidate walls, the
 * state machine, one two-bone arm IK and the palm-to-wall distance) in worlds of 100 and
 * 1,000 box colliders.
 *
 * Setup: the default humanoid (1.8 m) with an EnvironmentInteraction, in a 1.2 m lane between
 * two 22 m walls (x = +-0.6 faces, layer 2), plus N - 2 boxes (0.5 m, layer 2) on a grid
 * beside the lane (x 3..60, z -20..60), so the collider hierarchy holds N colliders.
 * Warm-up steps bring the hand onto the wall.
 *
 * interact.character.<N>  one operation = the model pose restored to the step's animated
 *   pose, the root moved 1.4/60 m along the lane (up 18 m and back, turned round at each end,
 *   so releases and re-plants happen too), then lb_world_run_phase(Reach). Error = |palm
 *   distance| in Touch (metres). */
#include "../../wasm/src/rig/rig_internal.h"
#include "bench.h"
#include "limber/limber.h"
#include <stdlib.h>
#include <string.h>

typedef struct lb_interact_bench {
  lb_world *world;
  uint32_t slot, joint_count;
  lb_transform *model;
  lb_entity hero;
  float z, dir;
} lb_interact_bench;

static void lb_interact_teardown(void *p) {
  lb_interact_bench *s = p;
  if (!s) {
    return;
  }
  if (s->world) {
    lb_world_destroy(s->world);
  }
  free(s->model);
  free(s);
}

static int lb_box(lb_world *w, float x, float y, float z, float sx, float sy, float sz) {
  lb_entity e;
  lb_transform_c t;
  lb_collider_c c;
  if (lb_world_spawn(w, &e) != LB_OK) {
    return 0;
  }
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[0] = x;
  t.position[1] = y;
  t.position[2] = z;
  lb_component_defaults(LB_COLLIDER, &c);
  c.shape = LB_COLLIDER_BOX;
  c.size[0] = sx;
  c.size[1] = sy;
  c.size[2] = sz;
  c.layer = 2;
  return lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK &&
         lb_world_insert(w, e, LB_COLLIDER, &c) == LB_OK;
}

static void *lb_interact_setup_n(uint32_t n) {
  lb_interact_bench *s = calloc(1, sizeof *s);
  lb_world_def wd = lb_world_default_def();
  if (!s || lb_world_create(&wd, &s->world) != LB_OK) {
    lb_interact_teardown(s);
    return NULL;
  }
  lb_world *w = s->world;
  lb_humanoid_def hd = lb_humanoid_default_def();
  uint32_t asset = 0;
  lb_rig_c rig;
  lb_transform_c t;
  lb_env_interaction_c ei;
  int ok = lb_world_add_humanoid(w, &hd, &asset) == LB_OK && lb_world_spawn(w, &s->hero) == LB_OK;
  lb_component_defaults(LB_RIG, &rig);
  rig.asset = asset;
  lb_component_defaults(LB_TRANSFORM, &t);
  lb_component_defaults(LB_ENV_INTERACTION, &ei);
  ei.hand_offset = 0.015f;
  ok = ok && lb_world_insert(w, s->hero, LB_TRANSFORM, &t) == LB_OK &&
       lb_world_insert(w, s->hero, LB_RIG, &rig) == LB_OK &&
       lb_world_insert(w, s->hero, LB_ENV_INTERACTION, &ei) == LB_OK;
  ok = ok && lb_box(w, 0.7f, 1.25f, 10.0f, 0.2f, 2.5f, 22.0f) &&
       lb_box(w, -0.7f, 1.25f, 10.0f, 0.2f, 2.5f, 22.0f);
  for (uint32_t i = 0; ok && i + 2 < n; ++i) {
    float x = 3.0f + (float)(i % 25u) * 2.3f;
    float z = -20.0f + (float)(i / 25u) * 2.0f;
    ok = lb_box(w, x, 0.25f, z, 0.5f, 0.5f, 0.5f);
  }
  int slot = ok ? lb_slot_of(w, s->hero) : -1;
  for (int i = 0; ok && i < 60; ++i) {
    ok = lb_world_step(w, 1.0f / 60.0f) == LB_OK;
  }
  if (!ok || slot < 0) {
    lb_interact_teardown(s);
    return NULL;
  }
  s->slot = (uint32_t)slot;
  s->dir = 1.0f;
  lb_rig_instance *inst = lb_rig_of_slot(w, s->slot);
  s->joint_count = inst->joint_count;
  s->model = malloc(s->joint_count * sizeof(lb_transform));
  if (!s->model) {
    lb_interact_teardown(s);
    return NULL;
  }
  /* The pose entering Reach (no animator: the rest pose). */
  lb_world_run_phase(w, LB_PHASE_ANIMATE, 1.0f / 60.0f);
  lb_world_run_phase(w, LB_PHASE_MOVE, 1.0f / 60.0f);
  lb_world_run_phase(w, LB_PHASE_MODEL, 1.0f / 60.0f);
  memcpy(s->model, inst->model, s->joint_count * sizeof(lb_transform));
  return s;
}

static void lb_interact_run(void *p, uint32_t iters, lb_bench_stats *st) {
  lb_interact_bench *s = p;
  lb_world *w = s->world;
  lb_rig_instance *inst = lb_rig_of_slot(w, s->slot);
  const lb_env_interaction_c *c = lb_component_ptr(w, s->slot, LB_ENV_INTERACTION);
  for (uint32_t i = 0; i < iters; ++i) {
    memcpy(inst->model, s->model, s->joint_count * sizeof(lb_transform));
    /* Up the lane and back (turned round at each end): no teleport. */
    s->z += s->dir * (1.4f / 60.0f);
    if (s->z > 18.0f || s->z < 0.0f) {
      s->dir = -s->dir;
      lb_transform *xf = &w->world_xf[s->slot];
      xf->r[1] = s->dir > 0.0f ? 0.0f : 1.0f;
      xf->r[3] = s->dir > 0.0f ? 1.0f : 0.0f;
    }
    w->world_xf[s->slot].t[2] = s->z;
    lb_world_run_phase(w, LB_PHASE_REACH, 1.0f / 60.0f);
    if (c->state == 3) {
      double e = c->palm_distance < 0.0f ? -c->palm_distance : c->palm_distance;
      st->error_sum += e;
      st->error_max = e > st->error_max ? e : st->error_max;
    }
    st->ops++;
  }
}

static void *lb_interact_setup_100(void) {
  return lb_interact_setup_n(100);
}
static void *lb_interact_setup_1000(void) {
  return lb_interact_setup_n(1000);
}

const lb_bench lb_bench_interact_character_100 = {
    "interact.character.100",
    "us",
    "one character's EnvironmentInteraction in Reach (box overlap, closest points, state, arm IK), "
    "100 colliders",
    20000,
    lb_interact_setup_100,
    lb_interact_run,
    lb_interact_teardown};
const lb_bench lb_bench_interact_character_1000 = {
    "interact.character.1000",
    "us",
    "one character's EnvironmentInteraction in Reach (box overlap, closest points, state, arm IK), "
    "1000 colliders",
    20000,
    lb_interact_setup_1000,
    lb_interact_run,
    lb_interact_teardown};
