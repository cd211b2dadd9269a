/* What the animator adds to scenes: glTF rig assets (from the caller's file table),
 * controller assets, the timeline's "param" command and the list of files a scene needs. */
#include "../anim/animator_internal.h"
#include "../base/format.h"
#include "../base/json.h"
#include "scene_internal.h"
#include <string.h>

lb_result lb_scene_gltf_rig(lb_world *w, const char *name, const void *rig_json,
                            const lb_scene_file *files, uint32_t file_count,
                            uint32_t *out_skeleton) {
  const cJSON *r = rig_json;
  for (const cJSON *it = r->child; it; it = it->next) {
    if (strcmp(it->string, "gltf") != 0 && strcmp(it->string, "skin") != 0) {
      return lb_fail(w, LB_ERR_PARSE, "scene: rig asset '%s': unknown key '%s' (gltf, skin)", name,
                     it->string);
    }
  }
  const cJSON *path = cJSON_GetObjectItemCaseSensitive(r, "gltf");
  const cJSON *skin = cJSON_GetObjectItemCaseSensitive(r, "skin");
  if (!cJSON_IsString(path) || !path->valuestring[0]) {
    return lb_fail(w, LB_ERR_PARSE, "scene: rig asset '%s': 'gltf' must be a file path", name);
  }
  if (skin && (!cJSON_IsNumber(skin) || skin->valuedouble < 0 || skin->valuedouble > 65535 ||
               skin->valuedouble != (double)(int)skin->valuedouble)) {
    return lb_fail(w, LB_ERR_PARSE, "scene: rig asset '%s': 'skin' must be a skin index", name);
  }
  char what[160];
  lb_snprintf(what, sizeof what, "rig asset '%s': file", name);
  const lb_scene_file *file = NULL;
  lb_result found = lb_scene_file_get(w, files, file_count, path->valuestring, what, &file);
  if (found != LB_OK) {
    return found;
  }
  lb_gltf_def def = lb_gltf_default_def();
  def.data = file->bytes;
  def.size = file->size;
  if (skin) {
    def.skin = (int32_t)skin->valuedouble;
  }
  lb_gltf_added added;
  lb_result res = lb_world_add_gltf(w, &def, &added);
  if (res != LB_OK) {
    char prefix[512];
    lb_snprintf(prefix, sizeof prefix, "scene: rig asset '%s' (%s): ", name, path->valuestring);
    return lb_diag_prefix(&w->diag, res, prefix);
  }
  *out_skeleton = added.skeleton;
  return LB_OK;
}

lb_result lb_scene_controller(lb_world *w, const lb_scene *sc, const char *name, const void *json,
                              uint32_t *out) {
  const cJSON *c = json;
  const cJSON *rig = cJSON_GetObjectItemCaseSensitive(c, "rig");
  if (!cJSON_IsObject(c)) {
    return lb_fail(w, LB_ERR_PARSE, "scene: controller '%s' must be an object", name);
  }
  if (!cJSON_IsString(rig)) {
    return lb_fail(w, LB_ERR_PARSE, "scene: controller '%s' needs \"rig\": the rig asset it plays",
                   name);
  }
  uint32_t skeleton = lb_scene_asset(sc, rig->valuestring);
  if (!lb_skeleton_get(w, skeleton)) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME,
                   "scene: controller '%s': rig '%s' is not a rig asset declared before it", name,
                   rig->valuestring);
  }
  lb_result r = lb_controller_from_cjson(w, skeleton, name, c, out);
  if (r != LB_OK) {
    lb_diag_prefix(&w->diag, r, "scene: ");
  }
  return r;
}

/* ---- timeline: param ------------------------------------------------------------------------ */

static const char *const type_names[] = {"a number", "true or false", "true or false"};

/* The value a parameter of `type` needs: numbers for floats, booleans otherwise. */
static lb_result lb_check_kind(lb_world *w, const char *where, const char *name,
                               lb_anim_param_type type, bool value_is_bool) {
  if ((type == LB_ANIM_PARAM_FLOAT) == value_is_bool) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "%s: parameter '%s' needs %s as its value", where,
                   name, type_names[type]);
  }
  return LB_OK;
}

