/* Scene loading and the timeline. Commands are converted to component structs at
 * load, so a step applies them with no JSON work. */
#include "../base/format.h"
#include "../base/json.h"
#include "../world/world_core.h"
#include "limber/rig.h"
#include "scene_internal.h"
#include <stdio.h>
#include <string.h>

#define LB_SCENE_NAME_MAX 64

typedef enum lb_command_kind {
  LB_CMD_UPDATE,
  LB_CMD_INSERT,
  LB_CMD_REMOVE,
  LB_CMD_PARAM /* Animator parameter: name in data, value, value_is_bool */
} lb_command_kind;

typedef struct lb_command {
  uint64_t step;
  uint32_t index;        /* position in the file's timeline */
  uint32_t entity_index; /* scene entity (its name in messages) */
  lb_entity entity;
  uint32_t type;
  lb_command_kind kind;
  uint32_t field_mask; /* update: which fields the command sets */
  float value;         /* param */
  bool value_is_bool;  /* param: the JSON value was true/false */
  _Alignas(16) uint8_t data[LB_COMPONENT_MAX_SIZE];
} lb_command;

typedef struct lb_named {
  char name[LB_SCENE_NAME_MAX];
  uint32_t value;
} lb_named;

/* What a step's command changed, to put it back when a later command of the step fails. */
typedef struct lb_undo {
  bool had;       /* the entity had the component before the command */
  float param;    /* param: value before */
  uint32_t ptype; /* param: its type */
  _Alignas(16) uint8_t old[LB_COMPONENT_MAX_SIZE];
} lb_undo;

struct lb_scene {
  char name[LB_SCENE_NAME_MAX]; /* the document's "name", for messages */
  lb_named *entities;
  uint32_t entity_count;
  lb_names entity_names; /* id = index + 1 (names are unique), so lookups are O(1) */
  lb_world_mark assets_before, assets_after; /* what the load added, for lb_scene_unload */
  lb_named *assets;
  uint32_t asset_count;
  lb_command *commands; /* sorted by step (stable) */
  uint32_t command_count;
  uint32_t next_command;
  lb_undo *undo; /* command_count entries: every command may fall due in one step */
};

lb_entity lb_scene_entity(const lb_scene *sc, const char *name) {
  if (!sc || !name) {
    return LB_NULL_ENTITY;
  }
  uint32_t id = lb_names_find(&sc->entity_names, name, strlen(name));
  return id != UINT32_MAX && id >= 1 && id <= sc->entity_count ? sc->entities[id - 1u].value
                                                               : LB_NULL_ENTITY;
}

uint32_t lb_scene_asset(const lb_scene *sc, const char *name) {
  for (uint32_t i = 0; sc && name && i < sc->asset_count; ++i) {
    if (strcmp(sc->assets[i].name, name) == 0) {
      return sc->assets[i].value;
    }
  }
  return 0;
}

uint32_t lb_scene_entity_count(const lb_scene *sc) {
  return sc ? sc->entity_count : 0;
}
const char *lb_scene_entity_name(const lb_scene *sc, uint32_t i) {
  return sc && i < sc->entity_count ? sc->entities[i].name : NULL;
}
lb_entity lb_scene_entity_at(const lb_scene *sc, uint32_t i) {
  return sc && i < sc->entity_count ? sc->entities[i].value : LB_NULL_ENTITY;
}

void lb_scene_destroy(lb_world *w, lb_scene *sc) {
  if (!w || !sc) {
    return;
  }
  lb_names_release(&sc->entity_names);
  lb_free(w, sc->entities);
  lb_free(w, sc->assets);
  lb_free(w, sc->commands);
  lb_free(w, sc->undo);
  lb_free(w, sc);
}

static lb_result lb_scene_name(lb_world *w, const cJSON *j, const char *what, char *out) {
  if (!cJSON_IsString(j) || !j->valuestring[0] || strlen(j->valuestring) >= LB_SCENE_NAME_MAX) {
    return lb_fail(w, LB_ERR_PARSE, "scene: %s needs a name (1..%d bytes)", what,
                   LB_SCENE_NAME_MAX - 1);
  }
  strcpy(out, j->valuestring);
  return LB_OK;
}

