/* Generic component access: every write is checked against the schema, then by the
 * component's own stage hook, on a staging copy; the world changes only after both
 * passed, and nothing after them can fail. */
#include "../base/format.h"
#include "world_core.h"
#include <string.h>

static const char *lb_type_name(lb_field_type t) {
  static const char *const names[] = {"f32",  "u32",    "bool", "entity", "vec3",
                                      "quat", "string", "enum", "asset",  "name"};
  return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

/* True when an entity field holds a handle that is not null and not alive. */
static bool lb_entity_stale(const lb_world *w, const uint8_t *p) {
  lb_entity v;
  memcpy(&v, p, sizeof v);
  return v != LB_NULL_ENTITY && lb_slot_of(w, v) < 0;
}

/* F32, VEC3, QUAT: finite, in range (a rotation: not near zero length, then normalised in
 * place). */
static lb_result lb_check_floats(lb_world *w, const char *where, const lb_field *f, uint8_t *p) {
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
      return lb_fail(w, LB_ERR_OUT_OF_RANGE, "%s: field '%s' is not a rotation (length %g)", where,
                     f->name, (double)lb_sqrt(n2));
    }
    lb_quat_normalize(v);
    memcpy(p, v, f->size);
  }
  return LB_OK;
}

/* ENTITY: null or alive. A stored reference to a despawned entity reads as null
 * (lb_world_get); writing back null or the old handle leaves it as it is (world.h), so it
 * blocks no update. */
static lb_result lb_check_entity(lb_world *w, const char *where, const lb_field *f, uint8_t *p,
                                 const uint8_t *stored) {
  lb_entity v;
  memcpy(&v, p, sizeof v);
  if (stored && lb_entity_stale(w, stored) &&
      (v == LB_NULL_ENTITY || memcmp(p, stored, sizeof v) == 0)) {
    memcpy(p, stored, sizeof v);
    return LB_OK;
  }
  if (v != LB_NULL_ENTITY && lb_slot_of(w, v) < 0) {
    char lbl[48];
    return lb_fail(w, LB_ERR_STALE_ENTITY, "%s: field '%s' refers to %s, which is not alive", where,
                   f->name, lb_entity_label(v, lbl, sizeof lbl));
  }
  return LB_OK;
}

/* U32, BOOL, ASSET, ENUM, NAME: in range, one of the enum's values, a name id of this world. */
static lb_result lb_check_word(lb_world *w, const char *where, const lb_field *f,
                               const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, sizeof v);
  if (f->type == LB_FIELD_NAME) {
    if (!lb_names_valid(&w->names, v)) {
      return lb_fail(w, LB_ERR_UNKNOWN_NAME,
                     "%s: field '%s' = %u is not a name id of this world (lb_world_intern)", where,
                     f->name, v);
    }
    return LB_OK;
  }
  if (f->type == LB_FIELD_ENUM) {
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
  if ((double)v < (double)f->min || (double)v > (double)f->max) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE, "%s: field '%s' = %u is outside [%.0f, %.0f]%s", where,
                   f->name, v, (double)f->min, (double)f->max,
                   f->type == LB_FIELD_ASSET && v == 0 ? " (an asset is required)" : "");
  }
  return LB_OK;
}

/* Schema-level checks of one field in the staging copy; `stored` is the field's current
 * value (null when the entity has no such component yet). */
static lb_result lb_check_field(lb_world *w, const char *where, const lb_field *f, uint8_t *p,
                                const uint8_t *stored) {
  switch (f->type) {
  case LB_FIELD_F32:
  case LB_FIELD_VEC3:
  case LB_FIELD_QUAT:
    return lb_check_floats(w, where, f, p);
  case LB_FIELD_U32:
  case LB_FIELD_BOOL:
  case LB_FIELD_ASSET:
  case LB_FIELD_ENUM:
  case LB_FIELD_NAME:
    return lb_check_word(w, where, f, p);
  case LB_FIELD_ENTITY:
    return lb_check_entity(w, where, f, p, stored);
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

static const lb_component_def *lb_public_def(uint32_t type) {
  return type < LB_COMPONENT_TYPE_COUNT ? lb_registry_component(type) : NULL;
}

lb_result lb_world_check_fields(lb_world *w, uint32_t type, const void *data, uint32_t field_mask,
                                const char *where) {
  const lb_component_def *def = lb_public_def(type);
  if (!def) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME, "%s: component type %u does not exist", where, type);
  }
  _Alignas(16) uint8_t staging[LB_COMPONENT_MAX_SIZE];
  memcpy(staging, data, def->info->size);
  for (uint32_t i = 0; i < def->info->field_count; ++i) {
    const lb_field *f = &def->info->fields[i];
    if (i < 32u && (field_mask >> i & 1u) && !(f->flags & LB_FIELD_READONLY)) {
      lb_result r = lb_check_field(w, where, f, staging + f->offset, NULL);
      if (r != LB_OK) {
        return r;
      }
    }
  }
  return LB_OK;
}

