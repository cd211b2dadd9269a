/* Node hierarchy (parents, cycles), node rest TRS (matrix decomposition), joint names, and
 * the skin or the whole node forest turned into a depth-first skeleton. */
#include "../base/format.h"
#include "gltf_internal.h"
#include <string.h>

const char *gltf_node_label(const gltf_ctx *c, uint32_t node, char *buf, size_t n) {
  const cJSON *name =
      node < c->node_count ? cJSON_GetObjectItemCaseSensitive(c->nodes[node].json, "name") : NULL;
  if (cJSON_IsString(name) && name->valuestring[0]) {
    lb_snprintf(buf, n, "node %u '%.48s'", node, name->valuestring);
  } else {
    lb_snprintf(buf, n, "node %u", node);
  }
  return buf;
}

/* ---- hierarchy ----------------------------------------------------------------------------- */

lb_result gltf_read_hierarchy(gltf_ctx *c) {
  const cJSON **table = NULL;
  lb_result r = gltf_json_table(c, "nodes", &table, &c->node_count);
  if (r != LB_OK) {
    return r;
  }
  if (c->node_count == 0) {
    return gltf_fail(c, LB_ERR_PARSE, "the file has no nodes to build a skeleton from");
  }
  c->nodes = gltf_arena_array(&c->scratch, c->node_count, sizeof *c->nodes);
  if (!c->nodes) {
    return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory");
  }
  for (uint32_t i = 0; i < c->node_count; ++i) {
    c->nodes[i].json = table[i];
    c->nodes[i].parent = -1;
    c->nodes[i].joint = -1;
  }
  char la[80];
  for (uint32_t i = 0; i < c->node_count; ++i) {
    const cJSON *ch = cJSON_GetObjectItemCaseSensitive(c->nodes[i].json, "children");
    if (!ch) {
      continue;
    }
    if (!cJSON_IsArray(ch)) {
      return gltf_fail(c, LB_ERR_PARSE, "%s: 'children' is not an array",
                       gltf_node_label(c, i, la, sizeof la));
    }
    uint32_t k = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, ch) {
      double v = cJSON_IsNumber(e) ? e->valuedouble : -1.0;
      if (!(v >= 0.0 && v < (double)c->node_count) || v != (double)(uint32_t)v) {
        return gltf_fail(c, LB_ERR_PARSE, "%s: children[%u] is not a node index below %u",
                         gltf_node_label(c, i, la, sizeof la), k, c->node_count);
      }
      uint32_t child = (uint32_t)v;
      if (child == i) {
        return gltf_fail(c, LB_ERR_CYCLE, "cycle in the node hierarchy: %s is its own child",
                         gltf_node_label(c, i, la, sizeof la));
      }
      if (c->nodes[child].parent >= 0) {
        return gltf_fail(c, LB_ERR_PARSE, "%s has two parents: node %d and node %u",
                         gltf_node_label(c, child, la, sizeof la), (int)c->nodes[child].parent, i);
      }
      c->nodes[child].parent = (int32_t)i;
      ++k;
    }
  }
  /* Each node has at most one parent now, so a cycle is a parent chain that never reaches a
   * root. Walk up from each node; `seen` stamps the current walk, `done` marks nodes known
   * to reach a root. */
  uint32_t *seen = gltf_arena_array(&c->scratch, c->node_count, sizeof *seen);
  if (!seen) {
    return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory");
  }
  const uint32_t done = 0xFFFFFFFFu;
  for (uint32_t i = 0; i < c->node_count; ++i) {
    int32_t n = (int32_t)i;
    while (n >= 0 && seen[n] != done) {
      if (seen[n] == i + 1u) {
        return gltf_fail(c, LB_ERR_CYCLE, "cycle in the node hierarchy through %s",
                         gltf_node_label(c, (uint32_t)n, la, sizeof la));
      }
      seen[n] = i + 1u;
      n = c->nodes[n].parent;
    }
    for (n = (int32_t)i; n >= 0 && seen[n] != done; n = c->nodes[n].parent) {
      seen[n] = done;
    }
  }
  return LB_OK;
}