/* One rig asset: a glTF file's skeleton or the builtin humanoid (optional height). */
static lb_result lb_scene_rig_asset(lb_world *w, const cJSON *r, const lb_scene_file *files,
                                    uint32_t file_count, uint32_t *handle) {
  if (cJSON_GetObjectItemCaseSensitive(r, "gltf")) {
    return lb_scene_gltf_rig(w, r->string, r, files, file_count, handle);
  }
  const cJSON *builtin = cJSON_GetObjectItemCaseSensitive(r, "builtin");
  if (!cJSON_IsString(builtin) || strcmp(builtin->valuestring, "humanoid") != 0) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME,
                   "scene: rig asset '%s' needs \"builtin\": \"humanoid\" or \"gltf\": PATH",
                   r->string);
  }
  lb_humanoid_def hd = lb_humanoid_default_def();
  const cJSON *height = cJSON_GetObjectItemCaseSensitive(r, "height");
  if (height) {
    if (!cJSON_IsNumber(height)) {
      return lb_fail(w, LB_ERR_PARSE, "scene: rig asset '%s': 'height' must be a number",
                     r->string);
    }
    hd.height = (float)height->valuedouble;
  }
  lb_result res = lb_world_add_humanoid(w, &hd, handle);
  if (res != LB_OK) {
    return lb_fail(w, res, "scene: rig asset '%s': height %g is outside (0.3, 3] m", r->string,
                   (double)hd.height);
  }
  return LB_OK;
}

/* The asset's name, unless too long or already taken (`kind` says which asset in the error). */
static lb_result lb_scene_asset_name_ok(lb_world *w, const lb_scene *sc, const char *name,
                                        const char *kind) {
  if (strlen(name) >= LB_SCENE_NAME_MAX || lb_scene_asset(sc, name)) {
    return lb_fail(w, LB_ERR_PARSE, "scene: %sasset name '%s' is too long or used twice", kind,
                   name);
  }
  return LB_OK;
}

static void lb_scene_asset_add(lb_scene *sc, const char *name, uint32_t handle) {
  strcpy(sc->assets[sc->asset_count].name, name);
  sc->assets[sc->asset_count++].value = handle;
}

static lb_result lb_scene_assets(lb_world *w, lb_scene *sc, const cJSON *assets,
                                 const lb_scene_file *files, uint32_t file_count) {
  const cJSON *rigs = cJSON_GetObjectItemCaseSensitive(assets, "rigs");
  const cJSON *controllers = cJSON_GetObjectItemCaseSensitive(assets, "controllers");
  const cJSON *navmeshes = cJSON_GetObjectItemCaseSensitive(assets, "navmeshes");
  if (assets && !cJSON_IsObject(assets)) {
    return lb_fail(w, LB_ERR_PARSE, "scene: 'assets' must be an object");
  }
  if (rigs && !cJSON_IsObject(rigs)) {
    return lb_fail(w, LB_ERR_PARSE, "scene: 'assets.rigs' must be an object");
  }
  if (controllers && !cJSON_IsObject(controllers)) {
    return lb_fail(w, LB_ERR_PARSE, "scene: 'assets.controllers' must be an object");
  }
  if (navmeshes && !cJSON_IsObject(navmeshes)) {
    return lb_fail(w, LB_ERR_PARSE, "scene: 'assets.navmeshes' must be an object");
  }
  int n = (rigs ? cJSON_GetArraySize(rigs) : 0) +
          (controllers ? cJSON_GetArraySize(controllers) : 0) +
          (navmeshes ? cJSON_GetArraySize(navmeshes) : 0);
  sc->assets = lb_alloc_array(w, (size_t)n + 1u, sizeof(lb_named));
  if (!sc->assets) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "scene: out of memory");
  }
  for (const cJSON *r = rigs ? rigs->child : NULL; r; r = r->next) {
    uint32_t handle = 0;
    lb_result res = lb_scene_asset_name_ok(w, sc, r->string, "rig ");
    if (res == LB_OK) {
      res = lb_scene_rig_asset(w, r, files, file_count, &handle);
    }
    if (res != LB_OK) {
      return res;
    }
    lb_scene_asset_add(sc, r->string, handle);
  }
  /* Controllers after rigs: each names the rig whose clips it plays. */
  for (const cJSON *c = controllers ? controllers->child : NULL; c; c = c->next) {
    uint32_t handle = 0;
    lb_result res = lb_scene_asset_name_ok(w, sc, c->string, "");
    if (res == LB_OK) {
      res = lb_scene_controller(w, sc, c->string, c, &handle);
    }
    if (res != LB_OK) {
      return res;
    }
    lb_scene_asset_add(sc, c->string, handle);
  }
  for (const cJSON *m = navmeshes ? navmeshes->child : NULL; m; m = m->next) {
    uint32_t handle = 0;
    lb_result res = lb_scene_asset_name_ok(w, sc, m->string, "");
    if (res == LB_OK) {
      res = lb_scene_navmesh(w, m->string, m, files, file_count, &handle);
    }
    if (res != LB_OK) {
      return res;
    }
    lb_scene_asset_add(sc, m->string, handle);
  }
  return LB_OK;
}

