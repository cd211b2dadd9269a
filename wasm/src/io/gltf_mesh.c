/* glTF mesh nodes as collision meshes: the triangles of each node's mesh, in the file's
 * world frame (node transforms applied), added through the collide module's public API. */
#include "../base/format.h"
#include "../world/world_core.h"
#include "gltf_internal.h"
#include "limber/collide.h"
#include <string.h>

/* World transform of a node: its parents' rest TRS composed from the root down. */
static lb_result lb_gm_node_world(gltf_ctx *c, uint32_t node, lb_transform *out) {
  uint32_t chain[64], n = 0;
  for (int32_t i = (int32_t)node; i >= 0; i = c->nodes[i].parent) {
    if (n == 64) {
      return gltf_fail(c, LB_ERR_CAPACITY, "node %u: more than 64 levels of parents", node);
    }
    chain[n++] = (uint32_t)i;
  }
  lb_transform_identity(out);
  while (n > 0) {
    const lb_transform *local = NULL;
    lb_result r = gltf_node_rest(c, chain[--n], &local);
    if (r != LB_OK) {
      return r;
    }
    lb_transform next;
    lb_transform_mul(out, local, &next);
    *out = next;
  }
  return LB_OK;
}

typedef struct gm_buffers {
  float *pos;
  uint32_t *idx;
  uint32_t nv, ni, cap_v, cap_i;
} gm_buffers;

static lb_result lb_gm_primitive(gltf_ctx *c, const cJSON *prim, const char *where,
                                 const lb_transform *xf, gm_buffers *b) {
  const cJSON *mode = cJSON_GetObjectItemCaseSensitive(prim, "mode");
  if (mode && (!cJSON_IsNumber(mode) || mode->valuedouble != 4.0)) {
    return gltf_fail(c, LB_ERR_INVALID_ARGUMENT,
                     "%s: only TRIANGLES primitives (mode 4) are "
                     "collision meshes",
                     where);
  }
  const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(prim, "attributes");
  uint32_t pa = 0, ia = 0;
  bool has_idx = cJSON_GetObjectItemCaseSensitive(prim, "indices") != NULL;
  lb_result r = gltf_json_index(c, attrs, "POSITION", true, c->accessor_count, where, &pa);
  if (r == LB_OK && has_idx) {
    r = gltf_json_index(c, prim, "indices", true, c->accessor_count, where, &ia);
  }
  gltf_accessor pacc, iacc;
  if (r == LB_OK) {
    r = gltf_accessor_get(c, pa, where, &pacc);
  }
  if (r == LB_OK && (pacc.comps != 3 || pacc.comp_type != GLTF_FLOAT)) {
    r = gltf_fail(c, LB_ERR_PARSE, "%s: POSITION must be float VEC3", where);
  }
  if (r == LB_OK && has_idx) {
    r = gltf_accessor_get(c, ia, where, &iacc);
    if (r == LB_OK && (iacc.comps != 1 || (iacc.comp_type != GLTF_UNSIGNED_BYTE &&
                                           iacc.comp_type != GLTF_UNSIGNED_SHORT &&
                                           iacc.comp_type != GLTF_UNSIGNED_INT))) {
      r = gltf_fail(c, LB_ERR_PARSE, "%s: indices must be unsigned SCALAR", where);
    }
  }
  if (r != LB_OK) {
    return r;
  }
  uint32_t nv = pacc.count, ni = has_idx ? iacc.count : nv;
  if (ni % 3u != 0 || (uint64_t)b->nv + nv > LB_MESH_MAX_TRIANGLES * 3ull ||
      (uint64_t)b->ni + ni > LB_MESH_MAX_TRIANGLES * 3ull) {
    return gltf_fail(c, LB_ERR_INVALID_ARGUMENT,
                     "%s: %u indices (a multiple of 3 and at most %u triangles are needed)", where,
                     ni, LB_MESH_MAX_TRIANGLES);
  }
  float *pos = gltf_arena_array(&c->scratch, 3u * ((size_t)b->nv + nv), sizeof(float));
  uint32_t *idx = gltf_arena_array(&c->scratch, (size_t)b->ni + ni + 1u, sizeof(uint32_t));
  float *raw = gltf_arena_array(&c->scratch, 3u * (size_t)nv + 1u, sizeof(float));
  float *iraw = has_idx ? gltf_arena_array(&c->scratch, (size_t)ni + 1u, sizeof(float)) : NULL;
  if (!pos || !idx || !raw || (has_idx && !iraw)) {
    return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory");
  }
  r = gltf_accessor_floats(c, &pacc, where, raw);
  if (r == LB_OK && has_idx) {
    r = gltf_accessor_floats(c, &iacc, where, iraw);
  }
  if (r != LB_OK) {
    return r;
  }
  if (b->nv) {
    memcpy(pos, b->pos, 3u * (size_t)b->nv * sizeof(float));
    memcpy(idx, b->idx, (size_t)b->ni * sizeof(uint32_t));
  }
  for (uint32_t v = 0; v < nv; ++v) {
    lb_transform_point(xf, raw + 3u * v, pos + 3u * ((size_t)b->nv + v));
  }
  for (uint32_t i = 0; i < ni; ++i) {
    /* Index values below 2^24 are exact as floats; larger meshes are refused above. */
    uint32_t k = has_idx ? (uint32_t)iraw[i] : i;
    if (k >= nv) {
      return gltf_fail(c, LB_ERR_PARSE, "%s: index %u = %u is out of range (%u vertices)", where, i,
                       k, nv);
    }
    idx[b->ni + i] = b->nv + k;
  }
  b->pos = pos; /* the scratch arena frees the older copies with the import */
  b->idx = idx;
  b->nv += nv;
  b->ni += ni;
  return LB_OK;
}