/* ---- rest transforms ----------------------------------------------------------------------- */

/* Matrix → TRS in the order three.js's Matrix4.decompose uses, so both agree to rounding. */
static lb_result lb_decompose(gltf_ctx *c, const float *m, const char *label, lb_transform *out) {
  float det = m[0] * (m[5] * m[10] - m[6] * m[9]) - m[4] * (m[1] * m[10] - m[2] * m[9]) +
              m[8] * (m[1] * m[6] - m[2] * m[5]);
  if (det == 0.0f) {
    return gltf_fail(c, LB_ERR_DEGENERATE, "%s: 'matrix' is singular (zero scale)", label);
  }
  if (det < 0.0f) {
    return gltf_fail(c, LB_ERR_DEGENERATE,
                     "%s: 'matrix' mirrors (negative determinant); joints need scale > 0", label);
  }
  float sx = lb_sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
  float sy = lb_sqrt(m[4] * m[4] + m[5] * m[5] + m[6] * m[6]);
  float sz = lb_sqrt(m[8] * m[8] + m[9] * m[9] + m[10] * m[10]);
  if (!(sx > 0.0f && sy > 0.0f && sz > 0.0f)) {
    return gltf_fail(c, LB_ERR_DEGENERATE, "%s: 'matrix' has a zero-length axis", label);
  }
  float ix = 1.0f / sx, iy = 1.0f / sy, iz = 1.0f / sz;
  float m11 = m[0] * ix, m21 = m[1] * ix, m31 = m[2] * ix;
  float m12 = m[4] * iy, m22 = m[5] * iy, m32 = m[6] * iy;
  float m13 = m[8] * iz, m23 = m[9] * iz, m33 = m[10] * iz;
  float trace = m11 + m22 + m33;
  float *q = out->r;
  if (trace > 0.0f) {
    float s = 0.5f / lb_sqrt(trace + 1.0f);
    q[3] = 0.25f / s;
    q[0] = (m32 - m23) * s;
    q[1] = (m13 - m31) * s;
    q[2] = (m21 - m12) * s;
  } else if (m11 > m22 && m11 > m33) {
    float s = 2.0f * lb_sqrt(1.0f + m11 - m22 - m33);
    q[3] = (m32 - m23) / s;
    q[0] = 0.25f * s;
    q[1] = (m12 + m21) / s;
    q[2] = (m13 + m31) / s;
  } else if (m22 > m33) {
    float s = 2.0f * lb_sqrt(1.0f + m22 - m11 - m33);
    q[3] = (m13 - m31) / s;
    q[0] = (m12 + m21) / s;
    q[1] = 0.25f * s;
    q[2] = (m23 + m32) / s;
  } else {
    float s = 2.0f * lb_sqrt(1.0f + m33 - m11 - m22);
    q[3] = (m21 - m12) / s;
    q[0] = (m13 + m31) / s;
    q[1] = (m23 + m32) / s;
    q[2] = 0.25f * s;
  }
  lb_quat_normalize(q); /* a matrix with shear leaves a slightly non-unit quaternion */
  out->t[0] = m[12];
  out->t[1] = m[13];
  out->t[2] = m[14];
  out->s[0] = sx;
  out->s[1] = sy;
  out->s[2] = sz;
  return LB_OK;
}