static lb_result lb_write_component(lb_world *w, lb_entity e, uint32_t type, const void *data,
                                    bool insert) {
  if (!w || !data) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "component write: null data")
             : LB_ERR_INVALID_ARGUMENT;
  }
  const lb_component_def *def = lb_public_def(type);
  if (!def) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME, "component type %u does not exist", type);
  }
  const lb_component_info *info = def->info;
  char where[96], lbl[48];
  int s = lb_slot_checked(w, e, insert ? "insert" : "update");
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  uint32_t slot = (uint32_t)s;
  lb_snprintf(where, sizeof where, "%s on %s", info->name, lb_entity_label(e, lbl, sizeof lbl));
  bool had = lb_slot_has(w, slot, type);
  if (!insert && !had) {
    return lb_fail(w, LB_ERR_MISSING_COMPONENT, "%s: the entity has no %s to update", where,
                   info->name);
  }
  _Alignas(16) uint8_t staging[LB_COMPONENT_MAX_SIZE];
  const uint8_t *stored = had ? lb_component_ptr(w, slot, type) : NULL;
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
    lb_result r = lb_check_field(w, where, f, staging + f->offset, had ? stored + f->offset : NULL);
    if (r != LB_OK) {
      return r;
    }
  }
  if (!had && lb_store_reserve(w, type, slot) != LB_OK) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "%s: cannot allocate component storage", where);
  }
  lb_write wr;
  memset(&wr, 0, sizeof wr);
  wr.world = w;
  wr.where = where;
  wr.entity = e;
  wr.slot = slot;
  wr.type = type;
  wr.had = had;
  wr.value = staging;
  wr.current = stored;
  wr.state = had ? lb_component_state(w, slot, type) : NULL;
  if (def->stage) {
    lb_result r = def->stage(&wr);
    if (r != LB_OK) {
      return r;
    }
  }
  /* Commit: nothing below can fail. */
  uint8_t *dst = had ? lb_component_ptr(w, slot, type) : lb_store_attach(w, type, slot);
  memcpy(dst, staging, info->size);
  if (def->commit) {
    def->commit(&wr, dst + w->stores[type].state_offset);
  }
  lb_world_changed(w, type, slot);
  lb_diag_clear(&w->diag);
  return LB_OK;
}

lb_result lb_world_insert(lb_world *w, lb_entity e, uint32_t type, const void *data) {
  return lb_write_component(w, e, type, data, true);
}

lb_result lb_world_set(lb_world *w, lb_entity e, uint32_t type, const void *data) {
  return lb_write_component(w, e, type, data, false);
}

lb_result lb_world_get(const lb_world *w, lb_entity e, uint32_t type, void *out) {
  const lb_component_def *def = lb_public_def(type);
  int s = lb_slot_of(w, e);
  if (!w || !out || !def) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  if (!lb_slot_has(w, (uint32_t)s, type)) {
    return LB_ERR_MISSING_COMPONENT;
  }
  memcpy(out, lb_component_ptr(w, (uint32_t)s, type), def->info->size);
  for (uint32_t i = 0; i < def->info->field_count; ++i) {
    const lb_field *f = &def->info->fields[i];
    if (f->type == LB_FIELD_ENTITY && lb_entity_stale(w, (const uint8_t *)out + f->offset)) {
      memset((uint8_t *)out + f->offset, 0, sizeof(lb_entity));
    }
  }
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
  const lb_component_def *def = lb_public_def(type);
  if (!def) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME, "component type %u does not exist", type);
  }
  int s = lb_slot_checked(w, e, "remove");
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  if (!lb_slot_has(w, (uint32_t)s, type)) {
    char lbl[48];
    return lb_fail(w, LB_ERR_MISSING_COMPONENT, "remove: %s has no %s",
                   lb_entity_label(e, lbl, sizeof lbl), def->info->name);
  }
  lb_store_detach(w, type, (uint32_t)s);
  lb_world_changed(w, type, (uint32_t)s);
  return LB_OK;
}

void lb_world_changed(lb_world *w, uint32_t type, uint32_t slot) {
  for (uint32_t m = 0; m < lb_registry_module_count(); ++m) {
    const lb_module_def *md = lb_registry_module(m);
    if (md->changed) {
      md->changed(w, type, slot);
    }
  }
}

bool lb_world_move_request(lb_world *w, uint32_t slot, const float delta[3]) {
  for (uint32_t m = 0; m < lb_registry_module_count(); ++m) {
    const lb_module_def *md = lb_registry_module(m);
    if (md->move && md->move(w, slot, delta)) {
      return true;
    }
  }
  return false;
}

bool lb_world_input_owned(const lb_world *w, uint32_t slot, lb_input input, const char *param,
                          lb_input_owner *out) {
  for (uint32_t m = 0; m < lb_registry_module_count(); ++m) {
    const lb_module_def *md = lb_registry_module(m);
    if (md->owner && md->owner(w, slot, input, param, out)) {
      return true;
    }
  }
  return false;
}

lb_result lb_world_input_check(lb_world *w, uint32_t slot, lb_input input, const char *param,
                               const char *where, const char *what) {
  lb_input_owner o;
  if (!lb_world_input_owned(w, slot, input, param, &o)) {
    return LB_OK;
  }
  return lb_fail(w, LB_ERR_BUSY, "%s: %s is owned by its %s (%s) until %s", where, what,
                 o.component, o.state, o.until);
}

lb_result lb_world_input_owner(lb_world *w, lb_entity e, lb_input input, const char *param,
                               const char **owner) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!owner) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "input_owner: null owner");
  }
  if (input != LB_INPUT_MOVE && input != LB_INPUT_ANIMATOR_PARAM) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "input_owner: unknown input %d", (int)input);
  }
  if (input == LB_INPUT_ANIMATOR_PARAM && !param) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "input_owner: null parameter name");
  }
  int s = lb_slot_checked(w, e, "input_owner");
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  lb_input_owner o;
  *owner = lb_world_input_owned(w, (uint32_t)s, input, param, &o) ? o.component : NULL;
  return LB_OK;
}
