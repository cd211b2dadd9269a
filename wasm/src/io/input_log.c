/* Input log replay (limber/input_log.h): each op of the log is one public call, made with
 * the arguments the bridge recorded, so a native replay runs what the live session ran. The
 * TypeScript bridge applies the same ops through its own calls (web/bridge/record.ts); the
 * tests compare both with the live hash. Runs between steps only: it allocates as a loader
 * does (the parsed log, decoded buffers), never inside a step. */
#include "limber/input_log.h"
#include "../base/format.h"
#include "../base/json.h"
#include "../world/world_core.h"
#include "limber/animator.h"
#include "limber/collide.h"
#include "limber/controller.h"
#include "limber/grip.h"
#include "limber/grip_pose.h"
#include "limber/nav.h"
#include "limber/rig.h"
#include "limber/schema.h"
#include "limber/vault.h"
#include "scene_internal.h"
#include <string.h>

/* Larger arrays (a mesh's positions, a pose) are refused rather than allocated. */
#define LB_IL_ARRAY_MAX (1u << 26)

typedef struct lb_il {
  lb_world *w;
  lb_scene **caller; /* the caller's array: a scene the log unloads is set null there too */
  lb_scene **scenes;
  uint32_t scene_count;
  uint32_t caller_scenes; /* scenes[0..caller_scenes) are the caller's, the rest the log's */
  const cJSON *op;
  const char *name;
  uint32_t index;
  uint64_t steps;
  lb_input_log_step_fn on_step;
  void *user;
} lb_il;

static lb_result lb_il_bad(lb_il *c, int item, const char *want) {
  return lb_fail(c->w, LB_ERR_PARSE, "input log: ops[%u] ('%s'): item %d must be %s", c->index,
                 c->name, item, want);
}

/* A failed call's message, prefixed with the op; a call that records no message gets one. */
static lb_result lb_il_call(lb_il *c, lb_result r) {
  if (r == LB_OK) {
    return r;
  }
  char prefix[96];
  lb_snprintf(prefix, sizeof prefix, "input log: ops[%u] ('%s'): ", c->index, c->name);
  if (!lb_world_last_error(c->w)[0]) {
    return lb_fail(c->w, r, "%s%s", prefix, lb_result_name(r));
  }
  return lb_diag_prefix(&c->w->diag, r, prefix);
}

static const cJSON *lb_il_item(const lb_il *c, int i) {
  return cJSON_GetArrayItem(c->op, i);
}

/* A float: a JSON number, or "-0" for negative zero (JSON from JavaScript drops its sign). */
static bool lb_il_number(const cJSON *j, float *out) {
  if (cJSON_IsNumber(j)) {
    *out = (float)j->valuedouble;
    return true;
  }
  if (cJSON_IsString(j) && strcmp(j->valuestring, "-0") == 0) {
    *out = -0.0f;
    return true;
  }
  return false;
}

static lb_result lb_il_f32(lb_il *c, int i, float *out) {
  return lb_il_number(lb_il_item(c, i), out) ? LB_OK : lb_il_bad(c, i, "a number (or \"-0\")");
}

static lb_result lb_il_u32(lb_il *c, int i, uint32_t *out) {
  const cJSON *j = lb_il_item(c, i);
  if (!cJSON_IsNumber(j) || j->valuedouble < 0 || j->valuedouble > 4294967295.0 ||
      j->valuedouble != (double)(uint32_t)j->valuedouble) {
    return lb_il_bad(c, i, "a whole number in [0, 2^32)");
  }
  *out = (uint32_t)j->valuedouble;
  return LB_OK;
}

static lb_result lb_il_str(lb_il *c, int i, const char **out) {
  const cJSON *j = lb_il_item(c, i);
  if (!cJSON_IsString(j)) {
    return lb_il_bad(c, i, "a string");
  }
  *out = j->valuestring;
  return LB_OK;
}

