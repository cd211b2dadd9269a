/* glTF import entry: the GLB container or JSON text, the JSON helpers, the arena, and the
 * order of the import steps. */
#include "../base/alloc.h"
#include "../base/format.h"
#include "../base/json.h"
#include "gltf_internal.h"
#include <stdlib.h>
#include <string.h>

/* ---- arena --------------------------------------------------------------------------------- */

#define GLTF_BLOCK_MIN (64u * 1024u)
#define GLTF_ALIGN 16u

struct gltf_block {
  gltf_block *next;
  size_t size, used;
};

/* The header is padded so block data keeps 16-byte alignment. */
#define GLTF_BLOCK_HEADER ((sizeof(gltf_block) + GLTF_ALIGN - 1u) & ~(size_t)(GLTF_ALIGN - 1u))

void *gltf_arena_alloc(gltf_arena *a, size_t size) {
  if (size > SIZE_MAX / 2u) {
    return NULL;
  }
  size = (size + GLTF_ALIGN - 1u) & ~(size_t)(GLTF_ALIGN - 1u);
  if (size == 0) {
    size = GLTF_ALIGN;
  }
  gltf_block *b = a->head;
  if (!b || b->size - b->used < size) {
    size_t cap = size > GLTF_BLOCK_MIN ? size : GLTF_BLOCK_MIN;
    b = a->allocator.alloc(GLTF_BLOCK_HEADER + cap, a->allocator.user);
    if (!b) {
      return NULL;
    }
    b->size = cap;
    b->used = 0;
    /* A large one-off block goes behind the head so the head keeps its free space. */
    if (a->head && cap == size) {
      b->next = a->head->next;
      a->head->next = b;
    } else {
      b->next = a->head;
      a->head = b;
    }
  }
  uint8_t *p = (uint8_t *)b + GLTF_BLOCK_HEADER + b->used;
  b->used += size;
  memset(p, 0, size);
  return p;
}

void *gltf_arena_array(gltf_arena *a, size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / 4u / size) {
    return NULL;
  }
  return gltf_arena_alloc(a, count * size);
}

void gltf_arena_release(gltf_arena *a) {
  gltf_block *b = a->head;
  while (b) {
    gltf_block *next = b->next;
    a->allocator.free(b, a->allocator.user);
    b = next;
  }
  a->head = NULL;
}

/* ---- messages and JSON helpers ------------------------------------------------------------- */

lb_result gltf_fail(gltf_ctx *c, lb_result code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = lb_snprintf(c->message, sizeof c->message, "gltf: ");
  lb_vsnprintf(c->message + n, sizeof c->message - (size_t)n, fmt, ap);
  va_end(ap);
  return code;
}

lb_result gltf_json_uint(gltf_ctx *c, const cJSON *obj, const char *key, bool required, double max,
                         const char *where, uint32_t *out) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!j) {
    return required ? gltf_fail(c, LB_ERR_PARSE, "%s: '%s' is missing", where, key) : LB_OK;
  }
  double v = cJSON_IsNumber(j) ? j->valuedouble : -1.0;
  if (!(v >= 0.0 && v <= max) || v != (double)(uint64_t)v) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: '%s' must be an integer in [0, %.0f]", where, key, max);
  }
  *out = (uint32_t)v;
  return LB_OK;
}

lb_result gltf_json_index(gltf_ctx *c, const cJSON *obj, const char *key, bool required,
                          uint32_t limit, const char *where, uint32_t *out) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
  if (!j) {
    return required ? gltf_fail(c, LB_ERR_PARSE, "%s: '%s' is missing", where, key) : LB_OK;
  }
  double v = cJSON_IsNumber(j) ? j->valuedouble : -1.0;
  if (!(v >= 0.0 && v < (double)limit) || v != (double)(uint64_t)v) {
    if (cJSON_IsNumber(j)) {
      return gltf_fail(c, LB_ERR_PARSE, "%s: '%s' = %.17g is not an index below %u", where, key, v,
                       limit);
    }
    return gltf_fail(c, LB_ERR_PARSE, "%s: '%s' is not an index", where, key);
  }
  *out = (uint32_t)v;
  return LB_OK;
}

lb_result gltf_json_floats(gltf_ctx *c, const cJSON *obj, const char *key, uint32_t n,
                           const char *where, float *out, bool *present) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
  *present = j != NULL;
  if (!j) {
    return LB_OK;
  }
  if (!cJSON_IsArray(j) || cJSON_GetArraySize(j) != (int)n) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: '%s' must be an array of %u numbers", where, key, n);
  }
  uint32_t i = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, j) {
    if (!cJSON_IsNumber(e)) {
      return gltf_fail(c, LB_ERR_PARSE, "%s: '%s'[%u] is not a number", where, key, i);
    }
    float f = (float)e->valuedouble;
    if (!lb_is_finite(f)) {
      return gltf_fail(c, LB_ERR_NOT_FINITE, "%s: '%s'[%u] = %g is not a finite float", where, key,
                       i, e->valuedouble);
    }
    out[i++] = f;
  }
  return LB_OK;
}

