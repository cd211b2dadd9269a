/* The grip components' own rules, run by the generic write on a staging copy. */
#include "grip_internal.h"
#include <string.h>

static lb_result lb_need_rig(lb_world *w, const char *where, uint32_t slot) {
  if (!lb_slot_has(w, slot, LB_RIG)) {
    return lb_fail(w, LB_ERR_MISSING_COMPONENT, "%s: the entity needs a Rig (insert it first)",
                   where);
  }
  return LB_OK;
}

/* An explicit hand path must resolve; a hand found by name is only required when
 * `needed` (e.g. a pose is set for it). */
static lb_result lb_check_hand(lb_world *w, const char *where, uint32_t slot, lb_hand_side side,
                               const char *field, const char *path, const char *roots,
                               bool needed) {
  if (!path[0] && !roots[0] && !needed) {
    return LB_OK;
  }
  lb_hand_info info;
  const lb_skeleton *sk = lb_skeleton_get(w, w->rigs[slot].asset);
  if (lb_grip_find_hand(sk, side, path, roots, &info) != LB_OK) {
    return lb_fail(w, LB_ERR_JOINT_NOT_FOUND, "%s: field '%s': %s", where, field, info.report);
  }
  return LB_OK;
}

static lb_result lb_alloc_state(lb_world *w, const char *where, uint32_t slot,
                                lb_grip_prepared *out) {
  if (w->grip[slot]) {
    return LB_OK;
  }
  out->slot_state = lb_alloc(w, sizeof(lb_grip_slot));
  if (!out->slot_state) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "%s: cannot allocate grip state", where);
  }
  return LB_OK;
}

static lb_result lb_prepare_pose(lb_world *w, const char *where, uint32_t slot,
                                 const lb_grip_pose_c *c, lb_grip_prepared *out) {
  lb_result r = lb_need_rig(w, where, slot);
  if (r == LB_OK) {
    r = lb_grip_check_pose_name(w, where, "rightPose", c->right_pose);
  }
  if (r == LB_OK) {
    r = lb_grip_check_pose_name(w, where, "leftPose", c->left_pose);
  }
  if (r == LB_OK) {
    r = lb_check_hand(w, where, slot, LB_HAND_RIGHT,
                      c->right_hand[0]      ? "rightHand"
                      : c->right_fingers[0] ? "rightFingerRoots"
                                            : "rightPose",
                      c->right_hand, c->right_fingers, c->right_pose[0] != 0);
  }
  if (r == LB_OK) {
    r = lb_check_hand(w, where, slot, LB_HAND_LEFT,
                      c->left_hand[0]      ? "leftHand"
                      : c->left_fingers[0] ? "leftFingerRoots"
                                           : "leftPose",
                      c->left_hand, c->left_fingers, c->left_pose[0] != 0);
  }
  return r == LB_OK ? lb_alloc_state(w, where, slot, out) : r;
}

static lb_result lb_prepare_holder(lb_world *w, const char *where, uint32_t slot,
                                   const lb_grip_holder_c *c, lb_grip_prepared *out) {
  lb_result r = lb_need_rig(w, where, slot);
  if (r != LB_OK) {
    return r;
  }
  if (c->held != LB_NULL_ENTITY) {
    int hs = lb_slot_of(w, c->held);
    if (hs < 0 || !lb_slot_has(w, (uint32_t)hs, LB_GRIP_PROFILE)) {
      return lb_fail(w, LB_ERR_MISSING_COMPONENT, "%s: field 'held': the object has no GripProfile",
                     where);
    }
    if ((uint32_t)hs == slot) {
      return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "%s: field 'held': a character cannot hold itself",
                     where);
    }
  }
  r = lb_check_hand(w, where, slot, LB_HAND_RIGHT, "rightHand", c->right_hand, "",
                    c->held != LB_NULL_ENTITY);
  if (r == LB_OK) {
    r = lb_check_hand(w, where, slot, LB_HAND_LEFT, "leftHand", c->left_hand, "",
                      c->held != LB_NULL_ENTITY);
  }
  return r == LB_OK ? lb_alloc_state(w, where, slot, out) : r;
}

