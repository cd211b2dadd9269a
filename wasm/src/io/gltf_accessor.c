/* Buffers (GLB BIN chunk, base64 data: URIs, caller-passed external bytes), buffer views and
 * accessors, each bounds-checked before a byte is read. Multi-byte values are assembled
 * little-endian explicitly, so reads are alignment-free and host-independent. */
#include "../base/format.h"
#include "gltf_internal.h"
#include <string.h>

/* ---- base64 -------------------------------------------------------------------------------- */

static int lb_b64_value(uint8_t ch) {
  if (ch >= 'A' && ch <= 'Z') {
    return ch - 'A';
  }
  if (ch >= 'a' && ch <= 'z') {
    return ch - 'a' + 26;
  }
  if (ch >= '0' && ch <= '9') {
    return ch - '0' + 52;
  }
  if (ch == '+') {
    return 62;
  }
  if (ch == '/') {
    return 63;
  }
  return -1;
}

/* Decodes src[0..n) (padding optional). Returns the decoded length, or SIZE_MAX when a
 * character is not base64. With out null only counts and checks. */
static size_t lb_b64_decode(const uint8_t *src, size_t n, uint8_t *out) {
  while (n > 0 && src[n - 1] == '=') {
    --n;
  }
  if (n % 4u == 1u) {
    return SIZE_MAX; /* a lone sextet cannot end a byte */
  }
  size_t o = 0;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < n; ++i) {
    int v = lb_b64_value(src[i]);
    if (v < 0) {
      return SIZE_MAX;
    }
    acc = (acc << 6) | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      if (out) {
        out[o] = (uint8_t)(acc >> bits);
      }
      ++o;
      acc &= (1u << bits) - 1u;
    }
  }
  return o;
}

/* ---- buffers ------------------------------------------------------------------------------- */

static lb_result lb_buffer_resolve(gltf_ctx *c, uint32_t index, const gltf_buffer_state **out) {
  gltf_buffer_state *st = &c->buffer_state[index];
  *out = st;
  if (st->resolved) {
    return LB_OK;
  }
  const cJSON *b = c->buffers[index];
  char where[32];
  lb_snprintf(where, sizeof where, "buffer %u", index);
  uint32_t byte_length = 0;
  lb_result r = gltf_json_uint(c, b, "byteLength", true, 4294967295.0, where, &byte_length);
  if (r != LB_OK) {
    return r;
  }
  if (byte_length == 0) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: 'byteLength' must be >= 1", where);
  }
  const cJSON *uri = cJSON_GetObjectItemCaseSensitive(b, "uri");
  if (uri && !cJSON_IsString(uri)) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: 'uri' is not a string", where);
  }
  if (!uri) {
    if (index != 0 || !c->bin) {
      return gltf_fail(c, LB_ERR_PARSE, "%s has no uri and %s", where,
                       index != 0 ? "only buffer 0 may use the GLB BIN chunk"
                                  : "the file has no GLB BIN chunk");
    }
    if (c->bin_size < byte_length) {
      return gltf_fail(c, LB_ERR_PARSE, "%s: byteLength %u exceeds the BIN chunk (%zu bytes)",
                       where, byte_length, c->bin_size);
    }
    st->data = c->bin;
  } else if (strncmp(uri->valuestring, "data:", 5) == 0) {
    const char *s = uri->valuestring;
    const char *comma = strchr(s, ',');
    if (!comma || comma - s < 12 || strncmp(comma - 7, ";base64", 7) != 0) {
      return gltf_fail(c, LB_ERR_PARSE, "%s: data URI is not base64 (';base64,' expected)", where);
    }
    const uint8_t *src = (const uint8_t *)comma + 1;
    size_t n = strlen(comma + 1);
    size_t len = lb_b64_decode(src, n, NULL);
    if (len == SIZE_MAX) {
      return gltf_fail(c, LB_ERR_PARSE, "%s: data URI has a character that is not base64", where);
    }
    if (len < byte_length) {
      return gltf_fail(c, LB_ERR_PARSE, "%s: data URI holds %zu bytes, byteLength is %u", where,
                       len, byte_length);
    }
    uint8_t *dst = gltf_arena_alloc(&c->scratch, len);
    if (!dst) {
      return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "%s: out of memory decoding %zu bytes", where, len);
    }
    lb_b64_decode(src, n, dst);
    st->data = dst;
  } else {
    const lb_gltf_buffer *ext = NULL;
    for (uint32_t i = 0; i < c->def->buffer_count && !ext; ++i) {
      if (strcmp(c->def->buffers[i].uri, uri->valuestring) == 0) {
        ext = &c->def->buffers[i];
      }
    }
    if (!ext) {
      return gltf_fail(c, LB_ERR_UNKNOWN_NAME,
                       "%s: external uri '%.64s' was not passed in def.buffers", where,
                       uri->valuestring);
    }
    if (ext->size < byte_length) {
      return gltf_fail(c, LB_ERR_PARSE, "%s ('%.64s'): %zu bytes passed, byteLength is %u", where,
                       uri->valuestring, ext->size, byte_length);
    }
    st->data = ext->bytes;
  }
  st->size = byte_length;
  st->resolved = true;
  return LB_OK;
}