/* *world_message: the error's message is already the world's (lb_world_add_mesh). */
static lb_result lb_gm_add_all(lb_world *w, gltf_ctx *c, lb_gltf_mesh_node *out, uint32_t cap,
                               uint32_t *count, bool *world_message) {
  lb_result r = gltf_read_hierarchy(c);
  const cJSON **meshes = NULL;
  uint32_t mesh_count = 0;
  if (r == LB_OK) {
    r = gltf_json_table(c, "meshes", &meshes, &mesh_count);
  }
  if (r != LB_OK) {
    return r;
  }
  uint32_t n = 0;
  for (uint32_t i = 0; i < c->node_count; ++i) {
    n += cJSON_GetObjectItemCaseSensitive(c->nodes[i].json, "mesh") != NULL;
  }
  *count = n;
  if (n == 0) {
    return gltf_fail(c, LB_ERR_INVALID_ARGUMENT, "the file has no mesh nodes");
  }
  if (n > cap) {
    return gltf_fail(c, LB_ERR_CAPACITY, "%u mesh nodes, room for %u", n, cap);
  }
  uint32_t k = 0;
  for (uint32_t i = 0; i < c->node_count; ++i) {
    const cJSON *nj = c->nodes[i].json;
    if (!cJSON_GetObjectItemCaseSensitive(nj, "mesh")) {
      continue;
    }
    char where[96];
    lb_snprintf(where, sizeof where, "node %u", i);
    uint32_t mi = 0;
    r = gltf_json_index(c, nj, "mesh", true, mesh_count, where, &mi);
    lb_transform xf;
    if (r == LB_OK) {
      r = lb_gm_node_world(c, i, &xf);
    }
    const cJSON *prims =
        r == LB_OK ? cJSON_GetObjectItemCaseSensitive(meshes[mi], "primitives") : NULL;
    if (r == LB_OK && !cJSON_IsArray(prims)) {
      r = gltf_fail(c, LB_ERR_PARSE, "mesh %u: 'primitives' must be an array", mi);
    }
    gm_buffers b = {0};
    int pi = 0;
    for (const cJSON *p = prims ? prims->child : NULL; r == LB_OK && p; p = p->next, ++pi) {
      char pw[96];
      lb_snprintf(pw, sizeof pw, "mesh %u primitive %d", mi, pi);
      r = lb_gm_primitive(c, p, pw, &xf, &b);
    }
    if (r != LB_OK) {
      return r;
    }
    lb_mesh_def md = lb_mesh_default_def();
    md.positions = b.pos;
    md.vertex_count = b.nv;
    md.indices = b.idx;
    md.index_count = b.ni;
    r = lb_world_add_mesh(w, &md, &out[k].mesh);
    if (r != LB_OK) {
      char prefix[96];
      lb_snprintf(prefix, sizeof prefix, "gltf: node %u: ", i);
      *world_message = true;
      return lb_diag_prefix(&w->diag, r, prefix);
    }
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(nj, "name");
    if (cJSON_IsString(name) && name->valuestring[0] &&
        strlen(name->valuestring) < LB_JOINT_NAME_MAX) {
      lb_snprintf(out[k].name, sizeof out[k].name, "%s", name->valuestring);
    } else {
      lb_snprintf(out[k].name, sizeof out[k].name, "node%u", i);
    }
    out[k].node = i;
    k++;
  }
  return LB_OK;
}

lb_result lb_world_add_gltf_meshes(lb_world *w, const lb_gltf_def *def, lb_gltf_mesh_node *out,
                                   uint32_t cap, uint32_t *count) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!def || !count || (cap && !out)) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "gltf meshes: null def, out or count");
  }
  *count = 0;
  gltf_ctx *c = lb_alloc(w, sizeof *c);
  if (!c) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "gltf meshes: out of memory");
  }
  c->scratch.allocator = w->allocator;
  lb_world_mark mark;
  lb_world_assets_mark(w, &mark);
  bool world_message = false;
  lb_result r = gltf_open(c, def);
  if (r == LB_OK) {
    r = lb_gm_add_all(w, c, out, cap, count, &world_message);
  }
  if (r != LB_OK && !world_message) {
    lb_fail(w, r, "%s", c->message);
  }
  if (c->root) {
    cJSON_Delete(c->root);
  }
  gltf_arena_release(&c->scratch);
  lb_free(w, c);
  if (r != LB_OK) {
    lb_world_assets_rollback(w, &mark);
  }
  return r;
}
