/* world.player: one player character with every system at once, the step a third-person game
 * pays for its player (web/examples/third-person).
 *
 * Setup, through the scene API only (lb_scene_load_files on JSON text built here, as
 * world.scale does): the nav arena level (assets/levels/nav-arena.json: colliders, walls on the
 * default wall layer) and its Recast navmesh (nav-arena.navmesh.json); the Mixamo mannequin
 * (assets/rigs/mannequin-mixamo.glb) with
 *   - Animator: idle / walk / run blended on MoveSpeed, damped 0.1 s, and a Vault state;
 *   - CharacterController (radius 0.3, height 1.8, stepOffset 0.35): root motion moves it;
 *   - GripPose + GripHolder: the grip lab's rifle in both hands, hung from Spine2 where
 *     world.grip.placeTwoHanded puts it for the game (both hands reach on idle, walk and run);
 *   - EnvironmentInteraction (handOffset 0.015): a free hand on the walls it passes;
 *   - Vault with probeEveryStep: the obstacle probe (sphere casts, rays) every step;
 *   - NavAgent on the arena's navmesh, legs alternating Both (the agent steers and sets
 *     MoveSpeed, root motion moves) and Manual (the agent plans; the game sets MoveSpeed, damped,
 *     from locomotionValue and turns the player toward desiredVelocity at 360 deg/s).
 * The game's rules run between steps, as in the game: on arrival the next leg of a route over the
 * arena's destinations (the rooms through their doors, behind the divider's gap, a corner, the
 * platform up the ramp); the support hand lets go of the rifle while a wall is within 0.75 m of
 * the left shoulder (a raycast; GripHolder.supportWeight eased over blendSeconds), so the left
 * hand can touch it, and takes the rifle again 0.35 s after. Warm-up: 120 steps.
 *
 * world.player               one operation = lb_world_step (1/60 s) for the player; the game's
 *                            rules before it are not timed (the bench times the step itself,
 *                            lb_bench_stats.timed_us).
 * world.player.stage.<phase> the same operation with its phases run one by one
 *                            (lb_world_run_phase: animate, move, model, reach, grip, output), one
 *                            of them timed: where the step's time goes.
 * Error = the main palm's distance to its anchor on the rifle (GripHolder.mainDistance, metres);
 * failures = legs not arrived within 1500 steps. */
#include "../../wasm/src/world/world_core.h"
#include "../c/arena_fixture.h"
#include "bench.h"
#include "limber/limber.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LB_PLAYER_DT (1.0f / 60.0f)
#define LB_PLAYER_WARMUP 120
#define LB_PLAYER_LEG_MAX 1500
#define LB_PLAYER_STAGE_ALL (-1)

typedef struct lb_player_bench {
  lb_world *world;
  lb_scene *scene;
  lb_entity player;
  int stage; /* LB_PLAYER_STAGE_ALL or the lb_phase timed */
  uint32_t leg, leg_steps;
  float wall_seconds;
} lb_player_bench;

/* The player holds the grip lab's rifle. */
#define LB_PLAYER_GRIP                                                                             \
  " \"GripPose\": {},"                                                                             \
  " \"GripHolder\": {\"held\": \"rifle\", \"mainHand\": \"Right\", \"placement\": \"Object\","     \
  " \"blendSeconds\": 0.25},"

/* The rifle, hung from Spine2 where world.grip.placeTwoHanded puts it for the game's player
 * (margin 0.052 m), its anchors and its grip surfaces. */
