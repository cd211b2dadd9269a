/* Collision queries and character controller moves on the corridor level
 * (assets/levels/corridor.json: 12 boxes), the same inputs as the Rapier baseline
 * (tests/bench/rapier_collide.mjs) so both backends are measured in one run.
 *
 * collide.corridor.<query> (closest_point, raycast, sphere_cast, capsule_cast): one
 *   operation = one query of a fixed table of 1024 (xorshift32 from seed 2024, decoded as
 *   (u32 >> 8) / 2^24, the same numbers in C and JS): a point in the level's bounds, a unit
 *   direction, a distance 0.5..4.5 m, a radius 0.05..0.5 m, a capsule core 0.2..1.4 m long.
 *   The "error" is the hit distance (0 on a miss) so the work is kept.
 * controller.move: one operation = one world step (1/60 s) of one CharacterController
 *   (radius 0.3, height 1.8) asked to move 1.4 m/s along a heading that turns 1 degree a step
 *   and leans into the walls; back to the start every 600 steps. The "error" is the height
 *   of the foot above the floor.
 * controller.stage.<casts|slide|step|snap>: where controller.move's time goes. The 600 moves
 *   of one lap are traced once (controller_internal.h: ctl_trace); one operation = one traced
 *   move's part again, from where the move started it: casts = every query the move made,
 *   alone; slide = the foot-level collide-and-slide; step = the step up, across and down (only
 *   on the moves that tried one: the figure is per move); snap = the landing on the ground.
 *   slide, step and snap include their own casts. The "error" is the number of queries. */
#include "../../wasm/src/controller/controller_internal.h"
#include "bench.h"
#include "cJSON.h"
#include "limber/limber.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LB_CQ_COUNT 1024u
#define LB_CQ_DT (1.0f / 60.0f)

typedef struct lb_cq_query {
  float p[3], d[3], axis[3];
  float maxd, radius, half;
} lb_cq_query;

#define LB_CQ_LAP 600u /* moves before the hero goes back to the start */

typedef struct lb_cq_state {
  lb_world *w;
  lb_entity hero;
  lb_cq_query q[LB_CQ_COUNT];
  uint32_t next, steps;
  ctl_trace *traces; /* the stage benches: one lap of moves */
} lb_cq_state;

/* xorshift32 as tests/bench/rapier_collide.mjs runs it */
static uint32_t lb_cq_s;
static float lb_cq_rand(void) {
  uint32_t x = lb_cq_s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  lb_cq_s = x;
  return (float)(x >> 8) / 16777216.0f;
}

static void lb_cq_dir(float *o) {
  for (;;) {
    float v[3] = {lb_cq_rand() * 2.0f - 1.0f, lb_cq_rand() * 2.0f - 1.0f,
                  lb_cq_rand() * 2.0f - 1.0f};
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.1f && l <= 1.0f) {
      o[0] = v[0] / l, o[1] = v[1] / l, o[2] = v[2] / l;
      return;
    }
  }
}

static int lb_cq_load_level(lb_world *w) {
  FILE *f = fopen("assets/levels/corridor.json", "rb");
  if (!f) {
    fprintf(stderr, "bench: cannot open assets/levels/corridor.json (run from the repo root)\n");
    return 0;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)n + 1);
  size_t got = text ? fread(text, 1, (size_t)n, f) : 0;
  fclose(f);
  if (!text || got != (size_t)n) {
    free(text);
    return 0;
  }
  text[n] = 0;
  cJSON *root = cJSON_Parse(text);
  free(text);
  const cJSON *p;
  int ok = root != NULL;
  cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(root, "pieces")) {
    lb_entity e;
    lb_transform_c t;
    lb_collider_c c;
    lb_component_defaults(LB_TRANSFORM, &t);
    lb_component_defaults(LB_COLLIDER, &c);
    c.shape = LB_COLLIDER_BOX;
    for (int k = 0; k < 3; ++k) {
      t.position[k] = (float)cJSON_GetArrayItem(cJSON_GetObjectItem(p, "center"), k)->valuedouble;
      c.size[k] = (float)cJSON_GetArrayItem(cJSON_GetObjectItem(p, "size"), k)->valuedouble;
    }
    for (int k = 0; k < 4; ++k) {
      t.rotation[k] = (float)cJSON_GetArrayItem(cJSON_GetObjectItem(p, "rotation"), k)->valuedouble;
    }
    ok = ok && lb_world_spawn(w, &e) == LB_OK && lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK &&
         lb_world_insert(w, e, LB_COLLIDER, &c) == LB_OK;
  }
  cJSON_Delete(root);
  return ok;
}