lb_result gltf_node_rest(gltf_ctx *c, uint32_t i, const lb_transform **out) {
  gltf_node *nd = &c->nodes[i];
  *out = &nd->rest;
  if (nd->trs_done) {
    return LB_OK;
  }
  char label[80];
  gltf_node_label(c, i, label, sizeof label);
  float m[16];
  bool has_m = false, has_t = false, has_r = false, has_s = false;
  lb_transform_identity(&nd->rest);
  lb_result r = gltf_json_floats(c, nd->json, "matrix", 16, label, m, &has_m);
  if (r != LB_OK) {
    return r;
  }
  if (has_m) {
    r = lb_decompose(c, m, label, &nd->rest);
  } else {
    r = gltf_json_floats(c, nd->json, "translation", 3, label, nd->rest.t, &has_t);
    if (r == LB_OK) {
      r = gltf_json_floats(c, nd->json, "rotation", 4, label, nd->rest.r, &has_r);
    }
    if (r == LB_OK) {
      r = gltf_json_floats(c, nd->json, "scale", 3, label, nd->rest.s, &has_s);
    }
    if (r == LB_OK) {
      const float *q = nd->rest.r;
      float n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
      if (n2 == 0.0f) {
        r = gltf_fail(c, LB_ERR_DEGENERATE, "%s: 'rotation' is a zero quaternion", label);
      } else if (n2 < 0.999f || n2 > 1.001f) {
        r = gltf_fail(c, LB_ERR_OUT_OF_RANGE,
                      "%s: 'rotation' is not a unit quaternion (|q|^2 = %g)", label, (double)n2);
      } else if (!(nd->rest.s[0] > 0.0f && nd->rest.s[1] > 0.0f && nd->rest.s[2] > 0.0f)) {
        r = gltf_fail(c, LB_ERR_OUT_OF_RANGE,
                      "%s: 'scale' must be > 0 on every axis (mirrored or zero scale)", label);
      }
    }
  }
  nd->trs_done = r == LB_OK;
  return r;
}

/* ---- names --------------------------------------------------------------------------------- */

static lb_result lb_node_name(gltf_ctx *c, uint32_t i, char *out) {
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(c->nodes[i].json, "name");
  if (name && !cJSON_IsString(name)) {
    return gltf_fail(c, LB_ERR_PARSE, "node %u: 'name' is not a string", i);
  }
  if (!name || !name->valuestring[0]) {
    lb_snprintf(out, LB_JOINT_NAME_MAX, "node%u", i);
    return LB_OK;
  }
  size_t len = strlen(name->valuestring);
  if (len >= LB_JOINT_NAME_MAX) {
    return gltf_fail(c, LB_ERR_OUT_OF_RANGE,
                     "node %u: name '%.40s...' is %zu bytes; joint names must be shorter than %d",
                     i, name->valuestring, len, LB_JOINT_NAME_MAX);
  }
  for (size_t k = 0; k <= len; ++k) {
    out[k] = name->valuestring[k] == '/' ? '_' : name->valuestring[k];
  }
  return LB_OK;
}

lb_result gltf_unique_names(gltf_ctx *c, char (*names)[LB_JOINT_NAME_MAX], uint32_t n,
                            const char *kind, const int32_t *ids) {
  for (uint32_t i = 1; i < n; ++i) {
    uint32_t dup = i;
    for (uint32_t k = 0; k < i && dup == i; ++k) {
      if (strcmp(names[k], names[i]) == 0) {
        dup = k;
      }
    }
    if (dup == i) {
      continue;
    }
    if (c->def->names == LB_GLTF_NAMES_ERROR) {
      return gltf_fail(c, LB_ERR_INVALID_ARGUMENT, "%s %d and %s %d are both named '%s'", kind,
                       (int)ids[dup], kind, (int)ids[i], names[i]);
    }
    /* "name_1", "name_2", ...: the first suffix not taken by an earlier name. */
    char base[LB_JOINT_NAME_MAX];
    memcpy(base, names[i], sizeof base);
    for (uint32_t s = 1;; ++s) {
      char cand[LB_JOINT_NAME_MAX + 16];
      int len = lb_snprintf(cand, sizeof cand, "%s_%u", base, s);
      if (len < 0 || len >= LB_JOINT_NAME_MAX) {
        return gltf_fail(c, LB_ERR_OUT_OF_RANGE,
                         "%s %d: name '%s' is used twice and too long for a suffix", kind,
                         (int)ids[i], base);
      }
      bool taken = false;
      for (uint32_t k = 0; k < i && !taken; ++k) {
        taken = strcmp(names[k], cand) == 0;
      }
      if (!taken) {
        memcpy(names[i], cand, (size_t)len + 1u);
        break;
      }
    }
  }
  return LB_OK;
}