/* A handle an op got against the one it recorded at item i. */
static lb_result lb_il_same(lb_il *c, int i, uint32_t got) {
  uint32_t want = 0;
  lb_result r = lb_il_u32(c, i, &want);
  if (r == LB_OK && got != want) {
    r = lb_fail(c->w, LB_ERR_INVALID_ARGUMENT,
                "input log: ops[%u] ('%s'): got handle %u where the recording got %u: the world "
                "was not set up as the recorded one",
                c->index, c->name, got, want);
  }
  return r;
}

/* An array of at most LB_IL_ARRAY_MAX numbers at item i into a new buffer of `elem`-byte
 * elements (floats, or whole numbers stored as uint32/int32/uint8 by `kind`). */
static lb_result lb_il_array(lb_il *c, int i, char kind, void **out, uint32_t *count) {
  const cJSON *a = lb_il_item(c, i);
  int n = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : -1;
  if (n < 0 || (uint32_t)n > LB_IL_ARRAY_MAX) {
    return lb_il_bad(c, i, "an array of numbers");
  }
  size_t elem = kind == 'b' ? 1u : 4u;
  uint8_t *buf = lb_alloc_array(c->w, (size_t)n + 1u, elem);
  if (!buf) {
    return lb_fail(c->w, LB_ERR_OUT_OF_MEMORY, "input log: ops[%u]: out of memory", c->index);
  }
  uint32_t k = 0;
  for (const cJSON *x = a->child; x; x = x->next, ++k) {
    float f = 0.0f;
    bool ok = lb_il_number(x, &f);
    double d = cJSON_IsNumber(x) ? x->valuedouble : 0.0;
    if (kind == 'f' && ok) {
      memcpy(buf + 4u * k, &f, 4);
    } else if (kind == 'i' && ok && d >= -2147483648.0 && d <= 2147483647.0 && d == (int32_t)d) {
      int32_t v = (int32_t)d;
      memcpy(buf + 4u * k, &v, 4);
    } else if (kind == 'u' && ok && d >= 0 && d <= 4294967295.0 && d == (double)(uint32_t)d) {
      uint32_t v = (uint32_t)d;
      memcpy(buf + 4u * k, &v, 4);
    } else if (kind == 'b' && ok && d >= 0 && d <= 255 && d == (double)(uint8_t)d) {
      buf[k] = (uint8_t)d;
    } else {
      lb_free(c->w, buf);
      return lb_il_bad(c, i, kind == 'f' ? "an array of numbers" : "an array of whole numbers");
    }
  }
  *out = buf;
  *count = (uint32_t)n;
  return LB_OK;
}

/* ---- steps ------------------------------------------------------------------------------ */

static lb_result lb_il_steps(lb_il *c, lb_scene *scene, int first) {
  float dt = 0.0f;
  uint32_t count = 0;
  lb_result r = lb_il_f32(c, first, &dt);
  if (r == LB_OK) {
    r = lb_il_u32(c, first + 1, &count);
  }
  for (uint32_t i = 0; r == LB_OK && i < count; ++i) {
    r = lb_il_call(c, scene ? lb_scene_step(c->w, scene, dt) : lb_world_step(c->w, dt));
    c->steps += r == LB_OK;
    if (r == LB_OK && c->on_step && !c->on_step(c->w, c->steps, c->user)) {
      r = lb_fail(c->w, LB_ERR_CAPACITY,
                  "input log: ops[%u] ('%s'): stopped by the step callback after step %llu",
                  c->index, c->name, (unsigned long long)c->steps);
    }
  }
  return r;
}

static lb_result lb_il_scene(lb_il *c, int i, lb_scene **out) {
  uint32_t k = 0;
  lb_result r = lb_il_u32(c, i, &k);
  if (r == LB_OK && (k >= c->scene_count || !c->scenes[k])) {
    r = lb_fail(c->w, LB_ERR_INVALID_ARGUMENT,
                "input log: ops[%u] ('%s'): scene %u was not loaded (%u scenes: the replay's "
                "setup loads them in the recorded order, then the log's own)",
                c->index, c->name, k, c->scene_count);
  }
  if (r == LB_OK) {
    *out = c->scenes[k];
  }
  return r;
}

