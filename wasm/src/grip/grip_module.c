/* The grip module's table: GripSurface, GripProfile, GripPose and GripHolder (checked on
 * write against the world), the internal GripHands state of a character, pose names, and
 * the Grip system. */
#include "grip_internal.h"
#include <string.h>

#define LB_SCHEMA_STRUCT lb_grip_surface_c
LB_COMPONENT_INFO(lb_grip_surface_info, "GripSurface", LB_GRIP_SURFACE_FIELDS);
#undef LB_SCHEMA_STRUCT
#define LB_SCHEMA_STRUCT lb_grip_profile_c
LB_COMPONENT_INFO(lb_grip_profile_info, "GripProfile", LB_GRIP_PROFILE_FIELDS);
#undef LB_SCHEMA_STRUCT
#define LB_SCHEMA_STRUCT lb_grip_pose_c
LB_COMPONENT_INFO(lb_grip_pose_info, "GripPose", LB_GRIP_POSE_FIELDS);
#undef LB_SCHEMA_STRUCT
#define LB_SCHEMA_STRUCT lb_grip_holder_c
LB_COMPONENT_INFO(lb_grip_holder_info, "GripHolder", LB_GRIP_HOLDER_FIELDS);
#undef LB_SCHEMA_STRUCT
static const lb_component_info lb_grip_hands_info = {"GripHands", 0, 0, NULL};

/* ---- checks -------------------------------------------------------------------------- */

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
                               const char *field, lb_name path_id, lb_name roots_id, bool needed) {
  if (!path_id && !roots_id && !needed) {
    return LB_OK;
  }
  lb_hand_info info;
  const lb_skeleton *sk = lb_skeleton_get(w, lb_rig_of_slot(w, slot)->asset);
  const char *path = lb_name_text(w, path_id), *roots = lb_name_text(w, roots_id);
  /* The report (an allocation) only for the message. */
  if (lb_grip_find_hand(w, sk, side, path, roots, &info, NULL) == LB_OK) {
    return LB_OK;
  }
  char *report = NULL;
  lb_grip_find_hand(w, sk, side, path, roots, &info, &report);
  lb_fail(w, LB_ERR_JOINT_NOT_FOUND, "%s: field '%s': %s", where, field, info.report);
  lb_free(w, report);
  return LB_ERR_JOINT_NOT_FOUND;
}