lb_result gltf_json_table(gltf_ctx *c, const char *key, const cJSON ***out, uint32_t *count) {
  *out = NULL;
  *count = 0;
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(c->root, key);
  if (!j) {
    return LB_OK;
  }
  if (!cJSON_IsArray(j)) {
    return gltf_fail(c, LB_ERR_PARSE, "'%s' is not an array", key);
  }
  int n = cJSON_GetArraySize(j);
  if (n == 0) {
    return LB_OK;
  }
  const cJSON **t = gltf_arena_array(&c->scratch, (size_t)n, sizeof *t);
  if (!t) {
    return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory indexing '%s'", key);
  }
  uint32_t i = 0;
  const cJSON *e;
  cJSON_ArrayForEach(e, j) {
    if (!cJSON_IsObject(e)) {
      return gltf_fail(c, LB_ERR_PARSE, "%s[%u] is not an object", key, i);
    }
    t[i++] = e;
  }
  *out = t;
  *count = i;
  return LB_OK;
}

/* ---- container ----------------------------------------------------------------------------- */

#define GLB_MAGIC 0x46546C67u /* "glTF" */
#define GLB_JSON 0x4E4F534Au  /* "JSON" */
#define GLB_BIN 0x004E4942u   /* "BIN\0" */

static uint32_t lb_rd_u32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static lb_result lb_parse_glb(gltf_ctx *c, const uint8_t *data, size_t size, const uint8_t **json,
                              size_t *json_len) {
  if (size < 12u) {
    return gltf_fail(c, LB_ERR_PARSE, "glb: truncated: %zu bytes, the header needs 12", size);
  }
  uint32_t version = lb_rd_u32(data + 4);
  if (version != 2u) {
    return gltf_fail(c, LB_ERR_PARSE, "glb: version %u, only 2 is supported", version);
  }
  uint32_t length = lb_rd_u32(data + 8);
  if (length > size) {
    return gltf_fail(c, LB_ERR_PARSE, "glb: truncated: the header says %u bytes, %zu given", length,
                     size);
  }
  if (length < size) {
    return gltf_fail(c, LB_ERR_PARSE, "glb: the header says %u bytes but %zu were given", length,
                     size);
  }
  size_t off = 12u;
  for (uint32_t k = 0; off < length; ++k) {
    if (length - off < 8u) {
      return gltf_fail(c, LB_ERR_PARSE, "glb: truncated: chunk %u header at byte %zu", k, off);
    }
    uint32_t clen = lb_rd_u32(data + off), ctype = lb_rd_u32(data + off + 4);
    const char *tname = ctype == GLB_JSON ? "JSON" : (ctype == GLB_BIN ? "BIN" : "unknown");
    if (clen > length - off - 8u) {
      return gltf_fail(c, LB_ERR_PARSE,
                       "glb: chunk %u (%s) length %u exceeds the file (%zu bytes left)", k, tname,
                       clen, length - off - 8u);
    }
    const uint8_t *cdata = data + off + 8u;
    if (k == 0) {
      if (ctype != GLB_JSON) {
        return gltf_fail(c, LB_ERR_PARSE, "glb: chunk 0 is not JSON (type 0x%08x)", ctype);
      }
      *json = cdata;
      *json_len = clen;
    } else if (ctype == GLB_JSON) {
      return gltf_fail(c, LB_ERR_PARSE, "glb: chunk %u is a second JSON chunk", k);
    } else if (ctype == GLB_BIN) {
      if (k != 1u) {
        return gltf_fail(c, LB_ERR_PARSE, "glb: chunk %u: BIN must be the second chunk", k);
      }
      c->bin = cdata;
      c->bin_size = clen;
    }
    /* Chunks start on 4-byte boundaries; a writer that forgot the padding is tolerated. */
    off += 8u + (size_t)clen;
    off = (off + 3u) & ~(size_t)3u;
  }
  if (!*json) {
    return gltf_fail(c, LB_ERR_PARSE, "glb: truncated: no JSON chunk");
  }
  return LB_OK;
}

