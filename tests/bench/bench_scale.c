/* world.scale: how the per-character cost of lb_world_step grows with the number of
 * characters in one world.
 *
 * world.scale.<placement>.<N>  (placement object|hand, N = 10, 100, 1000, 10000)
 *   The grip-lab hold (assets/scenes/grip-lab.json: a humanoid holding a rifle with two
 *   anchors, two GripSurface cylinders and a box) repeated N times in ONE world.
 *   Built only through the scene API (lb_scene_load_files on JSON text generated here),
 *   never through component structs, so the bench survives changes to their layout:
 *   grip-lab's seven entities are copied N times with the copy index in every name
 *   ("hero.17", "rifle.17", "gripAnchor.17", ...); copy k stands on a square grid 2 m
 *   apart (hero and rifle offset, the rifle's children follow their parent); the
 *   timeline is dropped; GripHolder.placement is Object or Hand. Two deviations from
 *   grip-lab, both so that setup stays cheap and every timed step does the same
 *   steady-state work at every N:
 *   - blendSeconds 0 (GripHolder and GripPose): the hold is complete after the first
 *     step instead of easing in over 15 steps, so a few warm-up steps suffice even at
 *     N = 10000, where a timed batch is a single step;
 *   - the rig asset (builtin humanoid, 1.8 m) is added once with lb_world_add_humanoid
 *     and the copies are loaded LB_SCALE_COPIES_PER_SCENE at a time, as several scenes
 *     naming it by handle (smaller texts to build; one scene of all copies loads as well).
 *   Setup: load, then LB_SCALE_WARMUP_STEPS steps (untimed). One operation = one
 *   character-step: a timed batch is `steps` whole lb_world_step calls (dt = 1/60 s), and
 *   the sample is the batch time / (N * steps) in microseconds, so a flat line over N
 *   means the step is linear in the number of characters. `steps` shrinks with N
 *   (200, 20, 2, 1: ~2000 character-steps a batch, 10000 at N = 10000; a batch is
 *   rounded to whole steps, see lb_bench.iter_multiple).
 *   The "error" is a character's larger palm-to-anchor distance (metres), averaged over
 *   the characters after the batch; "failures" counts character-steps whose holder did
 *   not report both hands reached (read after the batch). With Hand placement on the
 *   rest (T) pose the rifle follows the outstretched right hand and the left hand falls
 *   about 0.54 m short of the foregrip, at every N: failures there are expected.
 *   Outputs are read through the component schema (field names), not the structs. */
#include "bench.h"
#include "limber/limber.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LB_SCALE_DT (1.0f / 60.0f)
#define LB_SCALE_WARMUP_STEPS 2
#define LB_SCALE_COPIES_PER_SCENE 100 /* copies per scene text (any number works) */
#define LB_SCALE_SPACING 2.0          /* metres between neighbouring characters */
#define LB_SCALE_ENTITIES_PER_COPY 7u
#define LB_SCALE_BATCH 2000u /* character-steps per timed batch, at least one step */

/* ---- scene text ------------------------------------------------------------------------ */

typedef struct lb_text {
  char *p;
  size_t len, cap;
  int ok;
} lb_text;

static void lb_text_printf(lb_text *b, const char *fmt, ...) {
  for (int attempt = 0; attempt < 2 && b->ok; ++attempt) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
      b->ok = 0;
    } else if (b->p && (size_t)n < b->cap - b->len) {
      b->len += (size_t)n;
      return;
    } else {
      size_t cap = b->cap ? b->cap : 4096;
      while (cap - b->len <= (size_t)n) {
        cap *= 2;
      }
      char *q = realloc(b->p, cap);
      if (!q) {
        b->ok = 0;
      } else {
        b->p = q;
        b->cap = cap;
      }
    }
  }
}