lb_result lb_scene_file_get(lb_world *w, const lb_scene_file *files, uint32_t file_count,
                            const char *path, const char *what, const lb_scene_file **out) {
  *out = NULL;
  for (uint32_t i = 0; i < file_count; ++i) {
    if (files[i].path && strcmp(files[i].path, path) == 0) {
      *out = &files[i];
      break;
    }
  }
  if (!*out || !(*out)->bytes || (*out)->size == 0) {
    *out = NULL;
    return lb_fail(w, LB_ERR_UNKNOWN_NAME,
                   "scene: %s '%s' was not passed to the loader (callers read the files "
                   "lb_scene_files lists)",
                   what, path);
  }
  return LB_OK;
}

lb_result lb_scene_add_entity(lb_world *w, lb_scene *sc, const char *name, lb_entity *out) {
  if (strlen(name) >= LB_SCENE_NAME_MAX) {
    return lb_fail(w, LB_ERR_PARSE, "scene: entity name '%s' is longer than %d bytes", name,
                   LB_SCENE_NAME_MAX - 1);
  }
  if (lb_scene_entity(sc, name)) {
    return lb_fail(w, LB_ERR_PARSE, "scene: entity name '%s' is used twice", name);
  }
  lb_named *grown = lb_alloc_array(w, (size_t)sc->entity_count + 2u, sizeof(lb_named));
  uint32_t id = 0;
  if (!grown || lb_names_intern(&sc->entity_names, name, strlen(name), &id) != LB_OK ||
      id != sc->entity_count + 1u) {
    lb_free(w, grown);
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "scene: out of memory");
  }
  lb_entity h;
  lb_result r = lb_world_spawn(w, &h);
  if (r != LB_OK) {
    lb_free(w, grown);
    return r;
  }
  if (sc->entity_count) {
    memcpy(grown, sc->entities, sc->entity_count * sizeof(lb_named));
  }
  lb_free(w, sc->entities);
  sc->entities = grown;
  strcpy(sc->entities[sc->entity_count].name, name);
  sc->entities[sc->entity_count++].value = h;
  *out = h;
  return LB_OK;
}

/* Every entity spawned and named first, so components can name any entity. */
static lb_result lb_scene_spawn_all(lb_world *w, lb_scene *sc, const cJSON *ents) {
  for (const cJSON *e = ents->child; e; e = e->next) {
    char name[LB_SCENE_NAME_MAX];
    lb_result r =
        lb_scene_name(w, cJSON_GetObjectItemCaseSensitive(e, "name"), "every entity", name);
    if (r != LB_OK) {
      return r;
    }
    if (lb_scene_entity(sc, name)) {
      return lb_fail(w, LB_ERR_PARSE, "scene: entity name '%s' is used twice", name);
    }
    uint32_t id = 0;
    if (lb_names_intern(&sc->entity_names, name, strlen(name), &id) != LB_OK ||
        id != sc->entity_count + 1u) {
      return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "scene: out of memory");
    }
    lb_entity h;
    r = lb_world_spawn(w, &h);
    if (r != LB_OK) {
      return r;
    }
    strcpy(sc->entities[sc->entity_count].name, name);
    sc->entities[sc->entity_count++].value = h;
  }
  return LB_OK;
}

/* Entity idx's component of this type, when its 'components' has one: defaults, the fields,
 * inserted. The first pass (first_type) also refuses unknown component names. */
