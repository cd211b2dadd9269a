/* Benchmark harness shared by the native (limber_bench) and WebAssembly
 * (build/bench/bench-simd.js, bench-scalar.js) builds of the C files in tests/bench.
 *
 * A benchmark is a setup/run/teardown triple. `run` does `iters` operations and
 * adds each operation's final error (metres, or 0 when it has none) to the state,
 * so the work cannot be optimised away and accuracy is reported next to speed.
 * The clock (CLOCK_MONOTONIC) is read only here, never in the core. */
#ifndef LIMBER_BENCH_H
#define LIMBER_BENCH_H

#include <stddef.h>
#include <stdint.h>

typedef struct lb_bench_stats {
  double error_sum; /* sum of per-operation errors, metres */
  double error_max;
  uint64_t ops;
  uint64_t failures; /* operations whose call returned an error */
  uint64_t work;     /* optional count of inner work units (see lb_bench.work), summed */
  /* Optional: microseconds the bench timed itself, summed (a stage bench times one phase of
   * each operation with the same clock); when a run adds to it, the sample is this per
   * operation instead of the whole batch's time. */
  double timed_us;
} lb_bench_stats;

typedef struct lb_bench {
  const char *name;       /* "ik.two_bone" */
  const char *unit;       /* unit of one reported sample, "us" = microseconds per op */
  const char *what;       /* one line: what one operation includes */
  uint32_t default_iters; /* operations per timed batch unless --iters says */
  void *(*setup)(void);   /* null on failure */
  void (*run)(void *state, uint32_t iters, lb_bench_stats *stats);
  void (*teardown)(void *state);
  /* Optional (NULL = none): what stats.work counts, e.g. "queries" (point-shape distance
   * queries); reported per operation as "work_per_op" with "work" = this label. */
  const char *work;
  /* Optional (0 = any): batches are rounded up to a multiple of this many operations,
   * e.g. N for benches whose operation is one of N characters' share of a whole step. */
  uint32_t iter_multiple;
  /* Optional (0 = no): run only when --bench names it or its family, not by default. */
  int opt_in;
} lb_bench;

/* The harness's clock (CLOCK_MONOTONIC, microseconds), for a bench that times a part of its
 * operation (lb_bench_stats.timed_us). */
double lb_bench_now_us(void);

/* After lb_world_create of a world with threads > 1: starts its workers where the host runs
 * them (bench-mt.js, limber-mt's core: bench_threads.c); nothing natively. 0 on failure. */
struct lb_world;
int lb_bench_start_threads(struct lb_world *w);

/* Registered benchmarks (bench_ik.c, bench_grip.c). */
extern const lb_bench lb_bench_ik_two_bone;
extern const lb_bench lb_bench_world_step_ik;
extern const lb_bench lb_bench_grip_hand;
extern const lb_bench lb_bench_grip_character;
extern const lb_bench lb_bench_grip_stage_pose;
extern const lb_bench lb_bench_grip_stage_wrap;
extern const lb_bench lb_bench_grip_stage_arms;
extern const lb_bench lb_bench_grip_stage_fingers;
/* bench_anim.c */
extern const lb_bench lb_bench_anim_character;
extern const lb_bench lb_bench_anim_character_unreal;
extern const lb_bench lb_bench_anim_stage_sample;
extern const lb_bench lb_bench_anim_stage_blend;
extern const lb_bench lb_bench_anim_stage_model;
extern const lb_bench lb_bench_anim_stage_sample_blend;
/* assets/rigs/<file> read whole (malloc'd), from the working directory or the repo root;
 * null if it cannot be read (bench_anim.c). */
