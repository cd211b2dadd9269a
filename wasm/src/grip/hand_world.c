/* Hand finding on a world entity's rig: the skeleton's name table as the job wants it. */
#include "../base/array.h"
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

static const char lb_report_oom[] = "(hand report lost: out of memory)";

lb_result lb_grip_find_hand(lb_world *w, const lb_skeleton *sk, lb_hand_side side, const char *path,
                            const char *finger_roots, lb_hand_info *out, char **report) {
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
  /* Measure, then write the whole report into its own allocation. */
  lb_result r = lb_hand_find_job_run(&job);
  if (!report) {
    *out = job.info;
    return r;
  }
  *report = lb_alloc(w, job.report_len + 1u);
  if (*report) {
    job.report = *report;
    job.report_cap = job.report_len + 1u;
    r = lb_hand_find_job_run(&job);
  }
  *out = job.info;
  out->report = *report ? *report : lb_report_oom;
  return r;
}

/* Appends `more` to the report owned by *report (reallocated; kept as is when out of
 * memory). */
static void lb_report_append(lb_world *w, char **report, lb_hand_info *info, const char *more) {
  if (!*report) {
    return;
  }
  size_t a = strlen(*report), b = strlen(more);
  char *grown = lb_alloc(w, a + b + 1u);
  if (!grown) {
    return;
  }
  memcpy(grown, *report, a);
  memcpy(grown + a, more, b + 1u);
  lb_free(w, *report);
  *report = grown;
  info->report = grown;
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
  lb_grip_world *gw = lb_grip_world_of(w);
  char *report = NULL;
  lb_result r = lb_grip_find_hand(w, lb_skeleton_get(w, lb_rig_of_slot(w, (uint32_t)s)->asset),
                                  side, hand_path, NULL, out, &report);
  lb_free(w, gw->find_report); /* the previous call's */
  gw->find_report = report;
  if (r != LB_OK) {
    return lb_fail(w, r, "find hand on %s: %s", lb_entity_label(e, lbl, sizeof lbl), out->report);
  }
  return LB_OK;
}

/* "<label> thumb index ..." for the fingers in `mask` (nothing when it is empty). */
static void lb_report_fingers(lb_world *w, lb_grip_hand_def *d, uint32_t mask, const char *label) {
  if (!mask) {
    return;
  }
  lb_report_append(w, &d->report, &d->info, label);
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    if ((mask >> f) & 1u) {
      lb_report_append(w, &d->report, &d->info, " ");
      lb_report_append(w, &d->report, &d->info, lb_finger_name((lb_finger)f));
    }
  }
}

static void lb_hand_def_build(lb_world *w, lb_grip_hand_def *d) {
  const lb_skeleton *sk = lb_skeleton_get(w, d->asset);
  d->spine = d->clavicle = d->upper = d->lower = -1;
  d->info.hand = -1;
  d->info.report = "";
  if (!sk) {
    d->found = LB_ERR_MISSING_COMPONENT;
    return;
  }
  d->found = lb_grip_find_hand(w, sk, d->side, lb_name_text(w, d->path),
                               lb_name_text(w, d->finger_roots), &d->info, &d->report);
  if (d->found != LB_OK) {
    return;
  }
  int hand = d->info.hand;
  if (lb_hand_rig_build_ends(&d->info, sk->parents, sk->rest, sk->mesh_ends, sk->joint_count,
                             &d->rig) == LB_OK) {
    d->palm_in_hand = d->rig.palm;
    d->index_length = d->rig.index_length;
    lb_report_fingers(w, d, d->rig.tip_estimated & ~d->rig.tip_from_mesh, "; end estimated:");
    lb_report_fingers(w, d, d->rig.tip_from_mesh, "; end where the skinned mesh ends:");
  } else {
    /* The arm can still reach with the hand joint as the palm, but a holder does not
     * report reached (phase_grip.c). */
    d->rig.valid = 0;
    lb_transform_identity(&d->palm_in_hand);
    lb_report_append(w, &d->report, &d->info,
                     "; no palm frame (it needs the index or middle root and a root across the "
                     "palm): the hand joint stands in for the palm, a holder never reports "
                     "reached, and poses leave the fingers as animated");
  }
  d->lower = sk->parents[hand];
  d->upper = d->lower >= 0 ? sk->parents[d->lower] : -1;
  d->clavicle = d->upper >= 0 ? sk->parents[d->upper] : -1;
  d->spine = d->clavicle >= 0 ? sk->parents[d->clavicle] : -1;
  /* Blend list: arm joints first (parents before children), then the fingers. */
  const int16_t arm[4] = {d->clavicle, d->upper, d->lower, (int16_t)hand};
  for (int k = 0; k < 4; ++k) {
    if (arm[k] >= 0) {
      d->blend_joints[d->blend_count++] = arm[k];
    }
  }
  for (int f = 0; f < LB_FINGER_COUNT; ++f) {
    const lb_finger_info *fi = &d->info.fingers[f];
    for (int k = 0; k < fi->segment_count && d->blend_count < LB_GRIP_BLEND_MAX; ++k) {
      d->blend_joints[d->blend_count++] = fi->joints[k];
    }
  }
}

