/* Skeleton assets: validation, depth-first reordering and joint lookup. */
#include "../base/array.h"
#include "rig_internal.h"
#include <string.h>

lb_skeleton_def lb_skeleton_default_def(void) {
  lb_skeleton_def d;
  memset(&d, 0, sizeof d);
  return d;
}

/* The optional skin order and mesh ends: indices in range and each joint at most once (a
 * bone pairs with one joint), finite points. */
static lb_result lb_skeleton_validate_skin(lb_world *w, const lb_skeleton_def *def) {
  uint32_t n = def->skin_joint_count;
  if (n > def->joint_count || (n > 0 && !def->skin_joints)) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                   "skeleton: skin_joint_count = %u needs skin_joints and at most %u entries", n,
                   def->joint_count);
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (def->skin_joints[i] >= def->joint_count) {
      return lb_fail(w, LB_ERR_OUT_OF_RANGE,
                     "skeleton: skin_joints[%u] = %u is not a joint below %u", i,
                     (unsigned)def->skin_joints[i], def->joint_count);
    }
    for (uint32_t k = 0; k < i; ++k) {
      if (def->skin_joints[k] == def->skin_joints[i]) {
        return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                       "skeleton: skin_joints[%u] and [%u] are both joint %u", k, i,
                       (unsigned)def->skin_joints[i]);
      }
    }
  }
  for (uint32_t j = 0; def->mesh_ends && j < def->joint_count; ++j) {
    const float *q = def->mesh_ends[j].point;
    if (!lb_is_finite(q[0]) || !lb_is_finite(q[1]) || !lb_is_finite(q[2])) {
      return lb_fail(w, LB_ERR_NOT_FINITE, "skeleton: mesh_ends[%u] is not finite", j);
    }
  }
  return LB_OK;
}

static lb_result lb_skeleton_validate(lb_world *w, const lb_skeleton_def *def) {
  if (def->joint_count == 0 || def->joint_count > LB_MAX_JOINTS) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE, "skeleton: joint_count = %u is outside [1, %u]",
                   def->joint_count, (unsigned)LB_MAX_JOINTS);
  }
  if (!def->names || !def->parents || !def->rest) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "skeleton: names, parents and rest are required");
  }
  for (uint32_t i = 0; i < def->joint_count; ++i) {
    const char *n = def->names[i];
    size_t len = 0;
    while (n && len < LB_JOINT_NAME_MAX && n[len]) {
      ++len;
    }
    if (len == 0 || len >= LB_JOINT_NAME_MAX || strchr(n, '/')) {
      return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                     "skeleton: joint %u name is empty, too long (max %d) or contains '/'", i,
                     LB_JOINT_NAME_MAX - 1);
    }
    for (uint32_t k = 0; k < i; ++k) {
      if (strcmp(def->names[k], n) == 0) {
        return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "skeleton: joint name '%s' is used twice", n);
      }
    }
    if (def->parents[i] >= (int)i || def->parents[i] < -1) {
      return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                     "skeleton: joint '%s' has parent %d (parents must precede children)", n,
                     def->parents[i]);
    }
    const lb_transform *x = &def->rest[i];
    const float *v = &x->t[0];
    float all[10] = {v[0],    v[1],    v[2],    x->r[0], x->r[1],
                     x->r[2], x->r[3], x->s[0], x->s[1], x->s[2]};
    for (int k = 0; k < 10; ++k) {
      if (!lb_is_finite(all[k])) {
        return lb_fail(w, LB_ERR_NOT_FINITE, "skeleton: joint '%s' rest pose is not finite", n);
      }
    }
    if (!(x->s[0] > 0.0f) || !(x->s[1] > 0.0f) || !(x->s[2] > 0.0f)) {
      return lb_fail(w, LB_ERR_OUT_OF_RANGE, "skeleton: joint '%s' rest scale must be > 0", n);
    }
    float q2 = x->r[0] * x->r[0] + x->r[1] * x->r[1] + x->r[2] * x->r[2] + x->r[3] * x->r[3];
    if (!(q2 > 1e-12f)) {
      return lb_fail(w, LB_ERR_OUT_OF_RANGE, "skeleton: joint '%s' rest rotation is zero", n);
    }
  }
  lb_result r = lb_skeleton_validate_skin(w, def);
  if (r != LB_OK) {
    return r;
  }
  const lb_transform *p = def->root_parent;
  if (p &&
      (!lb_transform_valid(p) || !(p->s[0] > 0.0f) || !(p->s[1] > 0.0f) || !(p->s[2] > 0.0f))) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE,
                   "skeleton: root_parent must be finite, with a non-zero rotation and a scale > 0 "
                   "on every axis");
  }
  return LB_OK;
}

/* Depth-first preorder, children in their input order: gives contiguous subtrees. */
static uint32_t lb_dfs(const lb_skeleton_def *def, int16_t parent, uint32_t *order, uint32_t n) {
  for (uint32_t i = 0; i < def->joint_count; ++i) {
    if (def->parents[i] == parent) {
      order[n++] = i;
      n = lb_dfs(def, (int16_t)i, order, n);
    }
  }
  return n;
}