static lb_result lb_il_op_step(lb_il *c) {
  return lb_il_steps(c, NULL, 1);
}

static lb_result lb_il_op_scene_step(lb_il *c) {
  lb_scene *s = NULL;
  lb_result r = lb_il_scene(c, 1, &s);
  return r == LB_OK ? lb_il_steps(c, s, 2) : r;
}

/* ---- entities and components -------------------------------------------------------------- */

static lb_result lb_il_op_spawn(lb_il *c) {
  lb_entity e = LB_NULL_ENTITY;
  lb_result r = lb_il_call(c, lb_world_spawn(c->w, &e));
  return r == LB_OK ? lb_il_same(c, 1, e) : r;
}

static lb_result lb_il_op_despawn(lb_il *c) {
  uint32_t e = 0;
  lb_result r = lb_il_u32(c, 1, &e);
  return r == LB_OK ? lb_il_call(c, lb_world_despawn(c->w, e)) : r;
}

/* "-0" strings in the number fields of a FIELDS object become negative zeros in place. */
static void lb_il_negative_zeros(const lb_component_info *info, cJSON *fields) {
  for (cJSON *it = fields->child; it; it = it->next) {
    for (uint32_t f = 0; f < info->field_count; ++f) {
      const lb_field *fd = &info->fields[f];
      bool number =
          fd->type == LB_FIELD_F32 || fd->type == LB_FIELD_VEC3 || fd->type == LB_FIELD_QUAT;
      if (!number || strcmp(fd->name, it->string) != 0) {
        continue;
      }
      for (cJSON *x = cJSON_IsArray(it) ? it->child : it; x;
           x = cJSON_IsArray(it) ? x->next : NULL) {
        if (cJSON_IsString(x) && strcmp(x->valuestring, "-0") == 0) {
          x->type = cJSON_Number; /* cJSON_Delete still frees valuestring */
          x->valuedouble = -0.0;
        }
      }
    }
  }
}

static lb_result lb_il_component(lb_il *c, uint32_t *e, int *type) {
  const char *name = NULL;
  lb_result r = lb_il_u32(c, 1, e);
  if (r == LB_OK) {
    r = lb_il_str(c, 2, &name);
  }
  if (r == LB_OK && (*type = lb_component_find(name)) < 0) {
    r = lb_fail(c->w, LB_ERR_UNKNOWN_NAME, "input log: ops[%u] ('%s'): unknown component '%s'",
                c->index, c->name, name);
  }
  return r;
}

/* insert: the defaults + FIELDS; set: the current value + FIELDS. */
static lb_result lb_il_write(lb_il *c, bool insert) {
  uint32_t e = 0;
  int type = -1;
  lb_result r = lb_il_component(c, &e, &type);
  cJSON *fields = r == LB_OK ? (cJSON *)lb_il_item(c, 3) : NULL;
  if (r == LB_OK && !cJSON_IsObject(fields)) {
    r = lb_il_bad(c, 3, "an object of fields");
  }
  const lb_component_info *info = r == LB_OK ? lb_component_info_get((uint32_t)type) : NULL;
  uint8_t *value = info ? lb_alloc(c->w, info->size) : NULL;
  if (info && !value) {
    r = lb_fail(c->w, LB_ERR_OUT_OF_MEMORY, "input log: ops[%u]: out of memory", c->index);
  }
  if (r == LB_OK && insert) {
    lb_component_defaults((uint32_t)type, value);
  } else if (r == LB_OK) {
    lb_diag_clear(&c->w->diag);
    r = lb_il_call(c, lb_world_get(c->w, e, (uint32_t)type, value));
  }
  if (r == LB_OK) {
    lb_il_negative_zeros(info, fields);
    char where[96];
    lb_snprintf(where, sizeof where, "input log: ops[%u] ('%s'): %s", c->index, c->name,
                info->name);
    r = lb_component_fields_from_cjson(c->w, NULL, (uint32_t)type, fields, where, value, NULL);
  }
  if (r == LB_OK) {
    lb_diag_clear(&c->w->diag);
    r = lb_il_call(c, insert ? lb_world_insert(c->w, e, (uint32_t)type, value)
                             : lb_world_set(c->w, e, (uint32_t)type, value));
  }
  lb_free(c->w, value);
  return r;
}