static void lb_cq_place_hero(lb_cq_state *s) {
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[1] = 0.01f;
  lb_world_set(s->w, s->hero, LB_TRANSFORM, &t);
}

static void *lb_cq_setup(void) {
  lb_cq_state *s = calloc(1, sizeof *s);
  if (!s || lb_world_create(NULL, &s->w) != LB_OK || !lb_cq_load_level(s->w)) {
    if (s && s->w) {
      lb_world_destroy(s->w);
    }
    free(s);
    return NULL;
  }
  lb_cq_s = 2024u;
  const float lo[3] = {-2.0f, -0.1f, -2.0f}, hi[3] = {10.0f, 2.5f, 14.0f};
  for (uint32_t i = 0; i < LB_CQ_COUNT; ++i) {
    lb_cq_query *q = &s->q[i];
    for (int k = 0; k < 3; ++k) {
      q->p[k] = lo[k] + (hi[k] - lo[k]) * lb_cq_rand();
    }
    lb_cq_dir(q->d);
    lb_cq_dir(q->axis);
    q->maxd = 0.5f + 4.0f * lb_cq_rand();
    q->radius = 0.05f + 0.45f * lb_cq_rand();
    q->half = 0.1f + 0.6f * lb_cq_rand();
  }
  lb_character_controller_c cc;
  lb_component_defaults(LB_CHARACTER_CONTROLLER, &cc);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  if (lb_world_spawn(s->w, &s->hero) != LB_OK ||
      lb_world_insert(s->w, s->hero, LB_TRANSFORM, &t) != LB_OK ||
      lb_world_insert(s->w, s->hero, LB_CHARACTER_CONTROLLER, &cc) != LB_OK ||
      lb_world_step(s->w, LB_CQ_DT) != LB_OK) {
    lb_world_destroy(s->w);
    free(s);
    return NULL;
  }
  lb_cq_place_hero(s);
  return s;
}

static void lb_cq_teardown(void *state) {
  lb_cq_state *s = state;
  lb_world_destroy(s->w);
  free(s->traces);
  free(s);
}

typedef enum { CQ_CLOSEST, CQ_RAY, CQ_SPHERE, CQ_CAPSULE } lb_cq_kind;

static void lb_cq_run(lb_cq_state *s, lb_cq_kind kind, uint32_t iters, lb_bench_stats *st) {
  for (uint32_t i = 0; i < iters; ++i) {
    const lb_cq_query *q = &s->q[s->next++ & (LB_CQ_COUNT - 1)];
    lb_collide_hit h;
    lb_result r;
    if (kind == CQ_CLOSEST) {
      r = lb_world_closest_point(s->w, q->p, q->maxd, NULL, &h);
    } else if (kind == CQ_RAY) {
      r = lb_world_raycast(s->w, q->p, q->d, q->maxd, NULL, &h);
    } else if (kind == CQ_SPHERE) {
      r = lb_world_sphere_cast(s->w, q->p, q->radius, q->d, q->maxd, NULL, &h);
    } else {
      vec3 a, b;
      for (int k = 0; k < 3; ++k) {
        a[k] = q->p[k] - q->axis[k] * q->half;
        b[k] = q->p[k] + q->axis[k] * q->half;
      }
      r = lb_world_capsule_cast(s->w, a, b, q->radius, q->d, q->maxd, NULL, &h);
    }
    st->failures += r != LB_OK;
    double e = h.entity ? (double)h.distance : 0.0;
    st->error_sum += e < 0 ? -e : e;
    st->ops++;
  }
}

