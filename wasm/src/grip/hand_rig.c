/* Per-rig hand parameters for grip poses (see limber/grip_pose.h): the palm frame and
 * every finger joint's bend and fan axes, expressed in the joints' own rest frames. */
#include "../math/vec3_inline.h"
#include "limber/grip_pose.h"
#include "limber/rig.h"

#include <string.h>

#define LB_HAND_PATH_MAX 64 /* joints between the hand and a finger joint */
#define LB_COMPACT_MAX (1 + LB_FINGER_COUNT * (LB_FINGER_MAX_SEGMENTS + 1))

/* Rest transform of joint j relative to the hand joint (hand = identity). Fails when j
 * is not below the hand, the parents are out of order, or a rest transform is bad. */
static lb_result lb_hand_space(const int16_t *parents, const lb_transform *rest, uint32_t count,
                               int hand, int j, lb_transform *out) {
  int path[LB_HAND_PATH_MAX];
  int n = 0;
  while (j != hand) {
    if (j < 0 || j >= (int)count || n == LB_HAND_PATH_MAX || parents[j] >= j) {
      return LB_ERR_INVALID_ARGUMENT;
    }
    path[n++] = j;
    j = parents[j];
  }
  lb_transform_identity(out);
  while (n > 0) {
    const lb_transform *l = &rest[path[--n]];
    if (!lb_transform_valid(l)) {
      return LB_ERR_NOT_FINITE;
    }
    lb_transform_mul(out, l, out);
  }
  return LB_OK;
}

static float lb_dist(const float *a, const float *b) {
  vec3 d = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return lb_vec3_length(d);
}

/* Unit axis given in hand space, expressed in the frame whose hand-space rotation is r. */
static void lb_axis_in(const versor r, const vec3 axis, vec3 out) {
  versor inv;
  lb_quat_conj(r, inv);
  lb_quat_rotate(inv, axis, out);
  lb_vec3_normalize_to(out, out);
}

static lb_result lb_check_chain(const lb_hand_info *hand, const int16_t *parents, uint32_t count,
                                const lb_finger_info *fi) {
  if (fi->segment_count < 1 || fi->segment_count > LB_FINGER_MAX_SEGMENTS) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  for (int s = 0; s < fi->segment_count; ++s) {
    int j = fi->joints[s];
    if (j <= hand->hand || j >= (int)count || (s > 0 && parents[j] != fi->joints[s - 1])) {
      return LB_ERR_INVALID_ARGUMENT;
    }
  }
  int last = fi->joints[fi->segment_count - 1];
  if (fi->tip >= 0 && (fi->tip >= (int)count || parents[fi->tip] != last)) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  return fi->tip < -1 ? LB_ERR_INVALID_ARGUMENT : LB_OK;
}

/* The rest hand in hand space, compacted: [0] the hand, then each finger's joints and tip,
 * with a hand info whose indices point into the compact array for the palm frame. */
typedef struct lb_hand_compact {
  lb_transform hs[LB_COMPACT_MAX];
  int n;
  lb_hand_info info;
  int slot[LB_FINGER_COUNT][LB_FINGER_MAX_SEGMENTS + 1]; /* compact index per segment, tip */
  vec3 tip_local[LB_FINGER_COUNT];                       /* estimated tips, last joint frame */
} lb_hand_compact;

/* The estimated tip, `d` (hand space) past the last joint, as the finger's compact tip. */
static void lb_hand_rig_add_tip(lb_hand_compact *cp, int f, int ns, const vec3 d) {
  const lb_transform *last = &cp->hs[cp->slot[f][ns - 1]];
  int n = cp->n;
  cp->hs[n] = *last;
  for (int a = 0; a < 3; ++a) {
    cp->hs[n].t[a] = last->t[a] + d[a];
  }
  cp->slot[f][ns] = n;
  cp->info.fingers[f].tip = (int16_t)n;
  ++cp->n;
}

/* No end joint: the last bone continues the one before it, LB_HAND_TIP_ESTIMATE as long; kept
 * in the last joint's frame so it follows that joint. */
static void lb_hand_rig_estimate_tip(lb_hand_compact *cp, int f, int ns) {
  const lb_transform *last = &cp->hs[cp->slot[f][ns - 1]], *prev = &cp->hs[cp->slot[f][ns - 2]];
  vec3 d = {LB_HAND_TIP_ESTIMATE * (last->t[0] - prev->t[0]),
            LB_HAND_TIP_ESTIMATE * (last->t[1] - prev->t[1]),
            LB_HAND_TIP_ESTIMATE * (last->t[2] - prev->t[2])};
  versor inv;
  lb_quat_conj(last->r, inv);
  lb_quat_rotate(inv, d, cp->tip_local[f]);
  for (int a = 0; a < 3; ++a) {
    cp->tip_local[f][a] = last->s[a] != 0.0f ? cp->tip_local[f][a] / last->s[a] : 0.0f;
  }
  lb_hand_rig_add_tip(cp, f, ns, d);
}

