/* JSON → component fields through the schema (cJSON). One parser for scenes and
 * for JSON-shaped input from the bridge. */
#include "../base/json.h"
#include "../world/world_core.h"
#include "scene_internal.h"
#include <string.h>

static lb_result lb_json_numbers(lb_world *w, const char *where, const lb_field *f, const cJSON *j,
                                 float *out, int n) {
  if (n == 1) {
    if (!cJSON_IsNumber(j)) {
      return lb_fail(w, LB_ERR_PARSE, "%s: field '%s' must be a number", where, f->name);
    }
    out[0] = (float)j->valuedouble;
    return LB_OK;
  }
  if (!cJSON_IsArray(j) || cJSON_GetArraySize(j) != n) {
    return lb_fail(w, LB_ERR_PARSE, "%s: field '%s' must be an array of %d numbers", where, f->name,
                   n);
  }
  for (int i = 0; i < n; ++i) {
    const cJSON *e = cJSON_GetArrayItem(j, i);
    if (!cJSON_IsNumber(e)) {
      return lb_fail(w, LB_ERR_PARSE, "%s: field '%s'[%d] must be a number", where, f->name, i);
    }
    out[i] = (float)e->valuedouble;
  }
  return LB_OK;
}

/* U32 and BOOL: a boolean or a non-negative integer within 32 bits. */
static lb_result lb_json_u32(lb_world *w, const char *where, const lb_field *f, const cJSON *j,
                             uint8_t *p) {
  uint32_t v;
  if (cJSON_IsBool(j)) {
    v = cJSON_IsTrue(j) ? 1u : 0u;
  } else if (cJSON_IsNumber(j) && j->valuedouble >= 0 && j->valuedouble <= 4294967295.0) {
    v = (uint32_t)j->valuedouble;
  } else {
    return lb_fail(w, LB_ERR_PARSE, "%s: field '%s' must be a %s", where, f->name,
                   f->type == LB_FIELD_BOOL ? "boolean" : "non-negative integer");
  }
  memcpy(p, &v, sizeof v);
  return LB_OK;
}

/* ENUM: one of the field's names, stored as its index. */
static lb_result lb_json_enum(lb_world *w, const char *where, const lb_field *f, const cJSON *j,
                              uint8_t *p) {
  if (!cJSON_IsString(j)) {
    return lb_fail(w, LB_ERR_PARSE, "%s: field '%s' must be one of %s", where, f->name,
                   f->enum_names);
  }
  int idx = lb_enum_index(f->enum_names, j->valuestring, strlen(j->valuestring));
  if (idx < 0) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME, "%s: field '%s' = '%s' is not one of %s", where, f->name,
                   j->valuestring, f->enum_names);
  }
  uint32_t v = (uint32_t)idx;
  memcpy(p, &v, sizeof v);
  return LB_OK;
}

/* ENTITY: a name the scene declares, a handle or null. */
static lb_result lb_json_entity(lb_world *w, const lb_scene *scene, const char *where,
                                const lb_field *f, const cJSON *j, uint8_t *p) {
  lb_entity v = LB_NULL_ENTITY;
  if (cJSON_IsString(j)) {
    v = scene ? lb_scene_entity(scene, j->valuestring) : LB_NULL_ENTITY;
    if (v == LB_NULL_ENTITY) {
      return lb_fail(w, LB_ERR_UNKNOWN_NAME,
                     "%s: field '%s' names entity '%s', which the scene "
                     "does not declare",
                     where, f->name, j->valuestring);
    }
  } else if (cJSON_IsNumber(j) && j->valuedouble >= 0 && j->valuedouble <= 4294967295.0) {
    v = (lb_entity)j->valuedouble;
  } else if (!cJSON_IsNull(j)) {
    return lb_fail(w, LB_ERR_PARSE, "%s: field '%s' must be an entity name, handle or null", where,
                   f->name);
  }
  memcpy(p, &v, sizeof v);
  return LB_OK;
}

/* ASSET: a name the scene declares or a handle. */
static lb_result lb_json_asset(lb_world *w, const lb_scene *scene, const char *where,
                               const lb_field *f, const cJSON *j, uint8_t *p) {
  uint32_t v = 0;
  if (cJSON_IsString(j)) {
    v = scene ? lb_scene_asset(scene, j->valuestring) : 0;
    if (v == 0) {
      return lb_fail(w, LB_ERR_UNKNOWN_NAME,
                     "%s: field '%s' names asset '%s', which the scene "
                     "does not declare",
                     where, f->name, j->valuestring);
    }
  } else if (cJSON_IsNumber(j) && j->valuedouble >= 0 && j->valuedouble <= 4294967295.0) {
    v = (uint32_t)j->valuedouble;
  } else {
    return lb_fail(w, LB_ERR_PARSE, "%s: field '%s' must be an asset name or handle", where,
                   f->name);
  }
  memcpy(p, &v, sizeof v);
  return LB_OK;
}