lb_result lb_grip_check_pose_name(lb_world *w, const char *where, const char *field, lb_name name) {
  if (name == 0 || lb_grip_pose_ref(w, name) != 0) {
    return LB_OK;
  }
  return lb_fail(w, LB_ERR_UNKNOWN_NAME, "%s: field '%s': no grip or finger pose named '%s'", where,
                 field, lb_name_text(w, name));
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

/* ---- hands ----------------------------------------------------------------------------- */

void lb_grip_hand_inputs(const lb_world *w, uint32_t slot, int side, lb_name *path,
                         lb_name *roots) {
  const lb_grip_holder_c *gh = lb_component_try(w, slot, LB_GRIP_HOLDER);
  const lb_grip_pose_c *gp = lb_component_try(w, slot, LB_GRIP_POSE);
  lb_name hold = gh ? (side ? gh->left_hand : gh->right_hand) : 0;
  *path = hold ? hold : gp ? (side ? gp->left_hand : gp->right_hand) : 0;
  *roots = gp ? (side ? gp->left_fingers : gp->right_fingers) : 0;
}

void lb_grip_hands_refresh(lb_world *w, uint32_t slot) {
  const lb_rig_instance *inst = lb_rig_of_slot(w, slot);
  if (!lb_slot_has(w, slot, LB_GRIP_HANDS) || !inst) {
    return;
  }
  lb_grip_hands *hs = lb_component_state(w, slot, LB_GRIP_HANDS);
  for (int side = 0; side < 2; ++side) {
    lb_name path, roots;
    lb_grip_hand_inputs(w, slot, side, &path, &roots);
    /* Null only when out of memory after a Rig change: the hand idles until written. */
    lb_grip_hand_bind(&hs->hands[side],
                      lb_grip_hand_def_get(w, inst->asset, (lb_hand_side)side, path, roots));
  }
}

/* GripPose and GripHolder share the hands: the first attaches them (with their per-joint
 * buffers), the last detaches them. Everything that can fail happens here: storage, the
 * buffers, and the hand defs the commit will bind (the value in `wr` is the new one). */
static lb_result lb_hands_reserve(lb_write *wr) {
  lb_world *w = wr->world;
  lb_grip_hand_joints **joints = (lb_grip_hand_joints **)wr->prep;
  if (lb_store_reserve(w, LB_GRIP_HANDS, wr->slot) != LB_OK) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "%s: cannot allocate grip state", wr->where);
  }
  if (!lb_slot_has(w, wr->slot, LB_GRIP_HANDS)) {
    *joints = lb_alloc_array(w, 2, sizeof(lb_grip_hand_joints));
    if (!*joints) {
      return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "%s: cannot allocate grip buffers", wr->where);
    }
  }
  const lb_grip_pose_c *gp = wr->type == LB_GRIP_POSE ? wr->value : NULL;
  const lb_grip_holder_c *gh = wr->type == LB_GRIP_HOLDER ? wr->value : NULL;
  gp = gp ? gp : lb_component_try(w, wr->slot, LB_GRIP_POSE);
  gh = gh ? gh : lb_component_try(w, wr->slot, LB_GRIP_HOLDER);
  uint32_t asset = lb_rig_of_slot(w, wr->slot)->asset;
  for (int side = 0; side < 2; ++side) {
    lb_name hold = gh ? (side ? gh->left_hand : gh->right_hand) : 0;
    lb_name path = hold ? hold : gp ? (side ? gp->left_hand : gp->right_hand) : 0;
    lb_name roots = gp ? (side ? gp->left_fingers : gp->right_fingers) : 0;
    if (!lb_grip_hand_def_get(w, asset, (lb_hand_side)side, path, roots)) {
      lb_free(w, *joints);
      *joints = NULL;
      return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "%s: cannot allocate a hand", wr->where);
    }
  }
  return LB_OK;
}

static void lb_hands_commit(lb_write *wr, void *state) {
  (void)state;
  lb_grip_hand_joints *joints = *(lb_grip_hand_joints **)wr->prep;
  if (joints) {
    lb_store_attach(wr->world, LB_GRIP_HANDS, wr->slot);
    lb_grip_hands *hs = lb_component_state(wr->world, wr->slot, LB_GRIP_HANDS);
    hs->joints = joints;
    for (int side = 0; side < 2; ++side) {
      hs->hands[side].joints = &joints[side];
    }
  }
  lb_grip_hands_refresh(wr->world, wr->slot);
}

static void lb_hands_remove(lb_world *w, uint32_t slot, void *value, void *state) {
  (void)slot;
  (void)value;
  lb_grip_hands *hs = state;
  lb_free(w, hs->joints);
  hs->joints = NULL;
}

static void lb_hands_release_if_unused(lb_world *w, uint32_t slot, uint32_t leaving) {
  uint32_t other = leaving == LB_GRIP_POSE ? LB_GRIP_HOLDER : LB_GRIP_POSE;
  if (!lb_slot_has(w, slot, other)) {
    lb_store_detach(w, LB_GRIP_HANDS, slot);
  }
}

static void lb_pose_remove(lb_world *w, uint32_t slot, void *value, void *state) {
  (void)value;
  (void)state;
  lb_hands_release_if_unused(w, slot, LB_GRIP_POSE);
}

static void lb_holder_remove(lb_world *w, uint32_t slot, void *value, void *state) {
  (void)value;
  (void)state;
  lb_hands_release_if_unused(w, slot, LB_GRIP_HOLDER);
}

/* ---- stage hooks ------------------------------------------------------------------------ */

