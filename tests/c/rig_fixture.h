/* The generated glTF rigs (assets/rigs) as the tests import them. */
#ifndef LIMBER_TEST_RIG_FIXTURE_H
#define LIMBER_TEST_RIG_FIXTURE_H

#include "limber/gltf.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>

/* The rigs whose clips the animation tests run over: four conventions of finger names and
 * axes, a centimetre Z-up armature, a four-fingered A-pose. */
static const char *const k_rig_files[] = {"mannequin-mixamo",  "mannequin-unreal",
                                          "mannequin-blender", "convention-vrm",
                                          "convention-biped",  "convention-daz4"};

/* assets/rigs/<name>.glb imported with key reduction at `key_tolerance` metres (0: the
 * file's keys), or null (a failed check). */
static inline lb_gltf_asset *lb_test_import_rig(const char *name, float key_tolerance) {
  char path[128];
  snprintf(path, sizeof path, "assets/rigs/%s.glb", name);
  size_t size = 0;
  uint8_t *bytes = lb_test_read_file(path, &size);
  LB_CHECK(bytes != NULL);
  if (!bytes) {
    return NULL;
  }
  lb_gltf_def def = lb_gltf_default_def();
  def.data = bytes;
  def.size = size;
  def.key_tolerance = key_tolerance;
  lb_gltf_asset *asset = NULL;
  char msg[LB_GLTF_MESSAGE_MAX];
  LB_CHECK(lb_gltf_import(&def, &asset, msg, sizeof msg) == LB_OK);
  free(bytes);
  return asset;
}

#endif