/* ---- skeleton ------------------------------------------------------------------------------ */

static uint32_t lb_node_depth(const gltf_ctx *c, uint32_t n) {
  uint32_t d = 0;
  for (int32_t p = c->nodes[n].parent; p >= 0; p = c->nodes[p].parent) {
    ++d;
  }
  return d;
}

/* Closest common ancestor-or-self of a and b, or -1 when they lie in different trees. */
static int32_t lb_common_root(const gltf_ctx *c, int32_t a, uint32_t da, int32_t b, uint32_t db) {
  while (da > db) {
    a = c->nodes[a].parent;
    --da;
  }
  while (db > da) {
    b = c->nodes[b].parent;
    --db;
  }
  while (a != b && a >= 0 && b >= 0) {
    a = c->nodes[a].parent;
    b = c->nodes[b].parent;
  }
  return a == b ? a : -1;
}

/* Depth-first preorder from `root` over nodes with included[n]; appends to order. */
static uint32_t lb_dfs(const gltf_ctx *c, uint32_t root, const uint8_t *included, uint32_t *stack,
                       int32_t *order, uint32_t count) {
  uint32_t top = 0;
  stack[top++] = root;
  while (top > 0) {
    uint32_t n = stack[--top];
    order[count++] = (int32_t)n;
    const cJSON *ch = cJSON_GetObjectItemCaseSensitive(c->nodes[n].json, "children");
    int k = cJSON_GetArraySize(ch);
    /* Reverse push so children come out in their JSON order. */
    for (int i = k; i-- > 0;) {
      uint32_t child = (uint32_t)cJSON_GetArrayItem(ch, i)->valuedouble;
      if (included[child]) {
        stack[top++] = child;
      }
    }
  }
  return count;
}

static lb_result lb_skin_nodes(gltf_ctx *c, uint32_t skin, uint8_t *included, int32_t *root,
                               uint32_t *joint_count, int32_t **skin_nodes_out) {
  char where[32], la[80], lb[80];
  lb_snprintf(where, sizeof where, "skin %u", skin);
  const cJSON *joints = cJSON_GetObjectItemCaseSensitive(c->skins[skin], "joints");
  int n = cJSON_GetArraySize(joints);
  if (!cJSON_IsArray(joints) || n == 0) {
    return gltf_fail(c, LB_ERR_PARSE, "%s: 'joints' must be a non-empty array", where);
  }
  int32_t *sj = gltf_arena_array(&c->scratch, (size_t)n, sizeof *sj);
  if (!sj) {
    return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory");
  }
  uint8_t *is_joint = gltf_arena_array(&c->scratch, c->node_count, 1);
  if (!is_joint) {
    return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory");
  }
  int i = 0;
  const cJSON *e;
  int32_t lca = -1;
  uint32_t lca_depth = 0;
  cJSON_ArrayForEach(e, joints) {
    double v = cJSON_IsNumber(e) ? e->valuedouble : -1.0;
    if (!(v >= 0.0 && v < (double)c->node_count) || v != (double)(uint32_t)v) {
      return gltf_fail(c, LB_ERR_PARSE, "%s: joints[%d] is not a node index below %u", where, i,
                       c->node_count);
    }
    uint32_t node = (uint32_t)v;
    if (is_joint[node]) {
      return gltf_fail(c, LB_ERR_PARSE, "%s: %s is listed twice in 'joints'", where,
                       gltf_node_label(c, node, la, sizeof la));
    }
    is_joint[node] = 1;
    sj[i] = (int32_t)node;
    uint32_t d = lb_node_depth(c, node);
    if (i == 0) {
      lca = (int32_t)node;
      lca_depth = d;
    } else {
      int32_t next = lb_common_root(c, lca, lca_depth, (int32_t)node, d);
      if (next < 0) {
        return gltf_fail(c, LB_ERR_PARSE,
                         "%s: joints do not form one tree: %s and %s have no common ancestor",
                         where, gltf_node_label(c, (uint32_t)sj[0], la, sizeof la),
                         gltf_node_label(c, node, lb, sizeof lb));
      }
      lca = next;
      lca_depth = lb_node_depth(c, (uint32_t)lca);
    }
    ++i;
  }
  /* The joints plus the nodes on the paths from each joint up to their common root, or up
   * to the topmost node above it that an animation moves. */
  lca = gltf_animated_top(c, lca);
  included[lca] = 1;
  uint32_t count = 1;
  for (int k = 0; k < n; ++k) {
    for (int32_t p = sj[k]; p >= 0 && !included[p]; p = c->nodes[p].parent) {
      included[p] = 1;
      ++count;
    }
  }
  *root = lca;
  *joint_count = count;
  *skin_nodes_out = sj;
  return LB_OK;
}