/* ---- buffer views -------------------------------------------------------------------------- */

typedef struct gltf_view {
  const uint8_t *data;
  size_t size;
  uint32_t stride; /* 0 = tightly packed */
} gltf_view;

static lb_result lb_view_resolve(gltf_ctx *c, uint32_t index, gltf_view *out) {
  const cJSON *v = c->views[index];
  char where[32];
  lb_snprintf(where, sizeof where, "bufferView %u", index);
  uint32_t buffer = 0, offset = 0, length = 0, stride = 0;
  lb_result r = gltf_json_index(c, v, "buffer", true, c->buffer_count, where, &buffer);
  if (r == LB_OK) {
    r = gltf_json_uint(c, v, "byteOffset", false, 4294967295.0, where, &offset);
  }
  if (r == LB_OK) {
    r = gltf_json_uint(c, v, "byteLength", true, 4294967295.0, where, &length);
  }
  if (r == LB_OK) {
    r = gltf_json_uint(c, v, "byteStride", false, 252.0, where, &stride);
  }
  if (r != LB_OK) {
    return r;
  }
  if (length == 0) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: 'byteLength' must be >= 1", where);
  }
  if (cJSON_GetObjectItemCaseSensitive(v, "byteStride") && (stride < 4u || stride % 4u != 0)) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: 'byteStride' %u is not a multiple of 4 in [4, 252]",
                     where, stride);
  }
  const gltf_buffer_state *b = NULL;
  r = lb_buffer_resolve(c, buffer, &b);
  if (r != LB_OK) {
    return r;
  }
  if ((uint64_t)offset + length > b->size) {
    return gltf_fail(c, LB_ERR_PARSE,
                     "%s: byteOffset %u + byteLength %u exceeds buffer %u (%zu bytes)", where,
                     offset, length, buffer, b->size);
  }
  out->data = b->data + offset;
  out->size = length;
  out->stride = stride;
  return LB_OK;
}

/* ---- accessors ----------------------------------------------------------------------------- */

static uint32_t lb_comp_size(uint32_t type) {
  switch (type) {
  case GLTF_BYTE:
  case GLTF_UNSIGNED_BYTE:
    return 1;
  case GLTF_SHORT:
  case GLTF_UNSIGNED_SHORT:
    return 2;
  case GLTF_UNSIGNED_INT:
  case GLTF_FLOAT:
    return 4;
  default:
    return 0;
  }
}

static const struct {
  const char *name;
  uint32_t comps, cols;
} gltf_types[] = {{"SCALAR", 1, 1}, {"VEC2", 2, 1}, {"VEC3", 3, 1}, {"VEC4", 4, 1},
                  {"MAT2", 4, 2},   {"MAT3", 9, 3}, {"MAT4", 16, 4}};

