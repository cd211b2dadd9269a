/* The world's grip pose registry (registerGripPose) and pose text for the bridge. */
#include "grip_internal.h"
#include <string.h>

lb_result lb_world_register_grip_pose(lb_world *w, const char *name, const char *json, size_t len) {
  if (!w || !name || !json) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "registerGripPose: null argument")
             : LB_ERR_INVALID_ARGUMENT;
  }
  lb_grip_pose_def def;
  char err[160];
  lb_result r = lb_grip_pose_parse_json(json, len, &def, err, sizeof err);
  if (r != LB_OK) {
    return lb_fail(w, r, "registerGripPose '%.31s': %s", name, err);
  }
  if (!w->grip_poses) {
    /* The registry is made on first use; registration is not part of a step. */
    w->grip_poses = lb_alloc(w, sizeof *w->grip_poses);
    if (!w->grip_poses) {
      return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "registerGripPose: cannot allocate the registry");
    }
  }
  r = lb_grip_pose_registry_set(w->grip_poses, name, &def);
  if (r != LB_OK) {
    return lb_fail(w, r, "registerGripPose '%.31s': %s", name,
                   r == LB_ERR_CAPACITY       ? "64 poses are already registered"
                   : r == LB_ERR_OUT_OF_RANGE ? "the name must be 1..31 bytes"
                                              : lb_result_text(r));
  }
  w->error[0] = 0;
  return LB_OK;
}

lb_result lb_world_grip_pose_json(lb_world *w, const char *name, bool by_joint, char *buf,
                                  size_t cap, size_t *needed) {
  if (!w || !name || !needed) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "gripPoseByJoint: null argument")
             : LB_ERR_INVALID_ARGUMENT;
  }
  lb_grip_pose_def def;
  if (lb_grip_pose_registry_find(w->grip_poses, name, &def) != LB_OK) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME, "gripPoseByJoint: no grip pose named '%.31s'", name);
  }
  if (by_joint && lb_grip_pose_by_joint(&def, &def) != LB_OK) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "gripPoseByJoint '%.31s': invalid pose", name);
  }
  lb_result r = lb_grip_pose_write_json(&def, buf, cap, needed);
  return r == LB_OK || r == LB_ERR_CAPACITY ? r : lb_fail(w, r, "gripPoseByJoint: cannot write");
}
