/* Placing colliders in the world and keeping the collider hierarchy current: a rebuild when
 * colliders come or go, a refit of the leaves whose colliders moved otherwise. */
#include "collide_internal.h"

#include "../math/math_inline.h"

#include <string.h>

/* The world transform of `slot` from the Transform components now (what the next Model
 * phase will compute, operation for operation), for colliders written between steps. */
void cl_current_transform(const lb_world *w, uint32_t slot, lb_transform *out) {
  const lb_module_def *joints = NULL;
  for (uint32_t m = 0; m < lb_registry_module_count() && !joints; ++m) {
    const lb_module_def *md = lb_registry_module(m);
    if (md->joint_find && md->joint_model) {
      joints = md;
    }
  }
  uint32_t depth = 0;
  for (int32_t s = (int32_t)slot; s >= 0 && depth < w->high_water; s = w->parent[s]) {
    w->xf_stack[depth++] = (uint32_t)s;
  }
  lb_transform cur;
  lb_transform_identity(&cur);
  while (depth > 0) {
    uint32_t s = w->xf_stack[--depth];
    if (!lb_slot_has(w, s, LB_TRANSFORM)) {
      lb_transform_identity(&cur);
      continue;
    }
    const lb_transform_c *c = lb_component_ptr(w, s, LB_TRANSFORM);
    lb_transform local;
    memcpy(local.t, c->position, sizeof(vec3));
    memcpy(local.r, c->rotation, sizeof(versor));
    memcpy(local.s, c->scale, sizeof(vec3));
    int32_t p = w->parent[s];
    if (p < 0) {
      cur = local;
      continue;
    }
    lb_transform parent = cur;
    int j = w->attach_joint[s];
    const lb_transform *jm = j >= 0 && joints ? joints->joint_model(w, (uint32_t)p, j) : NULL;
    if (jm) {
      lb_transform_mul(&cur, jm, &parent);
    }
    lb_transform_mul(&parent, &local, &cur);
  }
  *out = cur;
}

/* Bounds grow by a relative 2e-6 (plus 1e-6 m) so that rounding in the box tests can never
 * cull a shape the exact test would hit. */
static void cl_pad(float *lo, float *hi) {
  for (int k = 0; k < 3; ++k) {
    float m = cl_maxf(cl_absf(lo[k]), cl_absf(hi[k]));
    float e = m * 2e-6f + 1e-6f;
    lo[k] -= e;
    hi[k] += e;
  }
}

static void cl_rotation_columns(const versor q, float *m) {
  for (int k = 0; k < 3; ++k) {
    vec3 e = {0.0f, 0.0f, 0.0f}, r;
    e[k] = 1.0f;
    lb_quat_rotate(q, e, r);
    m[3 * k] = r[0];
    m[3 * k + 1] = r[1];
    m[3 * k + 2] = r[2];
  }
}

/* A mesh collider: its scaled rotation columns and the world box of the mesh's box. */
static void cl_place_mesh(const cl_mesh *m, cl_proxy *p, const lb_transform *xf) {
  versor q = {xf->r[0], xf->r[1], xf->r[2], xf->r[3]};
  lb_quat_normalize(q);
  cl_rotation_columns(q, p->m);
  float c[3], e[3];
  for (int k = 0; k < 3; ++k) {
    for (int i = 0; i < 3; ++i) {
      p->m[3 * k + i] *= xf->s[k];
    }
    c[k] = 0.5f * m->lo[k] + 0.5f * m->hi[k];
    e[k] = 0.5f * m->hi[k] - 0.5f * m->lo[k];
  }
  for (int i = 0; i < 3; ++i) {
    float wc = xf->t[i] + p->m[i] * c[0] + p->m[3 + i] * c[1] + p->m[6 + i] * c[2];
    float we = cl_absf(p->m[i]) * e[0] + cl_absf(p->m[3 + i]) * e[1] + cl_absf(p->m[6 + i]) * e[2];
    p->lo[i] = wc - we;
    p->hi[i] = wc + we;
  }
}

/* The resolved shape's half extent along world axis i (the columns are in p->m). */
static float cl_shape_extent(const cl_proxy *p, int i) {
  switch (p->shape.type) {
  case LB_SHAPE_BOX:
    return cl_absf(p->m[i]) * p->shape.half_extents[0] +
           cl_absf(p->m[3 + i]) * p->shape.half_extents[1] +
           cl_absf(p->m[6 + i]) * p->shape.half_extents[2];
  case LB_SHAPE_SPHERE:
    return p->shape.radius;
  case LB_SHAPE_CAPSULE:
    return cl_absf(p->m[i]) * (p->shape.half_height - p->shape.radius) + p->shape.radius;
  default: /* cylinder: the axis part plus the disc's extent across it */
    return cl_absf(p->m[i]) * p->shape.half_height +
           p->shape.radius * cl_sqrt(cl_maxf(0.0f, 1.0f - p->m[i] * p->m[i]));
  }
}