const char *gltf_type_name(uint32_t comps) {
  for (size_t i = 0; i < sizeof gltf_types / sizeof gltf_types[0]; ++i) {
    if (gltf_types[i].comps == comps) {
      return gltf_types[i].name;
    }
  }
  return "?";
}

/* Matrix columns start on 4-byte boundaries (MAT2/MAT3 of bytes or shorts are padded). */
static uint32_t lb_element_size(uint32_t comps, uint32_t cols, uint32_t csize) {
  uint32_t rows = comps / cols;
  uint32_t col_bytes = rows * csize;
  if (cols > 1u) {
    col_bytes = (col_bytes + 3u) & ~3u;
  }
  return col_bytes * cols;
}

static lb_result lb_sparse_resolve(gltf_ctx *c, const cJSON *sp, const char *where,
                                   uint32_t elem_size, gltf_accessor *a) {
  char w2[192];
  uint32_t count = 0, view = 0, offset = 0, itype = 0;
  lb_result r = gltf_json_uint(c, sp, "count", true, (double)a->count, where, &count);
  if (r != LB_OK) {
    return r;
  }
  if (count == 0) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: sparse 'count' must be >= 1", where);
  }
  const cJSON *ind = cJSON_GetObjectItemCaseSensitive(sp, "indices");
  const cJSON *val = cJSON_GetObjectItemCaseSensitive(sp, "values");
  if (!cJSON_IsObject(ind) || !cJSON_IsObject(val)) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: sparse needs 'indices' and 'values' objects", where);
  }
  lb_snprintf(w2, sizeof w2, "%s sparse indices", where);
  r = gltf_json_index(c, ind, "bufferView", true, c->view_count, w2, &view);
  if (r == LB_OK) {
    r = gltf_json_uint(c, ind, "byteOffset", false, 4294967295.0, w2, &offset);
  }
  if (r == LB_OK) {
    r = gltf_json_uint(c, ind, "componentType", true, 65535.0, w2, &itype);
  }
  if (r != LB_OK) {
    return r;
  }
  if (itype != GLTF_UNSIGNED_BYTE && itype != GLTF_UNSIGNED_SHORT && itype != GLTF_UNSIGNED_INT) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: componentType %u is not an unsigned integer type", w2,
                     itype);
  }
  gltf_view v;
  r = lb_view_resolve(c, view, &v);
  if (r != LB_OK) {
    return r;
  }
  if ((uint64_t)offset + (uint64_t)count * lb_comp_size(itype) > v.size) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: offset + size exceeds bufferView %u", w2, view);
  }
  a->sparse_indices = v.data + offset;
  a->sparse_index_type = itype;
  lb_snprintf(w2, sizeof w2, "%s sparse values", where);
  offset = 0;
  r = gltf_json_index(c, val, "bufferView", true, c->view_count, w2, &view);
  if (r == LB_OK) {
    r = gltf_json_uint(c, val, "byteOffset", false, 4294967295.0, w2, &offset);
  }
  if (r == LB_OK) {
    r = lb_view_resolve(c, view, &v);
  }
  if (r != LB_OK) {
    return r;
  }
  if ((uint64_t)offset + (uint64_t)count * elem_size > v.size) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: offset + size exceeds bufferView %u", w2, view);
  }
  a->sparse_values = v.data + offset;
  a->sparse_count = count;
  return LB_OK;
}

/* The accessor's element layout: component type, count, byte offset, type, normalized; the
 * element's size in bytes (unpadded layouts only). */