static lb_result lb_scene_insert_one(lb_world *w, lb_scene *sc, const cJSON *e, uint32_t idx,
                                     uint32_t type, bool first_type) {
  const char *cname = lb_component_info_get(type)->name;
  const cJSON *comps = cJSON_GetObjectItemCaseSensitive(e, "components");
  if (comps && !cJSON_IsObject(comps)) {
    return lb_fail(w, LB_ERR_PARSE, "scene: entity '%s': 'components' must be an object",
                   sc->entities[idx].name);
  }
  if (first_type) {
    for (const cJSON *c = comps ? comps->child : NULL; c; c = c->next) {
      if (lb_component_find(c->string) < 0) {
        return lb_fail(w, LB_ERR_UNKNOWN_NAME, "scene: entity '%s': unknown component '%s'",
                       sc->entities[idx].name, c->string);
      }
    }
  }
  const cJSON *fields = cJSON_GetObjectItemCaseSensitive(comps, cname);
  if (!fields) {
    return LB_OK;
  }
  char where[160];
  lb_snprintf(where, sizeof where, "scene: entity '%s': %s", sc->entities[idx].name, cname);
  _Alignas(16) uint8_t data[LB_COMPONENT_MAX_SIZE];
  lb_component_defaults(type, data);
  lb_result r = lb_component_fields_from_cjson(w, sc, type, fields, where, data, NULL);
  if (r == LB_OK) {
    r = lb_world_insert(w, sc->entities[idx].value, type, data);
    if (r != LB_OK) {
      char prefix[160];
      lb_snprintf(prefix, sizeof prefix, "scene: entity '%s': ", sc->entities[idx].name);
      lb_diag_prefix(&w->diag, r, prefix);
    }
  }
  return r;
}

static lb_result lb_scene_entities(lb_world *w, lb_scene *sc, const cJSON *ents) {
  if (!cJSON_IsArray(ents)) {
    return lb_fail(w, LB_ERR_PARSE, "scene: 'entities' must be an array");
  }
  int n = cJSON_GetArraySize(ents);
  sc->entities = lb_alloc_array(w, (size_t)n + 1u, sizeof(lb_named));
  if (!sc->entities) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "scene: out of memory");
  }
  lb_result r = lb_scene_spawn_all(w, sc, ents);
  if (r != LB_OK) {
    return r;
  }
  /* Insert by component type, then by entity, so a component may refer to any entity's
   * components of an earlier type: Rig first (a Transform's parentJoint is looked up in its
   * parent's Rig), then Transform, then TwoBoneIK (needs the Rig and the target's Transform). */
  static const uint32_t order[] = {LB_RIG,
                                   LB_TRANSFORM,
                                   LB_TWO_BONE_IK,
                                   LB_GRIP_SURFACE,
                                   LB_GRIP_PROFILE,
                                   LB_GRIP_POSE,
                                   LB_GRIP_HOLDER,
                                   LB_ANIMATOR,
                                   LB_COLLIDER,
                                   LB_CHARACTER_CONTROLLER,
                                   LB_ENV_INTERACTION,
                                   LB_NAV_AGENT,
                                   LB_VAULT};
  _Static_assert(sizeof order / sizeof order[0] == LB_COMPONENT_TYPE_COUNT,
                 "every component type needs a place in the scene insert order");
  for (uint32_t k = 0; k < LB_COMPONENT_TYPE_COUNT; ++k) {
    uint32_t idx = 0;
    for (const cJSON *e = ents->child; e; e = e->next, ++idx) {
      r = lb_scene_insert_one(w, sc, e, idx, order[k], k == 0);
      if (r != LB_OK) {
        return r;
      }
    }
  }
  return LB_OK;
}

/* One timeline command (at timeline[index]) into *cmd: step, kind, entity, component and, for
 * update and insert, the fields with their own checks (finite, ranges, enums) done now rather
 * than when the step comes. */