static lb_result lb_il_op_insert(lb_il *c) {
  return lb_il_write(c, true);
}

static lb_result lb_il_op_set(lb_il *c) {
  return lb_il_write(c, false);
}

static lb_result lb_il_op_remove(lb_il *c) {
  uint32_t e = 0;
  int type = -1;
  lb_result r = lb_il_component(c, &e, &type);
  return r == LB_OK ? lb_il_call(c, lb_world_remove(c->w, e, (uint32_t)type)) : r;
}

/* ---- game inputs ------------------------------------------------------------------------- */

/* float, bool, trigger: [op, entity, name, value]; damp adds seconds. */
static lb_result lb_il_op_param(lb_il *c) {
  uint32_t e = 0;
  const char *name = NULL;
  float v = 0.0f, damp = 0.0f;
  const cJSON *value = lb_il_item(c, 3);
  lb_result r = lb_il_u32(c, 1, &e);
  if (r == LB_OK) {
    r = lb_il_str(c, 2, &name);
  }
  bool flag = c->name[0] == 'b' || c->name[0] == 't';
  if (r == LB_OK && flag && !cJSON_IsBool(value)) {
    r = lb_il_bad(c, 3, "a boolean");
  } else if (r == LB_OK && !flag) {
    r = lb_il_f32(c, 3, &v);
  }
  if (r == LB_OK && c->name[0] == 'd') {
    r = lb_il_f32(c, 4, &damp);
  }
  if (r != LB_OK) {
    return r;
  }
  lb_diag_clear(&c->w->diag);
  switch (c->name[0]) {
  case 'f':
    return lb_il_call(c, lb_world_set_animator_float(c->w, e, name, v));
  case 'd':
    return lb_il_call(c, lb_world_set_animator_float_damped(c->w, e, name, v, damp));
  case 'b':
    return lb_il_call(c, lb_world_set_animator_bool(c->w, e, name, cJSON_IsTrue(value)));
  default:
    return lb_il_call(c, lb_world_set_animator_trigger(c->w, e, name, cJSON_IsTrue(value)));
  }
}

static lb_result lb_il_op_move(lb_il *c) {
  uint32_t e = 0;
  vec3 d = {0.0f, 0.0f, 0.0f};
  lb_result r = lb_il_u32(c, 1, &e);
  for (int k = 0; r == LB_OK && k < 3; ++k) {
    r = lb_il_f32(c, 2 + k, &d[k]);
  }
  return r == LB_OK ? lb_il_call(c, lb_world_controller_move(c->w, e, d)) : r;
}

static lb_result lb_il_op_vault(lb_il *c) {
  uint32_t e = 0;
  lb_result r = lb_il_u32(c, 1, &e);
  return r == LB_OK ? lb_il_call(c, lb_world_vault_request(c->w, e)) : r;
}

static lb_result lb_il_op_pose(lb_il *c) {
  uint32_t e = 0, n = 0;
  float *f = NULL;
  lb_result r = lb_il_u32(c, 1, &e);
  if (r == LB_OK) {
    r = lb_il_array(c, 2, 'f', (void **)&f, &n);
  }
  if (r == LB_OK && n % 10u != 0) {
    r = lb_il_bad(c, 2, "10 numbers per joint (t x y z, r x y z w, s x y z)");
  }
  lb_transform *pose = r == LB_OK ? lb_alloc_array(c->w, n / 10u + 1u, sizeof *pose) : NULL;
  if (r == LB_OK && !pose) {
    r = lb_fail(c->w, LB_ERR_OUT_OF_MEMORY, "input log: ops[%u]: out of memory", c->index);
  }
  for (uint32_t j = 0; r == LB_OK && j < n / 10u; ++j) {
    memcpy(pose[j].t, f + 10u * j, 3 * sizeof(float));
    memcpy(pose[j].r, f + 10u * j + 3u, 4 * sizeof(float));
    memcpy(pose[j].s, f + 10u * j + 7u, 3 * sizeof(float));
  }
  if (r == LB_OK) {
    r = lb_il_call(c, lb_rig_set_animation_pose(c->w, e, pose, n / 10u));
  }
  lb_free(c->w, pose);
  lb_free(c->w, f);
  return r;
}

