/* Overlap queries (sphere, capsule, oriented box): colliders whose shape touches the query
 * shape, found through the hierarchies and returned in entity order. */
#include "collide_internal.h"

#include <string.h>

typedef enum { CL_OV_SPHERE, CL_OV_CAPSULE, CL_OV_BOX } cl_ov_kind;

typedef struct cl_overlap {
  cl_ov_kind kind;
  cl_query q;              /* sphere / capsule: core and radius */
  float c[3], ax[9], h[3]; /* box */
  float lo[3], hi[3];      /* world bounds of the query shape */
} cl_overlap;

static bool cl_boxes_touch(const float *alo, const float *ahi, const float *blo, const float *bhi) {
  return alo[0] <= bhi[0] && blo[0] <= ahi[0] && alo[1] <= bhi[1] && blo[1] <= ahi[1] &&
         alo[2] <= bhi[2] && blo[2] <= ahi[2];
}

static bool cl_ov_triangle(const cl_overlap *o, const float *a, const float *b, const float *c) {
  if (o->kind == CL_OV_BOX) {
    return cl_box_overlaps_triangle(o->c, o->ax, o->h, a, b, c);
  }
  return cl_core_triangle_touches(&o->q, a, b, c);
}

static bool cl_ov_mesh(const cl_proxy *p, const cl_mesh *m, const cl_overlap *o) {
  /* The query's world bounds in the mesh frame: the bounds of its 8 corners. */
  float llo[3] = {0.0f, 0.0f, 0.0f}, lhi[3] = {0.0f, 0.0f, 0.0f};
  for (int c = 0; c < 8; ++c) {
    float x[3] = {c & 1 ? o->hi[0] : o->lo[0], c & 2 ? o->hi[1] : o->lo[1],
                  c & 4 ? o->hi[2] : o->lo[2]};
    float w[3], l[3];
    lb_vec3_sub(x, p->xf.t, w);
    for (int k = 0; k < 3; ++k) {
      const float *col = p->m + 3 * k;
      l[k] = lb_vec3_dot(col, w) / lb_vec3_dot(col, col);
      llo[k] = c == 0 ? l[k] : cl_minf(llo[k], l[k]);
      lhi[k] = c == 0 ? l[k] : cl_maxf(lhi[k], l[k]);
    }
  }
  for (int k = 0; k < 3; ++k) { /* rounding in the mapping must not cull a touching triangle */
    float e = (lhi[k] - llo[k]) * 1e-5f + 1e-6f;
    llo[k] -= e;
    lhi[k] += e;
  }
  int32_t stack[CL_STACK];
  int top = 0;
  stack[top++] = 0;
  float ta[3], tb[3], tc[3];
  while (top > 0) {
    const cl_node *nd = &m->bvh.nodes[stack[--top]];
    if (!cl_boxes_touch(nd->lo, nd->hi, llo, lhi)) {
      continue;
    }
    if (nd->n > 0) {
      for (int32_t i = 0; i < nd->n; ++i) {
        cl_triangle_world(p, m, m->bvh.items[nd->a + i], ta, tb, tc);
        if (cl_ov_triangle(o, ta, tb, tc)) {
          return true;
        }
      }
      continue;
    }
    if (top + 2 <= CL_STACK) {
      stack[top++] = nd->a;
      stack[top++] = (int32_t)(nd - m->bvh.nodes) + 1;
    }
  }
  return false;
}

static bool cl_ov_collider(const cl_world *cw, const cl_proxy *p, const cl_overlap *o) {
  if (!cl_boxes_touch(p->lo, p->hi, o->lo, o->hi)) {
    return false;
  }
  if (p->kind == LB_COLLIDER_MESH) {
    return cl_ov_mesh(p, cl_mesh_get(cw, p->mesh), o);
  }
  if (o->kind == CL_OV_BOX) {
    return cl_box_overlaps_prim(o->c, o->ax, o->h, p);
  }
  return cl_core_prim_touches(p, &o->q);
}

/* Slot s into the `cap` smallest slots found so far (out[0..kept), ascending). Results come in
 * tree order and are returned in entity order; keeping them in the caller's buffer, not in one
 * of the world's, lets queries run on several threads at once. */