/* Per-joint finger JSON is parsed on write, so a step never parses. */
static lb_result lb_parse_fingers(lb_world *w, const char *where, const char *field,
                                  const char *json, bool *has, lb_grip_pose_def *out) {
  *has = json[0] != 0;
  if (!*has) {
    return LB_OK;
  }
  char err[160];
  lb_result r = lb_grip_pose_parse_json(json, strlen(json), out, err, sizeof err);
  return r == LB_OK ? LB_OK : lb_fail(w, r, "%s: field '%s': %s", where, field, err);
}

static lb_result lb_prepare_profile(lb_world *w, const char *where, uint32_t slot,
                                    const lb_grip_profile_c *c, lb_grip_prepared *out) {
  if (c->main_anchor != LB_NULL_ENTITY && c->main_anchor == c->support_anchor) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                   "%s: fields 'mainAnchor' and 'supportAnchor' are the same entity", where);
  }
  lb_result r = lb_grip_check_pose_name(w, where, "mainPose", c->main_pose);
  if (r == LB_OK) {
    r = lb_grip_check_pose_name(w, where, "supportPose", c->support_pose);
  }
  if (r == LB_OK) {
    r = lb_parse_fingers(w, where, "mainFingers", c->main_fingers, &out->has_fingers[0],
                         &out->fingers[0]);
  }
  if (r == LB_OK) {
    r = lb_parse_fingers(w, where, "supportFingers", c->support_fingers, &out->has_fingers[1],
                         &out->fingers[1]);
  }
  return r == LB_OK ? lb_alloc_state(w, where, slot, out) : r;
}

lb_result lb_grip_prepare(lb_world *w, const char *where, uint32_t slot, uint32_t type,
                          const void *staging, lb_grip_prepared *out) {
  switch (type) {
  case LB_GRIP_POSE:
    return lb_prepare_pose(w, where, slot, staging, out);
  case LB_GRIP_HOLDER:
    return lb_prepare_holder(w, where, slot, staging, out);
  case LB_GRIP_PROFILE:
    return lb_prepare_profile(w, where, slot, staging, out);
  case LB_GRIP_SURFACE:
    return lb_grip_check_surface(w, where, staging);
  default:
    return LB_OK;
  }
}

void lb_grip_commit(lb_world *w, uint32_t slot, uint32_t type, lb_grip_prepared *prep) {
  if (prep->slot_state) {
    w->grip[slot] = prep->slot_state;
    prep->slot_state = NULL;
  }
  if (type == LB_GRIP_PROFILE) {
    for (int k = 0; k < 2; ++k) {
      w->grip[slot]->has_fingers[k] = prep->has_fingers[k];
      w->grip[slot]->fingers[k] = prep->fingers[k];
    }
  }
}

void lb_grip_prepared_release(lb_world *w, lb_grip_prepared *prep) {
  lb_free(w, prep->slot_state);
  prep->slot_state = NULL;
}

lb_result lb_grip_check_pose_name(lb_world *w, const char *where, const char *field,
                                  const char *name) {
  lb_grip_pose_def def;
  if (!name[0] || lb_grip_finger_pose(w, name) ||
      lb_grip_pose_registry_find(w->grip_poses, name, &def) == LB_OK) {
    return LB_OK;
  }
  return lb_fail(w, LB_ERR_UNKNOWN_NAME, "%s: field '%s': no grip or finger pose named '%s'", where,
                 field, name);
}

lb_shape_def lb_grip_surface_def(const lb_grip_surface_c *c) {
  lb_shape_def d = lb_shape_default_def();
  d.type = (lb_shape_type)c->shape;
  d.direction = (lb_axis)c->direction;
  memcpy(d.center, c->center, sizeof d.center);
  d.radius = c->radius;
  d.height = c->height;
  memcpy(d.size, c->size, sizeof d.size);
  return d;
}

lb_result lb_grip_check_surface(lb_world *w, const char *where, const lb_grip_surface_c *c) {
  lb_shape_def d = lb_grip_surface_def(c);
  const char *field = NULL;
  lb_result r = lb_shape_check(&d, &field);
  if (r != LB_OK) {
    return lb_fail(w, r, "%s: field '%s' does not give a valid %s", where,
                   field && strcmp(field, "type") == 0 ? "shape" : (field ? field : "shape"),
                   c->shape == LB_SHAPE_CAPSULE ? "capsule (height >= 2 x radius, sizes > 0)"
                                                : "shape (sizes > 0)");
  }
  return LB_OK;
}