static lb_result lb_accessor_layout(gltf_ctx *c, const cJSON *j, const char *where,
                                    gltf_accessor *out, uint32_t *offset, uint32_t *esize) {
  uint32_t ctype = 0, count = 0;
  lb_result r = gltf_json_uint(c, j, "componentType", true, 65535.0, where, &ctype);
  if (r == LB_OK) {
    r = gltf_json_uint(c, j, "count", true, 4294967295.0, where, &count);
  }
  if (r == LB_OK) {
    r = gltf_json_uint(c, j, "byteOffset", false, 4294967295.0, where, offset);
  }
  if (r != LB_OK) {
    return r;
  }
  uint32_t csize = lb_comp_size(ctype);
  if (csize == 0) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: componentType %u is not a glTF component type", where,
                     ctype);
  }
  if (count == 0) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: 'count' must be >= 1", where);
  }
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(j, "type");
  uint32_t comps = 0, cols = 1;
  for (size_t i = 0; cJSON_IsString(type) && i < sizeof gltf_types / sizeof gltf_types[0]; ++i) {
    if (strcmp(type->valuestring, gltf_types[i].name) == 0) {
      comps = gltf_types[i].comps;
      cols = gltf_types[i].cols;
    }
  }
  if (comps == 0) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: 'type' is missing or not SCALAR, VEC2..4, MAT2..4",
                     where);
  }
  const cJSON *norm = cJSON_GetObjectItemCaseSensitive(j, "normalized");
  if (norm && !cJSON_IsBool(norm)) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: 'normalized' is not a boolean", where);
  }
  out->normalized = cJSON_IsTrue(norm);
  if (out->normalized && (ctype == GLTF_FLOAT || ctype == GLTF_UNSIGNED_INT)) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: 'normalized' is not allowed for componentType %u", where,
                     ctype);
  }
  out->count = count;
  out->comps = comps;
  out->comp_type = ctype;
  *esize = lb_element_size(comps, cols, csize);
  if (*esize != comps * csize) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: padded %s of %u-byte components is not supported", where,
                     gltf_types[cols - 1u + 3u].name, csize);
  }
  return LB_OK;
}

/* The accessor's bytes in its bufferView (stride, bounds), or none: implicit zeros, which take
 * no offset and at most GLTF_MAX_IMPLICIT elements. */
static lb_result lb_accessor_view(gltf_ctx *c, const cJSON *j, const char *where, uint32_t offset,
                                  uint32_t esize, gltf_accessor *out) {
  uint32_t view = 0, count = out->count;
  lb_result r = gltf_json_index(c, j, "bufferView", false, c->view_count, where, &view);
  if (r != LB_OK) {
    return r;
  }
  if (cJSON_GetObjectItemCaseSensitive(j, "bufferView")) {
    gltf_view v;
    r = lb_view_resolve(c, view, &v);
    if (r != LB_OK) {
      return r;
    }
    size_t stride = v.stride ? v.stride : esize;
    if (stride < esize) {
      return gltf_fail(c, LB_ERR_PARSE, "%s: bufferView %u byteStride %zu < element size %u", where,
                       view, stride, esize);
    }
    uint64_t end = (uint64_t)offset + (uint64_t)stride * (count - 1u) + esize;
    if (end > v.size) {
      return gltf_fail(c, LB_ERR_PARSE,
                       "%s: offset + size exceeds bufferView %u (%llu > %zu bytes)", where, view,
                       (unsigned long long)end, v.size);
    }
    out->data = v.data + offset;
    out->stride = stride;
  } else if (offset != 0) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: 'byteOffset' without a 'bufferView'", where);
  } else if (count > GLTF_MAX_IMPLICIT) {
    return gltf_fail(c, LB_ERR_CAPACITY, "%s: %u elements without a bufferView (limit %u)", where,
                     count, GLTF_MAX_IMPLICIT);
  }
  return LB_OK;
}

lb_result gltf_accessor_get(gltf_ctx *c, uint32_t index, const char *what, gltf_accessor *out) {
  memset(out, 0, sizeof *out);
  out->index = index;
  char where[160];
  lb_snprintf(where, sizeof where, "accessor %u (%s)", index, what);
  if (index >= c->accessor_count) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: there are only %u accessors", where, c->accessor_count);
  }
  const cJSON *j = c->accessors[index];
  uint32_t offset = 0, esize = 0;
  lb_result r = lb_accessor_layout(c, j, where, out, &offset, &esize);
  if (r == LB_OK) {
    r = lb_accessor_view(c, j, where, offset, esize, out);
  }
  if (r != LB_OK) {
    return r;
  }
  const cJSON *sp = cJSON_GetObjectItemCaseSensitive(j, "sparse");
  if (sp) {
    if (!cJSON_IsObject(sp)) {
      return gltf_fail(c, LB_ERR_PARSE, "%s: 'sparse' is not an object", where);
    }
    return lb_sparse_resolve(c, sp, where, esize, out);
  }
  return LB_OK;
}

