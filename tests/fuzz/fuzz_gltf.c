/* libFuzzer target: arbitrary bytes into the glTF importer (as .glb or .gltf, with and without
 * CUBICSPLINE resampling, one external buffer offered) and into a world. Any input must give
 * LB_OK or an error with a message; never a crash, a leak (allocations are counted) or UB.
 * Seeds: tests/fuzz/corpus/gltf (written by tests/node/gltf.test.mjs). */
#include "limber/limber.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct counter {
  long live;
} counter;

static void *count_alloc(size_t size, void *user) {
  ((counter *)user)->live++;
  return malloc(size);
}
static void count_free(void *p, void *user) {
  if (p) {
    ((counter *)user)->live--;
  }
  free(p);
}

static const uint8_t k_external[64] = {0};

static void import_once(const uint8_t *data, size_t size, int32_t skin, float cubic) {
  counter c = {0};
  lb_gltf_def d = lb_gltf_default_def();
  lb_gltf_buffer ext = {"ext.bin", k_external, sizeof k_external};
  d.data = data;
  d.size = size;
  d.buffers = &ext;
  d.buffer_count = 1;
  d.skin = skin;
  d.cubic_tolerance = cubic;
  d.allocator.alloc = count_alloc;
  d.allocator.free = count_free;
  d.allocator.user = &c;
  lb_gltf_asset *a = NULL;
  char msg[LB_GLTF_MESSAGE_MAX];
  lb_result r = lb_gltf_import(&d, &a, msg, sizeof msg);
  if (r == LB_OK) {
    /* What the importer returns must pass the checks of its consumers. */
    for (uint32_t i = 0; i < a->clip_count; ++i) {
      if (lb_clip_validate(&a->clips[i].clip) != LB_OK) {
        __builtin_trap();
      }
    }
    for (uint32_t i = 0; i < a->skin_joint_count; ++i) {
      if (a->skin_joints[i] >= a->skeleton.joint_count) {
        __builtin_trap();
      }
    }
    lb_world *w = NULL;
    if (lb_world_create(NULL, &w) == LB_OK) {
      lb_gltf_added added;
      if (lb_world_add_gltf_asset(w, a, &added) != LB_OK) {
        __builtin_trap(); /* an imported asset always fits a world */
      }
      lb_transform pose[LB_MAX_JOINTS];
      for (uint32_t k = 0; k < added.clip_count; ++k) {
        const lb_clip *clip = lb_world_clip(w, added.first_clip + k);
        if (lb_world_sample_clip(w, added.first_clip + k, 0.5f * clip->duration, true, pose,
                                 a->skeleton.joint_count) != LB_OK) {
          __builtin_trap();
        }
      }
      lb_world_destroy(w);
    }
    lb_gltf_free(a);
  } else if (a != NULL || msg[0] == 0) {
    __builtin_trap(); /* a failure returns nothing and always says why */
  }
  if (c.live != 0) {
    __builtin_trap();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) {
    return 0;
  }
  import_once(data, size, LB_GLTF_SKIN_AUTO, 0.0f);
  import_once(data, size, LB_GLTF_ALL_NODES, 1e-3f);
  /* Through a world: a failure leaves it without assets. */
  lb_world *w = NULL;
  if (lb_world_create(NULL, &w) != LB_OK) {
    return 0;
  }
  lb_gltf_def d = lb_gltf_default_def();
  d.data = data;
  d.size = size;
  lb_gltf_added added;
  if (lb_world_add_gltf(w, &d, &added) != LB_OK &&
      (lb_world_clip_count(w) != 0 || lb_skeleton_joint_count(w, 1) != 0 ||
       lb_world_last_error(w)[0] == 0)) {
    __builtin_trap();
  }
  lb_world_destroy(w);
  return 0;
}