static lb_result lb_read_ibms(gltf_ctx *c, uint32_t skin, uint32_t n, mat4 *out) {
  uint32_t acc = 0;
  char where[48];
  lb_snprintf(where, sizeof where, "skin %u", skin);
  const cJSON *s = c->skins[skin];
  if (!cJSON_GetObjectItemCaseSensitive(s, "inverseBindMatrices")) {
    for (uint32_t i = 0; i < n; ++i) {
      for (int col = 0; col < 4; ++col) {
        for (int row = 0; row < 4; ++row) {
          out[i][col][row] = col == row ? 1.0f : 0.0f;
        }
      }
    }
    return LB_OK;
  }
  lb_result r = gltf_json_index(c, s, "inverseBindMatrices", true, c->accessor_count, where, &acc);
  if (r != LB_OK) {
    return r;
  }
  char what[48];
  lb_snprintf(what, sizeof what, "skin %u inverseBindMatrices", skin);
  gltf_accessor a;
  r = gltf_accessor_get(c, acc, what, &a);
  if (r != LB_OK) {
    return r;
  }
  if (a.comps != 16 || a.comp_type != GLTF_FLOAT) {
    return gltf_fail(c, LB_ERR_PARSE, "accessor %u (%s): MAT4 of FLOAT expected, got %s of %u", acc,
                     what, gltf_type_name(a.comps), a.comp_type);
  }
  if (a.count < n) {
    return gltf_fail(c, LB_ERR_PARSE, "accessor %u (%s): %u matrices for %u joints", acc, what,
                     a.count, n);
  }
  float *tmp = gltf_arena_array(&c->scratch, (size_t)a.count, 16u * sizeof(float));
  if (!tmp) {
    return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory");
  }
  r = gltf_accessor_floats(c, &a, what, tmp);
  if (r != LB_OK) {
    return r;
  }
  memcpy(out, tmp, (size_t)n * sizeof(mat4));
  return LB_OK;
}

/* The skin the skeleton follows: def.skin, the first one (AUTO) or none (-1). */
static lb_result lb_choose_skin(gltf_ctx *c, int32_t *skin) {
  *skin = -1;
  if (c->def->skin >= 0) {
    if ((uint32_t)c->def->skin >= c->skin_count) {
      return gltf_fail(c, LB_ERR_INVALID_ARGUMENT, "def.skin = %d but the file has %u skins",
                       (int)c->def->skin, c->skin_count);
    }
    *skin = c->def->skin;
  } else if (c->def->skin == LB_GLTF_SKIN_AUTO && c->skin_count > 0) {
    *skin = 0;
  }
  return LB_OK;
}

/* The nodes that become joints, in depth-first order (scratch arrays). */
typedef struct joint_walk {
  uint8_t *included; /* per node: a joint */
  uint32_t *stack;
  int32_t *order; /* joint -> node */
  uint32_t n;     /* nodes included */
  uint32_t count; /* joints in order */
  int32_t root;   /* the skin's root node, -1: every root of the file */
  int32_t *skin_nodes_arr;
  uint32_t skin_joint_count;
} joint_walk;

