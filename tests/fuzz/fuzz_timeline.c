/* libFuzzer target: a fixed scene (assets/scenes/grip-lab.json without its timeline, plus a
 * spare entity and an IK target) with the fuzzed bytes as its "timeline", stepped 8 times.
 * Invariants: no crash, leak or UB; a load failure says why; no matrix entry or world
 * transform is ever non-finite; a step that fails changes nothing (step count, every
 * component's value and the bone hash are as before) and says why.
 * Seeds: tests/fuzz/corpus/timeline. */
#include "cJSON.h"
#include "limber/limber.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *g_prefix; /* the scene text up to where the timeline goes */
static size_t g_prefix_len;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  FILE *f = fopen("assets/scenes/grip-lab.json", "rb");
  if (!f) {
    fprintf(stderr, "fuzz_timeline: run from the repository root\n");
    abort();
  }
  static char text[1 << 16];
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = 0;
  cJSON *root = cJSON_Parse(text);
  cJSON_DeleteItemFromObjectCaseSensitive(root, "timeline");
  cJSON *ents = cJSON_GetObjectItemCaseSensitive(root, "entities");
  cJSON *spare = cJSON_CreateObject();
  cJSON_AddStringToObject(spare, "name", "spare");
  cJSON_AddItemToArray(ents, spare);
  cJSON *target = cJSON_Parse("{\"name\":\"target\",\"components\":{\"Transform\":"
                              "{\"position\":[0.3,1.2,0.4]}}}");
  cJSON_AddItemToArray(ents, target);
  char *printed = cJSON_PrintUnformatted(root);
  cJSON_Delete(root);
  size_t len = strlen(printed);
  /* Drop the closing brace: the timeline and the brace are appended per input. */
  g_prefix = malloc(len + 16);
  memcpy(g_prefix, printed, len - 1);
  memcpy(g_prefix + len - 1, ",\"timeline\":", 12);
  g_prefix_len = len - 1 + 12;
  cJSON_free(printed);
  return 0;
}

#define SNAP_MAX 16

typedef struct snapshot {
  uint64_t steps, hash;
  bool has[SNAP_MAX][LB_COMPONENT_TYPE_COUNT];
  _Alignas(16) uint8_t value[SNAP_MAX][LB_COMPONENT_TYPE_COUNT][LB_COMPONENT_MAX_SIZE];
} snapshot;

static void take(lb_world *w, const lb_scene *sc, snapshot *s) {
  memset(s, 0, sizeof *s);
  s->steps = lb_world_step_count(w);
  s->hash = lb_world_hash(w);
  uint32_t n = lb_scene_entity_count(sc);
  for (uint32_t i = 0; i < n && i < SNAP_MAX; ++i) {
    for (uint32_t t = 0; t < LB_COMPONENT_TYPE_COUNT; ++t) {
      s->has[i][t] = lb_world_get(w, lb_scene_entity_at(sc, i), t, s->value[i][t]) == LB_OK;
    }
  }
}

static void check_finite(lb_world *w, const lb_scene *sc) {
  for (uint32_t i = 0; i < lb_scene_entity_count(sc); ++i) {
    lb_entity e = lb_scene_entity_at(sc, i);
    uint32_t count = 0;
    const float *m = lb_rig_model_matrices(w, e, &count);
    for (uint32_t k = 0; m && k < count * 16u; ++k) {
      if (!lb_is_finite(m[k])) {
        __builtin_trap();
      }
    }
    lb_transform x;
    if (lb_world_entity_transform(w, e, &x) == LB_OK) {
      for (int k = 0; k < 3; ++k) {
        if (!lb_is_finite(x.t[k]) || !lb_is_finite(x.s[k])) {
          __builtin_trap();
        }
      }
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 1 << 16) {
    return 0;
  }
  char *json = malloc(g_prefix_len + size + 2);
  memcpy(json, g_prefix, g_prefix_len);
  memcpy(json + g_prefix_len, data, size);
  json[g_prefix_len + size] = '}';
  lb_world *w = NULL;
  if (lb_world_create(NULL, &w) != LB_OK) {
    free(json);
    return 0;
  }
  lb_scene *sc = NULL;
  lb_result r = lb_scene_load(w, json, g_prefix_len + size + 1, &sc);
  free(json);
  if (r != LB_OK) {
    if (lb_world_last_error(w)[0] == 0) {
      __builtin_trap();
    }
    lb_world_destroy(w);
    return 0;
  }
  static snapshot before, after;
  for (int i = 0; i < 8; ++i) {
    take(w, sc, &before);
    r = lb_scene_step(w, sc, 1.0f / 60.0f);
    if (r != LB_OK) {
      take(w, sc, &after);
      if (lb_world_last_error(w)[0] == 0 || memcmp(&before, &after, sizeof before) != 0) {
        __builtin_trap(); /* a failed step says why and changes nothing */
      }
    }
    check_finite(w, sc);
  }
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
  return 0;
}