static lb_result lb_scene_command(lb_world *w, lb_scene *sc, const cJSON *c, int index,
                                  lb_command *cmd) {
  static const char *const kinds[] = {"update", "insert", "remove", "param"};
  const cJSON *step = cJSON_GetObjectItemCaseSensitive(c, "step");
  if (!cJSON_IsNumber(step) || step->valuedouble < 0 || step->valuedouble > 1e15 ||
      step->valuedouble != (double)(uint64_t)step->valuedouble) {
    return lb_fail(w, LB_ERR_PARSE, "scene: timeline[%d]: 'step' must be a whole number >= 0",
                   index);
  }
  memset(cmd, 0, sizeof *cmd);
  cmd->step = (uint64_t)step->valuedouble;
  const cJSON *body = NULL;
  for (int k = 0; k < 4 && !body; ++k) {
    body = cJSON_GetObjectItemCaseSensitive(c, kinds[k]);
    cmd->kind = (lb_command_kind)k;
  }
  if (!cJSON_IsObject(body)) {
    return lb_fail(w, LB_ERR_PARSE,
                   "scene: timeline[%d] needs one of update, insert, remove, param", index);
  }
  const cJSON *ent = cJSON_GetObjectItemCaseSensitive(body, "entity");
  const cJSON *comp = cJSON_GetObjectItemCaseSensitive(body, "component");
  cmd->index = (uint32_t)index;
  cmd->entity = cJSON_IsString(ent) ? lb_scene_entity(sc, ent->valuestring) : LB_NULL_ENTITY;
  if (cmd->entity != LB_NULL_ENTITY) {
    cmd->entity_index =
        lb_names_find(&sc->entity_names, ent->valuestring, strlen(ent->valuestring)) - 1u;
  }
  if (cmd->entity == LB_NULL_ENTITY) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME,
                   "scene: timeline[%d]: 'entity' = '%s' must name a scene entity", index,
                   cJSON_IsString(ent) ? ent->valuestring : "(not a string)");
  }
  if (cmd->kind == LB_CMD_PARAM) {
    lb_result r = lb_scene_param_command(w, index, cmd->entity, body, (char *)cmd->data,
                                         &cmd->value, &cmd->value_is_bool);
    if (r != LB_OK) {
      return r;
    }
  }
  int type = cmd->kind == LB_CMD_PARAM ? LB_ANIMATOR
             : cJSON_IsString(comp)    ? lb_component_find(comp->valuestring)
                                       : -1;
  if (type < 0) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME, "scene: timeline[%d]: unknown 'component' '%s'", index,
                   cJSON_IsString(comp) ? comp->valuestring : "(not a string)");
  }
  cmd->type = (uint32_t)type;
  if (cmd->kind != LB_CMD_UPDATE && cmd->kind != LB_CMD_INSERT) {
    return LB_OK;
  }
  char where[96];
  lb_snprintf(where, sizeof where, "scene: timeline[%d]: %s", index, comp->valuestring);
  lb_component_defaults(cmd->type, cmd->data);
  const cJSON *fields = cJSON_GetObjectItemCaseSensitive(body, "fields");
  lb_result r =
      lb_component_fields_from_cjson(w, sc, cmd->type, fields, where, cmd->data, &cmd->field_mask);
  if (r == LB_OK) {
    r = lb_world_check_fields(w, cmd->type, cmd->data,
                              cmd->kind == LB_CMD_INSERT ? ~0u : cmd->field_mask, where);
  }
  return r;
}

static lb_result lb_scene_timeline(lb_world *w, lb_scene *sc, const cJSON *tl) {
  if (!tl) {
    return LB_OK;
  }
  if (!cJSON_IsArray(tl)) {
    return lb_fail(w, LB_ERR_PARSE, "scene: 'timeline' must be an array");
  }
  int n = cJSON_GetArraySize(tl);
  sc->commands = lb_alloc_array(w, (size_t)n + 1u, sizeof(lb_command));
  if (!sc->commands) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "scene: out of memory");
  }
  int index = 0;
  for (const cJSON *c = tl->child; c; c = c->next, ++index) {
    lb_result r = lb_scene_command(w, sc, c, index, &sc->commands[sc->command_count]);
    if (r != LB_OK) {
      return r;
    }
    /* Insertion sort by step keeps file order for equal steps: deterministic. */
    uint32_t k = sc->command_count++;
    while (k > 0 && sc->commands[k - 1].step > sc->commands[k].step) {
      lb_command tmp = sc->commands[k - 1];
      sc->commands[k - 1] = sc->commands[k];
      sc->commands[k] = tmp;
      --k;
    }
  }
  return LB_OK;
}