lb_result lb_scene_param_command(lb_world *w, int index, lb_entity e, const void *body, char *name,
                                 float *value, bool *value_is_bool) {
  const cJSON *b = body;
  char where[48];
  lb_snprintf(where, sizeof where, "scene: timeline[%d]: param", index);
  for (const cJSON *it = b->child; it; it = it->next) {
    if (strcmp(it->string, "entity") != 0 && strcmp(it->string, "name") != 0 &&
        strcmp(it->string, "value") != 0) {
      return lb_fail(w, LB_ERR_PARSE, "%s: unknown key '%s' (entity, name, value)", where,
                     it->string);
    }
  }
  const cJSON *n = cJSON_GetObjectItemCaseSensitive(b, "name");
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(b, "value");
  if (!cJSON_IsString(n) || !n->valuestring[0] || strlen(n->valuestring) >= LB_ANIM_NAME_MAX) {
    return lb_fail(w, LB_ERR_PARSE, "%s: 'name' must be a parameter name (1..%d bytes)", where,
                   LB_ANIM_NAME_MAX - 1);
  }
  if (cJSON_IsBool(v)) {
    *value_is_bool = true;
    *value = cJSON_IsTrue(v) ? 1.0f : 0.0f;
  } else if (cJSON_IsNumber(v)) {
    *value_is_bool = false;
    *value = (float)v->valuedouble;
    if (!lb_is_finite(*value)) {
      return lb_fail(w, LB_ERR_NOT_FINITE, "%s: 'value' %g is not a finite float", where,
                     v->valuedouble);
    }
  } else {
    return lb_fail(w, LB_ERR_PARSE, "%s: 'value' must be a number or true/false", where);
  }
  memcpy(name, n->valuestring, strlen(n->valuestring) + 1u);
  if (!lb_world_has(w, e, LB_ANIMATOR)) {
    return LB_OK; /* an Animator may be inserted by an earlier command: checked when applied */
  }
  float cur;
  lb_anim_param_type type;
  lb_result r = lb_world_get_animator_param(w, e, name, &cur, &type);
  if (r != LB_OK) {
    char prefix[256];
    lb_snprintf(prefix, sizeof prefix, "%s: ", where);
    return lb_diag_prefix(&w->diag, r, prefix);
  }
  return lb_check_kind(w, where, name, type, *value_is_bool);
}

lb_result lb_scene_param_check(lb_world *w, lb_entity e, const char *name, bool value_is_bool,
                               float *old_value, uint32_t *old_type) {
  float cur = 0.0f;
  lb_anim_param_type type = LB_ANIM_PARAM_FLOAT;
  lb_result r = lb_world_get_animator_param(w, e, name, &cur, &type);
  if (r == LB_OK) {
    r = lb_check_kind(w, "param", name, type, value_is_bool);
  }
  if (old_value) {
    *old_value = cur;
    *old_type = (uint32_t)type;
  }
  return r;
}

lb_result lb_scene_param_apply(lb_world *w, lb_entity e, const char *name, float value,
                               bool value_is_bool) {
  float cur;
  uint32_t type;
  lb_result r = lb_scene_param_check(w, e, name, value_is_bool, &cur, &type);
  return r == LB_OK ? lb_animator_set_param(w, e, name, value, (lb_anim_param_type)type) : r;
}

void lb_scene_param_restore(lb_world *w, lb_entity e, const char *name, float value,
                            uint32_t type) {
  /* An undo puts back the value that was there: not a game write, so no owner can refuse it
   * (a NavAgent the same step's commands started owns the parameter until they are undone). */
  (void)type;
  int s = lb_slot_of(w, e);
  lb_animator_instance *inst = s >= 0 ? lb_animator_of_slot(w, (uint32_t)s) : NULL;
  const lb_animator_controller *c = inst ? lb_controller_get(w, inst->controller) : NULL;
  int i = c ? lb_controller_find_param(c, name) : -1;
  if (i >= 0) {
    inst->params[i] = value;
  }
}

/* ---- files ---------------------------------------------------------------------------------- */

lb_result lb_scene_files(const char *json, size_t len, char *buf, size_t cap, size_t *needed) {
  if (!json || !needed || (cap && !buf)) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  *needed = 0;
  cJSON *root = lb_json_parse(json, len, NULL);
  if (!root) {
    return LB_ERR_PARSE;
  }
  const cJSON *assets = cJSON_GetObjectItemCaseSensitive(root, "assets");
  const cJSON *rigs = cJSON_GetObjectItemCaseSensitive(assets, "rigs");
  const cJSON *navmeshes = cJSON_GetObjectItemCaseSensitive(assets, "navmeshes");
  size_t n = 1; /* NUL */
  /* rigs' "gltf" files, then navmeshes' "file"s */
  for (int kind = 0; kind < 2; ++kind) {
    const cJSON *group = kind == 0 ? rigs : navmeshes;
    for (const cJSON *r = cJSON_IsObject(group) ? group->child : NULL; r; r = r->next) {
      const cJSON *path = cJSON_GetObjectItemCaseSensitive(r, kind == 0 ? "gltf" : "file");
      if (!cJSON_IsString(path)) {
        continue;
      }
      size_t k = strlen(path->valuestring);
      if (n + k + 1u <= cap) {
        memcpy(buf + n - 1u, path->valuestring, k);
        buf[n - 1u + k] = '\n';
      }
      n += k + 1u;
    }
  }
  const char *level = lb_scene_level_path(cJSON_GetObjectItemCaseSensitive(root, "level"));
  if (level) {
    size_t k = strlen(level);
    if (n + k + 1u <= cap) {
      memcpy(buf + n - 1u, level, k);
      buf[n - 1u + k] = '\n';
    }
    n += k + 1u;
  }
  cJSON_Delete(root);
  *needed = n;
  if (n > cap) {
    if (cap) {
      buf[0] = 0;
    }
    return LB_ERR_CAPACITY;
  }
  buf[n - 1u] = 0;
  return LB_OK;
}