/* No end joint, but the skinned mesh says where the last bone ends: that point, already in
 * the last joint's frame. */
static void lb_hand_rig_mesh_tip(lb_hand_compact *cp, int f, int ns, const float *point) {
  const lb_transform *last = &cp->hs[cp->slot[f][ns - 1]];
  memcpy(cp->tip_local[f], point, sizeof(vec3));
  vec3 scaled = {last->s[0] * point[0], last->s[1] * point[1], last->s[2] * point[2]};
  vec3 d;
  lb_quat_rotate(last->r, scaled, d);
  lb_hand_rig_add_tip(cp, f, ns, d);
}

/* Every found finger's joints and tip into the compact rest hand; tips it had to estimate
 * are marked in rig->tip_estimated (and tip_from_mesh when the mesh said where). */
static lb_result lb_hand_rig_compact(const lb_hand_info *hand, const int16_t *parents,
                                     const lb_transform *rest, const lb_joint_end *ends,
                                     uint32_t joint_count, lb_hand_compact *cp, lb_hand_rig *rig) {
  cp->info = *hand;
  cp->info.hand = 0;
  lb_transform_identity(&cp->hs[0]);
  cp->n = 1;
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_finger_info *fi = &hand->fingers[f];
    lb_finger_info *ci = &cp->info.fingers[f];
    if (!fi->found) {
      continue;
    }
    lb_result r = lb_check_chain(hand, parents, joint_count, fi);
    for (int s = 0; s <= fi->segment_count && r == LB_OK; ++s) {
      int j = s < fi->segment_count ? fi->joints[s] : fi->tip;
      cp->slot[f][s] = -1;
      if (j < 0) {
        continue;
      }
      r = lb_hand_space(parents, rest, joint_count, hand->hand, j, &cp->hs[cp->n]);
      cp->slot[f][s] = cp->n;
      if (s < fi->segment_count) {
        ci->joints[s] = (int16_t)cp->n;
      } else {
        ci->tip = (int16_t)cp->n;
      }
      ++cp->n;
    }
    if (r != LB_OK) {
      return r;
    }
    if (fi->tip < 0 && fi->segment_count >= 2) {
      const lb_joint_end *end = ends ? &ends[fi->joints[fi->segment_count - 1]] : NULL;
      if (end && end->known) {
        lb_hand_rig_mesh_tip(cp, f, fi->segment_count, end->point);
        rig->tip_from_mesh |= 1u << f;
      } else {
        lb_hand_rig_estimate_tip(cp, f, fi->segment_count);
      }
      rig->tip_estimated |= 1u << f;
    }
  }
  return LB_OK;
}

/* Without an index finger, the next finger's length is the hand-size unit. */
static void lb_hand_rig_index_fallback(const lb_hand_info *hand, const lb_hand_compact *cp,
                                       lb_hand_rig *rig) {
  for (int f = LB_FINGER_MIDDLE; f < LB_FINGER_COUNT && !(rig->index_length > 0.0f); ++f) {
    const lb_finger_info *fi = &hand->fingers[f];
    if (!fi->found) {
      continue;
    }
    for (int s = 1; s <= fi->segment_count; ++s) {
      if (cp->slot[f][s] >= 0) {
        rig->index_length += lb_dist(cp->hs[cp->slot[f][s]].t, cp->hs[cp->slot[f][s - 1]].t);
      }
    }
  }
}

/* The thumb bends about its rest direction x palm Y, which also turns it toward the palm
 * side; unchanged when that direction is too close to palm Y. */
static void lb_hand_rig_thumb_bend(const lb_hand_compact *cp, int segment_count,
                                   const lb_palm_frame_job *pj, vec3 bend) {
  const int f = LB_FINGER_THUMB;
  int last = cp->slot[f][cp->slot[f][segment_count] >= 0 ? segment_count : segment_count - 1];
  const lb_transform *hs = cp->hs;
  vec3 d = {hs[last].t[0] - hs[cp->slot[f][0]].t[0], hs[last].t[1] - hs[cp->slot[f][0]].t[1],
            hs[last].t[2] - hs[cp->slot[f][0]].t[2]};
  vec3 c;
  lb_vec3_cross(d, pj->y_axis, c);
  if (lb_vec3_normalize_to(c, c) > 1e-3f * lb_vec3_length(d)) {
    memcpy(bend, c, sizeof(vec3));
  }
}

/* One found finger's joints, rest rotations and bend and fan axes (each in its parent's
 * frame). */