uint8_t *lb_bench_read_rig(const char *file, size_t *size);
/* Any repository file by its path from the root (assets/levels/...), the same way. */
void *lb_bench_read_asset(const char *rel, size_t *size);
/* bench_player.c: world.player and its per-phase split world.player.stage.<phase> */
extern const lb_bench lb_bench_world_player;
extern const lb_bench lb_bench_world_player_stage_animate;
extern const lb_bench lb_bench_world_player_stage_move;
extern const lb_bench lb_bench_world_player_stage_model;
extern const lb_bench lb_bench_world_player_stage_reach;
extern const lb_bench lb_bench_world_player_stage_grip;
extern const lb_bench lb_bench_world_player_stage_output;
/* bench_npc.c: world.npc.1000 and its per-phase split world.npc.1000.stage.<phase> */
extern const lb_bench lb_bench_world_npc_1000;
/* native only: world.crowd.1000 and world.npc.1000 at lb_world_def.threads 1 and 2 */
extern const lb_bench lb_bench_world_crowd_1000_t1;
extern const lb_bench lb_bench_world_crowd_1000_t2;
extern const lb_bench lb_bench_world_npc_1000_t1;
extern const lb_bench lb_bench_world_npc_1000_t2;
extern const lb_bench lb_bench_world_npc_1000_stage_animate;
extern const lb_bench lb_bench_world_npc_1000_stage_move;
extern const lb_bench lb_bench_world_npc_1000_stage_model;
extern const lb_bench lb_bench_world_npc_1000_stage_reach;
extern const lb_bench lb_bench_world_npc_1000_stage_grip;
extern const lb_bench lb_bench_world_npc_1000_stage_output;
/* bench_crowd.c: world.crowd.<N> */
extern const lb_bench lb_bench_world_crowd_100;
extern const lb_bench lb_bench_world_crowd_1000;
/* bench_nav.c */
extern const lb_bench lb_bench_nav_path;
extern const lb_bench lb_bench_nav_agents_100;
extern const lb_bench lb_bench_nav_agents_1000;
extern const lb_bench lb_bench_nav_crowd_100; /* nav.crowd.<N>[.off] */
extern const lb_bench lb_bench_nav_crowd_1000;
extern const lb_bench lb_bench_nav_crowd_100_off;
extern const lb_bench lb_bench_nav_crowd_1000_off;
/* bench_scale.c: world.scale.<object|hand>.<N> */
extern const lb_bench lb_bench_world_scale_object_10;
extern const lb_bench lb_bench_world_scale_object_100;
extern const lb_bench lb_bench_world_scale_object_1000;
extern const lb_bench lb_bench_world_scale_object_10000;
extern const lb_bench lb_bench_world_scale_hand_10;
extern const lb_bench lb_bench_world_scale_hand_100;
extern const lb_bench lb_bench_world_scale_hand_1000;
extern const lb_bench lb_bench_world_scale_hand_10000;

/* bench_collide.c: collide.<closest|sphere_cast|ray>.<100|1000|mesh>[.brute] */
extern const lb_bench lb_bench_collide_closest_100;
extern const lb_bench lb_bench_collide_closest_100_brute;
extern const lb_bench lb_bench_collide_closest_1000;
extern const lb_bench lb_bench_collide_closest_1000_brute;
extern const lb_bench lb_bench_collide_closest_mesh;
extern const lb_bench lb_bench_collide_closest_mesh_brute;
extern const lb_bench lb_bench_collide_sphere_100;
extern const lb_bench lb_bench_collide_sphere_100_brute;
extern const lb_bench lb_bench_collide_sphere_1000;
extern const lb_bench lb_bench_collide_sphere_1000_brute;
extern const lb_bench lb_bench_collide_sphere_mesh;
extern const lb_bench lb_bench_collide_sphere_mesh_brute;
extern const lb_bench lb_bench_collide_ray_100;
extern const lb_bench lb_bench_collide_ray_100_brute;
extern const lb_bench lb_bench_collide_ray_1000;
extern const lb_bench lb_bench_collide_ray_1000_brute;
extern const lb_bench lb_bench_collide_ray_mesh;
extern const lb_bench lb_bench_collide_ray_mesh_brute;
/* bench_controller.c: queries and controller moves on the corridor level */
extern const lb_bench lb_bench_collide_closest;
extern const lb_bench lb_bench_collide_ray;
extern const lb_bench lb_bench_collide_sphere;
extern const lb_bench lb_bench_collide_capsule;
extern const lb_bench lb_bench_controller_move;
extern const lb_bench lb_bench_controller_stage_casts;
extern const lb_bench lb_bench_controller_stage_slide;
extern const lb_bench lb_bench_controller_stage_step;
extern const lb_bench lb_bench_controller_stage_snap;
/* bench_interact.c: interact.character.<N colliders> */
extern const lb_bench lb_bench_interact_character_100;
extern const lb_bench lb_bench_interact_character_1000;
/* bench_vault.c: vault.detect.<course|1000 colliders> */
extern const lb_bench lb_bench_vault_detect_course;
extern const lb_bench lb_bench_vault_detect_1000;

/* Deterministic reach path: `count` points on a Lissajous curve around `center`,
 * every one within the arm's reach (see bench_ik.c). Same formula as
 * tests/bench/three_ik.mjs. */
#define LB_BENCH_PATH_LEN 1024u
void lb_bench_reach_path(const float center[3], float (*out)[3], uint32_t count);

#endif
