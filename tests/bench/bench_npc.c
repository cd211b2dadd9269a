/* world.npc.1000: what one non-player character costs in a whole world step when a game has a
 * thousand of them walking its level.
 *
 * Setup, through the scene API (lb_scene_load_files, as world.player does): the nav arena level
 * (assets/levels/nav-arena.json: colliders, walls on the default wall layer), its Recast navmesh
 * (nav-arena.navmesh.json) and the Mixamo mannequin (assets/rigs/mannequin-mixamo.glb); one
 * template NPC from the scene text, copied component by component (lb_world_get / insert) onto
 * 999 more entities, each with
 *   - Animator: idle / walk / run blended on MoveSpeed (damped 0.1 s), root motion applied;
 *   - CharacterController (radius 0.3, height 1.8, stepOffset 0.35): root motion moves it;
 *   - NavAgent (Both: the path steers and sets MoveSpeed, root motion walks, the mesh clamps;
 *     avoidance on);
 *   - EnvironmentInteraction: a free hand on the walls it passes;
 *   - Vault with probeEveryStep: the obstacle probe (sphere casts) every step.
 * NPC k starts on a 32 x 32 grid over the arena snapped to the navmesh (lb_nav_nearest) and walks
 * the arena's destinations (the rooms, behind the divider, a corner, the platform up the ramp)
 * starting at destination k % 7; on arrival (checked between steps, untimed) it is sent to the
 * next one, so the crowd keeps walking and the run is the same every time. Warm-up: 60 steps.
 *
 * world.npc.1000               one operation = one character-step: the timed lb_world_step
 *                              (1/60 s) over the 1,000 NPCs divided by 1,000.
 * world.npc.1000.stage.<phase> the same step with its phases run one by one (lb_world_run_phase:
 *                              animate, move, model, reach, grip, output), one of them timed.
 * No error is measured (0); failures = legs not arrived within 1500 steps. */
#include "../../wasm/src/world/world_core.h"
#include "../c/arena_fixture.h"
#include "bench.h"
#include "limber/limber.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LB_NPC_N 1000u
#define LB_NPC_SIDE 32u
#define LB_NPC_DT (1.0f / 60.0f)
#define LB_NPC_WARMUP 60
#define LB_NPC_LEG_MAX 1500u
#define LB_NPC_STAGE_ALL (-1)

typedef struct lb_npc_bench {
  lb_world *world;
  lb_scene *scene;
  int stage; /* LB_NPC_STAGE_ALL or the lb_phase timed */
  lb_entity npc[LB_NPC_N];
  uint32_t leg[LB_NPC_N], leg_steps[LB_NPC_N];
} lb_npc_bench;

static const char lb_npc_scene[] = LB_ARENA_SCENE_HEAD("npc") LB_ARENA_WALKER("npc", "") "]}";

static void lb_npc_teardown(void *p) {
  lb_npc_bench *s = p;
  if (!s) {
    return;
  }
  lb_arena_destroy(s->world, s->scene);
  free(s);
}

static lb_result lb_npc_load(lb_npc_bench *s) {
  return lb_arena_load(s->world, lb_npc_scene, lb_bench_read_asset, &s->scene);
}

/* NPC k's start: its cell of the grid over the arena, snapped onto the navmesh. */
static lb_result lb_npc_start(lb_npc_bench *s, uint32_t mesh, uint32_t k, lb_transform_c *t) {
  float cell = 19.0f / (float)(LB_NPC_SIDE - 1u);
  float p[3] = {-9.5f + cell * (float)(k % LB_NPC_SIDE), 0.0f,
                -9.5f + cell * (float)(k / LB_NPC_SIDE % LB_NPC_SIDE)};
  lb_nav_point on;
  lb_result r = lb_nav_nearest(s->world, mesh, p, &on);
  lb_component_defaults(LB_TRANSFORM, t);
  memcpy(t->position, on.position, sizeof t->position);
  return r;
}