/* A failed load: the entities it spawned go, and the next spawns give the same handles. */
static void lb_scene_rollback_entities(lb_world *w, lb_scene *sc, const lb_entity_mark *mark) {
  uint32_t n = sc ? sc->entity_count : 0;
  lb_entity *spawned = n ? lb_alloc_array(w, n, sizeof(lb_entity)) : NULL;
  for (uint32_t i = 0; spawned && i < n; ++i) {
    spawned[i] = sc->entities[i].value;
  }
  if (spawned || n == 0) {
    lb_world_entities_rollback(w, mark, spawned, n);
  } else {
    for (uint32_t i = 0; i < n; ++i) { /* out of memory: still remove them */
      lb_world_despawn(w, sc->entities[i].value);
    }
  }
  lb_free(w, spawned);
}

lb_result lb_scene_load(lb_world *w, const char *json, size_t len, lb_scene **out) {
  return lb_scene_load_files(w, json, len, NULL, 0, out);
}

lb_result lb_scene_load_files(lb_world *w, const char *json, size_t len, const lb_scene_file *files,
                              uint32_t file_count, lb_scene **out) {
  if (!w || !json || !out || (file_count && !files)) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "scene: null argument")
             : LB_ERR_INVALID_ARGUMENT;
  }
  *out = NULL;
  lb_json_error jerr;
  cJSON *root = lb_json_parse(json, len, &jerr);
  if (!root) {
    return lb_fail(w, LB_ERR_PARSE, "scene: %s", jerr.what);
  }
  /* All or nothing: a failure despawns what was spawned and frees the assets added. */
  lb_world_mark mark;
  lb_world_assets_mark(w, &mark);
  lb_entity_mark entities;
  lb_world_entities_mark(w, &entities);
  lb_scene *sc = lb_alloc(w, sizeof *sc);
  if (sc) {
    lb_names_init(&sc->entity_names, &w->allocator);
  }
  lb_result r = sc ? LB_OK : lb_fail(w, LB_ERR_OUT_OF_MEMORY, "scene: out of memory");
  if (r == LB_OK && !cJSON_IsObject(root)) {
    r = lb_fail(w, LB_ERR_PARSE, "scene: the document must be a JSON object");
  }
  if (r == LB_OK) {
    r = lb_scene_assets(w, sc, cJSON_GetObjectItemCaseSensitive(root, "assets"), files, file_count);
  }
  if (r == LB_OK) {
    r = lb_scene_entities(w, sc, cJSON_GetObjectItemCaseSensitive(root, "entities"));
  }
  if (r == LB_OK) {
    /* After the scene's own entities, so that adding a level does not move them (the bone
     * hash includes rig slots). */
    r = lb_scene_level(w, sc, cJSON_GetObjectItemCaseSensitive(root, "level"), files, file_count);
  }
  if (r == LB_OK) {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
    lb_snprintf(sc->name, sizeof sc->name, "%s",
                cJSON_IsString(name) && name->valuestring[0] ? name->valuestring : "(unnamed)");
    r = lb_scene_timeline(w, sc, cJSON_GetObjectItemCaseSensitive(root, "timeline"));
  }
  if (r == LB_OK && sc->command_count) {
    sc->undo = lb_alloc_array(w, sc->command_count, sizeof(lb_undo));
    if (!sc->undo) {
      r = lb_fail(w, LB_ERR_OUT_OF_MEMORY, "scene: out of memory");
    }
  }
  cJSON_Delete(root);
  if (r != LB_OK) {
    lb_scene_rollback_entities(w, sc, &entities);
    lb_scene_destroy(w, sc);
    lb_world_assets_rollback(w, &mark);
    return r;
  }
  sc->assets_before = mark;
  lb_world_assets_mark(w, &sc->assets_after);
  *out = sc;
  return LB_OK;
}

void lb_scene_unload(lb_world *w, lb_scene *sc) {
  if (!w || !sc) {
    return;
  }
  for (uint32_t i = sc->entity_count; i-- > 0;) {
    if (lb_world_alive(w, sc->entities[i].value)) {
      lb_world_despawn(w, sc->entities[i].value);
    }
  }
  lb_world_assets_release(w, &sc->assets_before, &sc->assets_after);
  lb_scene_destroy(w, sc);
}