/* ---- assets ------------------------------------------------------------------------------ */

static lb_result lb_il_op_register(lb_il *c) {
  const char *name = NULL, *json = NULL;
  lb_result r = lb_il_str(c, 1, &name);
  if (r == LB_OK) {
    r = lb_il_str(c, 2, &json);
  }
  if (r != LB_OK) {
    return r;
  }
  lb_diag_clear(&c->w->diag);
  size_t len = strlen(json);
  return lb_il_call(c, c->name[0] == 'f' ? lb_world_register_finger_pose(c->w, name, json, len)
                                         : lb_world_register_grip_pose(c->w, name, json, len));
}

static lb_result lb_il_op_controller(lb_il *c) {
  uint32_t skeleton = 0, h = 0;
  const char *name = NULL, *json = NULL;
  lb_result r = lb_il_u32(c, 1, &skeleton);
  if (r == LB_OK) {
    r = lb_il_str(c, 2, &name);
  }
  if (r == LB_OK) {
    r = lb_il_str(c, 3, &json);
  }
  if (r == LB_OK) {
    r = lb_il_call(c, lb_world_add_controller_json(c->w, skeleton, name, json, strlen(json), &h));
  }
  return r == LB_OK ? lb_il_same(c, 4, h) : r;
}

static lb_result lb_il_op_humanoid(lb_il *c) {
  lb_humanoid_def d = lb_humanoid_default_def();
  uint32_t naming = 0, h = 0;
  lb_result r = lb_il_f32(c, 1, &d.height);
  if (r == LB_OK) {
    r = lb_il_u32(c, 2, &naming);
  }
  if (r == LB_OK) {
    d.naming = (lb_humanoid_naming)naming;
    r = lb_il_call(c, lb_world_add_humanoid(c->w, &d, &h));
  }
  return r == LB_OK ? lb_il_same(c, 3, h) : r;
}

static lb_result lb_il_op_mesh(lb_il *c) {
  lb_mesh_def d = lb_mesh_default_def();
  float *p = NULL;
  uint32_t *idx = NULL, n = 0, h = 0;
  lb_result r = lb_il_array(c, 1, 'f', (void **)&p, &n);
  d.vertex_count = n / 3u;
  if (r == LB_OK) {
    r = lb_il_array(c, 2, 'u', (void **)&idx, &d.index_count);
  }
  if (r == LB_OK) {
    d.positions = p;
    d.indices = idx;
    r = lb_il_call(c, lb_world_add_mesh(c->w, &d, &h));
  }
  lb_free(c->w, p);
  lb_free(c->w, idx);
  return r == LB_OK ? lb_il_same(c, 3, h) : r;
}

static lb_result lb_il_op_navmesh(lb_il *c) {
  lb_navmesh_def d;
  memset(&d, 0, sizeof d);
  const char *name = NULL;
  void *v = NULL, *counts = NULL, *idx = NULL, *nei = NULL;
  uint32_t nv = 0, ni = 0, nn = 0, h = 0;
  lb_result r = lb_il_str(c, 1, &name);
  if (r == LB_OK) {
    r = lb_il_array(c, 2, 'f', &v, &nv);
  }
  if (r == LB_OK) {
    r = lb_il_array(c, 3, 'b', &counts, &d.polygon_count);
  }
  if (r == LB_OK) {
    r = lb_il_array(c, 4, 'u', &idx, &ni);
  }
  if (r == LB_OK) {
    r = lb_il_array(c, 5, 'i', &nei, &nn);
  }
  uint32_t sum = 0;
  for (uint32_t i = 0; r == LB_OK && i < d.polygon_count; ++i) {
    sum += ((const uint8_t *)counts)[i];
  }
  if (r == LB_OK && (sum != ni || nn != ni || nv % 3u != 0)) {
    r = lb_il_bad(c, 4, "one vertex index and one neighbour per polygon edge");
  }
  if (r == LB_OK) {
    d.vertices = v;
    d.vertex_count = nv / 3u;
    d.counts = counts;
    d.indices = idx;
    d.neighbours = nei;
    r = lb_il_call(c, lb_world_add_navmesh(c->w, name, &d, &h));
  }
  lb_free(c->w, v);
  lb_free(c->w, counts);
  lb_free(c->w, idx);
  lb_free(c->w, nei);
  return r == LB_OK ? lb_il_same(c, 6, h) : r;
}

