/* libFuzzer target: scene JSON and component JSON parsing, then a few steps.
 * Any input must give LB_OK or a clear error; never a crash, leak or UB. The scene gets a
 * file table with the repository's glTF rigs (the .glb files of assets/rigs, read once), so
 * glTF rigs and the animator controllers that play their clips are reached from scene
 * input (seed: corpus/scene/locomotion.json). */
#include "limber/limber.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const k_rigs[] = {
    "assets/rigs/mannequin-mixamo.glb", "assets/rigs/mannequin-unreal.glb",
    "assets/rigs/mannequin-blender.glb", "assets/rigs/mannequin-digits.glb"};
#define RIG_COUNT (sizeof k_rigs / sizeof k_rigs[0])
static lb_scene_file g_files[RIG_COUNT];
static uint32_t g_file_count;

static uint8_t *read_all(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    return NULL;
  }
  uint8_t *buf = NULL;
  size_t cap = 0, len = 0;
  for (;;) {
    if (len == cap) {
      cap = cap ? cap * 2 : 1u << 16;
      uint8_t *grown = realloc(buf, cap);
      if (!grown) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = grown;
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) {
      break;
    }
  }
  fclose(f);
  *n = len;
  return buf;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  for (size_t i = 0; i < RIG_COUNT; ++i) {
    size_t n = 0;
    uint8_t *bytes = read_all(k_rigs[i], &n);
    if (bytes) {
      g_files[g_file_count].path = k_rigs[i];
      g_files[g_file_count].bytes = bytes;
      g_files[g_file_count++].size = n;
    }
  }
  if (g_file_count == 0) {
    fprintf(stderr, "fuzz_scene: no glTF rigs read (run from the repository root)\n");
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  lb_world *w = NULL;
  if (lb_world_create(NULL, &w) != LB_OK) {
    return 0;
  }
  lb_scene *scene = NULL;
  if (lb_scene_load_files(w, (const char *)data, size, g_files, g_file_count, &scene) == LB_OK) {
    for (int i = 0; i < 4; ++i) {
      lb_scene_step(w, scene, 1.0f / 60.0f);
    }
    (void)lb_world_hash(w);
    lb_scene_destroy(w, scene);
  } else if (lb_world_last_error(w)[0] == 0) {
    __builtin_trap(); /* a failure must always say why */
  }
  /* The same bytes as one component's fields. */
  for (uint32_t t = 0; t < lb_component_count(); ++t) {
    _Alignas(16) uint8_t buf[LB_COMPONENT_MAX_SIZE];
    lb_component_defaults(t, buf);
    lb_component_from_json(w, NULL, t, (const char *)data, size, buf);
  }
  lb_world_destroy(w);
  return 0;
}