const lb_grip_hand_def *lb_grip_hand_def_get(lb_world *w, uint32_t asset, lb_hand_side side,
                                             lb_name path, lb_name finger_roots) {
  lb_grip_world *gw = lb_grip_world_of(w);
  for (uint32_t i = 0; i < gw->hand_def_count; ++i) {
    const lb_grip_hand_def *d = gw->hand_defs[i];
    if (d->asset == asset && d->side == side && d->path == path &&
        d->finger_roots == finger_roots) {
      return d;
    }
  }
  lb_grip_hand_def *d = lb_alloc(w, sizeof *d);
  if (!d || lb_array_reserve(&w->allocator, (void **)&gw->hand_defs, &gw->hand_def_cap,
                             gw->hand_def_count, gw->hand_def_count + 1u,
                             sizeof(lb_grip_hand_def *), 8u) != LB_OK) {
    lb_free(w, d);
    return NULL;
  }
  d->asset = asset;
  d->side = side;
  d->path = path;
  d->finger_roots = finger_roots;
  lb_hand_def_build(w, d);
  for (uint32_t i = 0; i < gw->finger_pose_count; ++i) {
    lb_grip_hand_def_map_pose(w, d, i);
  }
  gw->hand_defs[gw->hand_def_count++] = d;
  return d;
}

void lb_grip_hand_def_map_pose(const lb_world *w, lb_grip_hand_def *d, uint32_t index) {
  const lb_finger_pose *fp = lb_grip_world_of(w)->finger_poses[index];
  const lb_skeleton *sk = lb_skeleton_get(w, d->asset);
  int hand = d->info.hand;
  for (uint32_t k = 0; k < LB_FINGER_POSE_JOINTS_MAX; ++k) {
    int j = k < fp->count && sk && hand >= 0 ? lb_skeleton_lookup(sk, fp->joints[k]) : -1;
    bool below = j > hand && hand >= 0 && (uint32_t)j < sk->subtree_end[hand];
    d->captured[index][k] = (int16_t)(below ? j : -1);
  }
}

void lb_grip_hand_bind(lb_grip_hand *h, const lb_grip_hand_def *def) {
  if (h->def == def) {
    return;
  }
  lb_grip_hand_joints *joints = h->joints;
  memset(h, 0, sizeof *h);
  h->def = def;
  h->joints = joints;
  h->blend_t = 1.0f;
  if (joints) {
    for (uint32_t k = 0; k < LB_GRIP_BLEND_MAX; ++k) {
      lb_quat_identity(joints->from_off[k]);
      lb_quat_identity(joints->last_off[k]);
    }
    joints->pending = 0;
  }
}