static const char *const lb_command_kinds[] = {"update", "insert", "remove", "param"};

/* Re-records the current message as "scene 'NAME': timeline[i] (step k: update Transform on
 * entity 'hero'): <message>". */
static lb_result lb_command_fail(lb_world *w, const lb_scene *sc, const lb_command *cmd,
                                 lb_result r) {
  char prefix[1024];
  lb_snprintf(prefix, sizeof prefix,
              "scene '%s': timeline[%u] (step %llu: %s %s on entity '%s'): ", sc->name,
              (unsigned)cmd->index, (unsigned long long)cmd->step, lb_command_kinds[cmd->kind],
              cmd->kind == LB_CMD_PARAM ? (const char *)cmd->data
                                        : lb_component_info_get(cmd->type)->name,
              sc->entities[cmd->entity_index].name);
  return lb_diag_prefix(&w->diag, r, prefix);
}

/* Whether the entity has the component after the due commands before `at` (or now). */
static bool lb_has_after(lb_world *w, const lb_scene *sc, uint32_t first, uint32_t at, lb_entity e,
                         uint32_t type) {
  for (uint32_t k = at; k-- > first;) {
    const lb_command *c = &sc->commands[k];
    if (c->entity == e && c->type == type) {
      return c->kind != LB_CMD_REMOVE;
    }
  }
  return lb_world_has(w, e, type);
}

/* What can be known before anything is applied: the entity is alive, the component is
 * there for update/remove/param (after the earlier commands of the step), a parameter
 * exists with the value's kind. Stage checks that depend on other components run when
 * applied, and a failure then is undone. */
static lb_result lb_precheck(lb_world *w, const lb_scene *sc, uint32_t first, uint32_t end) {
  for (uint32_t i = first; i < end; ++i) {
    const lb_command *c = &sc->commands[i];
    lb_result r = LB_OK;
    if (!lb_world_alive(w, c->entity)) {
      r = lb_fail(w, LB_ERR_STALE_ENTITY, "the entity was despawned");
    } else if (c->kind != LB_CMD_INSERT && !lb_has_after(w, sc, first, i, c->entity, c->type)) {
      r = lb_fail(w, LB_ERR_MISSING_COMPONENT, "the entity has no %s",
                  lb_component_info_get(c->type)->name);
    } else if (c->kind == LB_CMD_PARAM && lb_world_has(w, c->entity, LB_ANIMATOR)) {
      bool touched = false;
      for (uint32_t k = first; k < i; ++k) {
        touched = touched ||
                  (sc->commands[k].entity == c->entity && sc->commands[k].type == LB_ANIMATOR &&
                   sc->commands[k].kind != LB_CMD_PARAM);
      }
      if (!touched) {
        r = lb_scene_param_check(w, c->entity, (const char *)c->data, c->value_is_bool, NULL, NULL);
      }
    }
    if (r != LB_OK) {
      return lb_command_fail(w, sc, c, r);
    }
  }
  return LB_OK;
}

static lb_result lb_apply_command(lb_world *w, const lb_command *cmd, lb_undo *u) {
  u->had = lb_world_has(w, cmd->entity, cmd->type);
  if (cmd->kind == LB_CMD_PARAM) {
    lb_result r = lb_scene_param_check(w, cmd->entity, (const char *)cmd->data, cmd->value_is_bool,
                                       &u->param, &u->ptype);
    return r == LB_OK ? lb_scene_param_apply(w, cmd->entity, (const char *)cmd->data, cmd->value,
                                             cmd->value_is_bool)
                      : r;
  }
  if (u->had) {
    lb_world_get(w, cmd->entity, cmd->type, u->old);
  }
  if (cmd->kind == LB_CMD_REMOVE) {
    return lb_world_remove(w, cmd->entity, cmd->type);
  }
  if (cmd->kind == LB_CMD_INSERT) {
    return lb_world_insert(w, cmd->entity, cmd->type, cmd->data);
  }
  const lb_component_info *info = lb_component_info_get(cmd->type);
  _Alignas(16) uint8_t cur[LB_COMPONENT_MAX_SIZE];
  lb_result r = lb_world_get(w, cmd->entity, cmd->type, cur);
  if (r != LB_OK) {
    return lb_fail(w, r, "%s", lb_result_text(r));
  }
  for (uint32_t i = 0; i < info->field_count; ++i) {
    if (i < 32u && (cmd->field_mask & (1u << i))) {
      const lb_field *f = &info->fields[i];
      memcpy(cur + f->offset, cmd->data + f->offset, f->size);
    }
  }
  return lb_world_set(w, cmd->entity, cmd->type, cur);
}

