/* Memory per character: the bytes a world holds for one more grip character (Transform +
 * Rig + GripPose "pistol" + GripHolder holding nothing), beyond the rig's own pose buffers.
 *
 * A world with the counting allocator of test.h gets the procedural humanoid
 * (lb_world_add_humanoid) and one step: that is the baseline. 1000 such characters are
 * then added through the scene API (one scene, JSON text built here, the Rig naming the
 * asset by handle; no component structs, whose layout is about to change), the scene is
 * destroyed (it only maps names to entities for the loader) and the world steps once.
 * Per character = (live bytes now - baseline) / 1000 - the Rig's pose buffers, which
 * lb_rig_instance_init (wasm/src/rig/pose.c) allocates per joint: anim, local and model
 * (lb_transform each) and matrices (mat4). The per-slot arrays grow by doubling, so
 * 1000 characters pay for 1024 slots (the figure includes that 2.4 %).
 *
 * The target is <= LB_MEMORY_TARGET_BYTES. Today's world is far above it, so the check
 * is compiled in only with -DLB_MEMORY_TARGET_ENFORCED=1; the number is printed either
 * way. */
#include "limber/limber.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

#ifndef LB_MEMORY_TARGET_ENFORCED
#define LB_MEMORY_TARGET_ENFORCED 0
#endif
#define LB_MEMORY_TARGET_BYTES 512.0
#define CHARACTERS 1000u

/* Live bytes on top of test.h's counter: each block carries its size in a header
 * (16 bytes, so the block stays aligned for any type). */
typedef struct live_counter {
  lb_test_counter counter;
  size_t live_bytes;
} live_counter;

#define HEADER 16u

static void *live_alloc(size_t size, void *user) {
  live_counter *c = user;
  unsigned char *p = lb_test_count_alloc(size + HEADER, &c->counter);
  if (!p) {
    return NULL;
  }
  memcpy(p, &size, sizeof size);
  c->live_bytes += size;
  return p + HEADER;
}

static void live_free(void *ptr, void *user) {
  live_counter *c = user;
  if (!ptr) {
    return;
  }
  unsigned char *p = (unsigned char *)ptr - HEADER;
  size_t size;
  memcpy(&size, p, sizeof size);
  c->live_bytes -= size;
  lb_test_count_free(p, &c->counter);
}

/* Scene text: `n` characters on a line 2 m apart, each Transform + Rig (asset handle) +
 * GripPose + GripHolder. malloc'd, NULL on failure. */
static char *characters_scene(uint32_t n, uint32_t asset, size_t *len) {
  const size_t per = 320;
  size_t cap = 64 + (size_t)n * per;
  char *buf = malloc(cap);
  if (!buf) {
    return NULL;
  }
  size_t at = (size_t)snprintf(buf, cap, "{\"entities\":[\n");
  for (uint32_t k = 0; k < n; ++k) {
    int w = snprintf(buf + at, cap - at,
                     "{\"name\":\"hero.%u\",\"components\":{"
                     "\"Transform\":{\"position\":[%u,0,0]},"
                     "\"Rig\":{\"asset\":%u},"
                     "\"GripPose\":{\"rightPose\":\"pistol\"},"
                     "\"GripHolder\":{\"held\":null}}}%s\n",
                     k, 2u * k, asset, k + 1 < n ? "," : "");
    if (w < 0 || (size_t)w >= cap - at) {
      free(buf);
      return NULL;
    }
    at += (size_t)w;
  }
  int w = snprintf(buf + at, cap - at, "]}\n");
  if (w < 0 || (size_t)w >= cap - at) {
    free(buf);
    return NULL;
  }
  *len = at + (size_t)w;
  return buf;
}

static void test_memory_per_character(void) {
  live_counter c;
  memset(&c, 0, sizeof c);
  lb_world_def def = lb_world_default_def();
  def.allocator.alloc = live_alloc;
  def.allocator.free = live_free;
  def.allocator.user = &c;
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(&def, &w) == LB_OK && w != NULL);
  if (!w) {
    return;
  }
  uint32_t asset = 0;
  LB_CHECK(lb_world_add_humanoid(w, NULL, &asset) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  size_t baseline = c.live_bytes;

  size_t len = 0;
  char *json = characters_scene(CHARACTERS, asset, &len);
  LB_CHECK(json != NULL);
  if (!json) {
    lb_world_destroy(w);
    return;
  }
  lb_scene *sc = NULL;
  lb_result r = lb_scene_load(w, json, len, &sc);
  free(json);
  if (r != LB_OK) {
    fprintf(stderr, "scene load: %s\n", lb_world_last_error(w));
  }
  LB_CHECK(r == LB_OK && sc != NULL);
  LB_CHECK(lb_scene_entity_count(sc) == CHARACTERS);
  size_t with_scene = c.live_bytes;
  lb_scene_destroy(w, sc);
  size_t scene_bytes = with_scene - c.live_bytes;
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);

  uint32_t joints = lb_skeleton_joint_count(w, asset);
  LB_CHECK(joints > 0);
  size_t pose_bytes = (size_t)joints * (3u * sizeof(lb_transform) + sizeof(mat4));
  double per_character = (double)(c.live_bytes - baseline) / CHARACTERS;
  double excl_pose = per_character - (double)pose_bytes;
  printf("world: %zu bytes live with the rig asset, %zu with %u characters\n", baseline,
         c.live_bytes, CHARACTERS);
  printf("rig pose buffers: %u joints x (3 x %zu + %zu) = %zu bytes per character\n", joints,
         sizeof(lb_transform), sizeof(mat4), pose_bytes);
  printf("scene loader (names, freed with the scene): %.0f bytes per character, not counted\n",
         (double)scene_bytes / CHARACTERS);
  /* Where it goes, informational: every slot stores every component type. */
  size_t slot_components = 0;
  for (uint32_t t = 0; t < lb_component_count(); ++t) {
    slot_components += lb_component_info_get(t)->size;
  }
  printf("component storage per slot (all %u types, whether present or not): %zu bytes\n",
         lb_component_count(), slot_components);
  printf("bytes per character (all): %.0f\n", per_character);
  printf("bytes per character (excl. rig pose buffers): %.0f\n", excl_pose);
  LB_CHECK(excl_pose > 0.0);
#if LB_MEMORY_TARGET_ENFORCED
  LB_CHECK(excl_pose <= LB_MEMORY_TARGET_BYTES);
#else
  printf("(target <= %.0f bytes not enforced: build with -DLB_MEMORY_TARGET_ENFORCED=1)\n",
         LB_MEMORY_TARGET_BYTES);
#endif

  lb_world_destroy(w);
  LB_CHECK(c.live_bytes == 0);
  LB_CHECK(c.counter.live == 0);
}

int main(void) {
  LB_RUN(test_memory_per_character);
  LB_TEST_MAIN_END();
}