static void cl_keep_smallest(lb_entity *out, uint32_t cap, uint32_t kept, uint32_t s) {
  uint32_t j = kept;
  if (kept == cap) {
    if (cap == 0 || out[cap - 1] <= s) {
      return;
    }
    j = cap - 1; /* the largest kept one makes room */
  }
  while (j > 0 && out[j - 1] > s) {
    out[j] = out[j - 1];
    --j;
  }
  out[j] = s;
}

static lb_result cl_overlap_run(lb_world *w, const cl_overlap *o, const lb_collide_filter *f,
                                lb_entity *out, uint32_t cap, uint32_t *count) {
  cl_sync(w, false);
  cl_world *cw = cl_state(w);
  uint32_t n = 0;
  if (cw->tree.node_count) {
    int32_t stack[CL_STACK];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const cl_node *nd = &cw->tree.nodes[stack[--top]];
      if (!cl_boxes_touch(nd->lo, nd->hi, o->lo, o->hi)) {
        continue;
      }
      if (nd->n > 0) {
        for (int32_t i = 0; i < nd->n; ++i) {
          uint32_t s = cw->slots[cw->tree.items[nd->a + i]];
          const cl_proxy *p = cl_proxy_of(w, s);
          if (p->valid && (p->layer & f->layers) != 0u &&
              (f->exclude == LB_NULL_ENTITY || lb_entity_of_slot(w, s) != f->exclude) &&
              cl_ov_collider(cw, p, o)) {
            cl_keep_smallest(out, cap, n < cap ? n : cap, s);
            n++;
          }
        }
        continue;
      }
      if (top + 2 <= CL_STACK) {
        stack[top++] = nd->a;
        stack[top++] = (int32_t)(nd - cw->tree.nodes) + 1;
      }
    }
  }
  for (uint32_t i = 0; i < n && i < cap; ++i) {
    out[i] = lb_entity_of_slot(w, out[i]);
  }
  *count = n;
  return LB_OK;
}

static lb_result cl_ov_check(lb_world *w, const char *fn, const lb_entity *out, uint32_t cap,
                             const uint32_t *count) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!count || (cap && !out)) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "%s: null output", fn);
  }
  return LB_OK;
}

static lb_result cl_ov_vec(lb_world *w, const char *fn, const char *field, const float *v) {
  if (!v) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "%s: field '%s' is null", fn, field);
  }
  for (int k = 0; k < 3; ++k) {
    if (!lb_is_finite(v[k])) {
      return lb_fail(w, LB_ERR_NOT_FINITE, "%s: field '%s' is not finite", fn, field);
    }
    if (cl_absf(v[k]) > LB_COLLIDE_MAX_EXTENT) {
      return lb_fail(w, LB_ERR_OUT_OF_RANGE, "%s: field '%s' has a coordinate beyond %g m", fn,
                     field, (double)LB_COLLIDE_MAX_EXTENT);
    }
  }
  return LB_OK;
}

static lb_result cl_ov_size(lb_world *w, const char *fn, const char *field, float x) {
  if (!lb_is_finite(x)) {
    return lb_fail(w, LB_ERR_NOT_FINITE, "%s: field '%s' is not finite", fn, field);
  }
  if (!(x > 0.0f) || x > LB_COLLIDE_MAX_EXTENT) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE, "%s: field '%s' = %g is outside (0, %g] m", fn, field,
                   (double)x, (double)LB_COLLIDE_MAX_EXTENT);
  }
  return LB_OK;
}

static lb_result cl_ov_segment(lb_world *w, const char *fn, const float *a, const float *b, float r,
                               const lb_collide_filter *f, lb_entity *out, uint32_t cap,
                               uint32_t *count) {
  lb_result res = cl_ov_check(w, fn, out, cap, count);
  if (res == LB_OK) {
    res = cl_ov_vec(w, fn, b != a ? "a" : "center", a);
  }
  if (res == LB_OK && b != a) {
    res = cl_ov_vec(w, fn, "b", b);
  }
  if (res == LB_OK) {
    res = cl_ov_size(w, fn, "radius", r);
  }
  if (res != LB_OK) {
    return res;
  }
  cl_overlap o;
  memset(&o, 0, sizeof o);
  o.kind = b != a ? CL_OV_CAPSULE : CL_OV_SPHERE;
  lb_vec3_copy(a, o.q.a);
  lb_vec3_copy(b, o.q.b);
  lb_vec3_sub(b, a, o.q.e);
  o.q.segment = o.q.e[0] != 0.0f || o.q.e[1] != 0.0f || o.q.e[2] != 0.0f;
  o.q.r = r;
  for (int k = 0; k < 3; ++k) {
    o.lo[k] = cl_minf(a[k], b[k]) - r;
    o.hi[k] = cl_maxf(a[k], b[k]) + r;
  }
  lb_collide_filter use = f ? *f : lb_collide_default_filter();
  return cl_overlap_run(w, &o, &use, out, cap, count);
}