/* NPC k: the template's components at its start, walking to destination k % 7. */
static lb_result lb_npc_add(lb_npc_bench *s, lb_entity tpl, uint32_t k) {
  lb_nav_agent_c a;
  lb_transform_c t;
  lb_world_get(s->world, tpl, LB_NAV_AGENT, &a);
  lb_result r = lb_npc_start(s, a.nav_mesh, k, &t);
  lb_entity e = tpl;
  if (r == LB_OK && k > 0) {
    r = lb_world_spawn(s->world, &e);
  }
  if (r == LB_OK) {
    r = k > 0 ? lb_world_insert(s->world, e, LB_TRANSFORM, &t)
              : lb_world_set(s->world, e, LB_TRANSFORM, &t);
  }
  /* large enough for any component struct */
  static _Alignas(16) unsigned char buf[4096];
  for (size_t i = 0; r == LB_OK && k > 0 && i < LB_ARENA_WALKER_TYPES; ++i) {
    r = lb_world_get(s->world, tpl, lb_arena_walker_types[i], buf);
    if (r == LB_OK) {
      r = lb_world_insert(s->world, e, lb_arena_walker_types[i], buf);
    }
  }
  s->npc[k] = e;
  s->leg[k] = k % LB_ARENA_LEGS;
  memcpy(a.destination, lb_arena_route[s->leg[k]], sizeof a.destination);
  return r == LB_OK ? lb_world_set(s->world, e, LB_NAV_AGENT, &a) : r;
}

/* The game's rule between steps: an NPC that arrived (or gave up) walks to the next one. */
static void lb_npc_rules(lb_npc_bench *s, lb_bench_stats *st) {
  for (uint32_t k = 0; k < LB_NPC_N; ++k) {
    lb_nav_agent_c a;
    lb_world_get(s->world, s->npc[k], LB_NAV_AGENT, &a);
    if (!a.arrived && ++s->leg_steps[k] <= LB_NPC_LEG_MAX) {
      continue;
    }
    st->failures += a.arrived ? 0u : 1u;
    s->leg_steps[k] = 0;
    s->leg[k] = (s->leg[k] + 1u) % LB_ARENA_LEGS;
    memcpy(a.destination, lb_arena_route[s->leg[k]], sizeof a.destination);
    a.has_destination = 1;
    a.stopped = 0;
    lb_world_set(s->world, s->npc[k], LB_NAV_AGENT, &a);
  }
}

/* One step: whole (timed) or phase by phase with one phase timed. */
static void lb_npc_step(lb_npc_bench *s, lb_bench_stats *st) {
  if (s->stage == LB_NPC_STAGE_ALL) {
    double t0 = lb_bench_now_us();
    st->failures += lb_world_step(s->world, LB_NPC_DT) != LB_OK ? LB_NPC_N : 0u;
    st->timed_us += lb_bench_now_us() - t0;
    return;
  }
  for (int p = 0; p < LB_PHASE_COUNT; ++p) {
    double t0 = lb_bench_now_us();
    lb_world_run_phase(s->world, (lb_phase)p, LB_NPC_DT);
    st->timed_us += p == s->stage ? lb_bench_now_us() - t0 : 0.0;
  }
}

static void lb_npc_run(void *p, uint32_t iters, lb_bench_stats *st) {
  lb_npc_bench *s = p;
  uint32_t steps = iters / LB_NPC_N; /* iters is a multiple of N (iter_multiple) */
  for (uint32_t i = 0; i < steps; ++i) {
    lb_npc_rules(s, st);
    lb_npc_step(s, st);
  }
  st->ops += (uint64_t)steps * LB_NPC_N;
}

static void *lb_npc_setup_threads(int stage, uint32_t threads) {
  lb_npc_bench *s = calloc(1, sizeof *s);
  lb_world_def def = lb_world_default_def();
  def.threads = threads;
  lb_result r = s && lb_world_create(&def, &s->world) == LB_OK && lb_bench_start_threads(s->world)
                    ? lb_npc_load(s)
                    : LB_ERR_OUT_OF_MEMORY;
  lb_entity tpl = r == LB_OK ? lb_scene_entity(s->scene, "npc") : LB_NULL_ENTITY;
  for (uint32_t k = 0; r == LB_OK && k < LB_NPC_N; ++k) {
    r = lb_npc_add(s, tpl, k);
  }
  if (r != LB_OK) {
    fprintf(stderr, "limber_bench: world.npc: %s\n",
            s && s->world ? lb_world_last_error(s->world) : "out of memory");
    lb_npc_teardown(s);
    return NULL;
  }
  s->stage = LB_NPC_STAGE_ALL;
  lb_bench_stats warm;
  memset(&warm, 0, sizeof warm);
  lb_npc_run(s, LB_NPC_WARMUP * LB_NPC_N, &warm);
  s->stage = stage;
  return s;
}