/* grip-lab.json's entities for copy k, the hero at (x, 0, z); no trailing comma. */
static void lb_scale_copy(lb_text *b, uint32_t k, uint32_t rig, double x, double z,
                          const char *placement) {
  lb_text_printf(b,
                 "{\"name\":\"hero.%u\",\"components\":{"
                 "\"Transform\":{\"position\":[%.3f,0,%.3f]},"
                 "\"Rig\":{\"asset\":%u},"
                 "\"GripPose\":{\"rightTrigger\":0,\"blendSeconds\":0},"
                 "\"GripHolder\":{\"held\":\"rifle.%u\",\"mainHand\":\"Right\","
                 "\"placement\":\"%s\",\"blendSeconds\":0}}},\n",
                 k, x, z, rig, k, placement);
  lb_text_printf(b,
                 "{\"name\":\"rifle.%u\",\"components\":{"
                 "\"Transform\":{\"position\":[%.3f,1.25,%.3f]},"
                 "\"GripProfile\":{\"mainAnchor\":\"gripAnchor.%u\","
                 "\"supportAnchor\":\"foregripAnchor.%u\",\"mainPose\":\"pistol\","
                 "\"supportPose\":\"support\",\"hand\":\"Right\",\"mirror\":\"X\","
                 "\"wrap\":true}}},\n",
                 k, x - 0.05, z + 0.22, k, k);
  lb_text_printf(b,
                 "{\"name\":\"gripAnchor.%u\",\"components\":{\"Transform\":{"
                 "\"parent\":\"rifle.%u\",\"position\":[-0.03,-0.075,-0.04],"
                 "\"rotation\":[0.223607,0.223607,-0.67082,0.67082]}}},\n",
                 k, k);
  lb_text_printf(b,
                 "{\"name\":\"foregripAnchor.%u\",\"components\":{\"Transform\":{"
                 "\"parent\":\"rifle.%u\",\"position\":[0.0,-0.055,0.16],"
                 "\"rotation\":[0.0,-0.707107,0.0,0.707107]}}},\n",
                 k, k);
  lb_text_printf(b,
                 "{\"name\":\"pistolGrip.%u\",\"components\":{\"Transform\":{"
                 "\"parent\":\"rifle.%u\",\"position\":[0,-0.075,-0.04]},"
                 "\"GripSurface\":{\"shape\":\"Cylinder\",\"direction\":\"Y\","
                 "\"radius\":0.016,\"height\":0.11}}},\n",
                 k, k);
  lb_text_printf(b,
                 "{\"name\":\"foregrip.%u\",\"components\":{\"Transform\":{"
                 "\"parent\":\"rifle.%u\",\"position\":[0,-0.02,0.16]},"
                 "\"GripSurface\":{\"shape\":\"Cylinder\",\"direction\":\"Z\","
                 "\"radius\":0.022,\"height\":0.2}}},\n",
                 k, k);
  lb_text_printf(b,
                 "{\"name\":\"receiver.%u\",\"components\":{\"Transform\":{"
                 "\"parent\":\"rifle.%u\",\"position\":[0,0.0,0.1]},"
                 "\"GripSurface\":{\"shape\":\"Box\",\"size\":[0.05,0.07,0.5]}}}",
                 k, k);
}

/* Scene text for copies [first, end) of `n` (a square grid), their Rig on asset handle
 * `rig`; malloc'd, NULL on failure. */
static char *lb_scale_scene(uint32_t first, uint32_t end, uint32_t n, uint32_t rig,
                            const char *placement, size_t *len) {
  lb_text b = {NULL, 0, 0, 1};
  uint32_t side = 1;
  while (side * side < n) {
    ++side;
  }
  lb_text_printf(&b, "{\"entities\":[\n");
  for (uint32_t k = first; k < end; ++k) {
    lb_scale_copy(&b, k, rig, LB_SCALE_SPACING * (double)(k % side),
                  LB_SCALE_SPACING * (double)(k / side), placement);
    lb_text_printf(&b, k + 1 < end ? ",\n" : "\n");
  }
  lb_text_printf(&b, "]}\n");
  if (!b.ok) {
    free(b.p);
    return NULL;
  }
  *len = b.len;
  return b.p;
}