static lb_result lb_pose_stage(lb_write *wr) {
  lb_world *w = wr->world;
  const lb_grip_pose_c *c = wr->value;
  const char *where = wr->where;
  lb_result r = lb_need_rig(w, where, wr->slot);
  if (r == LB_OK) {
    r = lb_grip_check_pose_name(w, where, "rightPose", c->right_pose);
  }
  if (r == LB_OK) {
    r = lb_grip_check_pose_name(w, where, "leftPose", c->left_pose);
  }
  if (r == LB_OK) {
    r = lb_check_hand(w, where, wr->slot, LB_HAND_RIGHT,
                      c->right_hand      ? "rightHand"
                      : c->right_fingers ? "rightFingerRoots"
                                         : "rightPose",
                      c->right_hand, c->right_fingers, c->right_pose != 0);
  }
  if (r == LB_OK) {
    r = lb_check_hand(w, where, wr->slot, LB_HAND_LEFT,
                      c->left_hand      ? "leftHand"
                      : c->left_fingers ? "leftFingerRoots"
                                        : "leftPose",
                      c->left_hand, c->left_fingers, c->left_pose != 0);
  }
  return r == LB_OK ? lb_hands_reserve(wr) : r;
}

static lb_result lb_holder_stage(lb_write *wr) {
  lb_world *w = wr->world;
  const lb_grip_holder_c *c = wr->value;
  const char *where = wr->where;
  lb_result r = lb_need_rig(w, where, wr->slot);
  if (r != LB_OK) {
    return r;
  }
  /* A held object that was despawned (kept by the schema check) is held by no hand. */
  bool holds = c->held != LB_NULL_ENTITY && lb_slot_of(w, c->held) >= 0;
  if (holds) {
    int hs = lb_slot_of(w, c->held);
    if (!lb_slot_has(w, (uint32_t)hs, LB_GRIP_PROFILE)) {
      return lb_fail(w, LB_ERR_MISSING_COMPONENT, "%s: field 'held': the object has no GripProfile",
                     where);
    }
    if ((uint32_t)hs == wr->slot) {
      return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "%s: field 'held': a character cannot hold itself",
                     where);
    }
  }
  r = lb_check_hand(w, where, wr->slot, LB_HAND_RIGHT, "rightHand", c->right_hand, 0, holds);
  if (r == LB_OK) {
    r = lb_check_hand(w, where, wr->slot, LB_HAND_LEFT, "leftHand", c->left_hand, 0, holds);
  }
  return r == LB_OK ? lb_hands_reserve(wr) : r;
}

static lb_result lb_profile_stage(lb_write *wr) {
  lb_world *w = wr->world;
  const lb_grip_profile_c *c = wr->value;
  if (c->main_anchor != LB_NULL_ENTITY && c->main_anchor == c->support_anchor) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                   "%s: fields 'mainAnchor' and 'supportAnchor' are the same entity", wr->where);
  }
  lb_result r = lb_grip_check_pose_name(w, wr->where, "mainPose", c->main_pose);
  return r == LB_OK ? lb_grip_check_pose_name(w, wr->where, "supportPose", c->support_pose) : r;
}

static lb_result lb_surface_stage(lb_write *wr) {
  return lb_grip_check_surface(wr->world, wr->where, wr->value);
}

/* A Rig that changes skeleton re-finds the hands on it. */
static void lb_grip_changed(lb_world *w, uint32_t type, uint32_t slot) {
  if (type == LB_RIG) {
    lb_grip_hands_refresh(w, slot);
  }
}

/* ---- module ---------------------------------------------------------------------------- */

static lb_result lb_grip_init(lb_world *w, void *state) {
  lb_grip_world *gw = state;
  uint32_t n = lb_grip_pose_builtin_count();
  for (uint32_t i = 0; i < n && i < LB_GRIP_BUILTIN_MAX; ++i) {
    const char *name = lb_grip_pose_builtin_name(i);
    lb_name id;
    if (lb_grip_pose_builtin(name, &gw->builtins[i]) != LB_OK ||
        lb_names_intern(&w->names, name, strlen(name), &id) != LB_OK ||
        lb_grip_set_ref(w, id, LB_GRIP_REF_BUILTIN + (int32_t)i) != LB_OK) {
      return LB_ERR_OUT_OF_MEMORY;
    }
  }
  return LB_OK;
}

