/* Generic component access: every write is validated through the schema, then by
 * the component's own rules, on a staging copy; the world changes only after
 * everything passed. */
#include "world_internal.h"
#include <stdio.h>
#include <string.h>

static const char *lb_type_name(lb_field_type t) {
  static const char *const names[] = {"f32",  "u32",    "bool", "entity", "vec3",
                                      "quat", "string", "enum", "asset"};
  return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

/* Schema-level checks of one field in the staging copy. */
static lb_result lb_check_field(lb_world *w, const char *where, const lb_field *f, uint8_t *p) {
  switch (f->type) {
  case LB_FIELD_F32:
  case LB_FIELD_VEC3:
  case LB_FIELD_QUAT: {
    uint32_t n = f->size / (uint32_t)sizeof(float);
    float v[4];
    memcpy(v, p, f->size);
    for (uint32_t i = 0; i < n; ++i) {
      if (!lb_is_finite(v[i])) {
        return lb_fail(w, LB_ERR_NOT_FINITE, "%s: field '%s'[%u] is not finite", where, f->name, i);
      }
      if (f->type != LB_FIELD_QUAT && (v[i] < f->min || v[i] > f->max)) {
        return lb_fail(w, LB_ERR_OUT_OF_RANGE, "%s: field '%s'%s = %g is outside [%g, %g]", where,
                       f->name, n > 1 ? "[i]" : "", (double)v[i], (double)f->min, (double)f->max);
      }
    }
    if (f->type == LB_FIELD_QUAT) {
      float n2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3];
      if (!(n2 > 1e-12f) || !lb_is_finite(n2)) {
        return lb_fail(w, LB_ERR_OUT_OF_RANGE, "%s: field '%s' is not a rotation (length %g)",
                       where, f->name, (double)lb_sqrt(n2));
      }
      lb_quat_normalize(v);
      memcpy(p, v, f->size);
    }
    return LB_OK;
  }
  case LB_FIELD_U32:
  case LB_FIELD_BOOL:
  case LB_FIELD_ASSET: {
    uint32_t v;
    memcpy(&v, p, sizeof v);
    if ((double)v < (double)f->min || (double)v > (double)f->max) {
      return lb_fail(w, LB_ERR_OUT_OF_RANGE, "%s: field '%s' = %u is outside [%.0f, %.0f]%s", where,
                     f->name, v, (double)f->min, (double)f->max,
                     f->type == LB_FIELD_ASSET && v == 0 ? " (an asset is required)" : "");
    }
    return LB_OK;
  }
  case LB_FIELD_ENUM: {
    uint32_t v;
    memcpy(&v, p, sizeof v);
    int count = 0;
    for (const char *c = f->enum_names; c && *c; ++c) {
      count += *c == '|';
    }
    if (v > (uint32_t)count) {
      return lb_fail(w, LB_ERR_OUT_OF_RANGE, "%s: field '%s' = %u is not one of %s", where, f->name,
                     v, f->enum_names);
    }
    return LB_OK;
  }
  case LB_FIELD_ENTITY: {
    lb_entity v;
    memcpy(&v, p, sizeof v);
    if (v != LB_NULL_ENTITY && lb_slot_of(w, v) < 0) {
      char lbl[48];
      return lb_fail(w, LB_ERR_STALE_ENTITY, "%s: field '%s' refers to %s, which is not alive",
                     where, f->name, lb_entity_label(v, lbl, sizeof lbl));
    }
    return LB_OK;
  }
  case LB_FIELD_STRING:
    if (memchr(p, 0, f->size) == NULL) {
      return lb_fail(w, LB_ERR_OUT_OF_RANGE, "%s: field '%s' is longer than %u bytes", where,
                     f->name, f->size - 1u);
    }
    return LB_OK;
  }
  return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "%s: field '%s' has unknown type %s", where, f->name,
                 lb_type_name(f->type));
}

/* What a component's own rules prepared for the commit. */
typedef struct lb_prepared {
  int16_t attach_joint;
  lb_rig_instance rig;
  bool has_rig;
  lb_ik_chain chain;
  lb_grip_prepared grip;
  lb_animator_prepared animator;
} lb_prepared;