static uint32_t lb_rd_u32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static float lb_read_component(const uint8_t *p, uint32_t type, bool normalized) {
  switch (type) {
  case GLTF_FLOAT: {
    uint32_t u = lb_rd_u32(p);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
  }
  case GLTF_BYTE: {
    float v = (float)(int8_t)p[0];
    if (!normalized) {
      return v;
    }
    v = v / 127.0f;
    return v < -1.0f ? -1.0f : v;
  }
  case GLTF_UNSIGNED_BYTE:
    return normalized ? (float)p[0] / 255.0f : (float)p[0];
  case GLTF_SHORT: {
    float v = (float)(int16_t)(uint16_t)(p[0] | (p[1] << 8));
    if (!normalized) {
      return v;
    }
    v = v / 32767.0f;
    return v < -1.0f ? -1.0f : v;
  }
  case GLTF_UNSIGNED_SHORT: {
    float v = (float)(uint16_t)(p[0] | (p[1] << 8));
    return normalized ? v / 65535.0f : v;
  }
  default: /* GLTF_UNSIGNED_INT, never normalised */
    return (float)lb_rd_u32(p);
  }
}

static uint32_t lb_read_index(const uint8_t *p, uint32_t type) {
  if (type == GLTF_UNSIGNED_BYTE) {
    return p[0];
  }
  if (type == GLTF_UNSIGNED_SHORT) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8);
  }
  return lb_rd_u32(p);
}

lb_result gltf_accessor_floats(gltf_ctx *c, const gltf_accessor *a, const char *what, float *out) {
  uint32_t csize = lb_comp_size(a->comp_type);
  uint32_t n = a->comps;
  for (uint32_t i = 0; i < a->count; ++i) {
    float *o = out + (size_t)i * n;
    if (!a->data) {
      for (uint32_t k = 0; k < n; ++k) {
        o[k] = 0.0f;
      }
      continue;
    }
    const uint8_t *e = a->data + (size_t)i * a->stride;
    for (uint32_t k = 0; k < n; ++k) {
      o[k] = lb_read_component(e + (size_t)k * csize, a->comp_type, a->normalized);
    }
  }
  size_t esize = (size_t)n * csize;
  uint32_t isize = a->sparse_index_type == GLTF_UNSIGNED_BYTE
                       ? 1u
                       : (a->sparse_index_type == GLTF_UNSIGNED_SHORT ? 2u : 4u);
  for (uint32_t s = 0; s < a->sparse_count; ++s) {
    uint32_t idx = lb_read_index(a->sparse_indices + (size_t)s * isize, a->sparse_index_type);
    uint32_t prev =
        s > 0 ? lb_read_index(a->sparse_indices + (size_t)(s - 1u) * isize, a->sparse_index_type)
              : 0u;
    if (idx >= a->count || (s > 0 && idx <= prev)) {
      return gltf_fail(c, LB_ERR_PARSE,
                       "accessor %u (%s): sparse index %u = %u is out of range or not increasing",
                       a->index, what, s, idx);
    }
    const uint8_t *e = a->sparse_values + (size_t)s * esize;
    for (uint32_t k = 0; k < n; ++k) {
      out[(size_t)idx * n + k] =
          lb_read_component(e + (size_t)k * csize, a->comp_type, a->normalized);
    }
  }
  for (size_t i = 0; i < (size_t)a->count * n; ++i) {
    if (!lb_is_finite(out[i])) {
      return gltf_fail(c, LB_ERR_NOT_FINITE, "accessor %u (%s): element %zu component %zu is %s",
                       a->index, what, i / n, i % n, out[i] != out[i] ? "NaN" : "infinite");
    }
  }
  return LB_OK;
}
