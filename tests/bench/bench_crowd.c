/* world.crowd.<N>: what one animated character costs in a whole world step.
 *
 * N characters (N = 100, 1000) in ONE world: the Mixamo mannequin (assets/rigs/
 * mannequin-mixamo.glb, 65 joints), each with Transform, Rig and an Animator playing a
 * Locomotion blend space over idle / walk / run on MoveSpeed (the locomotion scene's
 * controller) with root motion applied; character k walks at MoveSpeed 0.35 + 3.1 (k % 10) / 9
 * m/s, so most characters blend two clips. One operation = one character-step: a timed
 * batch is whole lb_world_step calls (dt = 1/60 s) and the sample is its time / (N steps).
 * Everything a step does for them is in: the Animator (state, sampling and blending in one
 * pass, root motion), the controller-less move, local->model and the 4x4 output matrices.
 * No error is measured (0). */
#include "bench.h"
#include "limber/gltf.h"
#include "limber/limber.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LB_CROWD_DT (1.0f / 60.0f)
#define LB_CROWD_BATCH 2000u
#define LB_CROWD_WARMUP_STEPS 3

static const char *const lb_crowd_controller =
    "{ \"rootJoint\": \"Hips\","
    "  \"parameters\": { \"MoveSpeed\": { \"type\": \"float\", \"default\": 0 } },"
    "  \"states\": {"
    "    \"Locomotion\": { \"blend\": { \"parameter\": \"MoveSpeed\", \"points\": ["
    "       { \"clip\": \"idle\", \"value\": 0 }, { \"clip\": \"walk\", \"value\": 1.4 },"
    "       { \"clip\": \"run\", \"value\": 3.5 } ] } } } }";

typedef struct lb_crowd_state {
  lb_world *world;
  uint32_t n;
} lb_crowd_state;

static void lb_crowd_teardown(void *p) {
  lb_crowd_state *s = p;
  if (s) {
    if (s->world) {
      lb_world_destroy(s->world);
    }
    free(s);
  }
}

static int lb_crowd_init(lb_crowd_state *s, uint32_t n, uint32_t threads) {
  lb_world_def wd = lb_world_default_def();
  wd.threads = threads;
  if (lb_world_create(&wd, &s->world) != LB_OK || !lb_bench_start_threads(s->world)) {
    return 0;
  }
  size_t size = 0;
  uint8_t *bytes = lb_bench_read_rig("mannequin-mixamo.glb", &size);
  if (!bytes) {
    fprintf(stderr, "world.crowd: cannot read mannequin-mixamo.glb\n");
    return 0;
  }
  lb_gltf_def gd = lb_gltf_default_def();
  gd.data = bytes;
  gd.size = size;
  lb_gltf_added rig;
  lb_result r = lb_world_add_gltf(s->world, &gd, &rig);
  free(bytes);
  uint32_t controller = 0;
  if (r == LB_OK) {
    r = lb_world_add_controller_json(s->world, rig.skeleton, "locomotion", lb_crowd_controller,
                                     strlen(lb_crowd_controller), &controller);
  }
  uint32_t side = 1;
  while (side * side < n) {
    ++side;
  }
  for (uint32_t k = 0; r == LB_OK && k < n; ++k) {
    lb_entity e;
    r = lb_world_spawn(s->world, &e);
    lb_transform_c t;
    lb_component_defaults(LB_TRANSFORM, &t);
    t.position[0] = 2.0f * (float)(k % side);
    t.position[2] = 2.0f * (float)(k / side);
    lb_rig_c rc = {rig.skeleton};
    lb_animator_c an;
    lb_component_defaults(LB_ANIMATOR, &an);
    an.controller = controller;
    an.apply_root_motion = true;
    if (r == LB_OK) {
      r = lb_world_insert(s->world, e, LB_TRANSFORM, &t);
    }
    if (r == LB_OK) {
      r = lb_world_insert(s->world, e, LB_RIG, &rc);
    }
    if (r == LB_OK) {
      r = lb_world_insert(s->world, e, LB_ANIMATOR, &an);
    }
    if (r == LB_OK) {
      r = lb_world_set_animator_float(s->world, e, "MoveSpeed",
                                      0.35f + 3.1f * (float)(k % 10u) / 9.0f);
    }
  }
  for (int i = 0; r == LB_OK && i < LB_CROWD_WARMUP_STEPS; ++i) {
    r = lb_world_step(s->world, LB_CROWD_DT);
  }
  if (r != LB_OK) {
    fprintf(stderr, "world.crowd: %s\n", lb_world_last_error(s->world));
    return 0;
  }
  s->n = n;
  return 1;
}

static void *lb_crowd_setup(uint32_t n, uint32_t threads) {
  lb_crowd_state *s = calloc(1, sizeof *s);
  if (!s || !lb_crowd_init(s, n, threads)) {
    lb_crowd_teardown(s);
    return NULL;
  }
  return s;
}

static void lb_crowd_run(void *p, uint32_t iters, lb_bench_stats *st) {
  lb_crowd_state *s = p;
  uint32_t steps = iters / s->n; /* iters is a multiple of n (iter_multiple) */
  for (uint32_t i = 0; i < steps; ++i) {
    if (lb_world_step(s->world, LB_CROWD_DT) != LB_OK) {
      st->failures += s->n;
    }
  }
  st->ops += iters;
}

#define LB_CROWD_STEPS(n) ((n) >= LB_CROWD_BATCH ? 1u : LB_CROWD_BATCH / (n))

#define LB_CROWD_BENCH(n)                                                                          \
  static void *lb_crowd_setup_##n(void) {                                                          \
    return lb_crowd_setup(n, 1u);                                                                  \
  }                                                                                                \
  const lb_bench lb_bench_world_crowd_##n = {                                                      \
      "world.crowd." #n,                                                                           \
      "us",                                                                                        \
      "one character-step: lb_world_step (1/60 s) over " #n " mannequins walking a locomotion "    \
      "blend space (Animator, root motion) in one world, divided by " #n,                          \
      (n)*LB_CROWD_STEPS(n),                                                                       \
      lb_crowd_setup_##n,                                                                          \
      lb_crowd_run,                                                                                \
      lb_crowd_teardown,                                                                           \
      NULL,                                                                                        \
      (n),                                                                                         \
      0};

LB_CROWD_BENCH(100)
LB_CROWD_BENCH(1000)

/* Native only (bench_main.c): world.crowd.1000 at lb_world_def.threads 1 and 2. */
#define LB_CROWD_THREADS_BENCH(t)                                                                  \
  static void *lb_crowd_setup_1000_t##t(void) {                                                    \
    return lb_crowd_setup(1000u, t);                                                               \
  }                                                                                                \
  const lb_bench lb_bench_world_crowd_1000_t##t = {                                                \
      "world.crowd.1000.t" #t,                                                                     \
      "us",                                                                                        \
      "world.crowd.1000 in a world made with lb_world_def.threads = " #t,                          \
      1000u * LB_CROWD_STEPS(1000u),                                                               \
      lb_crowd_setup_1000_t##t,                                                                    \
      lb_crowd_run,                                                                                \
      lb_crowd_teardown,                                                                           \
      NULL,                                                                                        \
      1000u,                                                                                       \
      0};

LB_CROWD_THREADS_BENCH(1)
LB_CROWD_THREADS_BENCH(2)