static lb_result lb_prepare_transform(lb_world *w, const char *where, uint32_t slot,
                                      const lb_transform_c *c, lb_prepared *out) {
  out->attach_joint = -1;
  if (c->parent == LB_NULL_ENTITY) {
    if (c->parent_joint[0]) {
      return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "%s: field 'parentJoint' = '%s' needs a parent",
                     where, c->parent_joint);
    }
    return LB_OK;
  }
  /* Walk up from the new parent; meeting this entity would close a loop. */
  int s = lb_slot_of(w, c->parent);
  for (uint32_t guard = 0; s >= 0 && guard <= w->high_water; ++guard) {
    if ((uint32_t)s == slot) {
      return lb_fail(w, LB_ERR_CYCLE, "%s: field 'parent' would make a parent cycle", where);
    }
    if (!lb_slot_has(w, (uint32_t)s, LB_TRANSFORM)) {
      break;
    }
    const lb_transform_c *pt = lb_component_ptr(w, (uint32_t)s, LB_TRANSFORM);
    s = lb_slot_of(w, pt->parent);
  }
  if (c->parent_joint[0]) {
    int ps = lb_slot_of(w, c->parent);
    if (!lb_slot_has(w, (uint32_t)ps, LB_RIG)) {
      return lb_fail(w, LB_ERR_MISSING_COMPONENT,
                     "%s: field 'parentJoint' = '%s' but the parent has no Rig", where,
                     c->parent_joint);
    }
    const lb_rig_c *rig = lb_component_ptr(w, (uint32_t)ps, LB_RIG);
    int j = lb_skeleton_lookup(lb_skeleton_get(w, rig->asset), c->parent_joint);
    if (j < 0) {
      return lb_fail(w, LB_ERR_JOINT_NOT_FOUND,
                     "%s: field 'parentJoint': joint '%s' not found in the parent's rig", where,
                     c->parent_joint);
    }
    out->attach_joint = (int16_t)j;
  }
  return LB_OK;
}

static lb_result lb_prepare_rig(lb_world *w, const char *where, const lb_rig_c *c,
                                lb_prepared *out) {
  if (!lb_skeleton_get(w, c->asset)) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME, "%s: field 'asset' = %u is not a skeleton asset", where,
                   c->asset);
  }
  lb_result r = lb_rig_instance_init(w, &out->rig, c->asset);
  if (r != LB_OK) {
    return lb_fail(w, r, "%s: cannot allocate pose buffers", where);
  }
  out->has_rig = true;
  return LB_OK;
}

static lb_result lb_prepare_two_bone_ik(lb_world *w, const char *where, lb_entity self,
                                        const lb_two_bone_ik_c *c, lb_prepared *out) {
  lb_entity rig_e = c->rig != LB_NULL_ENTITY ? c->rig : self;
  int rs = lb_slot_of(w, rig_e);
  if (rs < 0 || !lb_slot_has(w, (uint32_t)rs, LB_RIG)) {
    return lb_fail(w, LB_ERR_MISSING_COMPONENT, "%s: field 'rig': %s has no Rig", where,
                   c->rig != LB_NULL_ENTITY ? "the named entity" : "this entity (rig is null)");
  }
  if (c->target == LB_NULL_ENTITY) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "%s: field 'target' is null (an entity is required)",
                   where);
  }
  const lb_rig_c *rig = lb_component_ptr(w, (uint32_t)rs, LB_RIG);
  const lb_skeleton *sk = lb_skeleton_get(w, rig->asset);
  int tip = lb_skeleton_lookup(sk, c->tip);
  if (tip < 0) {
    return lb_fail(w, LB_ERR_JOINT_NOT_FOUND, "%s: field 'tip': joint '%s' not found in the rig",
                   where, c->tip);
  }
  int mid = sk->parents[tip];
  int root = mid >= 0 ? sk->parents[mid] : -1;
  if (root < 0) {
    return lb_fail(w, LB_ERR_JOINT_NOT_FOUND,
                   "%s: field 'tip': joint '%s' needs a parent and a grandparent", where, c->tip);
  }
  out->chain.asset = rig->asset;
  out->chain.root = (int16_t)root;
  out->chain.mid = (int16_t)mid;
  out->chain.tip = (int16_t)tip;
  return LB_OK;
}