static void lb_grip_release(lb_world *w, void *state) {
  lb_grip_world *gw = state;
  for (uint32_t i = 0; i < gw->hand_def_count; ++i) {
    lb_free(w, gw->hand_defs[i]->report);
    lb_free(w, gw->hand_defs[i]);
  }
  lb_free(w, gw->find_report);
  lb_free(w, gw->hand_defs);
  lb_free(w, gw->poses);
  for (uint32_t i = 0; i < gw->finger_pose_count; ++i) {
    lb_free(w, gw->finger_poses[i]);
  }
  lb_free(w, gw->ref_by_name);
}

/* Hands found during a load that failed may name a skeleton that the rollback removes (its
 * handle would be reused by the next skeleton): drop every hand found since the mark. No
 * surviving character uses them, since a load only writes the entities it spawns. */
static void lb_grip_asset_mark(const lb_world *w, const void *state, lb_asset_mark *out) {
  (void)w;
  out->count[0] = ((const lb_grip_world *)state)->hand_def_count;
}

static void lb_grip_asset_rollback(lb_world *w, void *state, const lb_asset_mark *mark) {
  lb_grip_world *gw = state;
  while (gw->hand_def_count > mark->count[0]) {
    lb_grip_hand_def *d = gw->hand_defs[--gw->hand_def_count];
    lb_free(w, d->report);
    lb_free(w, d);
  }
}

/* A hand found since the mark that a live character is bound to keeps the assets. */
static bool lb_grip_asset_in_use(const lb_world *w, const void *state, const lb_asset_mark *mark) {
  const lb_grip_world *gw = state;
  uint32_t s;
  for (lb_each it = lb_each_begin(w, LB_GRIP_HANDS); lb_each_next(&it, &s);) {
    const lb_grip_hands *hs = lb_component_state(w, s, LB_GRIP_HANDS);
    for (uint32_t i = mark->count[0]; i < gw->hand_def_count; ++i) {
      if (hs->hands[0].def == gw->hand_defs[i] || hs->hands[1].def == gw->hand_defs[i]) {
        return true;
      }
    }
  }
  return false;
}

static const lb_component_def lb_grip_components[] = {
    {.type = LB_GRIP_SURFACE, .info = &lb_grip_surface_info, .stage = lb_surface_stage},
    {.type = LB_GRIP_PROFILE, .info = &lb_grip_profile_info, .stage = lb_profile_stage},
    {.type = LB_GRIP_POSE,
     .info = &lb_grip_pose_info,
     .stage = lb_pose_stage,
     .commit = lb_hands_commit,
     .remove = lb_pose_remove},
    {.type = LB_GRIP_HOLDER,
     .info = &lb_grip_holder_info,
     .stage = lb_holder_stage,
     .commit = lb_hands_commit,
     .remove = lb_holder_remove},
    {.type = LB_GRIP_HANDS,
     .info = &lb_grip_hands_info,
     .state_size = sizeof(lb_grip_hands),
     .remove = lb_hands_remove},
};

static const lb_system_def lb_grip_systems[] = {
    {LB_PHASE_GRIP, 0, "grip.characters", lb_system_grip},
};

const lb_module_def lb_module_grip = {
    .name = "grip",
    .state_size = sizeof(lb_grip_world),
    .init = lb_grip_init,
    .release = lb_grip_release,
    .components = lb_grip_components,
    .component_count = sizeof lb_grip_components / sizeof lb_grip_components[0],
    .systems = lb_grip_systems,
    .system_count = 1,
    .changed = lb_grip_changed,
    .asset_mark = lb_grip_asset_mark,
    .asset_rollback = lb_grip_asset_rollback,
    .asset_in_use = lb_grip_asset_in_use,
};