/* The skin's nodes (or every node) in depth-first order from the skin's root (or from every
 * root of the file). */
static lb_result lb_order_joints(gltf_ctx *c, int32_t skin, joint_walk *jw) {
  jw->included = gltf_arena_array(&c->scratch, c->node_count, 1);
  jw->stack = gltf_arena_array(&c->scratch, c->node_count, sizeof *jw->stack);
  jw->order = gltf_arena_array(&c->scratch, c->node_count, sizeof *jw->order);
  if (!jw->included || !jw->stack || !jw->order) {
    return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory");
  }
  jw->n = 0;
  jw->root = -1;
  jw->skin_nodes_arr = NULL;
  jw->skin_joint_count = 0;
  if (skin >= 0) {
    lb_result r =
        lb_skin_nodes(c, (uint32_t)skin, jw->included, &jw->root, &jw->n, &jw->skin_nodes_arr);
    if (r != LB_OK) {
      return r;
    }
    jw->skin_joint_count =
        (uint32_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(c->skins[skin], "joints"));
  } else {
    memset(jw->included, 1, c->node_count);
    jw->n = c->node_count;
  }
  if (jw->n > LB_MAX_JOINTS) {
    return gltf_fail(c, LB_ERR_CAPACITY, "the skeleton would have %u joints, more than %d", jw->n,
                     LB_MAX_JOINTS);
  }
  jw->count = 0;
  if (jw->root >= 0) {
    jw->count = lb_dfs(c, (uint32_t)jw->root, jw->included, jw->stack, jw->order, 0);
  } else {
    for (uint32_t i = 0; i < c->node_count; ++i) {
      if (c->nodes[i].parent < 0) {
        jw->count = lb_dfs(c, i, jw->included, jw->stack, jw->order, jw->count);
      }
    }
  }
  return LB_OK;
}

/* The skeleton's arrays, in the asset arena. */
typedef struct joint_arrays {
  const char **names;
  int16_t *parents;
  lb_transform *rest;
  int32_t *joint_nodes;
} joint_arrays;

/* The joints' names (unique), parents, rest transforms and nodes. */
static lb_result lb_fill_joints(gltf_ctx *c, const joint_walk *jw, joint_arrays *out) {
  gltf_arena *o = c->out;
  uint32_t n = jw->n, count = jw->count;
  char(*names)[LB_JOINT_NAME_MAX] = gltf_arena_array(o, n, LB_JOINT_NAME_MAX);
  const char **name_ptrs = gltf_arena_array(o, n, sizeof *name_ptrs);
  int16_t *parents = gltf_arena_array(o, n, sizeof *parents);
  lb_transform *rest = gltf_arena_array(o, n, sizeof *rest);
  int32_t *joint_nodes = gltf_arena_array(o, n, sizeof *joint_nodes);
  if (!names || !name_ptrs || !parents || !rest || !joint_nodes) {
    return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory");
  }
  for (uint32_t j = 0; j < count; ++j) {
    c->nodes[jw->order[j]].joint = (int32_t)j;
  }
  for (uint32_t j = 0; j < count; ++j) {
    uint32_t node = (uint32_t)jw->order[j];
    const lb_transform *x = NULL;
    lb_result r = lb_node_name(c, node, names[j]);
    if (r == LB_OK) {
      r = gltf_node_rest(c, node, &x);
    }
    if (r != LB_OK) {
      return r;
    }
    name_ptrs[j] = names[j];
    int32_t p = c->nodes[node].parent;
    parents[j] = (int16_t)(p >= 0 && jw->included[p] ? c->nodes[p].joint : -1);
    rest[j] = *x;
    joint_nodes[j] = (int32_t)node;
  }
  lb_result r = gltf_unique_names(c, names, count, "node", joint_nodes);
  if (r != LB_OK) {
    return r;
  }
  *out = (joint_arrays){name_ptrs, parents, rest, joint_nodes};
  return LB_OK;
}

