/* Grip exports: captured finger poses and per-hand status. */
#include "limber/limber.h"
#include <string.h>

#include "exports.h"

/* Bytes of the report the packed form carries (the bridge's buffer). The whole report,
 * never cut, comes from lbw_find_hand_report / lbw_grip_hand_report. */
#define LBW_PACKED_REPORT_BYTES 256

/* A hand as the bridge reads it: out_joints[0] = hand joint, then per finger (thumb ..
 * pinky) found (bit 0; bit 1: its end was estimated), 3 segment joints and the tip (-1 =
 * none): 1 + 5 * 5 ints; the report's first LBW_PACKED_REPORT_BYTES - 1 bytes
 * (NUL-terminated) into out_report. */
static void lbw_pack_hand(const lb_hand_info *info, uint32_t tip_estimated, int32_t *out_joints,
                          char *out_report) {
  out_joints[0] = info->hand;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_finger_info *fi = &info->fingers[f];
    int32_t *o = out_joints + 1 + 5 * f;
    o[0] = fi->found ? (int32_t)(1u | (((tip_estimated >> f) & 1u) << 1)) : 0;
    for (int k = 0; k < 3; ++k) {
      o[1 + k] = fi->found && k < fi->segment_count ? fi->joints[k] : -1;
    }
    o[4] = fi->found ? fi->tip : -1;
  }
  const char *report = info->report ? info->report : "";
  size_t n = strlen(report);
  n = n < LBW_PACKED_REPORT_BYTES - 1 ? n : LBW_PACKED_REPORT_BYTES - 1;
  memcpy(out_report, report, n);
  out_report[n] = 0;
}

/* Copies `text` whole into buf when it fits (cap includes the NUL); returns its length. */
static int lbw_text_out(const char *text, char *buf, uint32_t cap) {
  size_t n = strlen(text);
  if (buf && n < cap) {
    memcpy(buf, text, n + 1);
  }
  return (int)n;
}

/* Hand finding on an entity's rig by names (or an explicit hand path). */
LBW_EXPORT(lbw_find_hand)
int lbw_find_hand(lb_world *w, lb_entity e, int side, const char *hand_path, int32_t *out_joints,
                  char *out_report) {
  lb_hand_info info;
  memset(&info, 0, sizeof info);
  info.hand = -1;
  lb_result r = lb_world_find_hand(w, e, (lb_hand_side)side, hand_path, &info);
  lbw_pack_hand(&info, 0, out_joints, out_report);
  return r;
}

/* The whole report of the last lbw_find_hand on this world: its length (written when
 * < cap). */
LBW_EXPORT(lbw_find_hand_report)
int lbw_find_hand_report(lb_world *w, lb_entity e, int side, const char *hand_path, char *buf,
                         uint32_t cap) {
  lb_hand_info info;
  memset(&info, 0, sizeof info);
  info.report = "";
  lb_world_find_hand(w, e, (lb_hand_side)side, hand_path, &info);
  return lbw_text_out(info.report ? info.report : "", buf, cap);
}

/* Returns the text length (>= 0; written into buf when < cap) or -(result code). */
LBW_EXPORT(lbw_capture_finger_pose)
int lbw_capture_finger_pose(lb_world *w, lb_entity e, const char *hand, char *buf, uint32_t cap) {
  size_t needed = 0;
  lb_result r = lb_world_capture_finger_pose(w, e, hand, buf, cap, &needed);
  return r == LB_OK ? (int)needed : -(int)r;
}

LBW_EXPORT(lbw_register_finger_pose)
int lbw_register_finger_pose(lb_world *w, const char *name, const char *json, uint32_t len) {
  return lb_world_register_finger_pose(w, name, json, len);
}

/* Per-hand runtime status of a character's grip, 26 x 4 bytes: driver (0 none, 1 GripPose,
 * 2 holder main, 3 holder support), hand joint (-1 unresolved), found code, blend
 * progress (f32 0..1), palm distance (f32 m), contacts (bit per finger), params ready,
 * index length (f32 m), palm frame known (1) or the hand joint stands in (0), ends
 * estimated (bit per finger), of those from the skinned mesh (bit per finger), then the
 * five fingertips in model space (15 f32). LB_ERR_MISSING_COMPONENT when the entity has
 * no grip state. */