static lb_result lb_il_op_navmesh_json(lb_il *c) {
  const char *name = NULL, *json = NULL;
  uint32_t h = 0;
  lb_result r = lb_il_str(c, 1, &name);
  if (r == LB_OK) {
    r = lb_il_str(c, 2, &json);
  }
  if (r == LB_OK) {
    r = lb_il_call(c, lb_world_add_navmesh_json(c->w, name, json, strlen(json), &h));
  }
  return r == LB_OK ? lb_il_same(c, 3, h) : r;
}

/* ---- scenes ----------------------------------------------------------------------------- */

static int lb_il_b64(char ch) {
  if (ch >= 'A' && ch <= 'Z') {
    return ch - 'A';
  }
  if (ch >= 'a' && ch <= 'z') {
    return ch - 'a' + 26;
  }
  if (ch >= '0' && ch <= '9') {
    return ch - '0' + 52;
  }
  return ch == '+' ? 62 : ch == '/' ? 63 : -1;
}

/* Standard base64 with padding into `out` (at least 3/4 of the text); false if malformed. */
static bool lb_il_base64(const char *s, uint8_t *out, size_t *n) {
  size_t len = strlen(s), k = 0;
  if (len % 4u != 0) {
    return false;
  }
  for (size_t i = 0; i < len; i += 4) {
    int v[4];
    for (int j = 0; j < 4; ++j) {
      bool pad = s[i + j] == '=' && i + 4 == len && j >= 2 && (j == 3 || s[i + 3] == '=');
      v[j] = pad ? 0 : lb_il_b64(s[i + j]);
      if (v[j] < 0) {
        return false;
      }
    }
    uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
    out[k++] = (uint8_t)(w >> 16);
    if (s[i + 2] != '=') {
      out[k++] = (uint8_t)(w >> 8);
    }
    if (s[i + 3] != '=') {
      out[k++] = (uint8_t)w;
    }
  }
  *n = k;
  return true;
}

static lb_result lb_il_files(lb_il *c, const cJSON *obj, lb_scene_file *files, uint32_t *count) {
  for (const cJSON *f = obj->child; f; f = f->next) {
    uint8_t *bytes =
        cJSON_IsString(f) ? lb_alloc(c->w, strlen(f->valuestring) / 4u * 3u + 1u) : NULL;
    size_t n = 0;
    if (!bytes || !lb_il_base64(f->valuestring, bytes, &n)) {
      lb_free(c->w, bytes);
      return lb_fail(c->w, LB_ERR_PARSE,
                     "input log: ops[%u] ('scene'): file '%s' must be base64 text", c->index,
                     f->string);
    }
    files[*count].path = f->string;
    files[*count].bytes = bytes;
    files[(*count)++].size = n;
  }
  return LB_OK;
}