lb_result gltf_parse_container(gltf_ctx *c, const uint8_t *data, size_t size) {
  const uint8_t *json = NULL;
  size_t json_len = 0;
  if (size >= 4u && lb_rd_u32(data) == GLB_MAGIC) {
    lb_result r = lb_parse_glb(c, data, size, &json, &json_len);
    if (r != LB_OK) {
      return r;
    }
  } else {
    json = data;
    json_len = size;
    if (json_len >= 3u && json[0] == 0xEFu && json[1] == 0xBBu && json[2] == 0xBFu) {
      json += 3; /* UTF-8 byte order mark */
      json_len -= 3u;
    }
    size_t i = 0;
    while (i < json_len &&
           (json[i] == ' ' || json[i] == '\t' || json[i] == '\r' || json[i] == '\n')) {
      ++i;
    }
    if (i == json_len || json[i] != '{') {
      return gltf_fail(c, LB_ERR_PARSE,
                       "not a glTF file: neither the GLB magic 'glTF' nor a JSON object");
    }
  }
  lb_json_error jerr;
  c->root = lb_json_parse((const char *)json, json_len, &jerr);
  if (!c->root) {
    return gltf_fail(c, LB_ERR_PARSE, "%s (JSON)", jerr.what);
  }
  if (!cJSON_IsObject(c->root)) {
    return gltf_fail(c, LB_ERR_PARSE, "the JSON is not an object");
  }
  const cJSON *asset = cJSON_GetObjectItemCaseSensitive(c->root, "asset");
  const cJSON *version = cJSON_GetObjectItemCaseSensitive(asset, "version");
  if (!cJSON_IsObject(asset) || !cJSON_IsString(version)) {
    return gltf_fail(c, LB_ERR_PARSE, "'asset.version' is missing");
  }
  if (strncmp(version->valuestring, "2.", 2) != 0) {
    return gltf_fail(c, LB_ERR_PARSE, "asset.version is '%.16s', only 2.x is supported",
                     version->valuestring);
  }
  /* Required extensions that change how buffer views are read cannot be ignored. */
  const cJSON *req = cJSON_GetObjectItemCaseSensitive(c->root, "extensionsRequired");
  const cJSON *e;
  cJSON_ArrayForEach(e, req) {
    if (cJSON_IsString(e) && strstr(e->valuestring, "meshopt_compression")) {
      return gltf_fail(c, LB_ERR_PARSE, "required extension '%.48s' is not supported",
                       e->valuestring);
    }
  }
  return LB_OK;
}

/* ---- import -------------------------------------------------------------------------------- */

lb_gltf_def lb_gltf_default_def(void) {
  lb_gltf_def d;
  memset(&d, 0, sizeof d);
  d.skin = LB_GLTF_SKIN_AUTO;
  d.names = LB_GLTF_NAMES_SUFFIX;
  lb_clip_reduce_job reduce = lb_clip_reduce_default_job();
  d.key_tolerance = reduce.tolerance;
  d.skin_distance = reduce.skin_distance;
  return d;
}

static lb_result lb_check_def(gltf_ctx *c, const lb_gltf_def *d) {
  if (!d->data || d->size == 0) {
    return gltf_fail(c, LB_ERR_INVALID_ARGUMENT, "def: 'data' is null or 'size' is 0");
  }
  if (d->buffer_count > 0 && !d->buffers) {
    return gltf_fail(c, LB_ERR_INVALID_ARGUMENT, "def: 'buffers' is null but buffer_count = %u",
                     d->buffer_count);
  }
  for (uint32_t i = 0; i < d->buffer_count; ++i) {
    if (!d->buffers[i].uri || (!d->buffers[i].bytes && d->buffers[i].size > 0)) {
      return gltf_fail(c, LB_ERR_INVALID_ARGUMENT,
                       "def: buffers[%u] needs a uri and bytes (null only when size is 0)", i);
    }
  }
  if (d->skin < LB_GLTF_ALL_NODES) {
    return gltf_fail(c, LB_ERR_INVALID_ARGUMENT, "def: 'skin' = %d is not a skin index, -1 or -2",
                     (int)d->skin);
  }
  if (d->names != LB_GLTF_NAMES_SUFFIX && d->names != LB_GLTF_NAMES_ERROR) {
    return gltf_fail(c, LB_ERR_INVALID_ARGUMENT, "def: 'names' = %d is not an lb_gltf_names",
                     (int)d->names);
  }
  if (!lb_is_finite(d->cubic_tolerance)) {
    return gltf_fail(c, LB_ERR_NOT_FINITE, "def: 'cubic_tolerance' is not finite");
  }
  if (d->cubic_tolerance < 0.0f || d->cubic_tolerance > 1.0f) {
    return gltf_fail(c, LB_ERR_OUT_OF_RANGE, "def: 'cubic_tolerance' = %g is outside [0, 1]",
                     (double)d->cubic_tolerance);
  }
  if (!lb_is_finite(d->key_tolerance) || !lb_is_finite(d->skin_distance)) {
    return gltf_fail(c, LB_ERR_NOT_FINITE, "def: 'key_tolerance' or 'skin_distance' is not finite");
  }
  if (d->key_tolerance < 0.0f || d->key_tolerance > 1.0f || d->skin_distance < 0.0f ||
      d->skin_distance > 100.0f) {
    return gltf_fail(c, LB_ERR_OUT_OF_RANGE,
                     "def: 'key_tolerance' = %g (want [0, 1] m) or 'skin_distance' = %g (want "
                     "[0, 100] m) is out of range",
                     (double)d->key_tolerance, (double)d->skin_distance);
  }
  if ((d->allocator.alloc == NULL) != (d->allocator.free == NULL)) {
    return gltf_fail(c, LB_ERR_INVALID_ARGUMENT, "def: allocator needs both alloc and free");
  }
  return LB_OK;
}

