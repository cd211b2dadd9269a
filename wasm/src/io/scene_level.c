/* Levels in scenes: "level": "assets/levels/corridor.json" (pieces: boxes with centre, size
 * and rotation) or the same level's .glb (one mesh node per piece), or
 * { "file": PATH, "layers": { KIND: BITS } } to put pieces of a kind on collider layers (a
 * piece's kind: its "kind" field in a .json, the node name up to the first '_' in a .glb).
 * Kinds not listed get their default: walls on layers 0 and 1 (3), everything else on the
 * Collider default layer 0 (1). Each piece becomes a static collider
 * entity named by the piece, part of the scene (rolled back with a failed load, despawned by
 * lb_scene_unload). */
#include "../base/format.h"
#include "../base/json.h"
#include "../world/world_core.h"
#include "limber/collide.h"
#include "limber/gltf.h"
#include "scene_internal.h"
#include <string.h>

#define LB_LEVEL_PIECES_MAX 4096

static bool lb_lv_floats(const cJSON *a, int n, float *out) {
  if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != n) {
    return false;
  }
  int i = 0;
  for (const cJSON *x = a->child; x; x = x->next, ++i) {
    if (!cJSON_IsNumber(x)) {
      return false;
    }
    out[i] = (float)x->valuedouble;
  }
  return true;
}

/* Layer bit 1, 'Interactable': the EnvironmentInteraction's default interactableLayers. */
#define LV_LAYER_INTERACTABLE 2u

/* The layer bits for a piece of `kind` (len bytes): as the scene lists them, else the kind's
 * default. A wall is on the Collider default layer (bit 0: controllers, vaults and queries
 * with their default masks see it) and on 'Interactable' (bit 1), so a level given by its path
 * alone has walls a default EnvironmentInteraction touches; a floor on bit 1 would be a wall
 * to it, so every other kind keeps the Collider default. */
static uint32_t lb_lv_layer(const cJSON *layers, const char *kind, size_t len, uint32_t fallback) {
  for (const cJSON *l = layers ? layers->child : NULL; l; l = l->next) {
    if (strlen(l->string) == len && strncmp(l->string, kind, len) == 0) {
      return (uint32_t)l->valuedouble;
    }
  }
  bool wall = len == 4 && strncmp(kind, "wall", 4) == 0;
  return wall ? fallback | LV_LAYER_INTERACTABLE : fallback;
}

static lb_result lb_lv_spawn(lb_world *w, lb_scene *sc, const char *name, const float *pos,
                             const float *rot, const lb_collider_c *col, const char *path) {
  lb_entity e;
  lb_result r = lb_scene_add_entity(w, sc, name, &e);
  if (r != LB_OK) {
    return r;
  }
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  memcpy(t.position, pos, sizeof t.position);
  memcpy(t.rotation, rot, sizeof t.rotation);
  r = lb_world_insert(w, e, LB_TRANSFORM, &t);
  if (r == LB_OK) {
    r = lb_world_insert(w, e, LB_COLLIDER, col);
  }
  if (r != LB_OK) {
    char prefix[320];
    lb_snprintf(prefix, sizeof prefix, "scene: level '%s': piece '%s': ", path, name);
    lb_diag_prefix(&w->diag, r, prefix);
  }
  return r;
}