/* A primitive collider (resolved into p->shape): rotation columns with the shape's axis
 * first, bounding sphere, world box. */
static void cl_place_shape(cl_proxy *p) {
  float r[9];
  cl_rotation_columns(p->shape.rotation, r);
  /* Cylinders and capsules: column 0 is the shape's axis (geom's local convention). */
  int ax =
      p->shape.type == LB_SHAPE_BOX || p->shape.type == LB_SHAPE_SPHERE ? 0 : (int)p->shape.axis;
  for (int k = 0; k < 3; ++k) {
    int src = (ax + k) % 3;
    p->m[3 * k] = r[3 * src];
    p->m[3 * k + 1] = r[3 * src + 1];
    p->m[3 * k + 2] = r[3 * src + 2];
  }
  const float *c = p->shape.center;
  lb_vec3_copy(c, p->bc);
  const float *he = p->shape.half_extents;
  p->br = p->shape.type == LB_SHAPE_BOX      ? cl_sqrt(lb_vec3_dot(he, he))
          : p->shape.type == LB_SHAPE_SPHERE ? p->shape.radius
          : p->shape.type == LB_SHAPE_CAPSULE
              ? p->shape.half_height
              : cl_sqrt(p->shape.half_height * p->shape.half_height +
                        p->shape.radius * p->shape.radius);
  for (int i = 0; i < 3; ++i) {
    float we = cl_shape_extent(p, i);
    p->lo[i] = c[i] - we;
    p->hi[i] = c[i] + we;
  }
}

void cl_place(const cl_world *cw, cl_proxy *p, const lb_transform *xf) {
  p->xf = *xf;
  p->valid = 0;
  p->dirty = 0;
  for (int k = 0; k < 3; ++k) { /* empty until placed: no box test passes */
    p->lo[k] = 1e30f;
    p->hi[k] = -1e30f;
  }
  if (p->kind == LB_COLLIDER_MESH) {
    const cl_mesh *m = cl_mesh_get(cw, p->mesh);
    if (!m) {
      return;
    }
    cl_place_mesh(m, p, xf);
  } else if (lb_shape_resolve(&p->def, xf, &p->shape) == LB_OK) {
    cl_place_shape(p);
  } else {
    return; /* a scale that puts the shape beyond LB_SHAPE_MAX_EXTENT: not queryable */
  }
  cl_pad(p->lo, p->hi);
  p->valid = 1;
}

static void cl_rebuild(lb_world *w, cl_world *cw) {
  uint32_t n = 0, s;
  for (lb_each it = lb_each_begin(w, LB_COLLIDER); lb_each_next(&it, &s);) {
    const cl_proxy *p = cl_proxy_of(w, s);
    cw->slots[n] = s;
    memcpy(cw->lo + 3u * n, p->lo, 3 * sizeof(float));
    memcpy(cw->hi + 3u * n, p->hi, 3 * sizeof(float));
    n++;
  }
  cl_bvh_build(&cw->tree, cw->lo, cw->hi, cw->centroid, n);
  for (uint32_t i = 0; i < cw->tree.node_count; ++i) {
    const cl_node *nd = &cw->tree.nodes[i];
    for (int32_t k = 0; k < nd->n; ++k) {
      cl_proxy_of(w, cw->slots[cw->tree.items[nd->a + k]])->leaf = (int32_t)i;
    }
  }
  cw->rebuild = false;
}

void cl_sync(lb_world *w, bool stepped) {
  cl_world *cw = cl_state(w);
  if (!stepped && !cw->pending && !cw->rebuild) {
    return; /* the common case of a query: one branch */
  }
  uint32_t s;
  for (lb_each it = lb_each_begin(w, LB_COLLIDER); lb_each_next(&it, &s);) {
    cl_proxy *p = cl_proxy_of(w, s);
    lb_transform xf;
    if (stepped) {
      xf = w->world_xf[s];
    } else if (p->dirty) {
      cl_current_transform(w, s, &xf);
    } else {
      continue;
    }
    if (!p->dirty && p->valid && lb_xf_same_bits(&xf, &p->xf)) {
      continue;
    }
    cl_place(cw, p, &xf);
    if (!cw->rebuild && p->leaf >= 0) {
      /* Item boxes live in the tree's arrays, indexed by item id. */
      const cl_node *leaf = &cw->tree.nodes[p->leaf];
      for (int32_t k = 0; k < leaf->n; ++k) {
        uint32_t item = cw->tree.items[leaf->a + k];
        if (cw->slots[item] == s) {
          memcpy(cw->lo + 3u * item, p->lo, 3 * sizeof(float));
          memcpy(cw->hi + 3u * item, p->hi, 3 * sizeof(float));
        }
      }
      cl_bvh_refit_leaf(&cw->tree, p->leaf, cw->lo, cw->hi);
    }
  }
  if (cw->rebuild) {
    cl_rebuild(w, cw);
  }
  cw->pending = false;
}