#define LB_PLAYER_RIFLE                                                                            \
  "{\"name\": \"rifle\", \"components\": {\"Transform\": {\"parent\": \"player\","                 \
  " \"parentJoint\": \"Spine2\", \"position\": [-0.0261565, -0.0774141, 0.1523744],"               \
  " \"rotation\": [0.0415780, -0.0742729, -0.0024161, 0.9963679]},"                                \
  " \"GripProfile\": {\"mainAnchor\": \"gripAnchor\", \"supportAnchor\": \"foregripAnchor\","      \
  " \"mainPose\": \"pistol\", \"supportPose\": \"support\", \"hand\": \"Right\","                  \
  " \"mirror\": \"X\", \"wrap\": true}}},"                                                         \
  "{\"name\": \"gripAnchor\", \"components\": {\"Transform\": {\"parent\": \"rifle\","             \
  " \"position\": [-0.03, -0.075, -0.04], \"rotation\": [0.223607, 0.223607, -0.67082, "           \
  "0.67082]}}},"                                                                                   \
  "{\"name\": \"foregripAnchor\", \"components\": {\"Transform\": {\"parent\": \"rifle\","         \
  " \"position\": [0, -0.055, 0.16], \"rotation\": [0, -0.707107, 0, 0.707107]}}},"                \
  "{\"name\": \"pistolGrip\", \"components\": {\"Transform\": {\"parent\": \"rifle\","             \
  " \"position\": [0, -0.075, -0.04]}, \"GripSurface\": {\"shape\": \"Cylinder\","                 \
  " \"direction\": \"Y\", \"radius\": 0.016, \"height\": 0.11}}},"                                 \
  "{\"name\": \"foregrip\", \"components\": {\"Transform\": {\"parent\": \"rifle\","               \
  " \"position\": [0, -0.02, 0.16]}, \"GripSurface\": {\"shape\": \"Cylinder\","                   \
  " \"direction\": \"Z\", \"radius\": 0.022, \"height\": 0.2}}},"                                  \
  "{\"name\": \"receiver\", \"components\": {\"Transform\": {\"parent\": \"rifle\","               \
  " \"position\": [0, 0, 0.1]}, \"GripSurface\": {\"shape\": \"Box\","                             \
  " \"size\": [0.05, 0.07, 0.5]}}}"

static const char lb_player_scene[] = LB_ARENA_SCENE_HEAD("player")
    LB_ARENA_WALKER("player", LB_PLAYER_GRIP) "," LB_PLAYER_RIFLE "]}";

static void lb_player_teardown(void *p) {
  lb_player_bench *s = p;
  if (!s) {
    return;
  }
  lb_arena_destroy(s->world, s->scene);
  free(s);
}

static lb_result lb_player_load(lb_player_bench *s) {
  lb_result r = lb_arena_load(s->world, lb_player_scene, lb_bench_read_asset, &s->scene);
  if (r != LB_OK) {
    fprintf(stderr, "limber_bench: world.player: %s\n", lb_world_last_error(s->world));
  }
  return r;
}

/* The next leg: the next destination, Both on even legs and Manual on odd ones. */
static void lb_player_next_leg(lb_player_bench *s) {
  s->leg++;
  s->leg_steps = 0;
  lb_nav_agent_c a;
  lb_world_get(s->world, s->player, LB_NAV_AGENT, &a);
  memcpy(a.destination, lb_arena_route[s->leg % LB_ARENA_LEGS], sizeof(vec3));
  a.has_destination = 1;
  a.stopped = 0;
  a.drive_mode = s->leg % 2u ? LB_NAV_DRIVE_MANUAL : LB_NAV_DRIVE_BOTH;
  lb_world_set(s->world, s->player, LB_NAV_AGENT, &a);
}

static float lb_player_yaw(const versor q) {
  return atan2f(2.0f * (q[3] * q[1] + q[0] * q[2]), 1.0f - 2.0f * (q[1] * q[1] + q[0] * q[0]));
}

/* Manual: MoveSpeed (damped) from the agent's locomotion value, the turn toward its desired
 * velocity, as the game's keys would. */