static void lb_cq_run_closest(void *s, uint32_t n, lb_bench_stats *st) {
  lb_cq_run(s, CQ_CLOSEST, n, st);
}
static void lb_cq_run_ray(void *s, uint32_t n, lb_bench_stats *st) {
  lb_cq_run(s, CQ_RAY, n, st);
}
static void lb_cq_run_sphere(void *s, uint32_t n, lb_bench_stats *st) {
  lb_cq_run(s, CQ_SPHERE, n, st);
}
static void lb_cq_run_capsule(void *s, uint32_t n, lb_bench_stats *st) {
  lb_cq_run(s, CQ_CAPSULE, n, st);
}

/* Heading: 1 degree a step, as rapier_collide.mjs. */
static void lb_cq_run_move(void *state, uint32_t iters, lb_bench_stats *st) {
  lb_cq_state *s = state;
  for (uint32_t i = 0; i < iters; ++i) {
    if (s->steps % LB_CQ_LAP == 0u) {
      lb_cq_place_hero(s);
    }
    float a = (float)(s->steps % 360u) * 0.017453292f;
    float v = 1.4f * LB_CQ_DT;
    vec3 d = {(sinf(a) * 0.8f) * v, 0.0f, (0.6f + cosf(a) * 0.4f) * v};
    s->steps++;
    lb_result r = lb_world_controller_move(s->w, s->hero, d);
    r = r == LB_OK ? lb_world_step(s->w, LB_CQ_DT) : r;
    lb_transform t;
    lb_world_entity_transform(s->w, s->hero, &t);
    st->failures += r != LB_OK;
    st->error_sum += t.t[1];
    st->error_max = t.t[1] > st->error_max ? t.t[1] : st->error_max;
    st->ops++;
  }
}

/* ---- the stage split ----------------------------------------------------------------------- */
static void *lb_cq_setup_stages(void) {
  lb_cq_state *s = lb_cq_setup();
  if (!s) {
    return NULL;
  }
  s->traces = calloc(LB_CQ_LAP, sizeof *s->traces);
  if (!s->traces) {
    lb_cq_teardown(s);
    return NULL;
  }
  ctl_world *cw = ctl_world_of(s->w);
  lb_bench_stats st;
  memset(&st, 0, sizeof st);
  for (uint32_t i = 0; i < LB_CQ_LAP; ++i) {
    cw->trace = &s->traces[i];
    lb_cq_run_move(s, 1, &st);
  }
  cw->trace = NULL;
  s->next = 0;
  return st.failures ? (lb_cq_teardown(s), NULL) : s;
}

static void lb_cq_replay_casts(lb_cq_state *s, const ctl_trace *tr, lb_bench_stats *st) {
  lb_collide_filter f = lb_collide_default_filter();
  lb_character_controller_c cc;
  lb_world_get(s->w, s->hero, LB_CHARACTER_CONTROLLER, &cc);
  f.layers = cc.layers;
  f.exclude = s->hero;
  for (uint32_t k = 0; k < tr->queries; ++k) {
    const ctl_query *q = &tr->q[k];
    lb_collide_hit h;
    lb_result r = q->r > 0.0f
                      ? lb_world_capsule_cast(s->w, q->a, q->b, q->r, q->dir, q->dist, &f, &h)
                      : lb_world_raycast(s->w, q->a, q->dir, q->dist, &f, &h);
    st->failures += r != LB_OK;
  }
}

