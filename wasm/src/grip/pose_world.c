/* The world's grip pose registry (registerGripPose) and pose text for the bridge. */
#include "../base/array.h"
#include "../base/format.h"
#include "grip_internal.h"
#include "pose_json.h"
#include <string.h>

lb_result lb_world_register_grip_pose(lb_world *w, const char *name, const char *json, size_t len) {
  if (!w || !name || !json) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "registerGripPose: null argument")
             : LB_ERR_INVALID_ARGUMENT;
  }
  if (lb_names_refusal(name, strlen(name))) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE, "registerGripPose: the name %s",
                   lb_names_refusal(name, strlen(name)));
  }
  lb_grip_pose_def def;
  lb_result r = lb_grip_pose_parse_json_diag(json, len, &def, &w->diag);
  if (r != LB_OK) {
    char prefix[64];
    lb_snprintf(prefix, sizeof prefix, "registerGripPose '%.31s': ", name);
    return lb_diag_prefix(&w->diag, r, prefix);
  }
  if (lb_grip_find_finger_pose(w, name)) {
    /* One name, one pose: a GripPose.pose naming both kinds would silently pick one. */
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                   "registerGripPose '%.31s': a finger pose (registerFingerPose) has that name; "
                   "finger poses and grip poses share one namespace: pick another name",
                   name);
  }
  lb_grip_world *gw = lb_grip_world_of(w);
  if (!gw->poses) {
    /* The registry is made on first use; registration is not part of a step. */
    gw->poses = lb_alloc(w, sizeof *gw->poses);
    if (!gw->poses) {
      return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "registerGripPose: cannot allocate the registry");
    }
  }
  /* Everything that can fail first: the name's id and room in the ref table. */
  lb_name id = 0;
  size_t nl = strlen(name);
  if (nl > 0 && nl < LB_GRIP_POSE_NAME_MAX &&
      (lb_names_intern(&w->names, name, nl, &id) != LB_OK || lb_grip_set_ref(w, id, 0) != LB_OK)) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "registerGripPose '%.31s': out of memory", name);
  }
  r = lb_grip_pose_registry_set(gw->poses, name, &def);
  if (r != LB_OK) {
    return lb_fail(w, r, "registerGripPose '%.31s': %s", name,
                   r == LB_ERR_CAPACITY       ? "64 poses are already registered"
                   : r == LB_ERR_OUT_OF_RANGE ? "the name must be 1..31 bytes"
                                              : lb_result_text(r));
  }
  for (uint32_t slot = 0; slot < gw->poses->count; ++slot) {
    if (strcmp(gw->poses->names[slot], name) == 0) {
      lb_grip_set_ref(w, id, (int32_t)slot + 1); /* room was made above: cannot fail */
    }
  }
  lb_diag_clear(&w->diag);
  return LB_OK;
}

lb_result lb_world_grip_pose_json(lb_world *w, const char *name, bool by_joint, char *buf,
                                  size_t cap, size_t *needed) {
  if (!w || !name || !needed) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "gripPoseByJoint: null argument")
             : LB_ERR_INVALID_ARGUMENT;
  }
  lb_grip_pose_def def;
  if (lb_grip_pose_registry_find(lb_grip_world_of(w)->poses, name, &def) != LB_OK) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME, "gripPoseByJoint: no grip pose named '%.31s'", name);
  }
  if (by_joint && lb_grip_pose_by_joint(&def, &def) != LB_OK) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "gripPoseByJoint '%.31s': invalid pose", name);
  }
  lb_result r = lb_grip_pose_write_json(&def, buf, cap, needed);
  return r == LB_OK || r == LB_ERR_CAPACITY ? r : lb_fail(w, r, "gripPoseByJoint: cannot write");
}

lb_result lb_grip_set_ref(lb_world *w, lb_name name, int32_t ref) {
  lb_grip_world *gw = lb_grip_world_of(w);
  lb_result r = lb_array_reserve(&w->allocator, (void **)&gw->ref_by_name, &gw->ref_cap,
                                 gw->ref_cap, name + 1u, sizeof(int32_t), 64u);
  if (r != LB_OK) {
    return r;
  }
  if (ref != 0) {
    gw->ref_by_name[name] = ref;
  }
  return LB_OK;
}

bool lb_grip_pose_of_ref(const lb_world *w, int32_t ref, lb_grip_pose_def *out) {
  const lb_grip_world *gw = lb_grip_world_of(w);
  if (ref >= LB_GRIP_REF_BUILTIN && ref < LB_GRIP_REF_BUILTIN + LB_GRIP_BUILTIN_MAX) {
    *out = gw->builtins[ref - LB_GRIP_REF_BUILTIN];
    return true;
  }
  if (ref > 0 && gw->poses && (uint32_t)ref <= gw->poses->count) {
    *out = gw->poses->defs[ref - 1];
    return true;
  }
  return false;
}

const lb_finger_pose *lb_grip_finger_pose_of_ref(const lb_world *w, int32_t ref) {
  const lb_grip_world *gw = lb_grip_world_of(w);
  return ref < 0 && (uint32_t)(-ref - 1) < gw->finger_pose_count ? gw->finger_poses[-ref - 1]
                                                                 : NULL;
}