static lb_result lb_write(lb_world *w, lb_entity e, uint32_t type, const void *data, bool insert) {
  if (!w || !data) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "component write: null data")
             : LB_ERR_INVALID_ARGUMENT;
  }
  const lb_component_info *info = lb_component_info_get(type);
  if (!info) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME, "component type %u does not exist", type);
  }
  char where[96], lbl[48];
  int s = lb_slot_checked(w, e, insert ? "insert" : "update");
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  uint32_t slot = (uint32_t)s;
  snprintf(where, sizeof where, "%s on %s", info->name, lb_entity_label(e, lbl, sizeof lbl));
  bool had = lb_slot_has(w, slot, type);
  if (!insert && !had) {
    return lb_fail(w, LB_ERR_MISSING_COMPONENT, "%s: the entity has no %s to update", where,
                   info->name);
  }
  _Alignas(16) uint8_t staging[LB_COMPONENT_MAX_SIZE];
  uint8_t *stored = lb_component_ptr(w, slot, type);
  memcpy(staging, data, info->size);
  for (uint32_t i = 0; i < info->field_count; ++i) {
    const lb_field *f = &info->fields[i];
    if (f->flags & LB_FIELD_READONLY) {
      if (had) {
        memcpy(staging + f->offset, stored + f->offset, f->size);
      } else {
        memset(staging + f->offset, 0, f->size);
      }
      continue;
    }
    lb_result r = lb_check_field(w, where, f, staging + f->offset);
    if (r != LB_OK) {
      return r;
    }
  }
  lb_prepared prep;
  memset(&prep, 0, sizeof prep);
  lb_result r = LB_OK;
  switch (type) {
  case LB_TRANSFORM:
    r = lb_prepare_transform(w, where, slot, (const lb_transform_c *)staging, &prep);
    break;
  case LB_RIG:
    if (had && ((const lb_rig_c *)stored)->asset == ((const lb_rig_c *)staging)->asset) {
      break; /* same skeleton: keep the buffers (and any host animation pose) */
    }
    r = lb_prepare_rig(w, where, (const lb_rig_c *)staging, &prep);
    break;
  case LB_TWO_BONE_IK:
    r = lb_prepare_two_bone_ik(w, where, e, (const lb_two_bone_ik_c *)staging, &prep);
    break;
  case LB_ANIMATOR:
    r = lb_animator_prepare(w, where, slot, staging, &prep.animator);
    break;
  default:
    r = lb_grip_prepare(w, where, slot, type, staging, &prep.grip);
    break;
  }
  if (r != LB_OK) {
    lb_grip_prepared_release(w, &prep.grip);
    lb_animator_prepared_release(w, &prep.animator);
    return r;
  }
  /* Commit: nothing below can fail. */
  memcpy(stored, staging, info->size);
  w->mask[slot] |= 1u << type;
  switch (type) {
  case LB_TRANSFORM:
    w->attach_joint[slot] = prep.attach_joint;
    break;
  case LB_RIG:
    if (prep.has_rig) {
      lb_rig_instance_release(w, &w->rigs[slot]);
      w->rigs[slot] = prep.rig;
    }
    break;
  case LB_TWO_BONE_IK:
    w->ik_chains[slot] = prep.chain;
    break;
  case LB_ANIMATOR:
    lb_animator_commit(w, slot, &prep.animator);
    break;
  default:
    lb_grip_commit(w, slot, type, &prep.grip);
    break;
  }
  w->error[0] = 0;
  return LB_OK;
}

lb_result lb_world_insert(lb_world *w, lb_entity e, uint32_t type, const void *data) {
  return lb_write(w, e, type, data, true);
}

lb_result lb_world_set(lb_world *w, lb_entity e, uint32_t type, const void *data) {
  return lb_write(w, e, type, data, false);
}

lb_result lb_world_get(const lb_world *w, lb_entity e, uint32_t type, void *out) {
  const lb_component_info *info = lb_component_info_get(type);
  int s = lb_slot_of(w, e);
  if (!w || !out || !info) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  if (!lb_slot_has(w, (uint32_t)s, type)) {
    return LB_ERR_MISSING_COMPONENT;
  }
  memcpy(out, lb_component_ptr(w, (uint32_t)s, type), info->size);
  return LB_OK;
}

bool lb_world_has(const lb_world *w, lb_entity e, uint32_t type) {
  int s = lb_slot_of(w, e);
  return s >= 0 && type < LB_COMPONENT_TYPE_COUNT && lb_slot_has(w, (uint32_t)s, type);
}

lb_result lb_world_remove(lb_world *w, lb_entity e, uint32_t type) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  const lb_component_info *info = lb_component_info_get(type);
  if (!info) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME, "component type %u does not exist", type);
  }
  int s = lb_slot_checked(w, e, "remove");
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  if (!lb_slot_has(w, (uint32_t)s, type)) {
    char lbl[48];
    return lb_fail(w, LB_ERR_MISSING_COMPONENT, "remove: %s has no %s",
                   lb_entity_label(e, lbl, sizeof lbl), info->name);
  }
  w->mask[s] &= ~(1u << type);
  if (type == LB_RIG) {
    lb_rig_instance_release(w, &w->rigs[s]);
  } else if (type == LB_TRANSFORM) {
    w->attach_joint[s] = -1;
  } else if (type == LB_ANIMATOR) {
    lb_animator_remove(w, (uint32_t)s);
  } else if ((type == LB_GRIP_POSE || type == LB_GRIP_HOLDER || type == LB_GRIP_PROFILE) &&
             !lb_slot_has(w, (uint32_t)s, LB_GRIP_POSE) &&
             !lb_slot_has(w, (uint32_t)s, LB_GRIP_HOLDER) &&
             !lb_slot_has(w, (uint32_t)s, LB_GRIP_PROFILE)) {
    lb_free(w, w->grip[s]);
    w->grip[s] = NULL;
  }
  memset(lb_component_ptr(w, (uint32_t)s, type), 0, info->size);
  return LB_OK;
}