static void lb_cq_run_stage(void *state, uint32_t iters, lb_bench_stats *st, int stage) {
  lb_cq_state *s = state;
  int32_t slot = lb_slot_of(s->w, s->hero);
  for (uint32_t i = 0; i < iters; ++i) {
    const ctl_trace *tr = &s->traces[s->next++ % LB_CQ_LAP];
    if (stage < 0) {
      lb_cq_replay_casts(s, tr, st);
    } else {
      ctl_stage_run(s->w, (uint32_t)slot, tr, (ctl_stage_id)stage);
    }
    st->error_sum += (double)tr->queries;
    st->ops++;
  }
}

static void lb_cq_run_casts(void *s, uint32_t n, lb_bench_stats *st) {
  lb_cq_run_stage(s, n, st, -1);
}
static void lb_cq_run_slide(void *s, uint32_t n, lb_bench_stats *st) {
  lb_cq_run_stage(s, n, st, CTL_STAGE_SLIDE);
}
static void lb_cq_run_step(void *s, uint32_t n, lb_bench_stats *st) {
  lb_cq_run_stage(s, n, st, CTL_STAGE_STEP);
}
static void lb_cq_run_snap(void *s, uint32_t n, lb_bench_stats *st) {
  lb_cq_run_stage(s, n, st, CTL_STAGE_SNAP);
}

const lb_bench lb_bench_collide_closest = {"collide.corridor.closest_point",
                                           "us",
                                           "closest point to a random point, corridor level",
                                           100000,
                                           lb_cq_setup,
                                           lb_cq_run_closest,
                                           lb_cq_teardown};
const lb_bench lb_bench_collide_ray = {"collide.corridor.raycast",
                                       "us",
                                       "raycast 0.5-4.5 m, corridor level",
                                       100000,
                                       lb_cq_setup,
                                       lb_cq_run_ray,
                                       lb_cq_teardown};
const lb_bench lb_bench_collide_sphere = {"collide.corridor.sphere_cast",
                                          "us",
                                          "sphere cast r 0.05-0.5 m over 0.5-4.5 m, corridor level",
                                          100000,
                                          lb_cq_setup,
                                          lb_cq_run_sphere,
                                          lb_cq_teardown};
const lb_bench lb_bench_collide_capsule = {
    "collide.corridor.capsule_cast",
    "us",
    "capsule cast (core 0.2-1.4 m, r 0.05-0.5 m) over 0.5-4.5 m, corridor level",
    50000,
    lb_cq_setup,
    lb_cq_run_capsule,
    lb_cq_teardown};
const lb_bench lb_bench_controller_move = {
    "controller.move",
    "us",
    "one world step moving one CharacterController (collide-and-slide, step, snap), corridor",
    20000,
    lb_cq_setup,
    lb_cq_run_move,
    lb_cq_teardown};
const lb_bench lb_bench_controller_stage_casts = {
    "controller.stage.casts",
    "us",
    "controller.move's queries alone (one traced move's)",
    20000,
    lb_cq_setup_stages,
    lb_cq_run_casts,
    lb_cq_teardown};
const lb_bench lb_bench_controller_stage_slide = {"controller.stage.slide",
                                                  "us",
                                                  "controller.move's foot-level collide-and-slide",
                                                  20000,
                                                  lb_cq_setup_stages,
                                                  lb_cq_run_slide,
                                                  lb_cq_teardown};
const lb_bench lb_bench_controller_stage_step = {
    "controller.stage.step",
    "us",
    "controller.move's step up, across and down, per move",
    20000,
    lb_cq_setup_stages,
    lb_cq_run_step,
    lb_cq_teardown};
const lb_bench lb_bench_controller_stage_snap = {"controller.stage.snap",
                                                 "us",
                                                 "controller.move's landing on the ground (snap)",
                                                 20000,
                                                 lb_cq_setup_stages,
                                                 lb_cq_run_snap,
                                                 lb_cq_teardown};