static void lb_skeleton_free_arrays(lb_world *w, lb_skeleton *s) {
  lb_free(w, s->names);
  lb_free(w, s->parents);
  lb_free(w, s->subtree_end);
  lb_free(w, s->by_depth);
  lb_free(w, s->rest);
  lb_free(w, s->skin_joints);
  lb_free(w, s->mesh_ends);
}

lb_result lb_world_add_skeleton(lb_world *w, const lb_skeleton_def *def, uint32_t *out_asset) {
  if (!w || !def || !out_asset) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "skeleton: null argument")
             : LB_ERR_INVALID_ARGUMENT;
  }
  lb_result r = lb_skeleton_validate(w, def);
  if (r != LB_OK) {
    return r;
  }
  uint32_t n = def->joint_count;
  lb_rig_world *rw = lb_rig_world_of(w);
  if (lb_array_reserve(&w->allocator, (void **)&rw->skeletons, &rw->skeleton_capacity,
                       rw->skeleton_count, rw->skeleton_count + 1u, sizeof(lb_skeleton),
                       4u) != LB_OK) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "skeleton: out of memory");
  }
  lb_skeleton s;
  memset(&s, 0, sizeof s);
  s.joint_count = n;
  if (def->root_parent) {
    s.root_parent = *def->root_parent;
  } else {
    lb_transform_identity(&s.root_parent);
  }
  s.names = lb_alloc_array(w, n, LB_JOINT_NAME_MAX);
  s.parents = lb_alloc_array(w, n, sizeof(int16_t));
  s.subtree_end = lb_alloc_array(w, n, sizeof(uint16_t));
  s.by_depth = lb_alloc_array(w, n, sizeof(uint16_t));
  s.rest = lb_alloc_array(w, n, sizeof(lb_transform));
  s.skin_joint_count = def->skin_joint_count;
  s.skin_joints =
      s.skin_joint_count ? lb_alloc_array(w, s.skin_joint_count, sizeof(uint16_t)) : NULL;
  s.mesh_ends = def->mesh_ends ? lb_alloc_array(w, n, sizeof(lb_joint_end)) : NULL;
  uint32_t *order = lb_alloc_array(w, n, sizeof(uint32_t));
  int32_t *remap = lb_alloc_array(w, n, sizeof(int32_t));
  if (!s.names || !s.parents || !s.subtree_end || !s.by_depth || !s.rest || !order || !remap ||
      (s.skin_joint_count && !s.skin_joints) || (def->mesh_ends && !s.mesh_ends)) {
    lb_skeleton_free_arrays(w, &s);
    lb_free(w, order);
    lb_free(w, remap);
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "skeleton: out of memory");
  }
  lb_dfs(def, -1, order, 0);
  for (uint32_t k = 0; k < n; ++k) {
    remap[order[k]] = (int32_t)k;
  }
  for (uint32_t k = 0; k < n; ++k) {
    uint32_t src = order[k];
    strncpy(s.names[k], def->names[src], LB_JOINT_NAME_MAX - 1);
    s.parents[k] = def->parents[src] < 0 ? -1 : (int16_t)remap[def->parents[src]];
    s.rest[k] = def->rest[src];
    lb_quat_normalize(s.rest[k].r);
    if (s.mesh_ends) {
      s.mesh_ends[k] = def->mesh_ends[src];
      s.mesh_ends[k].known = s.mesh_ends[k].known ? 1u : 0u;
    }
  }
  for (uint32_t i = 0; i < s.skin_joint_count; ++i) {
    s.skin_joints[i] = (uint16_t)remap[def->skin_joints[i]];
  }
  /* Descendants follow their ancestor, so walking backwards finalises a joint's
   * subtree end before it is pushed up to the parent. */
  for (uint32_t k = 0; k < n; ++k) {
    s.subtree_end[k] = (uint16_t)(k + 1u);
  }
  for (uint32_t k = n; k-- > 1;) {
    int p = s.parents[k];
    if (p >= 0 && s.subtree_end[k] > s.subtree_end[p]) {
      s.subtree_end[p] = s.subtree_end[k];
    }
  }
  lb_skeleton_order_by_depth(s.parents, n, (uint16_t *)(void *)order, s.by_depth);
  lb_free(w, order);
  lb_free(w, remap);
  rw->skeletons[rw->skeleton_count++] = s;
  *out_asset = rw->skeleton_count; /* handle = index + 1 */
  return LB_OK;
}