static lb_result lb_il_op_scene_load(lb_il *c) {
  const char *json = NULL;
  lb_result r = lb_il_str(c, 1, &json);
  const cJSON *obj = lb_il_item(c, 2);
  if (r == LB_OK && !cJSON_IsObject(obj)) {
    r = lb_il_bad(c, 2, "an object of path: base64 bytes");
  }
  if (r == LB_OK && c->scene_count >= LB_INPUT_LOG_SCENES_MAX) {
    r = lb_fail(c->w, LB_ERR_CAPACITY, "input log: ops[%u]: more than %d scenes", c->index,
                LB_INPUT_LOG_SCENES_MAX);
  }
  int nf = r == LB_OK ? cJSON_GetArraySize(obj) : 0;
  lb_scene_file *files = r == LB_OK ? lb_alloc_array(c->w, (size_t)nf + 1u, sizeof *files) : NULL;
  uint32_t count = 0;
  if (r == LB_OK) {
    r = files ? lb_il_files(c, obj, files, &count)
              : lb_fail(c->w, LB_ERR_OUT_OF_MEMORY, "input log: out of memory");
  }
  lb_scene *s = NULL;
  if (r == LB_OK) {
    r = lb_il_call(c, lb_scene_load_files(c->w, json, strlen(json), files, count, &s));
  }
  if (r == LB_OK) {
    c->scenes[c->scene_count++] = s;
  }
  for (uint32_t i = 0; i < count; ++i) {
    lb_free(c->w, (void *)files[i].bytes);
  }
  lb_free(c->w, files);
  return r;
}

static lb_result lb_il_op_scene_unload(lb_il *c) {
  lb_scene *s = NULL;
  uint32_t k = 0;
  lb_result r = lb_il_scene(c, 1, &s);
  if (r == LB_OK) {
    lb_il_u32(c, 1, &k);
    lb_scene_unload(c->w, s);
    c->scenes[k] = NULL;
    if (k < c->caller_scenes) {
      c->caller[k] = NULL;
    }
  }
  return r;
}

/* ---- the log ---------------------------------------------------------------------------- */

typedef struct lb_il_op_def {
  const char *name;
  int items; /* array length including the name */
  lb_result (*run)(lb_il *c);
} lb_il_op_def;

static const lb_il_op_def lb_il_ops[] = {
    {"step", 3, lb_il_op_step},
    {"sceneStep", 4, lb_il_op_scene_step},
    {"spawn", 2, lb_il_op_spawn},
    {"despawn", 2, lb_il_op_despawn},
    {"insert", 4, lb_il_op_insert},
    {"set", 4, lb_il_op_set},
    {"remove", 3, lb_il_op_remove},
    {"float", 4, lb_il_op_param},
    {"bool", 4, lb_il_op_param},
    {"trigger", 4, lb_il_op_param},
    {"damp", 5, lb_il_op_param},
    {"move", 5, lb_il_op_move},
    {"vault", 2, lb_il_op_vault},
    {"pose", 3, lb_il_op_pose},
    {"fingerPose", 3, lb_il_op_register},
    {"gripPose", 3, lb_il_op_register},
    {"controller", 5, lb_il_op_controller},
    {"humanoid", 4, lb_il_op_humanoid},
    {"mesh", 4, lb_il_op_mesh},
    {"navmesh", 7, lb_il_op_navmesh},
    {"navmeshJson", 4, lb_il_op_navmesh_json},
    {"scene", 3, lb_il_op_scene_load},
    {"sceneUnload", 2, lb_il_op_scene_unload},
};

static lb_result lb_il_run_op(lb_il *c, const cJSON *op) {
  const cJSON *name = cJSON_GetArrayItem(op, 0);
  c->op = op;
  c->name = "?";
  lb_diag_clear(&c->w->diag);
  if (!cJSON_IsArray(op) || !cJSON_IsString(name)) {
    return lb_fail(c->w, LB_ERR_PARSE, "input log: ops[%u] must be an array [op, ...]", c->index);
  }
  c->name = name->valuestring;
  for (size_t i = 0; i < sizeof lb_il_ops / sizeof lb_il_ops[0]; ++i) {
    if (strcmp(lb_il_ops[i].name, c->name) != 0) {
      continue;
    }
    if (cJSON_GetArraySize(op) != lb_il_ops[i].items) {
      return lb_fail(c->w, LB_ERR_PARSE, "input log: ops[%u] ('%s') must have %d items, has %d",
                     c->index, c->name, lb_il_ops[i].items, cJSON_GetArraySize(op));
    }
    return lb_il_ops[i].run(c);
  }
  return lb_fail(c->w, LB_ERR_PARSE, "input log: ops[%u]: unknown op '%s'", c->index, c->name);
}

