/* Levels in scenes: "level": PATH or { "file": PATH, "layers": { KIND: BITS } } loads a
 * generated level file (assets/levels/NAME.json, from the caller's file table) as one entity
 * per piece, named by the piece, with a Transform (centre, rotation) and a box Collider
 * (size; layer by the piece's kind, default 1). */
#include "../base/json.h"
#include "../world/world_core.h"
#include "limber/collide.h"
#include "limber/components.h"
#include "scene_internal.h"
#include <stdio.h>
#include <string.h>

static const char *lb_level_path(const cJSON *level) {
  if (cJSON_IsString(level)) {
    return level->valuestring;
  }
  const cJSON *file = cJSON_GetObjectItemCaseSensitive(level, "file");
  return cJSON_IsString(file) ? file->valuestring : NULL;
}

const char *lb_scene_level_path(const void *level_json) {
  return lb_level_path(level_json);
}

static lb_result lb_level_vec(lb_world *w, const char *path, const char *piece, const cJSON *arr,
                              const char *key, int n, float *out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(arr, key);
  if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != n) {
    return lb_fail(w, LB_ERR_PARSE, "scene: level '%s': piece '%s': '%s' must be %d numbers", path,
                   piece, key, n);
  }
  int i = 0;
  for (const cJSON *x = v->child; x; x = x->next, ++i) {
    if (!cJSON_IsNumber(x)) {
      return lb_fail(w, LB_ERR_PARSE, "scene: level '%s': piece '%s': '%s' must be %d numbers",
                     path, piece, key, n);
    }
    out[i] = (float)x->valuedouble;
  }
  return LB_OK;
}

lb_result lb_scene_level_load(lb_world *w, const void *level_json, const lb_scene_file *files,
                              uint32_t file_count, lb_scene_level *out) {
  const cJSON *level = level_json;
  memset(out, 0, sizeof *out);
  const char *path = lb_level_path(level);
  if (!path || !path[0]) {
    return lb_fail(w, LB_ERR_PARSE,
                   "scene: 'level' must be a file path or { \"file\": PATH, \"layers\": {...} }");
  }
  const cJSON *layers =
      cJSON_IsObject(level) ? cJSON_GetObjectItemCaseSensitive(level, "layers") : NULL;
  for (const cJSON *it = cJSON_IsObject(level) ? level->child : NULL; it; it = it->next) {
    if (strcmp(it->string, "file") != 0 && strcmp(it->string, "layers") != 0) {
      return lb_fail(w, LB_ERR_PARSE, "scene: 'level': unknown key '%s' (file, layers)",
                     it->string);
    }
  }
  if (layers && !cJSON_IsObject(layers)) {
    return lb_fail(w, LB_ERR_PARSE, "scene: 'level.layers' must be an object of kind: bits");
  }
  for (const cJSON *l = layers ? layers->child : NULL; l; l = l->next) {
    if (!cJSON_IsNumber(l) || l->valuedouble < 0 || l->valuedouble > 4294967295.0 ||
        l->valuedouble != (double)(uint32_t)l->valuedouble) {
      return lb_fail(w, LB_ERR_PARSE, "scene: 'level.layers.%s' must be an integer in [0, 2^32)",
                     l->string);
    }
  }
  const lb_scene_file *file = NULL;
  for (uint32_t i = 0; i < file_count && !file; ++i) {
    if (files[i].path && strcmp(files[i].path, path) == 0) {
      file = &files[i];
    }
  }
  if (!file || !file->bytes || file->size == 0) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME,
                   "scene: level file '%s' was not passed to the loader (callers read the files "
                   "lb_scene_files lists)",
                   path);
  }
  lb_json_error jerr;
  cJSON *doc = lb_json_parse((const char *)file->bytes, file->size, &jerr);
  if (!doc) {
    return lb_fail(w, LB_ERR_PARSE, "scene: level '%s': %s", path, jerr.what);
  }
  const cJSON *pieces = cJSON_GetObjectItemCaseSensitive(doc, "pieces");
  lb_result r = LB_OK;
  if (!cJSON_IsArray(pieces) || cJSON_GetArraySize(pieces) == 0) {
    r = lb_fail(w, LB_ERR_PARSE, "scene: level '%s': 'pieces' must be a non-empty array", path);
  }
  int n = r == LB_OK ? cJSON_GetArraySize(pieces) : 0;
  if (r == LB_OK) {
    out->pieces = lb_alloc_array(w, (size_t)n, sizeof(lb_scene_level_piece));
    if (!out->pieces) {
      r = lb_fail(w, LB_ERR_OUT_OF_MEMORY, "scene: out of memory");
    }
  }
  for (const cJSON *p = r == LB_OK ? pieces->child : NULL; p && r == LB_OK; p = p->next) {
    lb_scene_level_piece *pc = &out->pieces[out->count];
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(p, "name");
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(p, "kind");
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(p, "shape");
    if (!cJSON_IsString(name) || !name->valuestring[0] ||
        strlen(name->valuestring) >= sizeof pc->name) {
      r = lb_fail(w, LB_ERR_PARSE, "scene: level '%s': piece %u needs a name (1..%u bytes)", path,
                  out->count, (unsigned)sizeof pc->name - 1u);
      break;
    }
    if (!cJSON_IsString(shape) || strcmp(shape->valuestring, "box") != 0) {
      r = lb_fail(w, LB_ERR_PARSE, "scene: level '%s': piece '%s': shape must be \"box\"", path,
                  name->valuestring);
      break;
    }
    strcpy(pc->name, name->valuestring);
    r = lb_level_vec(w, path, pc->name, p, "center", 3, pc->center);
    if (r == LB_OK) {
      r = lb_level_vec(w, path, pc->name, p, "size", 3, pc->size);
    }
    if (r == LB_OK) {
      r = lb_level_vec(w, path, pc->name, p, "rotation", 4, pc->rotation);
    }
    pc->layer = 1u;
    const cJSON *bits = cJSON_IsString(kind) && layers
                            ? cJSON_GetObjectItemCaseSensitive(layers, kind->valuestring)
                            : NULL;
    if (bits) {
      pc->layer = (uint32_t)bits->valuedouble;
    }
    out->count++;
  }
  cJSON_Delete(doc);
  if (r != LB_OK) {
    lb_free(w, out->pieces);
    memset(out, 0, sizeof *out);
  }
  return r;
}

lb_result lb_scene_level_piece_insert(lb_world *w, lb_entity e, const lb_scene_level_piece *pc) {
  _Alignas(16) uint8_t data[LB_COMPONENT_MAX_SIZE];
  lb_component_defaults(LB_TRANSFORM, data);
  lb_transform_c *t = (lb_transform_c *)data;
  memcpy(t->position, pc->center, sizeof t->position);
  memcpy(t->rotation, pc->rotation, sizeof t->rotation);
  lb_result r = lb_world_insert(w, e, LB_TRANSFORM, data);
  if (r != LB_OK) {
    return r;
  }
  lb_component_defaults(LB_COLLIDER, data);
  lb_collider_c *c = (lb_collider_c *)data;
  c->shape = LB_COLLIDER_BOX;
  memcpy(c->size, pc->size, sizeof c->size);
  c->layer = pc->layer;
  return lb_world_insert(w, e, LB_COLLIDER, data);
}