static lb_result lb_lv_json(lb_world *w, lb_scene *sc, const char *path, const lb_scene_file *f,
                            const cJSON *layers) {
  lb_json_error jerr;
  cJSON *root = lb_json_parse((const char *)f->bytes, f->size, &jerr);
  if (!root) {
    return lb_fail(w, LB_ERR_PARSE, "scene: level '%s': %s", path, jerr.what);
  }
  const cJSON *pieces = cJSON_GetObjectItemCaseSensitive(root, "pieces");
  lb_result r = LB_OK;
  if (!cJSON_IsArray(pieces) || cJSON_GetArraySize(pieces) > LB_LEVEL_PIECES_MAX) {
    r = lb_fail(w, LB_ERR_PARSE, "scene: level '%s': 'pieces' must be an array of at most %d", path,
                LB_LEVEL_PIECES_MAX);
  }
  int i = 0;
  for (const cJSON *p = r == LB_OK ? pieces->child : NULL; p && r == LB_OK; p = p->next, ++i) {
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(p, "name");
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(p, "shape");
    float center[3], size[3], rot[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    const cJSON *rj = cJSON_GetObjectItemCaseSensitive(p, "rotation");
    if (!cJSON_IsString(name) || !name->valuestring[0]) {
      r = lb_fail(w, LB_ERR_PARSE, "scene: level '%s': piece %d needs a 'name'", path, i);
    } else if (!cJSON_IsString(shape) || strcmp(shape->valuestring, "box") != 0) {
      r = lb_fail(w, LB_ERR_PARSE, "scene: level '%s': piece '%s': field 'shape' must be \"box\"",
                  path, name->valuestring);
    } else if (!lb_lv_floats(cJSON_GetObjectItemCaseSensitive(p, "center"), 3, center)) {
      r = lb_fail(w, LB_ERR_PARSE,
                  "scene: level '%s': piece '%s': field 'center' must be 3 numbers", path,
                  name->valuestring);
    } else if (!lb_lv_floats(cJSON_GetObjectItemCaseSensitive(p, "size"), 3, size)) {
      r = lb_fail(w, LB_ERR_PARSE, "scene: level '%s': piece '%s': field 'size' must be 3 numbers",
                  path, name->valuestring);
    } else if (rj && !lb_lv_floats(rj, 4, rot)) {
      r = lb_fail(w, LB_ERR_PARSE,
                  "scene: level '%s': piece '%s': field 'rotation' must be 4 numbers [x, y, z, w]",
                  path, name->valuestring);
    } else {
      lb_collider_c c;
      lb_component_defaults(LB_COLLIDER, &c);
      c.shape = LB_COLLIDER_BOX;
      memcpy(c.size, size, sizeof c.size);
      const cJSON *kind = cJSON_GetObjectItemCaseSensitive(p, "kind");
      if (cJSON_IsString(kind)) {
        c.layer = lb_lv_layer(layers, kind->valuestring, strlen(kind->valuestring), c.layer);
      }
      r = lb_lv_spawn(w, sc, name->valuestring, center, rot, &c, path);
    }
  }
  cJSON_Delete(root);
  return r;
}

static lb_result lb_lv_gltf(lb_world *w, lb_scene *sc, const char *path, const lb_scene_file *f,
                            const cJSON *layers) {
  lb_gltf_def def = lb_gltf_default_def();
  def.data = f->bytes;
  def.size = f->size;
  uint32_t n = 0;
  lb_gltf_mesh_node *nodes = lb_alloc_array(w, LB_LEVEL_PIECES_MAX, sizeof *nodes);
  if (!nodes) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "scene: out of memory");
  }
  lb_result r = lb_world_add_gltf_meshes(w, &def, nodes, LB_LEVEL_PIECES_MAX, &n);
  if (r != LB_OK) {
    char prefix[320];
    lb_snprintf(prefix, sizeof prefix, "scene: level '%s': ", path);
    lb_diag_prefix(&w->diag, r, prefix);
  }
  /* The meshes are in the file's world frame: the entities stay at the origin. */
  static const float origin[3] = {0.0f, 0.0f, 0.0f}, id[4] = {0.0f, 0.0f, 0.0f, 1.0f};
  for (uint32_t i = 0; r == LB_OK && i < n; ++i) {
    lb_collider_c c;
    lb_component_defaults(LB_COLLIDER, &c);
    c.shape = LB_COLLIDER_MESH;
    c.mesh = nodes[i].mesh;
    c.layer = lb_lv_layer(layers, nodes[i].name, strcspn(nodes[i].name, "_"), c.layer);
    r = lb_lv_spawn(w, sc, nodes[i].name, origin, id, &c, path);
  }
  lb_free(w, nodes);
  return r;
}

static bool lb_lv_ends_with(const char *s, const char *tail) {
  size_t n = strlen(s), k = strlen(tail);
  return n >= k && strcmp(s + n - k, tail) == 0;
}

const char *lb_scene_level_path(const void *json) {
  const cJSON *lv = json;
  if (cJSON_IsString(lv)) {
    return lv->valuestring;
  }
  const cJSON *file = cJSON_GetObjectItemCaseSensitive(lv, "file");
  return cJSON_IsString(file) ? file->valuestring : NULL;
}

lb_result lb_scene_level(lb_world *w, lb_scene *sc, const void *json, const lb_scene_file *files,
                         uint32_t file_count) {
  const cJSON *lv = json;
  if (!lv) {
    return LB_OK;
  }
  const char *path = lb_scene_level_path(lv);
  if (!path || !path[0]) {
    return lb_fail(
        w, LB_ERR_PARSE,
        "scene: 'level' must be a file path (a level .json or .glb) or { \"file\": PATH, "
        "\"layers\": { KIND: BITS } }");
  }
  const cJSON *layers = NULL;
  for (const cJSON *it = cJSON_IsObject(lv) ? lv->child : NULL; it; it = it->next) {
    if (strcmp(it->string, "layers") == 0) {
      layers = it;
    } else if (strcmp(it->string, "file") != 0) {
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
  lb_result found = lb_scene_file_get(w, files, file_count, path, "level file", &file);
  if (found != LB_OK) {
    return found;
  }
  if (lb_lv_ends_with(path, ".json")) {
    return lb_lv_json(w, sc, path, file, layers);
  }
  if (lb_lv_ends_with(path, ".glb") || lb_lv_ends_with(path, ".gltf")) {
    return lb_lv_gltf(w, sc, path, file, layers);
  }
  return lb_fail(w, LB_ERR_PARSE, "scene: level '%s': the path must end in .json, .glb or .gltf",
                 path);
}