static void lb_player_steer(lb_player_bench *s, const lb_nav_agent_c *a) {
  lb_world_set_animator_float_damped(s->world, s->player, "MoveSpeed", a->locomotion_value, 0.1f);
  float vx = a->desired_velocity[0], vz = a->desired_velocity[2];
  if (vx * vx + vz * vz < 1e-6f) {
    return;
  }
  lb_transform_c t;
  lb_world_get(s->world, s->player, LB_TRANSFORM, &t);
  float yaw = lb_player_yaw(t.rotation);
  float want = atan2f(vx, vz) - yaw;
  want = atan2f(sinf(want), cosf(want));
  float max = 360.0f * 3.14159265f / 180.0f * LB_PLAYER_DT;
  float turn = want > max ? max : want < -max ? -max : want;
  if (turn == 0.0f) {
    return;
  }
  t.rotation[0] = 0.0f;
  t.rotation[1] = sinf((yaw + turn) * 0.5f);
  t.rotation[2] = 0.0f;
  t.rotation[3] = cosf((yaw + turn) * 0.5f);
  lb_world_set(s->world, s->player, LB_TRANSFORM, &t);
}

/* The support hand off the rifle near a wall on the left, back on 0.35 s after. */
static void lb_player_wall_hand(lb_player_bench *s) {
  lb_transform_c t;
  lb_grip_holder_c g;
  lb_world_get(s->world, s->player, LB_TRANSFORM, &t);
  lb_world_get(s->world, s->player, LB_GRIP_HOLDER, &g);
  float yaw = lb_player_yaw(t.rotation);
  vec3 left = {cosf(yaw), 0.0f, -sinf(yaw)};
  vec3 shoulder = {t.position[0] + left[0] * 0.17f, t.position[1] + 1.44f,
                   t.position[2] + left[2] * 0.17f};
  lb_collide_filter f = lb_collide_default_filter();
  f.layers = 2u;
  lb_collide_hit hit;
  bool wall = lb_world_raycast(s->world, shoulder, left, 0.75f, &f, &hit) == LB_OK &&
              hit.entity != LB_NULL_ENTITY;
  s->wall_seconds = wall ? 0.0f : s->wall_seconds + LB_PLAYER_DT;
  float goal = s->wall_seconds < 0.35f ? 0.0f : 1.0f;
  float rate = LB_PLAYER_DT / (g.blend_seconds > LB_PLAYER_DT ? g.blend_seconds : LB_PLAYER_DT);
  float next = goal > g.support_weight ? fminf(goal, g.support_weight + rate)
                                       : fmaxf(goal, g.support_weight - rate);
  if (next != g.support_weight) {
    g.support_weight = next;
    lb_world_set(s->world, s->player, LB_GRIP_HOLDER, &g);
  }
}

/* The game's rules before a step: the route, Manual steering, the wall hand. */
static void lb_player_rules(lb_player_bench *s, lb_bench_stats *st) {
  lb_nav_agent_c a;
  lb_world_get(s->world, s->player, LB_NAV_AGENT, &a);
  if (a.arrived || ++s->leg_steps > LB_PLAYER_LEG_MAX) {
    st->failures += a.arrived ? 0u : 1u;
    lb_player_next_leg(s);
    lb_world_get(s->world, s->player, LB_NAV_AGENT, &a);
  }
  if (a.drive_mode == LB_NAV_DRIVE_MANUAL) {
    lb_player_steer(s, &a);
  }
  lb_player_wall_hand(s);
}

/* One step: whole (timed) or phase by phase with one phase timed. */
static void lb_player_step(lb_player_bench *s, lb_bench_stats *st) {
  if (s->stage == LB_PLAYER_STAGE_ALL) {
    double t0 = lb_bench_now_us();
    lb_world_step(s->world, LB_PLAYER_DT);
    st->timed_us += lb_bench_now_us() - t0;
    return;
  }
  for (int p = 0; p < LB_PHASE_COUNT; ++p) {
    if (p != s->stage) {
      lb_world_run_phase(s->world, (lb_phase)p, LB_PLAYER_DT);
      continue;
    }
    double t0 = lb_bench_now_us();
    lb_world_run_phase(s->world, (lb_phase)p, LB_PLAYER_DT);
    st->timed_us += lb_bench_now_us() - t0;
  }
}