lb_result lb_world_overlap_sphere(lb_world *w, const vec3 center, float radius,
                                  const lb_collide_filter *filter, lb_entity *out, uint32_t cap,
                                  uint32_t *count) {
  return cl_ov_segment(w, "overlapSphere", center, center, radius, filter, out, cap, count);
}

lb_result lb_world_overlap_capsule(lb_world *w, const vec3 a, const vec3 b, float radius,
                                   const lb_collide_filter *filter, lb_entity *out, uint32_t cap,
                                   uint32_t *count) {
  if (a == b) { /* the same array twice: still a capsule query, of zero length */
    vec3 b2 = {b[0], b[1], b[2]};
    return cl_ov_segment(w, "overlapCapsule", a, b2, radius, filter, out, cap, count);
  }
  return cl_ov_segment(w, "overlapCapsule", a, b, radius, filter, out, cap, count);
}

lb_result lb_world_overlap_box(lb_world *w, const vec3 center, const versor rotation,
                               const vec3 half_extents, const lb_collide_filter *filter,
                               lb_entity *out, uint32_t cap, uint32_t *count) {
  const char *fn = "overlapBox";
  lb_result res = cl_ov_check(w, fn, out, cap, count);
  if (res == LB_OK) {
    res = cl_ov_vec(w, fn, "center", center);
  }
  if (res == LB_OK && !rotation) {
    res = lb_fail(w, LB_ERR_INVALID_ARGUMENT, "%s: field 'rotation' is null", fn);
  }
  if (res == LB_OK) {
    for (int k = 0; k < 4 && res == LB_OK; ++k) {
      if (!lb_is_finite(rotation[k])) {
        res = lb_fail(w, LB_ERR_NOT_FINITE, "%s: field 'rotation' is not finite", fn);
      }
    }
  }
  float n2 = 0.0f;
  if (res == LB_OK) {
    n2 = rotation[0] * rotation[0] + rotation[1] * rotation[1] + rotation[2] * rotation[2] +
         rotation[3] * rotation[3];
    if (cl_absf(n2 - 1.0f) > 1e-3f) {
      res = lb_fail(w, LB_ERR_OUT_OF_RANGE,
                    "%s: field 'rotation' is not a unit quaternion (squared length %g)", fn,
                    (double)n2);
    }
  }
  if (res == LB_OK && !half_extents) {
    res = lb_fail(w, LB_ERR_INVALID_ARGUMENT, "%s: field 'halfExtents' is null", fn);
  }
  for (int k = 0; k < 3 && res == LB_OK; ++k) {
    res = cl_ov_size(w, fn, "halfExtents", half_extents[k]);
  }
  if (res != LB_OK) {
    return res;
  }
  cl_overlap o;
  memset(&o, 0, sizeof o);
  o.kind = CL_OV_BOX;
  versor q = {rotation[0], rotation[1], rotation[2], rotation[3]};
  lb_quat_normalize(q);
  for (int k = 0; k < 3; ++k) {
    vec3 e = {0.0f, 0.0f, 0.0f}, r;
    e[k] = 1.0f;
    lb_quat_rotate(q, e, r);
    lb_vec3_copy(r, o.ax + 3 * k);
  }
  lb_vec3_copy(center, o.c);
  lb_vec3_copy(half_extents, o.h);
  for (int i = 0; i < 3; ++i) {
    float e =
        cl_absf(o.ax[i]) * o.h[0] + cl_absf(o.ax[3 + i]) * o.h[1] + cl_absf(o.ax[6 + i]) * o.h[2];
    e += e * 1e-6f + 1e-6f;
    o.lo[i] = center[i] - e;
    o.hi[i] = center[i] + e;
  }
  lb_collide_filter use = filter ? *filter : lb_collide_default_filter();
  return cl_overlap_run(w, &o, &use, out, cap, count);
}
