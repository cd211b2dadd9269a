/* Hand finding on a world entity's rig: the skeleton's name table as the job wants it. */
#include "grip_internal.h"
#include <string.h>

#define LB_FINGER_ROOTS_MAX 1025 /* a name table entry and its NUL */

/* Splits "a,b,,d" into up to five NUL-terminated entries inside `buf`. */
static void lb_split_roots(const char *list, char buf[LB_FINGER_ROOTS_MAX],
                           const char *roots[LB_FINGER_COUNT]) {
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    roots[f] = NULL;
  }
  if (!list || !list[0]) {
    return;
  }
  strncpy(buf, list, LB_FINGER_ROOTS_MAX - 1);
  buf[LB_FINGER_ROOTS_MAX - 1] = 0;
  char *p = buf;
  for (int f = 0; f < LB_FINGER_COUNT && p; ++f) {
    char *comma = strchr(p, ',');
    if (comma) {
      *comma = 0;
    }
    while (*p == ' ') {
      ++p;
    }
    roots[f] = p;
    p = comma ? comma + 1 : NULL;
  }
}

lb_result lb_grip_find_hand(const lb_skeleton *sk, lb_hand_side side, const char *path,
                            const char *finger_roots, lb_hand_info *out) {
  const char *names[LB_MAX_JOINTS];
  for (uint32_t j = 0; j < sk->joint_count; ++j) {
    names[j] = sk->names[j];
  }
  lb_hand_find_job job = lb_hand_find_default_job();
  job.joint_count = sk->joint_count;
  job.names = names;
  job.parents = sk->parents;
  job.side = side;
  job.hand_path = path;
  char buf[LB_FINGER_ROOTS_MAX];
  lb_split_roots(finger_roots, buf, job.finger_roots);
  lb_result r = lb_hand_find_run(&job);
  *out = job.info;
  return r;
}

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
  lb_result r = lb_grip_find_hand(lb_skeleton_get(w, lb_rig_of_slot(w, (uint32_t)s)->asset), side,
                                  hand_path, NULL, out);
  if (r != LB_OK) {
    return lb_fail(w, r, "find hand on %s: %s", lb_entity_label(e, lbl, sizeof lbl), out->report);
  }
  return LB_OK;
}

lb_result lb_grip_hand_resolve(lb_world *w, lb_grip_hand *h, uint32_t asset, lb_hand_side side,
                               lb_name path, lb_name finger_roots) {
  if (h->asset == asset && h->path == path && h->finger_roots == finger_roots) {
    return h->found;
  }
  const lb_skeleton *sk = lb_skeleton_get(w, asset);
  memset(h, 0, sizeof *h);
  h->asset = asset;
  h->path = path;
  h->finger_roots = finger_roots;
  const char *p = lb_name_text(w, path);
  const char *fr = lb_name_text(w, finger_roots);
  if (!sk) {
    h->found = LB_ERR_MISSING_COMPONENT;
    return h->found;
  }
  h->spine = h->clavicle = h->upper = h->lower = -1;
  h->blend_t = 1.0f;
  h->found = lb_grip_find_hand(sk, side, p, fr, &h->info);
  if (h->found != LB_OK) {
    return h->found;
  }
  int hand = h->info.hand;
  if (lb_hand_rig_build(&h->info, sk->parents, sk->rest, sk->joint_count, &h->rig) == LB_OK) {
    h->palm_in_hand = h->rig.palm;
    h->index_length = h->rig.index_length;
  } else {
    h->rig.valid = 0; /* the arm can still reach: the palm is the hand joint */
    lb_transform_identity(&h->palm_in_hand);
  }
  h->lower = sk->parents[hand];
  h->upper = h->lower >= 0 ? sk->parents[h->lower] : -1;
  h->clavicle = h->upper >= 0 ? sk->parents[h->upper] : -1;
  h->spine = h->clavicle >= 0 ? sk->parents[h->clavicle] : -1;
  /* Blend list: arm joints first (parents before children), then the fingers. */
  const int16_t arm[4] = {h->clavicle, h->upper, h->lower, (int16_t)hand};
  for (int k = 0; k < 4; ++k) {
    if (arm[k] >= 0) {
      h->blend_joints[h->blend_count++] = arm[k];
    }
  }
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_finger_info *fi = &h->info.fingers[f];
    for (int k = 0; k < fi->segment_count && h->blend_count < LB_GRIP_BLEND_MAX; ++k) {
      h->blend_joints[h->blend_count++] = fi->joints[k];
    }
  }
  for (uint32_t k = 0; k < LB_GRIP_BLEND_MAX; ++k) {
    lb_quat_identity(h->from_off[k]);
    lb_quat_identity(h->last_off[k]);
  }
  return LB_OK;
}