static void lb_player_run(void *p, uint32_t iters, lb_bench_stats *st) {
  lb_player_bench *s = p;
  for (uint32_t i = 0; i < iters; ++i) {
    lb_player_rules(s, st);
    lb_player_step(s, st);
    lb_grip_holder_c g;
    lb_world_get(s->world, s->player, LB_GRIP_HOLDER, &g);
    st->error_sum += g.main_distance;
    st->error_max = g.main_distance > st->error_max ? g.main_distance : st->error_max;
    st->ops++;
  }
}

static void *lb_player_setup(int stage) {
  lb_player_bench *s = calloc(1, sizeof *s);
  if (!s || lb_world_create(NULL, &s->world) != LB_OK || lb_player_load(s) != LB_OK) {
    lb_player_teardown(s);
    return NULL;
  }
  s->player = lb_scene_entity(s->scene, "player");
  s->stage = LB_PLAYER_STAGE_ALL;
  s->wall_seconds = 1.0f;
  lb_bench_stats warm;
  memset(&warm, 0, sizeof warm);
  lb_player_run(s, LB_PLAYER_WARMUP, &warm);
  s->stage = stage;
  return s;
}

static void *lb_player_setup_all(void) {
  return lb_player_setup(LB_PLAYER_STAGE_ALL);
}
static void *lb_player_setup_animate(void) {
  return lb_player_setup(LB_PHASE_ANIMATE);
}
static void *lb_player_setup_move(void) {
  return lb_player_setup(LB_PHASE_MOVE);
}
static void *lb_player_setup_model(void) {
  return lb_player_setup(LB_PHASE_MODEL);
}
static void *lb_player_setup_reach(void) {
  return lb_player_setup(LB_PHASE_REACH);
}
static void *lb_player_setup_grip(void) {
  return lb_player_setup(LB_PHASE_GRIP);
}
static void *lb_player_setup_output(void) {
  return lb_player_setup(LB_PHASE_OUTPUT);
}

#define LB_PLAYER_BENCH(var, name, what, setup)                                                    \
  const lb_bench var = {name, "us", what, 5000, setup, lb_player_run, lb_player_teardown}

LB_PLAYER_BENCH(lb_bench_world_player, "world.player",
                "one player's lb_world_step: Animator (damped MoveSpeed), CharacterController, "
                "two-handed rifle, EnvironmentInteraction, Vault probe every step, NavAgent legs "
                "Both / Manual, on the nav arena",
                lb_player_setup_all);
LB_PLAYER_BENCH(lb_bench_world_player_stage_animate, "world.player.stage.animate",
                "world.player's Animate phase (the Animator's blend and local->model)",
                lb_player_setup_animate);
LB_PLAYER_BENCH(lb_bench_world_player_stage_move, "world.player.stage.move",
                "world.player's Move phase (root motion, NavAgent, Vault probe, controller move)",
                lb_player_setup_move);
LB_PLAYER_BENCH(lb_bench_world_player_stage_model, "world.player.stage.model",
                "world.player's Model phase (transforms, collider refit)", lb_player_setup_model);
LB_PLAYER_BENCH(lb_bench_world_player_stage_reach, "world.player.stage.reach",
                "world.player's Reach phase (EnvironmentInteraction, the vault's hand)",
                lb_player_setup_reach);
LB_PLAYER_BENCH(lb_bench_world_player_stage_grip, "world.player.stage.grip",
                "world.player's Grip phase (the rifle's arms and fingers)", lb_player_setup_grip);
LB_PLAYER_BENCH(lb_bench_world_player_stage_output, "world.player.stage.output",
                "world.player's Output phase (late matrices, statuses, refit of held colliders)",
                lb_player_setup_output);