static lb_result lb_hand_rig_finger_axes(const lb_hand_info *hand, const int16_t *parents,
                                         const lb_transform *rest, uint32_t joint_count,
                                         const lb_hand_compact *cp, const lb_palm_frame_job *pj,
                                         uint32_t tip_estimated, uint32_t tip_from_mesh, int f,
                                         lb_hand_rig_finger *rf) {
  const lb_finger_info *fi = &hand->fingers[f];
  rf->found = true;
  rf->segment_count = fi->segment_count;
  rf->tip = fi->tip;
  rf->tip_estimated = (tip_estimated >> f) & 1u;
  rf->tip_from_mesh = (tip_from_mesh >> f) & 1u;
  if (rf->tip_estimated) {
    memcpy(rf->tip_local, cp->tip_local[f], sizeof(vec3));
  }
  rf->root_parent = parents[fi->joints[0]];
  lb_transform root_parent;
  lb_result r =
      lb_hand_space(parents, rest, joint_count, hand->hand, rf->root_parent, &root_parent);
  if (r != LB_OK) {
    return r;
  }
  /* Bend axis: palm -X for the fingers (+ curls toward palm +Y on either hand). */
  vec3 bend = {-pj->x_axis[0], -pj->x_axis[1], -pj->x_axis[2]};
  if (f == LB_FINGER_THUMB) {
    lb_hand_rig_thumb_bend(cp, fi->segment_count, pj, bend);
  }
  /* Fan: + turns index and middle toward the thumb (palm -X on the right hand, +X on
   * the left), ring and pinky away. Rotating +Z about +Y moves it toward +X. */
  bool toward_plus_x = (hand->side == LB_HAND_LEFT) == (f <= LB_FINGER_MIDDLE);
  vec3 fan = {pj->y_axis[0], pj->y_axis[1], pj->y_axis[2]};
  if (!toward_plus_x) {
    fan[0] = -fan[0];
    fan[1] = -fan[1];
    fan[2] = -fan[2];
  }
  lb_axis_in(root_parent.r, fan, rf->fan_axis);
  for (int s = 0; s < fi->segment_count; ++s) {
    rf->joints[s] = fi->joints[s];
    memcpy(rf->rest[s], rest[fi->joints[s]].r, sizeof(versor));
    const float *pr = s == 0 ? root_parent.r : cp->hs[cp->slot[f][s - 1]].r;
    lb_axis_in(pr, bend, rf->bend_axis[s]);
  }
  for (int s = fi->segment_count; s < LB_FINGER_MAX_SEGMENTS; ++s) {
    rf->joints[s] = -1;
    lb_quat_identity(rf->rest[s]);
  }
  return LB_OK;
}

lb_result lb_hand_rig_build(const lb_hand_info *hand, const int16_t *parents,
                            const lb_transform *rest, uint32_t joint_count, lb_hand_rig *out) {
  return lb_hand_rig_build_ends(hand, parents, rest, NULL, joint_count, out);
}

lb_result lb_hand_rig_build_ends(const lb_hand_info *hand, const int16_t *parents,
                                 const lb_transform *rest, const lb_joint_end *ends,
                                 uint32_t joint_count, lb_hand_rig *out) {
  if (!hand || !parents || !rest || !out) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (joint_count < 1 || joint_count > LB_MAX_JOINTS) {
    return LB_ERR_OUT_OF_RANGE;
  }
  if (hand->hand < 0 || hand->hand >= (int)joint_count ||
      (hand->side != LB_HAND_RIGHT && hand->side != LB_HAND_LEFT)) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  lb_hand_rig rig;
  memset(&rig, 0, sizeof rig);
  rig.joint_count = joint_count;
  rig.side = hand->side;
  rig.hand = hand->hand;

  lb_hand_compact cp;
  lb_result r = lb_hand_rig_compact(hand, parents, rest, ends, joint_count, &cp, &rig);
  if (r != LB_OK) {
    return r;
  }
  lb_palm_frame_job pj = lb_palm_frame_default_job();
  pj.hand = &cp.info;
  pj.model = cp.hs;
  pj.joint_count = (uint32_t)cp.n;
  r = lb_palm_frame_job_run(&pj);
  if (r != LB_OK) {
    return r;
  }
  rig.palm = pj.frame;
  rig.index_length = pj.index_length;
  lb_hand_rig_index_fallback(hand, &cp, &rig);
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    if (!hand->fingers[f].found) {
      continue;
    }
    r = lb_hand_rig_finger_axes(hand, parents, rest, joint_count, &cp, &pj, rig.tip_estimated,
                                rig.tip_from_mesh, f, &rig.fingers[f]);
    if (r != LB_OK) {
      return r;
    }
  }
  rig.valid = 1;
  *out = rig;
  return LB_OK;
}