void lb_skeleton_order_by_depth(const int16_t *parents, uint32_t n, uint16_t *depth,
                                uint16_t *out) {
  uint32_t deepest = 0;
  for (uint32_t j = 0; j < n; ++j) {
    depth[j] = parents[j] < 0 ? 0u : (uint16_t)(depth[parents[j]] + 1u);
    deepest = depth[j] > deepest ? depth[j] : deepest;
  }
  uint32_t k = 0;
  for (uint32_t d = 0; d <= deepest; ++d) {
    for (uint32_t j = 0; j < n; ++j) {
      if (depth[j] == d) {
        out[k++] = (uint16_t)j;
      }
    }
  }
}

const lb_skeleton *lb_skeleton_get(const lb_world *w, uint32_t asset) {
  const lb_rig_world *rw = w ? lb_rig_world_of(w) : NULL;
  /* joint_count 0: a place lb_skeletons_reserve padded, no skeleton */
  return rw && asset >= 1 && asset <= rw->skeleton_count && rw->skeletons[asset - 1].joint_count
             ? &rw->skeletons[asset - 1]
             : NULL;
}

lb_result lb_skeletons_reserve(lb_world *w, lb_rig_world *rw, uint32_t upto) {
  if (upto <= rw->skeleton_count) {
    return LB_OK;
  }
  if (lb_array_reserve(&w->allocator, (void **)&rw->skeletons, &rw->skeleton_capacity,
                       rw->skeleton_count, upto, sizeof(lb_skeleton), 4u) != LB_OK) {
    return LB_ERR_OUT_OF_MEMORY;
  }
  memset(&rw->skeletons[rw->skeleton_count], 0,
         (size_t)(upto - rw->skeleton_count) * sizeof(lb_skeleton));
  rw->skeleton_count = upto;
  return LB_OK;
}

void lb_skeletons_release(lb_world *w, lb_rig_world *rw, uint32_t keep) {
  while (rw->skeleton_count > keep) {
    lb_skeleton_free_arrays(w, &rw->skeletons[--rw->skeleton_count]);
  }
  if (keep == 0) {
    lb_free(w, rw->skeletons);
    rw->skeletons = NULL;
    rw->skeleton_capacity = 0;
  }
}

int lb_skeleton_lookup(const lb_skeleton *s, const char *path) {
  if (!s || !path || !path[0]) {
    return -1;
  }
  if (!strchr(path, '/')) {
    for (uint32_t j = 0; j < s->joint_count; ++j) {
      if (strcmp(s->names[j], path) == 0) {
        return (int)j;
      }
    }
    return -1;
  }
  /* Walk the path segment by segment from the roots. */
  int parent = -1;
  const char *seg = path;
  while (*seg) {
    const char *end = strchr(seg, '/');
    size_t len = end ? (size_t)(end - seg) : strlen(seg);
    if (len == 0) {
      return -1; /* "Hips/" or "a//b" name no joint */
    }
    int found = -1;
    for (uint32_t j = 0; j < s->joint_count; ++j) {
      if (s->parents[j] == parent && strncmp(s->names[j], seg, len) == 0 && s->names[j][len] == 0) {
        found = (int)j;
        break;
      }
    }
    if (found < 0) {
      return -1;
    }
    parent = found;
    if (!end) {
      break;
    }
    seg = end + 1;
  }
  return parent;
}

lb_result lb_skeleton_root_parent(const lb_world *w, uint32_t asset, lb_transform *out) {
  const lb_skeleton *s = lb_skeleton_get(w, asset);
  if (!s || !out) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  *out = s->root_parent;
  return LB_OK;
}

const uint16_t *lb_skeleton_skin_joints(const lb_world *w, uint32_t asset, uint32_t *count) {
  const lb_skeleton *s = lb_skeleton_get(w, asset);
  uint32_t n = s ? s->skin_joint_count : 0u;
  if (count) {
    *count = n;
  }
  return n ? s->skin_joints : NULL;
}

lb_result lb_skeleton_joint_end(const lb_world *w, uint32_t asset, uint32_t joint,
                                lb_joint_end *out) {
  const lb_skeleton *s = lb_skeleton_get(w, asset);
  if (!s || !out || joint >= s->joint_count) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  memset(out, 0, sizeof *out);
  if (s->mesh_ends) {
    *out = s->mesh_ends[joint];
  }
  return LB_OK;
}

uint32_t lb_skeleton_joint_count(const lb_world *w, uint32_t asset) {
  const lb_skeleton *s = lb_skeleton_get(w, asset);
  return s ? s->joint_count : 0;
}

const char *lb_skeleton_joint_name(const lb_world *w, uint32_t asset, uint32_t joint) {
  const lb_skeleton *s = lb_skeleton_get(w, asset);
  return s && joint < s->joint_count ? s->names[joint] : NULL;
}

int lb_skeleton_joint_parent(const lb_world *w, uint32_t asset, uint32_t joint) {
  const lb_skeleton *s = lb_skeleton_get(w, asset);
  return s && joint < s->joint_count ? s->parents[joint] : -1;
}

int lb_skeleton_find_joint(const lb_world *w, uint32_t asset, const char *path) {
  return lb_skeleton_lookup(lb_skeleton_get(w, asset), path);
}