static void *lb_npc_setup(int stage) {
  return lb_npc_setup_threads(stage, 1u);
}

static void *lb_npc_setup_t1(void) {
  return lb_npc_setup_threads(LB_NPC_STAGE_ALL, 1u);
}
static void *lb_npc_setup_t2(void) {
  return lb_npc_setup_threads(LB_NPC_STAGE_ALL, 2u);
}

static void *lb_npc_setup_all(void) {
  return lb_npc_setup(LB_NPC_STAGE_ALL);
}
static void *lb_npc_setup_animate(void) {
  return lb_npc_setup(LB_PHASE_ANIMATE);
}
static void *lb_npc_setup_move(void) {
  return lb_npc_setup(LB_PHASE_MOVE);
}
static void *lb_npc_setup_model(void) {
  return lb_npc_setup(LB_PHASE_MODEL);
}
static void *lb_npc_setup_reach(void) {
  return lb_npc_setup(LB_PHASE_REACH);
}
static void *lb_npc_setup_grip(void) {
  return lb_npc_setup(LB_PHASE_GRIP);
}
static void *lb_npc_setup_output(void) {
  return lb_npc_setup(LB_PHASE_OUTPUT);
}

#define LB_NPC_BENCH(var, name, what, setup)                                                       \
  const lb_bench var = {name, "us",     what, LB_NPC_N * 10u, setup, lb_npc_run, lb_npc_teardown,  \
                        NULL, LB_NPC_N, 0}

LB_NPC_BENCH(lb_bench_world_npc_1000, "world.npc.1000",
             "one character-step: lb_world_step (1/60 s) over 1,000 NPCs (Animator locomotion "
             "blend, CharacterController, NavAgent Both, EnvironmentInteraction, Vault probe every "
             "step) walking the nav arena, divided by 1,000",
             lb_npc_setup_all);
LB_NPC_BENCH(lb_bench_world_npc_1000_stage_animate, "world.npc.1000.stage.animate",
             "world.npc.1000's Animate phase (the Animators' blends and local->model)",
             lb_npc_setup_animate);
LB_NPC_BENCH(lb_bench_world_npc_1000_stage_move, "world.npc.1000.stage.move",
             "world.npc.1000's Move phase (root motion, NavAgents, Vault probes, controller moves)",
             lb_npc_setup_move);
LB_NPC_BENCH(lb_bench_world_npc_1000_stage_model, "world.npc.1000.stage.model",
             "world.npc.1000's Model phase (transforms, collider refit)", lb_npc_setup_model);
LB_NPC_BENCH(lb_bench_world_npc_1000_stage_reach, "world.npc.1000.stage.reach",
             "world.npc.1000's Reach phase (EnvironmentInteraction)", lb_npc_setup_reach);
LB_NPC_BENCH(lb_bench_world_npc_1000_stage_grip, "world.npc.1000.stage.grip",
             "world.npc.1000's Grip phase (nothing held: the phase's fixed cost)",
             lb_npc_setup_grip);
LB_NPC_BENCH(lb_bench_world_npc_1000_stage_output, "world.npc.1000.stage.output",
             "world.npc.1000's Output phase (late matrices, statuses)", lb_npc_setup_output);
/* Native only (bench_main.c): the same at lb_world_def.threads 1 and 2. */
LB_NPC_BENCH(lb_bench_world_npc_1000_t1, "world.npc.1000.t1",
             "world.npc.1000 in a world made with lb_world_def.threads = 1", lb_npc_setup_t1);
LB_NPC_BENCH(lb_bench_world_npc_1000_t2, "world.npc.1000.t2",
             "world.npc.1000 in a world made with lb_world_def.threads = 2 (the world's own pool)",
             lb_npc_setup_t2);
