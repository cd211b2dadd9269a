/* libFuzzer target: captured finger pose JSON (registerFingerPose). Any input gives LB_OK
 * or a clear error that changes nothing; a registered pose drives a hand for a few steps,
 * and capturing that hand gives JSON that registers again. */
#include "limber/limber.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  lb_world *w = NULL;
  uint32_t asset = 0;
  lb_entity hero = 0, prop = 0;
  if (lb_world_create(NULL, &w) != LB_OK) {
    return 0;
  }
  lb_humanoid_def def = lb_humanoid_default_def();
  if (lb_world_add_humanoid(w, &def, &asset) != LB_OK || lb_world_spawn(w, &hero) != LB_OK ||
      lb_world_spawn(w, &prop) != LB_OK) {
    __builtin_trap();
  }
  lb_rig_c rig = {asset};
  lb_world_insert(w, hero, LB_RIG, &rig);
  lb_result r = lb_world_register_finger_pose(w, "fuzz", (const char *)data, size);
  if (r != LB_OK) {
    if (lb_world_last_error(w)[0] == 0 || lb_world_has_finger_pose(w, "fuzz")) {
      __builtin_trap(); /* a failure says why and registers nothing */
    }
    lb_world_destroy(w);
    return 0;
  }
  lb_transform_c xf;
  lb_component_defaults(LB_TRANSFORM, &xf);
  xf.position[1] = 1.2f;
  xf.position[2] = 0.3f;
  lb_world_insert(w, prop, LB_TRANSFORM, &xf);
  lb_grip_profile_c prof;
  lb_component_defaults(LB_GRIP_PROFILE, &prof);
  prof.main_pose = lb_world_name(w, "fuzz");
  if (lb_world_insert(w, prop, LB_GRIP_PROFILE, &prof) != LB_OK) {
    __builtin_trap();
  }
  lb_grip_holder_c gh;
  lb_component_defaults(LB_GRIP_HOLDER, &gh);
  gh.held = prop;
  if (lb_world_insert(w, hero, LB_GRIP_HOLDER, &gh) != LB_OK) {
    __builtin_trap();
  }
  for (int i = 0; i < 3; ++i) {
    lb_world_step(w, 1.0f / 60.0f);
  }
  size_t needed = 0;
  if (lb_world_capture_finger_pose(w, hero, "RightHand", NULL, 0, &needed) != LB_OK) {
    __builtin_trap();
  }
  char *text = malloc(needed + 1);
  if (text &&
      lb_world_capture_finger_pose(w, hero, "RightHand", text, needed + 1, &needed) == LB_OK &&
      lb_world_register_finger_pose(w, "again", text, needed) != LB_OK) {
    __builtin_trap(); /* a capture always registers */
  }
  free(text);
  lb_world_destroy(w);
  return 0;
}