/* The container and the tables every reader needs (accessors, views, buffers): shared by the
 * skeleton and clip import and by the mesh reader. */
static lb_result lb_gltf_read_tables(gltf_ctx *c) {
  lb_result r = gltf_parse_container(c, c->def->data, c->def->size);
  if (r == LB_OK) {
    r = gltf_json_table(c, "accessors", &c->accessors, &c->accessor_count);
  }
  if (r == LB_OK) {
    r = gltf_json_table(c, "bufferViews", &c->views, &c->view_count);
  }
  if (r == LB_OK) {
    r = gltf_json_table(c, "buffers", &c->buffers, &c->buffer_count);
  }
  if (r == LB_OK && c->buffer_count > 0) {
    c->buffer_state = gltf_arena_array(&c->scratch, c->buffer_count, sizeof *c->buffer_state);
    if (!c->buffer_state) {
      r = gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory");
    }
  }
  return r;
}

static lb_result lb_import_steps(gltf_ctx *c) {
  lb_result r = lb_gltf_read_tables(c);
  if (r == LB_OK) {
    r = gltf_json_table(c, "skins", &c->skins, &c->skin_count);
  }
  if (r == LB_OK) {
    r = gltf_json_table(c, "animations", &c->animations, &c->animation_count);
  }
  if (r == LB_OK) {
    r = gltf_build_skeleton(c);
  }
  if (r == LB_OK) {
    r = gltf_build_clips(c);
  }
  return r;
}

lb_result gltf_open(gltf_ctx *c, const lb_gltf_def *def) {
  c->def = def;
  lb_result r = lb_check_def(c, def);
  if (r == LB_OK) {
    r = lb_gltf_read_tables(c);
  }
  return r;
}

lb_result lb_gltf_import(const lb_gltf_def *def, lb_gltf_asset **out, char *message,
                         size_t message_size) {
  if (message && message_size > 0) {
    message[0] = 0;
  }
  gltf_ctx *c = NULL;
  lb_result r = LB_OK;
  lb_allocator al = lb_allocator_default();
  if (def && def->allocator.alloc && def->allocator.free) {
    al = def->allocator;
  }
  /* The context is large (message, tables); keep it off the wasm stack. */
  c = al.alloc(sizeof *c, al.user);
  if (!c) {
    if (message && message_size > 0) {
      lb_snprintf(message, message_size, "gltf: out of memory");
    }
    return LB_ERR_OUT_OF_MEMORY;
  }
  memset(c, 0, sizeof *c);
  gltf_arena asset_arena = {al, NULL};
  c->scratch.allocator = al;
  c->out = &asset_arena;
  if (!out || !def) {
    r = gltf_fail(c, LB_ERR_INVALID_ARGUMENT, "null def or out");
  } else {
    *out = NULL;
    c->def = def;
    r = lb_check_def(c, def);
  }
  gltf_arena *slot = NULL;
  if (r == LB_OK) {
    c->asset = gltf_arena_alloc(&asset_arena, sizeof *c->asset);
    slot = gltf_arena_alloc(&asset_arena, sizeof *slot);
    if (!c->asset || !slot) {
      r = gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory");
    }
  }
  if (r == LB_OK) {
    r = lb_import_steps(c);
  }
  if (c->root) {
    cJSON_Delete(c->root);
  }
  gltf_arena_release(&c->scratch);
  if (r == LB_OK) {
    *slot = asset_arena; /* every block is allocated by now; the head no longer changes */
    c->asset->internal_ = slot;
    *out = c->asset;
  } else {
    gltf_arena_release(&asset_arena);
    if (message && message_size > 0) {
      lb_snprintf(message, message_size, "%s", c->message);
    }
  }
  al.free(c, al.user);
  return r;
}

void lb_gltf_free(lb_gltf_asset *asset) {
  if (!asset || !asset->internal_) {
    return;
  }
  gltf_arena a = *(gltf_arena *)asset->internal_;
  gltf_arena_release(&a);
}