/* Everything above the skeleton root, composed top-down, into the root joint's rest. */
static lb_result lb_compose_root_parent(gltf_ctx *c, int32_t root, uint32_t *stack,
                                        lb_transform *rest) {
  lb_gltf_asset *as = c->asset;
  lb_transform_identity(&as->root_parent);
  if (root < 0) {
    return LB_OK;
  }
  uint32_t depth = 0;
  for (int32_t p = c->nodes[root].parent; p >= 0; p = c->nodes[p].parent) {
    stack[depth++] = (uint32_t)p;
  }
  while (depth > 0) {
    const lb_transform *x = NULL;
    lb_result r = gltf_node_rest(c, stack[--depth], &x);
    if (r != LB_OK) {
      return r;
    }
    lb_transform_mul(&as->root_parent, x, &as->root_parent);
  }
  /* The rig owns its placement: an axis change or unit scale on an armature node above
   * the root becomes part of the root joint, so model space is the file's scene space
   * and an identity Transform stands the character upright at its real size. The root
   * is joint 0 (the depth-first walk starts there). */
  lb_transform_mul(&as->root_parent, &rest[0], &rest[0]);
  return LB_OK;
}

/* The skin's joints (as skeleton joints) and inverse bind matrices, in the asset arena. */
static lb_result lb_bind_skin(gltf_ctx *c, int32_t skin, const joint_walk *jw) {
  gltf_arena *o = c->out;
  uint16_t *sj = gltf_arena_array(o, jw->skin_joint_count, sizeof *sj);
  mat4 *ibm = gltf_arena_array(o, jw->skin_joint_count, sizeof *ibm);
  if (!sj || !ibm) {
    return gltf_fail(c, LB_ERR_OUT_OF_MEMORY, "out of memory");
  }
  for (uint32_t i = 0; i < jw->skin_joint_count; ++i) {
    sj[i] = (uint16_t)c->nodes[jw->skin_nodes_arr[i]].joint;
  }
  lb_result r = lb_read_ibms(c, (uint32_t)skin, jw->skin_joint_count, ibm);
  if (r != LB_OK) {
    return r;
  }
  c->asset->skin_joints = sj;
  c->asset->inverse_bind = ibm;
  return LB_OK;
}

lb_result gltf_build_skeleton(gltf_ctx *c) {
  lb_result r = gltf_read_hierarchy(c);
  if (r != LB_OK) {
    return r;
  }
  int32_t skin = -1;
  joint_walk jw = {0};
  joint_arrays ja = {0};
  r = lb_choose_skin(c, &skin);
  if (r == LB_OK) {
    r = lb_order_joints(c, skin, &jw);
  }
  if (r == LB_OK) {
    r = lb_fill_joints(c, &jw, &ja);
  }
  if (r == LB_OK) {
    r = lb_compose_root_parent(c, jw.root, jw.stack, ja.rest);
  }
  if (r != LB_OK) {
    return r;
  }
  lb_gltf_asset *as = c->asset;
  as->skeleton = lb_skeleton_default_def();
  as->skeleton.joint_count = jw.count;
  as->skeleton.names = ja.names;
  as->skeleton.parents = ja.parents;
  as->skeleton.rest = ja.rest;
  as->skeleton.root_parent = &as->root_parent;
  as->joint_nodes = ja.joint_nodes;
  as->skin_index = skin;
  as->skin_joint_count = jw.skin_joint_count;
  r = skin >= 0 ? lb_bind_skin(c, skin, &jw) : LB_OK;
  if (r == LB_OK && skin >= 0) {
    as->skeleton.skin_joints = as->skin_joints;
    as->skeleton.skin_joint_count = as->skin_joint_count;
    r = gltf_skin_mesh_ends(c);
  }
  return r;
}
