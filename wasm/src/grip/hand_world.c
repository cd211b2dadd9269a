/* Hand finding on a world entity's rig: the skeleton's name table as the job wants it. */
#include "../world/world_internal.h"
#include "limber/grip.h"
#include <string.h>

lb_result lb_world_find_hand(lb_world *w, uint32_t e, lb_hand_side side, const char *hand_path,
                             lb_hand_info *out) {
  if (!w || !out) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "find hand: null argument")
             : LB_ERR_INVALID_ARGUMENT;
  }
  char lbl[48];
  int s = lb_slot_checked(w, e, "find hand");
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  if (!lb_slot_has(w, (uint32_t)s, LB_RIG)) {
    return lb_fail(w, LB_ERR_MISSING_COMPONENT, "find hand: %s has no Rig",
                   lb_entity_label(e, lbl, sizeof lbl));
  }
  if (side != LB_HAND_RIGHT && side != LB_HAND_LEFT) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE, "find hand on %s: side %d is not Right or Left",
                   lb_entity_label(e, lbl, sizeof lbl), (int)side);
  }
  const lb_skeleton *sk = lb_skeleton_get(w, w->rigs[s].asset);
  const char *names[LB_MAX_JOINTS];
  for (uint32_t j = 0; j < sk->joint_count; ++j) {
    names[j] = sk->names[j];
  }
  lb_hand_find_job job = lb_hand_find_default_job();
  job.joint_count = sk->joint_count;
  job.names = names;
  job.parents = sk->parents;
  job.side = side;
  job.hand_path = hand_path;
  lb_result r = lb_hand_find_run(&job);
  *out = job.info;
  if (r != LB_OK) {
    return lb_fail(w, r, "find hand on %s: %s", lb_entity_label(e, lbl, sizeof lbl),
                   job.info.report);
  }
  return LB_OK;
}
