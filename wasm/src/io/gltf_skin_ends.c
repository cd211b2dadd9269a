/* Where the skinned mesh ends per joint (lb_joint_end), for rigs without end joints (VRM
 * 1.0 has none): a finger's last bone then ends where its mesh does, not at a guessed
 * fraction of the bone before it.
 *
 * Each vertex of a mesh bound to the chosen skin is taken, in the bind pose, into the frame
 * of every joint that holds at least half its weight (JOINTS_0 / WEIGHTS_0), by that joint's
 * inverse bind matrix, so the result is in the joint's own local units and independent of
 * the rest pose (an A-posed rig bound in a T-pose). Per joint: the axis from the joint
 * through the centroid of those vertices (a finger's mesh surrounds its bone, so the
 * centroid lies along it), and the end on that axis as far out as the farthest vertex
 * projects (the fingertip's surface). */
#include "gltf_internal.h"
#include <string.h>

#define GLTF_END_WEIGHT 0.5f /* a vertex belongs to a joint holding at least this weight */

typedef struct gltf_end_acc {
  float sum[3];
  float axis[3];
  float far;
  uint32_t count;
} gltf_end_acc;

typedef struct gltf_skin_prim {
  float *pos, *joints, *weights;
  uint32_t count;
  struct gltf_skin_prim *next;
} gltf_skin_prim;

/* One attribute as floats, or false (message cleared) when it is missing or not `comps`
 * wide or cannot be read: the estimate is optional, the import goes on without it. */
static bool lb_ends_attribute(gltf_ctx *c, const cJSON *attrs, const char *key, uint32_t comps,
                              float **out, uint32_t *count) {
  const cJSON *idx = cJSON_GetObjectItemCaseSensitive(attrs, key);
  gltf_accessor a;
  if (!cJSON_IsNumber(idx) || !(idx->valuedouble >= 0.0) ||
      idx->valuedouble >= (double)c->accessor_count ||
      gltf_accessor_get(c, (uint32_t)idx->valuedouble, key, &a) != LB_OK || a.comps != comps) {
    c->message[0] = 0;
    return false;
  }
  *out = gltf_arena_array(&c->scratch, (size_t)a.count * comps, sizeof(float));
  if (!*out || gltf_accessor_floats(c, &a, key, *out) != LB_OK) {
    c->message[0] = 0;
    return false;
  }
  *count = a.count;
  return true;
}

/* A primitive with POSITION, JOINTS_0 and WEIGHTS_0 of one count, onto the list. */
static lb_result lb_ends_primitive(gltf_ctx *c, const cJSON *prim, gltf_skin_prim **list) {
  const cJSON *attrs = cJSON_GetObjectItemCaseSensitive(prim, "attributes");
  gltf_skin_prim p = {NULL, NULL, NULL, 0, *list};
  uint32_t nj = 0, nw = 0;
  if (!cJSON_IsObject(attrs) || !lb_ends_attribute(c, attrs, "POSITION", 3, &p.pos, &p.count) ||
      !lb_ends_attribute(c, attrs, "JOINTS_0", 4, &p.joints, &nj) ||
      !lb_ends_attribute(c, attrs, "WEIGHTS_0", 4, &p.weights, &nw) || nj != p.count ||
      nw != p.count) {
    return LB_OK;
  }
  gltf_skin_prim *keep = gltf_arena_alloc(&c->scratch, sizeof *keep);
  if (!keep) {
    return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory");
  }
  *keep = p;
  *list = keep;
  return LB_OK;
}

/* The primitives of every mesh node bound to the chosen skin. */
static lb_result lb_ends_gather(gltf_ctx *c, gltf_skin_prim **list) {
  const cJSON *meshes = cJSON_GetObjectItemCaseSensitive(c->root, "meshes");
  for (uint32_t i = 0; i < c->node_count; ++i) {
    const cJSON *skin = cJSON_GetObjectItemCaseSensitive(c->nodes[i].json, "skin");
    const cJSON *mesh = cJSON_GetObjectItemCaseSensitive(c->nodes[i].json, "mesh");
    if (!cJSON_IsNumber(skin) || skin->valuedouble != (double)c->asset->skin_index ||
        !cJSON_IsNumber(mesh) || !(mesh->valuedouble >= 0.0) ||
        mesh->valuedouble >= (double)cJSON_GetArraySize(meshes)) {
      continue;
    }
    const cJSON *m = cJSON_GetArrayItem(meshes, (int)mesh->valuedouble);
    const cJSON *prim;
    cJSON_ArrayForEach(prim, cJSON_GetObjectItemCaseSensitive(m, "primitives")) {
      lb_result r = lb_ends_primitive(c, prim, list);
      if (r != LB_OK) {
        return r;
      }
    }
  }
  return LB_OK;
}