/* Puts back what an applied command changed. Values go back through the write path (they
 * were valid before the command, in the world as it is again now). A removed component
 * comes back with its value; module state (a Rig's pose buffers) starts afresh. */
static void lb_undo_command(lb_world *w, const lb_command *cmd, const lb_undo *u) {
  if (cmd->kind == LB_CMD_PARAM) {
    lb_scene_param_restore(w, cmd->entity, (const char *)cmd->data, u->param, u->ptype);
  } else if (!u->had) {
    if (lb_world_has(w, cmd->entity, cmd->type)) {
      lb_world_remove(w, cmd->entity, cmd->type);
    }
  } else {
    lb_world_insert(w, cmd->entity, cmd->type, u->old);
  }
}

/* A remove command of the step [.., end) that no later command of the step touches on the
 * same entity and component. */
static bool lb_remove_deferred(const lb_scene *sc, uint32_t i, uint32_t end) {
  const lb_command *c = &sc->commands[i];
  if (c->kind != LB_CMD_REMOVE) {
    return false;
  }
  for (uint32_t k = i + 1u; k < end; ++k) {
    const lb_command *o = &sc->commands[k];
    if (o->entity == c->entity && (o->type == c->type || o->kind == LB_CMD_PARAM)) {
      return false;
    }
  }
  return true;
}

lb_result lb_scene_step(lb_world *w, lb_scene *sc, float dt) {
  if (!w || !sc) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "scene step: null scene")
             : LB_ERR_INVALID_ARGUMENT;
  }
  /* dt first: a step that cannot run applies no command. */
  if (!lb_world_dt_valid(dt)) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE,
                   "scene '%s': step: dt = %g s must be 0 (paused) or within [%g, 1] s (no "
                   "timeline command applied)",
                   sc->name, (double)dt, (double)LB_STEP_DT_MIN);
  }
  /* The commands due now are applied all or nothing. */
  uint64_t now = lb_world_step_count(w);
  uint32_t first = sc->next_command, end = first;
  while (end < sc->command_count && sc->commands[end].step <= now) {
    ++end;
  }
  lb_result r = lb_precheck(w, sc, first, end);
  if (r != LB_OK) {
    return r;
  }
  /* Removes whose (entity, component) no later command of the step touches go last: after
   * the precheck they cannot fail, so no removal ever has to be undone (a component that
   * came back would restart its module state). */
  for (uint32_t i = first; i < end; ++i) {
    if (lb_remove_deferred(sc, i, end)) {
      continue;
    }
    r = lb_apply_command(w, &sc->commands[i], &sc->undo[i - first]);
    if (r == LB_OK) {
      continue;
    }
    lb_command_fail(w, sc, &sc->commands[i], r);
    /* Keep the message while the undo writes (which clear it) run. */
    const char *text = lb_world_last_error(w);
    const char *body = strstr(text, ": ");
    body = body ? body + 2 : text;
    size_t n = strlen(body) + 1u;
    char *saved = lb_alloc(w, n);
    if (saved) {
      memcpy(saved, body, n);
    }
    for (uint32_t k = i; k-- > first;) {
      if (!lb_remove_deferred(sc, k, end)) {
        lb_undo_command(w, &sc->commands[k], &sc->undo[k - first]);
      }
    }
    lb_fail(w, r, "%s (earlier commands of the step were undone)",
            saved ? saved : "(message lost: out of memory)");
    lb_free(w, saved);
    return r;
  }
  for (uint32_t i = first; i < end; ++i) {
    if (lb_remove_deferred(sc, i, end)) {
      lb_world_remove(w, sc->commands[i].entity, sc->commands[i].type);
    }
  }
  sc->next_command = end;
  return lb_world_step(w, dt);
}