/* NAME: a string, interned in the world's name table. */
static lb_result lb_json_name(lb_world *w, const char *where, const lb_field *f, const cJSON *j,
                              uint8_t *p) {
  if (!cJSON_IsString(j)) {
    return lb_fail(w, LB_ERR_PARSE, "%s: field '%s' must be a string", where, f->name);
  }
  lb_name id;
  lb_result r = lb_names_intern(&w->names, j->valuestring, strlen(j->valuestring), &id);
  if (r != LB_OK) {
    const char *why = lb_names_refusal(j->valuestring, strlen(j->valuestring));
    return lb_fail(w, r, "%s: field '%s': the name %s", where, f->name,
                   r == LB_ERR_OUT_OF_RANGE && why ? why : "cannot be stored (out of memory)");
  }
  memcpy(p, &id, sizeof id);
  return LB_OK;
}

/* STRING: a string shorter than the field, zero-padded. */
static lb_result lb_json_string(lb_world *w, const char *where, const lb_field *f, const cJSON *j,
                                uint8_t *p) {
  if (!cJSON_IsString(j)) {
    return lb_fail(w, LB_ERR_PARSE, "%s: field '%s' must be a string", where, f->name);
  }
  size_t n = strlen(j->valuestring);
  if (n >= f->size) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE, "%s: field '%s' is longer than %u bytes", where, f->name,
                   f->size - 1u);
  }
  memset(p, 0, f->size);
  memcpy(p, j->valuestring, n);
  return LB_OK;
}

/* One field's JSON value into its bytes at p, by the field's type. */
static lb_result lb_json_field(lb_world *w, const lb_scene *scene, const char *where,
                               const lb_field *f, const cJSON *j, uint8_t *p) {
  switch (f->type) {
  case LB_FIELD_F32:
  case LB_FIELD_VEC3:
  case LB_FIELD_QUAT: {
    float v[4];
    lb_result r = lb_json_numbers(w, where, f, j, v, (int)(f->size / sizeof(float)));
    if (r == LB_OK) {
      memcpy(p, v, f->size);
    }
    return r;
  }
  case LB_FIELD_U32:
  case LB_FIELD_BOOL:
    return lb_json_u32(w, where, f, j, p);
  case LB_FIELD_ENUM:
    return lb_json_enum(w, where, f, j, p);
  case LB_FIELD_ENTITY:
    return lb_json_entity(w, scene, where, f, j, p);
  case LB_FIELD_ASSET:
    return lb_json_asset(w, scene, where, f, j, p);
  case LB_FIELD_NAME:
    return lb_json_name(w, where, f, j, p);
  case LB_FIELD_STRING:
    return lb_json_string(w, where, f, j, p);
  }
  return lb_fail(w, LB_ERR_PARSE, "%s: field '%s' has an unknown type", where, f->name);
}

lb_result lb_component_fields_from_cjson(lb_world *w, const lb_scene *scene, uint32_t type,
                                         const void *json_object, const char *where, void *inout,
                                         uint32_t *field_mask) {
  const cJSON *obj = json_object;
  const lb_component_info *info = lb_component_info_get(type);
  if (!info) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME, "%s: component type %u does not exist", where, type);
  }
  if (!cJSON_IsObject(obj)) {
    return lb_fail(w, LB_ERR_PARSE, "%s: fields must be a JSON object", where);
  }
  uint32_t mask = 0;
  for (const cJSON *item = obj->child; item; item = item->next) {
    uint32_t i = 0;
    while (i < info->field_count && strcmp(info->fields[i].name, item->string) != 0) {
      ++i;
    }
    if (i == info->field_count) {
      return lb_fail(w, LB_ERR_UNKNOWN_NAME, "%s: unknown field '%s'", where, item->string);
    }
    const lb_field *f = &info->fields[i];
    if (f->flags & LB_FIELD_READONLY) {
      return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "%s: field '%s' is an output and cannot be set",
                     where, f->name);
    }
    lb_result r = lb_json_field(w, scene, where, f, item, (uint8_t *)inout + f->offset);
    if (r != LB_OK) {
      return r;
    }
    mask |= i < 32u ? 1u << i : 0u; /* writable fields come first (components.h) */
  }
  if (field_mask) {
    *field_mask = mask;
  }
  return LB_OK;
}

lb_result lb_component_from_json(lb_world *w, const lb_scene *scene, uint32_t type,
                                 const char *json, size_t len, void *inout) {
  if (!w || !json || !inout) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "component JSON: null argument")
             : LB_ERR_INVALID_ARGUMENT;
  }
  const lb_component_info *info = lb_component_info_get(type);
  lb_json_error jerr;
  cJSON *root = lb_json_parse(json, len, &jerr);
  if (!root) {
    return lb_fail(w, LB_ERR_PARSE, "%s JSON: %s", info ? info->name : "?", jerr.what);
  }
  lb_result r =
      lb_component_fields_from_cjson(w, scene, type, root, info ? info->name : "?", inout, NULL);
  cJSON_Delete(root);
  return r;
}