/* Vertex p in skin joint k's frame: the inverse bind matrix (column-major) applied. */
static void lb_ends_local(const mat4 m, const float *p, float out[3]) {
  for (int r = 0; r < 3; ++r) {
    out[r] = m[0][r] * p[0] + m[1][r] * p[1] + m[2][r] * p[2] + m[3][r];
  }
}

/* Pass 0 sums each joint's vertices; pass 1 measures how far out along its axis they reach. */
static void lb_ends_pass(const lb_gltf_asset *as, const gltf_skin_prim *list, int pass,
                         gltf_end_acc *acc) {
  for (const gltf_skin_prim *p = list; p; p = p->next) {
    for (uint32_t v = 0; v < p->count; ++v) {
      for (int i = 0; i < 4; ++i) {
        float k = p->joints[4u * v + (uint32_t)i];
        if (!(p->weights[4u * v + (uint32_t)i] >= GLTF_END_WEIGHT) || !(k >= 0.0f) ||
            k >= (float)as->skin_joint_count) {
          continue;
        }
        float x[3];
        lb_ends_local(as->inverse_bind[(uint32_t)k], p->pos + 3u * v, x);
        gltf_end_acc *a = &acc[as->skin_joints[(uint32_t)k]];
        if (pass == 0) {
          a->sum[0] += x[0];
          a->sum[1] += x[1];
          a->sum[2] += x[2];
          a->count += 1u;
        } else {
          float d = x[0] * a->axis[0] + x[1] * a->axis[1] + x[2] * a->axis[2];
          a->far = d > a->far ? d : a->far;
        }
      }
    }
  }
}

/* Each joint's axis: toward the centroid, unless that sits on the joint (no direction). */
static void lb_ends_axes(gltf_end_acc *acc, uint32_t n) {
  for (uint32_t j = 0; j < n; ++j) {
    gltf_end_acc *a = &acc[j];
    float len = 0.0f;
    for (int i = 0; a->count && i < 3; ++i) {
      a->axis[i] = a->sum[i] / (float)a->count;
      len += a->axis[i] * a->axis[i];
    }
    len = lb_sqrt(len);
    for (int i = 0; i < 3; ++i) {
      a->axis[i] = len > 1e-12f ? a->axis[i] / len : 0.0f;
    }
  }
}

lb_result gltf_skin_mesh_ends(gltf_ctx *c) {
  lb_gltf_asset *as = c->asset;
  gltf_skin_prim *list = NULL;
  lb_result r = as->skin_index >= 0 ? lb_ends_gather(c, &list) : LB_OK;
  if (r != LB_OK || !list) {
    return r;
  }
  uint32_t n = as->skeleton.joint_count;
  gltf_end_acc *acc = gltf_arena_array(&c->scratch, n, sizeof *acc);
  lb_joint_end *ends = gltf_arena_array(c->out, n, sizeof *ends);
  if (!acc || !ends) {
    return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory");
  }
  lb_ends_pass(as, list, 0, acc);
  lb_ends_axes(acc, n);
  lb_ends_pass(as, list, 1, acc);
  bool any = false;
  for (uint32_t j = 0; j < n; ++j) {
    const gltf_end_acc *a = &acc[j];
    bool known = a->far > 0.0f && (a->axis[0] != 0.0f || a->axis[1] != 0.0f || a->axis[2] != 0.0f);
    for (int i = 0; known && i < 3; ++i) {
      ends[j].point[i] = a->far * a->axis[i];
    }
    ends[j].known = known ? 1u : 0u;
    any = any || known;
  }
  as->skeleton.mesh_ends = any ? ends : NULL;
  return LB_OK;
}