LBW_EXPORT(lbw_grip_hand_status)
int lbw_grip_hand_status(lb_world *w, lb_entity e, int side, uint32_t *out) {
  lb_grip_hand_status st;
  lb_result r = lb_world_grip_hand_status(w, e, (lb_hand_side)side, &st);
  if (r != LB_OK) {
    return r;
  }
  out[0] = st.driver;
  out[1] = (uint32_t)st.hand;
  out[2] = (uint32_t)st.found;
  memcpy(&out[3], &st.blend, 4);
  memcpy(&out[4], &st.palm_distance, 4);
  out[5] = st.contacts;
  out[6] = st.params_ready;
  memcpy(&out[7], &st.index_length, 4);
  out[8] = st.palm_known;
  out[9] = st.tip_estimated;
  out[10] = st.tip_from_mesh;
  memcpy(&out[11], st.tips, sizeof st.tips); /* 15 floats: x y z per finger */
  return LB_OK;
}

/* World transform (lb_transform layout) of a holder's anchor as the last step used it:
 * role 0 = main, 1 = support; mirrored when the main hand is not the profile's hand.
 * LB_ERR_MISSING_COMPONENT when nothing is held or the role has no anchor. */
LBW_EXPORT(lbw_grip_anchor)
int lbw_grip_anchor(lb_world *w, lb_entity holder, int role, lb_transform *out) {
  return lb_world_grip_anchor(w, holder, role, out);
}

LBW_EXPORT(lbw_register_grip_pose)
int lbw_register_grip_pose(lb_world *w, const char *name, const char *json, uint32_t len) {
  return lb_world_register_grip_pose(w, name, json, len);
}

/* A pose as JSON: `name` a registered or built-in pose, or (name empty) the pose given as
 * `json`; by_joint → per-joint form. Returns the length (written when < cap) or
 * -(result code). */
LBW_EXPORT(lbw_grip_pose_json)
int lbw_grip_pose_json(lb_world *w, const char *name, const char *json, uint32_t len, int by_joint,
                       char *buf, uint32_t cap) {
  size_t needed = 0;
  lb_result r;
  if (name && name[0]) {
    r = lb_world_grip_pose_json(w, name, by_joint != 0, buf, cap, &needed);
  } else {
    r = lb_world_grip_pose_convert(w, json, len, by_joint != 0, buf, cap, &needed);
  }
  if (r == LB_ERR_CAPACITY) {
    return (int)needed;
  }
  return r == LB_OK ? (int)needed : -(int)r;
}

/* The hand the grip state resolved for a character (with its finger mapping), packed as
 * lbw_find_hand. LB_ERR_MISSING_COMPONENT without grip state or before the first step. */
LBW_EXPORT(lbw_grip_hand_info)
int lbw_grip_hand_info(lb_world *w, lb_entity e, int side, int32_t *out_joints, char *out_report) {
  lb_grip_hand_status st;
  lb_result r = lb_world_grip_hand_status(w, e, (lb_hand_side)side, &st);
  if (r != LB_OK) {
    return r;
  }
  if (st.hand < 0 && st.found == LB_ERR_MISSING_COMPONENT) {
    return LB_ERR_MISSING_COMPONENT;
  }
  lbw_pack_hand(&st.info, st.tip_estimated, out_joints, out_report);
  return st.found;
}

/* The whole report of the hand the grip state resolved (lbw_grip_hand_info): its length
 * (written when < cap) or -(result code) as lbw_grip_hand_info. */
LBW_EXPORT(lbw_grip_hand_report)
int lbw_grip_hand_report(lb_world *w, lb_entity e, int side, char *buf, uint32_t cap) {
  lb_grip_hand_status st;
  lb_result r = lb_world_grip_hand_status(w, e, (lb_hand_side)side, &st);
  if (r != LB_OK) {
    return -(int)r;
  }
  if (st.hand < 0 && st.found == LB_ERR_MISSING_COMPONENT) {
    return -(int)LB_ERR_MISSING_COMPONENT;
  }
  return lbw_text_out(st.info.report ? st.info.report : "", buf, cap);
}