/* ---- bench ----------------------------------------------------------------------------- */

typedef struct lb_scale_state {
  lb_world *world;
  lb_scene **scenes; /* one per LB_SCALE_COPIES_PER_SCENE copies */
  uint32_t scene_count;
  uint32_t n;
  lb_entity *heroes;
  uint32_t holder_type;
  const lb_field *main_distance, *support_distance, *main_reached, *support_reached;
} lb_scale_state;

static void lb_scale_teardown(void *p) {
  lb_scale_state *s = p;
  if (s) {
    for (uint32_t i = 0; i < s->scene_count; ++i) {
      lb_scene_destroy(s->world, s->scenes[i]);
    }
    if (s->world) {
      lb_world_destroy(s->world);
    }
    free(s->scenes);
    free(s->heroes);
    free(s);
  }
}

static const lb_field *lb_scale_field(const lb_component_info *info, const char *name) {
  for (uint32_t i = 0; info && i < info->field_count; ++i) {
    if (!strcmp(info->fields[i].name, name)) {
      return &info->fields[i];
    }
  }
  return NULL;
}

/* Loads copies [first, end) as one scene and records their heroes. */
static int lb_scale_load(lb_scale_state *s, uint32_t first, uint32_t end, uint32_t rig,
                         const char *placement) {
  size_t len = 0;
  char *json = lb_scale_scene(first, end, s->n, rig, placement, &len);
  if (!json) {
    return 0;
  }
  lb_scene *sc = NULL;
  lb_result r = lb_scene_load_files(s->world, json, len, NULL, 0, &sc);
  free(json);
  if (r != LB_OK) {
    fprintf(stderr, "world.scale: %s\n", lb_world_last_error(s->world));
    return 0;
  }
  s->scenes[s->scene_count++] = sc;
  if (lb_scene_entity_count(sc) != (end - first) * LB_SCALE_ENTITIES_PER_COPY) {
    return 0;
  }
  char name[32];
  for (uint32_t k = first; k < end; ++k) {
    /* hero k is the first entity of copy k (a scene keeps file order) */
    uint32_t i = (k - first) * LB_SCALE_ENTITIES_PER_COPY;
    snprintf(name, sizeof name, "hero.%u", k);
    if (strcmp(lb_scene_entity_name(sc, i), name) != 0) {
      return 0;
    }
    s->heroes[k] = lb_scene_entity_at(sc, i);
  }
  return 1;
}

static int lb_scale_init(lb_scale_state *s, const char *placement, uint32_t n) {
  int type = lb_component_find("GripHolder");
  const lb_component_info *info = type >= 0 ? lb_component_info_get((uint32_t)type) : NULL;
  s->main_distance = lb_scale_field(info, "mainDistance");
  s->support_distance = lb_scale_field(info, "supportDistance");
  s->main_reached = lb_scale_field(info, "mainReached");
  s->support_reached = lb_scale_field(info, "supportReached");
  if (!info || info->size > LB_COMPONENT_MAX_SIZE || !s->main_distance || !s->support_distance ||
      !s->main_reached || !s->support_reached) {
    fprintf(stderr, "world.scale: GripHolder outputs not found in the schema\n");
    return 0;
  }
  s->holder_type = (uint32_t)type;
  s->n = n;
  s->heroes = malloc(n * sizeof *s->heroes);
  s->scenes = calloc(n / LB_SCALE_COPIES_PER_SCENE + 1, sizeof *s->scenes);
  lb_world_def wd = lb_world_default_def();
  if (!s->heroes || !s->scenes || lb_world_create(&wd, &s->world) != LB_OK) {
    return 0;
  }
  /* grip-lab's rig asset: { "builtin": "humanoid", "height": 1.8 } */
  lb_humanoid_def hd = lb_humanoid_default_def();
  hd.height = 1.8f;
  uint32_t rig = 0;
  if (lb_world_add_humanoid(s->world, &hd, &rig) != LB_OK) {
    return 0;
  }
  for (uint32_t k = 0; k < n; k += LB_SCALE_COPIES_PER_SCENE) {
    uint32_t end = n - k < LB_SCALE_COPIES_PER_SCENE ? n : k + LB_SCALE_COPIES_PER_SCENE;
    if (!lb_scale_load(s, k, end, rig, placement)) {
      return 0;
    }
  }
  for (int i = 0; i < LB_SCALE_WARMUP_STEPS; ++i) {
    if (lb_world_step(s->world, LB_SCALE_DT) != LB_OK) {
      fprintf(stderr, "world.scale: %s\n", lb_world_last_error(s->world));
      return 0;
    }
  }
  return 1;
}