/* format, version and the world against "start". */
static lb_result lb_il_header(lb_world *w, const cJSON *root) {
  const cJSON *format = cJSON_GetObjectItemCaseSensitive(root, "format");
  const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "version");
  const cJSON *start = cJSON_GetObjectItemCaseSensitive(root, "start");
  const cJSON *steps = cJSON_GetObjectItemCaseSensitive(start, "steps");
  const cJSON *hash = cJSON_GetObjectItemCaseSensitive(start, "hash");
  if (!cJSON_IsString(format) || strcmp(format->valuestring, "limber-input-log") != 0) {
    return lb_fail(w, LB_ERR_PARSE, "input log: 'format' must be \"limber-input-log\"");
  }
  if (!cJSON_IsNumber(version) || version->valuedouble != LB_INPUT_LOG_VERSION) {
    return lb_fail(w, LB_ERR_PARSE, "input log: 'version' is %g; this build reads version %d",
                   cJSON_IsNumber(version) ? version->valuedouble : -1.0, LB_INPUT_LOG_VERSION);
  }
  if (!cJSON_IsNumber(steps) || !cJSON_IsString(hash) ||
      !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "ops"))) {
    return lb_fail(w, LB_ERR_PARSE, "input log: needs 'start': { steps, hash } and 'ops': [ ... ]");
  }
  char now[17];
  lb_snprintf(now, sizeof now, "%016llx", (unsigned long long)lb_world_hash(w));
  if ((double)lb_world_step_count(w) != steps->valuedouble || strcmp(now, hash->valuestring) != 0) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                   "input log: the world is at step %llu with hash %s; the log starts at step %g "
                   "with hash %s (set the world up as the recorded one was when recording began)",
                   (unsigned long long)lb_world_step_count(w), now, steps->valuedouble,
                   hash->valuestring);
  }
  return LB_OK;
}

lb_result lb_input_log_replay(lb_world *world, lb_scene **scenes, uint32_t scene_count,
                              const char *json, size_t len, lb_input_log_step_fn on_step,
                              void *user) {
  if (!world || !json || (scene_count && !scenes) || scene_count > LB_INPUT_LOG_SCENES_MAX) {
    return world ? lb_fail(world, LB_ERR_INVALID_ARGUMENT, "input log: null or too many arguments")
                 : LB_ERR_INVALID_ARGUMENT;
  }
  lb_json_error jerr;
  cJSON *root = lb_json_parse(json, len, &jerr);
  if (!root) {
    return lb_fail(world, LB_ERR_PARSE, "input log: %s", jerr.what);
  }
  lb_il c = {.w = world,
             .caller = scenes,
             .scene_count = scene_count,
             .caller_scenes = scene_count,
             .on_step = on_step,
             .user = user};
  c.scenes = lb_alloc_array(world, LB_INPUT_LOG_SCENES_MAX, sizeof *c.scenes);
  lb_result r = c.scenes ? lb_il_header(world, root)
                         : lb_fail(world, LB_ERR_OUT_OF_MEMORY, "input log: out of memory");
  for (uint32_t i = 0; r == LB_OK && i < scene_count; ++i) {
    c.scenes[i] = scenes[i];
  }
  const cJSON *ops = cJSON_GetObjectItemCaseSensitive(root, "ops");
  for (const cJSON *op = r == LB_OK ? ops->child : NULL; op && r == LB_OK; op = op->next) {
    r = lb_il_run_op(&c, op);
    c.index++;
  }
  for (uint32_t i = c.caller_scenes; c.scenes && i < c.scene_count; ++i) {
    if (c.scenes[i]) {
      lb_scene_destroy(world, c.scenes[i]);
    }
  }
  lb_free(world, c.scenes);
  cJSON_Delete(root);
  return r;
}
