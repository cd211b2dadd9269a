/* Read access to a character's grip state for tools and the bridge (gripPoseStatus, the
 * viewer's anchors). */
#include "grip_internal.h"
#include "pose_json.h"
#include <string.h>

/* Each found finger's tip in model space: end joint, estimated end or last joint. */
static void lb_status_tips(const lb_hand_rig *rig, const lb_transform *model,
                           float tips[LB_FINGER_COUNT][3]) {
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_hand_rig_finger *rf = &rig->fingers[f];
    if (!rf->found || rf->segment_count < 1) {
      continue;
    }
    const lb_transform *last = &model[rf->joints[rf->segment_count - 1]];
    if (rf->tip >= 0) {
      memcpy(tips[f], model[rf->tip].t, sizeof tips[f]);
    } else if (rf->tip_estimated) {
      lb_transform_point(last, rf->tip_local, tips[f]);
    } else {
      memcpy(tips[f], last->t, sizeof tips[f]);
    }
  }
}

lb_result lb_world_grip_hand_status(const lb_world *w, lb_entity e, lb_hand_side side,
                                    lb_grip_hand_status *out) {
  int s = lb_slot_of(w, e);
  if (!w || !out) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  if (side != LB_HAND_RIGHT && side != LB_HAND_LEFT) {
    return LB_ERR_OUT_OF_RANGE;
  }
  if (!lb_slot_has(w, (uint32_t)s, LB_GRIP_HANDS)) {
    return LB_ERR_MISSING_COMPONENT;
  }
  const lb_grip_hands *hs = lb_component_state(w, (uint32_t)s, LB_GRIP_HANDS);
  const lb_grip_hand *h = &hs->hands[side];
  memset(out, 0, sizeof *out);
  out->driver = (uint32_t)h->driver;
  out->blend = h->blend_t;
  out->palm_distance = h->palm_distance;
  out->contacts = h->contacts;
  out->params_ready = h->params_ready;
  out->hand = -1;
  out->found = LB_ERR_MISSING_COMPONENT;
  out->info.hand = -1;
  out->info.report = "";
  if (h->def) {
    out->hand = h->def->info.hand;
    out->found = h->def->found;
    /* Hand-space lengths carry the rig's own units (a centimetre armature's scale lives
     * on its root); the status speaks metres of the world, like every other length. */
    const lb_rig_instance *ri = lb_rig_of_slot(w, (uint32_t)s);
    float scale = w->world_xf[s].s[0];
    if (ri && out->hand >= 0 && (uint32_t)out->hand < ri->joint_count) {
      scale *= ri->model[out->hand].s[0];
    }
    out->index_length = h->def->index_length * (scale < 0.0f ? -scale : scale);
    out->palm_known = h->def->rig.valid != 0;
    out->tip_estimated = h->def->rig.valid ? h->def->rig.tip_estimated : 0u;
    out->tip_from_mesh = h->def->rig.valid ? h->def->rig.tip_from_mesh : 0u;
    out->info = h->def->info;
    if (ri && h->def->rig.valid && h->def->rig.joint_count == ri->joint_count) {
      lb_status_tips(&h->def->rig, ri->model, out->tips);
    }
  }
  return LB_OK;
}

lb_result lb_world_grip_anchor(const lb_world *w, lb_entity holder, int role, lb_transform *out) {
  int s = lb_slot_of(w, holder);
  if (!w || !out) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  const lb_grip_holder_c *gh = lb_component_try(w, (uint32_t)s, LB_GRIP_HOLDER);
  int obj = gh ? lb_slot_of(w, gh->held) : -1;
  if (obj < 0 || !lb_slot_has(w, (uint32_t)obj, LB_GRIP_PROFILE)) {
    return LB_ERR_MISSING_COMPONENT;
  }
  const lb_grip_profile_c *prof = lb_component_ptr(w, (uint32_t)obj, LB_GRIP_PROFILE);
  lb_entity anchor = role == 0 ? prof->main_anchor : prof->support_anchor;
  if (role != 0 && lb_slot_of(w, anchor) < 0) {
    return LB_ERR_MISSING_COMPONENT;
  }
  lb_grip_anchor_world(w, (uint32_t)obj, anchor, prof->hand != gh->main_hand, prof->mirror, out);
  return LB_OK;
}

lb_result lb_world_grip_pose_convert(lb_world *w, const char *json, size_t len, bool by_joint,
                                     char *buf, size_t cap, size_t *needed) {
  if (!w || !json || !needed) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "gripPoseByJoint: null argument")
             : LB_ERR_INVALID_ARGUMENT;
  }
  lb_grip_pose_def def;
  lb_result r = lb_grip_pose_parse_json_diag(json, len, &def, &w->diag);
  if (r != LB_OK) {
    return lb_diag_prefix(&w->diag, r, "gripPoseByJoint: ");
  }
  if (by_joint && lb_grip_pose_by_joint(&def, &def) != LB_OK) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "gripPoseByJoint: invalid pose");
  }
  return lb_grip_pose_write_json(&def, buf, cap, needed);
}