static void *lb_scale_setup(const char *placement, uint32_t n) {
  lb_scale_state *s = calloc(1, sizeof *s);
  if (!s || !lb_scale_init(s, placement, n)) {
    lb_scale_teardown(s);
    return NULL;
  }
  return s;
}

static float lb_scale_f32(const uint8_t *data, const lb_field *f) {
  float v;
  memcpy(&v, data + f->offset, sizeof v);
  return v;
}

static uint32_t lb_scale_u32(const uint8_t *data, const lb_field *f) {
  uint32_t v;
  memcpy(&v, data + f->offset, sizeof v);
  return v;
}

static void lb_scale_run(void *p, uint32_t iters, lb_bench_stats *st) {
  lb_scale_state *s = p;
  uint32_t steps = iters / s->n; /* iters is a multiple of n (iter_multiple) */
  for (uint32_t i = 0; i < steps; ++i) {
    if (lb_world_step(s->world, LB_SCALE_DT) != LB_OK) {
      st->failures += s->n;
    }
  }
  _Alignas(16) static uint8_t data[LB_COMPONENT_MAX_SIZE];
  double sum = 0.0;
  for (uint32_t k = 0; k < s->n; ++k) {
    if (lb_world_get(s->world, s->heroes[k], s->holder_type, data) != LB_OK) {
      st->failures += steps;
      continue;
    }
    float m = lb_scale_f32(data, s->main_distance), d = lb_scale_f32(data, s->support_distance);
    double e = (double)(m > d ? m : d);
    sum += e;
    st->error_max = e > st->error_max ? e : st->error_max;
    if (!lb_scale_u32(data, s->main_reached) || !lb_scale_u32(data, s->support_reached)) {
      st->failures += steps;
    }
  }
  st->error_sum += sum / (double)s->n * (double)iters;
  st->ops += iters;
}

/* Steps per timed batch: ~LB_SCALE_BATCH character-steps, at least one step. */
#define LB_SCALE_STEPS(n) ((n) >= LB_SCALE_BATCH ? 1u : LB_SCALE_BATCH / (n))

#define LB_SCALE_BENCH(place, label, n)                                                            \
  static void *lb_scale_setup_##place##_##n(void) {                                                \
    return lb_scale_setup(label, n);                                                               \
  }                                                                                                \
  const lb_bench lb_bench_world_scale_##place##_##n = {                                            \
      "world.scale." #place "." #n,                                                                \
      "us",                                                                                        \
      "one character-step: lb_world_step (1/60 s) over " #n " grip-lab holds (" label              \
      " placement) in one world, divided by " #n,                                                  \
      (n)*LB_SCALE_STEPS(n),                                                                       \
      lb_scale_setup_##place##_##n,                                                                \
      lb_scale_run,                                                                                \
      lb_scale_teardown,                                                                           \
      NULL,                                                                                        \
      (n),                                                                                         \
      0};

LB_SCALE_BENCH(object, "Object", 10)
LB_SCALE_BENCH(object, "Object", 100)
LB_SCALE_BENCH(object, "Object", 1000)
LB_SCALE_BENCH(object, "Object", 10000)
LB_SCALE_BENCH(hand, "Hand", 10)
LB_SCALE_BENCH(hand, "Hand", 100)
LB_SCALE_BENCH(hand, "Hand", 1000)
LB_SCALE_BENCH(hand, "Hand", 10000)
