/* The public queries: input checks, the walks over the collider hierarchy (and each mesh's
 * triangle hierarchy), the brute-force references, and the deterministic choice among equal
 * results (lowest entity slot, then lowest triangle). */
#include "collide_internal.h"

#include <string.h>

/* The box test of the casts' walks, kept inline in each walk (a call per box would cost as much
 * as the test). */
#define CL_INLINE static inline __attribute__((always_inline))

lb_collide_filter lb_collide_default_filter(void) {
  lb_collide_filter f;
  f.layers = 0xFFFFFFFFu;
  f.exclude = LB_NULL_ENTITY;
  return f;
}

/* ---- input checks ---------------------------------------------------------------------------- */
/* Within the extent on every axis (false for NaN and infinities: no comparison holds). */
static bool cl_vec_ok(const float *v) {
  return v && cl_absf(v[0]) <= LB_COLLIDE_MAX_EXTENT && cl_absf(v[1]) <= LB_COLLIDE_MAX_EXTENT &&
         cl_absf(v[2]) <= LB_COLLIDE_MAX_EXTENT;
}

static lb_result cl_check_vec(lb_world *w, const char *fn, const char *field, const float *v) {
  if (cl_vec_ok(v)) {
    return LB_OK; /* the common case: one pass, no call */
  }
  if (!v) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "%s: field '%s' is null", fn, field);
  }
  if (!lb_is_finite(v[0]) || !lb_is_finite(v[1]) || !lb_is_finite(v[2])) {
    return lb_fail(w, LB_ERR_NOT_FINITE, "%s: field '%s' is not finite", fn, field);
  }
  if (!cl_vec_ok(v)) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE, "%s: field '%s' has a coordinate beyond %g m", fn, field,
                   (double)LB_COLLIDE_MAX_EXTENT);
  }
  return LB_OK;
}

static lb_result cl_check_size(lb_world *w, const char *fn, const char *field, float x,
                               bool zero_ok) {
  if (!lb_is_finite(x)) {
    return lb_fail(w, LB_ERR_NOT_FINITE, "%s: field '%s' is not finite", fn, field);
  }
  if ((zero_ok ? x < 0.0f : !(x > 0.0f)) || x > LB_COLLIDE_MAX_EXTENT) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE, "%s: field '%s' = %g is outside %s0, %g] m", fn, field,
                   (double)x, zero_ok ? "[" : "(", (double)LB_COLLIDE_MAX_EXTENT);
  }
  return LB_OK;
}

static lb_result cl_check_common(lb_world *w, const char *fn, const void *out,
                                 const lb_collide_filter *f, lb_collide_filter *use) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!out) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "%s: null output", fn);
  }
  *use = f ? *f : lb_collide_default_filter();
  return LB_OK;
}

/* Direction checked and normalised into q->d; zero allowed only for a zero-length cast. */
static lb_result cl_check_cast(lb_world *w, const char *fn, const float *dir, float maxd,
                               cl_query *q) {
  lb_result r = cl_check_vec(w, fn, "dir", dir);
  if (r == LB_OK) {
    r = cl_check_size(w, fn, "maxDistance", maxd, true);
  }
  if (r != LB_OK) {
    return r;
  }
  static const float zero[3] = {0.0f, 0.0f, 0.0f};
  float l = cl_normalize(dir, q->d, zero);
  if (!(l > 0.0f) && maxd > 0.0f) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                   "%s: field 'dir' is zero (only a zero-length cast, maxDistance 0, may have no "
                   "direction)",
                   fn);
  }
  if (!(l > 0.0f)) {
    lb_vec3_copy(zero, q->d);
  }
  q->maxd = maxd;
  return LB_OK;
}

/* ---- shared walking ----------------------------------------------------------------------------
 */
typedef struct cl_best {
  float v;
  uint32_t slot;
  int32_t tri;
  bool found;
} cl_best;

static bool cl_better(const cl_best *b, float v, uint32_t slot, int32_t tri) {
  if (!(v <= b->v)) {
    return false;
  }
  if (!b->found || v < b->v) {
    return true;
  }
  return slot < b->slot || (slot == b->slot && tri < b->tri);
}

static void cl_take_best(cl_best *b, float v, uint32_t slot, int32_t tri) {
  if (cl_better(b, v, slot, tri)) {
    b->v = v;
    b->slot = slot;
    b->tri = tri;
    b->found = true;
  }
}

static bool cl_sees(const lb_world *w, const cl_proxy *p, uint32_t slot,
                    const lb_collide_filter *f) {
  return p->valid && (p->layer & f->layers) != 0u &&
         (f->exclude == LB_NULL_ENTITY || lb_entity_of_slot(w, slot) != f->exclude);
}

/* World vector v into a mesh proxy's frame (inverse of r * s, no translation). */
static void cl_mesh_local_dir(const cl_proxy *p, const float *v, float *out) {
  for (int k = 0; k < 3; ++k) {
    const float *c = p->m + 3 * k;
    out[k] = lb_vec3_dot(c, v) / lb_vec3_dot(c, c);
  }
}

static void cl_inv_dir(const float *d, float *inv) {
  for (int k = 0; k < 3; ++k) {
    inv[k] = d[k] != 0.0f ? 1.0f / d[k] : 0.0f;
  }
}

/* ---- casts ------------------------------------------------------------------------------- */
static void cl_cast_mesh(const cl_proxy *p, const cl_mesh *m, uint32_t slot, const cl_query *q,
                         cl_best *best, bool brute) {
  float ta[3], tb[3], tc[3];
  if (brute) {
    for (uint32_t t = 0; t < m->triangle_count; ++t) {
      cl_triangle_world(p, m, t, ta, tb, tc);
      float h = cl_cast_triangle(q, ta, tb, tc);
      if (h >= 0.0f) {
        cl_take_best(best, h, slot, (int32_t)t);
      }
    }
    return;
  }
  float o[3], w[3], ld[3], le[3], inv[3], glo[3], ghi[3];
  lb_vec3_sub(q->a, p->xf.t, w);
  cl_mesh_local_dir(p, w, o);
  cl_mesh_local_dir(p, q->d, ld);
  cl_mesh_local_dir(p, q->e, le);
  cl_inv_dir(ld, inv);
  for (int k = 0; k < 3; ++k) {
    float s = cl_sqrt(lb_vec3_dot(p->m + 3 * k, p->m + 3 * k));
    float r = q->r / s;
    glo[k] = -cl_maxf(0.0f, le[k]) - r; /* the core a + s e meets a box B iff a is in B - s e */
    ghi[k] = -cl_minf(0.0f, le[k]) + r;
  }
  int32_t stack[CL_STACK];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const cl_node *nd = &m->bvh.nodes[stack[--top]];
    float lo[3], hi[3];
    for (int k = 0; k < 3; ++k) {
      lo[k] = nd->lo[k] + glo[k];
      hi[k] = nd->hi[k] + ghi[k];
    }
    if (cl_ray_box_enter(o, inv, lo, hi, best->v) < 0.0f) {
      continue;
    }
    if (nd->n > 0) {
      for (int32_t i = 0; i < nd->n; ++i) {
        uint32_t t = m->bvh.items[nd->a + i];
        cl_triangle_world(p, m, t, ta, tb, tc);
        float h = cl_cast_triangle(q, ta, tb, tc);
        if (h >= 0.0f) {
          cl_take_best(best, h, slot, (int32_t)t);
        }
      }
      continue;
    }
    int32_t self = (int32_t)(nd - m->bvh.nodes);
    if (top + 2 <= CL_STACK) {
      stack[top++] = nd->a;
      stack[top++] = self + 1;
    }
  }
}

static void cl_cast_visit(const lb_world *w, const cl_world *cw, uint32_t slot, const cl_query *q,
                          const lb_collide_filter *f, cl_best *best, bool brute) {
  const cl_proxy *p = cl_proxy_of(w, slot);
  if (!cl_sees(w, p, slot, f)) {
    return;
  }
  if (p->kind == LB_COLLIDER_MESH) {
    cl_cast_mesh(p, cl_mesh_get(cw, p->mesh), slot, q, best, brute);
    return;
  }
  float t = cl_cast_prim(p, q);
  if (t >= 0.0f) {
    cl_take_best(best, t, slot, -1);
  }
}

static void cl_result(lb_world *w, const cl_world *cw, const cl_best *b, const cl_query *q,
                      bool closest, const float *point_query, lb_collide_hit *out) {
  memset(out, 0, sizeof *out);
  out->triangle = -1;
  if (!b->found) {
    return;
  }
  const cl_proxy *p = cl_proxy_of(w, b->slot);
  out->entity = lb_entity_of_slot(w, b->slot);
  out->distance = b->v;
  out->triangle = b->tri;
  if (p->kind != LB_COLLIDER_MESH) {
    if (closest) {
      cl_prim_closest(p, point_query, out->point, out->normal);
    } else {
      cl_contact_prim(p, q, b->v, out->point, out->normal);
    }
    return;
  }
  float ta[3], tb[3], tc[3];
  cl_triangle_world(p, cl_mesh_get(cw, p->mesh), (uint32_t)b->tri, ta, tb, tc);
  if (closest) {
    cl_triangle_closest_normal(point_query, ta, tb, tc, out->point, out->normal);
    return;
  }
  cl_contact_triangle(q, b->v, ta, tb, tc, out->point, out->normal);
}

/* The swept query (q->a + t d, grown by the query's segment and radius) enters the box
 * [lo, hi] before `tmax`. */
CL_INLINE bool cl_cast_enters(const cl_query *q, const float *inv, const float *glo,
                              const float *ghi, const float *blo, const float *bhi, float tmax) {
  float lo[3], hi[3];
  for (int k = 0; k < 3; ++k) {
    lo[k] = blo[k] + glo[k];
    hi[k] = bhi[k] + ghi[k];
  }
  return cl_ray_box_enter(q->a, inv, lo, hi, tmax) >= 0.0f;
}

/* What cl_cast_enters needs of a query: its inverse direction, and how a box grows by the
 * query's core and radius. */
static void cl_cast_growth(const cl_query *q, float *inv, float *glo, float *ghi) {
  cl_inv_dir(q->d, inv);
  for (int k = 0; k < 3; ++k) {
    glo[k] = -cl_maxf(0.0f, q->e[k]) - q->r;
    ghi[k] = -cl_minf(0.0f, q->e[k]) + q->r;
  }
}

/* The collider tree walk. A leaf's colliders are each tested against their own bounds first
 * (the test a one-item leaf would make; bounds are padded, so it only skips misses): most
 * leaves of a level hold a wall or two the query passes by, and the exact cast costs several
 * times the box test. Visiting order does not change the answer (cl_better is a total order). */
static void cl_cast_tree(lb_world *w, const cl_world *cw, const cl_query *q,
                         const lb_collide_filter *f, cl_best *best) {
  float inv[3], glo[3], ghi[3];
  cl_cast_growth(q, inv, glo, ghi);
  int32_t stack[CL_STACK];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const cl_node *nd = &cw->tree.nodes[stack[--top]];
    if (!cl_cast_enters(q, inv, glo, ghi, nd->lo, nd->hi, best->v)) {
      continue;
    }
    if (nd->n > 0) {
      for (int32_t i = 0; i < nd->n; ++i) {
        uint32_t it = cw->tree.items[nd->a + i];
        if (nd->n == 1 ||
            cl_cast_enters(q, inv, glo, ghi, cw->lo + 3u * it, cw->hi + 3u * it, best->v)) {
          cl_cast_visit(w, cw, cw->slots[it], q, f, best, false);
        }
      }
      continue;
    }
    int32_t self = (int32_t)(nd - cw->tree.nodes);
    if (top + 2 <= CL_STACK) {
      stack[top++] = nd->a;
      stack[top++] = self + 1;
    }
  }
}

/* Box [blo, bhi] touches [lo, hi] (closed). */
static bool cl_boxes_meet(const float *lo, const float *hi, const float *blo, const float *bhi) {
  return !(blo[0] > hi[0] || bhi[0] < lo[0] || blo[1] > hi[1] || bhi[1] < lo[1] || blo[2] > hi[2] ||
           bhi[2] < lo[2]);
}

/* The colliders the filter sees whose bounds reach within `margin` of [lo, hi], into the region
 * (count CL_REGION_ITEMS + 1 when there are more). */
void cl_region_gather(lb_world *w, const float *lo, const float *hi, float margin,
                      const lb_collide_filter *f, cl_region *out) {
  float glo[3], ghi[3]; /* the box grown by the margin, once */
  for (int k = 0; k < 3; ++k) {
    out->lo[k] = lo[k];
    out->hi[k] = hi[k];
    glo[k] = lo[k] - margin;
    ghi[k] = hi[k] + margin;
  }
  out->count = 0;
  cl_sync(w, false);
  const cl_world *cw = cl_state(w);
  int32_t stack[CL_STACK];
  int top = cw->tree.node_count ? 1 : 0;
  stack[0] = 0;
  while (top > 0) {
    const cl_node *nd = &cw->tree.nodes[stack[--top]];
    if (!cl_boxes_meet(glo, ghi, nd->lo, nd->hi)) {
      continue;
    }
    for (int32_t i = 0; i < nd->n; ++i) {
      uint32_t it = cw->tree.items[nd->a + i], slot = cw->slots[it];
      if (!cl_boxes_meet(glo, ghi, cw->lo + 3u * it, cw->hi + 3u * it) ||
          !cl_sees(w, cl_proxy_of(w, slot), slot, f)) {
        continue;
      }
      if (out->count == CL_REGION_ITEMS) {
        out->count = CL_REGION_ITEMS + 1u;
        return;
      }
      out->items[out->count++] = it;
    }
    if (nd->n == 0 && top + 2 <= CL_STACK) {
      stack[top++] = nd->a;
      stack[top++] = (int32_t)(nd - cw->tree.nodes) + 1;
    }
  }
}

/* The query's swept bounds (its core and radius from t = 0 to maxd) inside the region's box. */
static bool cl_region_holds(const cl_region *rg, const cl_query *q) {
  if (rg->count > CL_REGION_ITEMS) {
    return false;
  }
  for (int k = 0; k < 3; ++k) {
    float s = q->d[k] * q->maxd;
    float lo = cl_minf(q->a[k], q->b[k]) + cl_minf(0.0f, s) - q->r;
    float hi = cl_maxf(q->a[k], q->b[k]) + cl_maxf(0.0f, s) + q->r;
    if (!(lo >= rg->lo[k] && hi <= rg->hi[k])) {
      return false;
    }
  }
  return true;
}

/* The region's colliders, each behind the tree walk's own box test: the same answer as the walk
 * (cl_cast_tree: visiting order does not change it). */
static void cl_cast_items(lb_world *w, const cl_world *cw, const cl_region *rg, const cl_query *q,
                          const lb_collide_filter *f, cl_best *best) {
  float inv[3], glo[3], ghi[3];
  cl_cast_growth(q, inv, glo, ghi);
  for (uint32_t i = 0; i < rg->count; ++i) {
    uint32_t it = rg->items[i];
    if (cl_cast_enters(q, inv, glo, ghi, cw->lo + 3u * it, cw->hi + 3u * it, best->v)) {
      cl_cast_visit(w, cw, cw->slots[it], q, f, best, false);
    }
  }
}

static void cl_cast_run(lb_world *w, const cl_region *rg, const cl_query *q,
                        const lb_collide_filter *f, bool brute, lb_collide_hit *out) {
  cl_sync(w, false);
  cl_world *cw = cl_state(w);
  cl_best best = {q->maxd, 0, -1, false};
  if (rg && cl_region_holds(rg, q)) {
    cl_cast_items(w, cw, rg, q, f, &best);
  } else if (brute) {
    uint32_t s;
    for (lb_each it = lb_each_begin(w, LB_COLLIDER); lb_each_next(&it, &s);) {
      cl_cast_visit(w, cw, s, q, f, &best, true);
    }
  } else if (cw->tree.node_count) {
    cl_cast_tree(w, cw, q, f, &best);
  }
  cl_result(w, cw, &best, q, false, NULL, out);
}

static lb_result cl_cast_api(lb_world *w, const cl_region *rg, const char *fn, const float *a,
                             const float *b, float r, const float *dir, float maxd,
                             const lb_collide_filter *f, lb_collide_hit *out, bool brute) {
  lb_collide_filter use;
  lb_result res = cl_check_common(w, fn, out, f, &use);
  if (res != LB_OK) {
    return res;
  }
  cl_query q;
  memset(&q, 0, sizeof q);
  const char *fa = b ? "a" : (r > 0.0f ? "center" : "origin");
  res = cl_check_vec(w, fn, fa, a);
  if (res == LB_OK && b) {
    res = cl_check_vec(w, fn, "b", b);
  }
  if (res == LB_OK && (b || r != 0.0f)) {
    res = cl_check_size(w, fn, "radius", r, false);
  }
  if (res == LB_OK) {
    res = cl_check_cast(w, fn, dir, maxd, &q);
  }
  if (res != LB_OK) {
    return res;
  }
  lb_vec3_copy(a, q.a);
  lb_vec3_copy(b ? b : a, q.b);
  lb_vec3_sub(q.b, q.a, q.e);
  q.segment = q.e[0] != 0.0f || q.e[1] != 0.0f || q.e[2] != 0.0f;
  q.r = r;
  cl_cast_run(w, rg, &q, &use, brute, out);
  return LB_OK;
}

lb_result lb_world_raycast(lb_world *w, const vec3 origin, const vec3 dir, float max_distance,
                           const lb_collide_filter *filter, lb_collide_hit *out) {
  return cl_region_raycast(w, NULL, origin, dir, max_distance, filter, out);
}
lb_result lb_world_raycast_brute(lb_world *w, const vec3 origin, const vec3 dir, float max_distance,
                                 const lb_collide_filter *filter, lb_collide_hit *out) {
  return cl_cast_api(w, NULL, "raycast", origin, NULL, 0.0f, dir, max_distance, filter, out, true);
}
lb_result lb_world_sphere_cast(lb_world *w, const vec3 center, float radius, const vec3 dir,
                               float max_distance, const lb_collide_filter *filter,
                               lb_collide_hit *out) {
  return cl_region_sphere_cast(w, NULL, center, radius, dir, max_distance, filter, out);
}
lb_result lb_world_sphere_cast_brute(lb_world *w, const vec3 center, float radius, const vec3 dir,
                                     float max_distance, const lb_collide_filter *filter,
                                     lb_collide_hit *out) {
  return cl_cast_api(w, NULL, "sphereCast", center, NULL, radius, dir, max_distance, filter, out,
                     true);
}
lb_result lb_world_capsule_cast(lb_world *w, const vec3 a, const vec3 b, float radius,
                                const vec3 dir, float max_distance, const lb_collide_filter *filter,
                                lb_collide_hit *out) {
  return cl_region_capsule_cast(w, NULL, a, b, radius, dir, max_distance, filter, out);
}
lb_result lb_world_capsule_cast_brute(lb_world *w, const vec3 a, const vec3 b, float radius,
                                      const vec3 dir, float max_distance,
                                      const lb_collide_filter *filter, lb_collide_hit *out) {
  return cl_cast_api(w, NULL, "capsuleCast", a, b, radius, dir, max_distance, filter, out, true);
}

lb_result cl_region_capsule_cast(lb_world *w, const cl_region *rg, const vec3 a, const vec3 b,
                                 float radius, const vec3 dir, float max_distance,
                                 const lb_collide_filter *filter, lb_collide_hit *out) {
  return cl_cast_api(w, rg, "capsuleCast", a, b, radius, dir, max_distance, filter, out, false);
}
lb_result cl_region_sphere_cast(lb_world *w, const cl_region *rg, const vec3 center, float radius,
                                const vec3 dir, float max_distance, const lb_collide_filter *filter,
                                lb_collide_hit *out) {
  if (w && lb_is_finite(radius) && !(radius > 0.0f)) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE, "sphereCast: field 'radius' = %g must be > 0",
                   (double)radius);
  }
  return cl_cast_api(w, rg, "sphereCast", center, NULL, radius, dir, max_distance, filter, out,
                     false);
}
lb_result cl_region_raycast(lb_world *w, const cl_region *rg, const vec3 origin, const vec3 dir,
                            float max_distance, const lb_collide_filter *filter,
                            lb_collide_hit *out) {
  return cl_cast_api(w, rg, "raycast", origin, NULL, 0.0f, dir, max_distance, filter, out, false);
}

/* ---- closest point ----------------------------------------------------------------------- */
static void cl_closest_mesh(const cl_proxy *p, const cl_mesh *m, uint32_t slot, const float *x,
                            cl_best *best, bool brute) {
  float ta[3], tb[3], tc[3], q[3];
  if (brute) {
    for (uint32_t t = 0; t < m->triangle_count; ++t) {
      cl_triangle_world(p, m, t, ta, tb, tc);
      cl_take_best(best, cl_triangle_closest(x, ta, tb, tc, q), slot, (int32_t)t);
    }
    return;
  }
  float w[3], lx[3], smin = 0.0f;
  lb_vec3_sub(x, p->xf.t, w);
  cl_mesh_local_dir(p, w, lx);
  for (int k = 0; k < 3; ++k) {
    float s = cl_sqrt(lb_vec3_dot(p->m + 3 * k, p->m + 3 * k));
    smin = k == 0 ? s : cl_minf(smin, s);
  }
  smin *= 0.99999f; /* a lower bound of world distances, whatever the rounding */
  int32_t stack[CL_STACK];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const cl_node *nd = &m->bvh.nodes[stack[--top]];
    if (smin * cl_sqrt(cl_box_dist2(lx, nd->lo, nd->hi)) > cl_maxf(best->v, 0.0f)) {
      continue;
    }
    if (nd->n > 0) {
      for (int32_t i = 0; i < nd->n; ++i) {
        uint32_t t = m->bvh.items[nd->a + i];
        cl_triangle_world(p, m, t, ta, tb, tc);
        cl_take_best(best, cl_triangle_closest(x, ta, tb, tc, q), slot, (int32_t)t);
      }
      continue;
    }
    int32_t self = (int32_t)(nd - m->bvh.nodes);
    const cl_node *l = &m->bvh.nodes[self + 1], *r = &m->bvh.nodes[nd->a];
    bool left_first = cl_box_dist2(lx, l->lo, l->hi) <= cl_box_dist2(lx, r->lo, r->hi);
    if (top + 2 <= CL_STACK) {
      stack[top++] = left_first ? nd->a : self + 1;
      stack[top++] = left_first ? self + 1 : nd->a;
    }
  }
}

static void cl_closest_visit(const lb_world *w, const cl_world *cw, uint32_t slot, const float *x,
                             const lb_collide_filter *f, cl_best *best, bool brute) {
  const cl_proxy *p = cl_proxy_of(w, slot);
  if (!cl_sees(w, p, slot, f)) {
    return;
  }
  if (p->kind == LB_COLLIDER_MESH) {
    cl_closest_mesh(p, cl_mesh_get(cw, p->mesh), slot, x, best, brute);
    return;
  }
  float q[3], n[3];
  cl_take_best(best, cl_prim_closest(p, x, q, n), slot, -1);
}

static lb_result cl_closest_api(lb_world *w, const vec3 x, float maxd, const lb_collide_filter *f,
                                lb_collide_hit *out, bool brute) {
  const char *fn = "closestPoint";
  lb_collide_filter use;
  lb_result r = cl_check_common(w, fn, out, f, &use);
  if (r == LB_OK) {
    r = cl_check_vec(w, fn, "point", x);
  }
  if (r == LB_OK && (!lb_is_finite(maxd) || cl_absf(maxd) > LB_COLLIDE_MAX_EXTENT)) {
    r = lb_fail(w, lb_is_finite(maxd) ? LB_ERR_OUT_OF_RANGE : LB_ERR_NOT_FINITE,
                "%s: field 'maxDistance' = %g must be finite, within +-%g m", fn, (double)maxd,
                (double)LB_COLLIDE_MAX_EXTENT);
  }
  if (r != LB_OK) {
    return r;
  }
  cl_sync(w, false);
  cl_world *cw = cl_state(w);
  cl_best best = {maxd, 0, -1, false};
  if (brute) {
    uint32_t s;
    for (lb_each it = lb_each_begin(w, LB_COLLIDER); lb_each_next(&it, &s);) {
      cl_closest_visit(w, cw, s, x, &use, &best, true);
    }
  } else if (cw->tree.node_count) {
    int32_t stack[CL_STACK];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const cl_node *nd = &cw->tree.nodes[stack[--top]];
      if (cl_sqrt(cl_box_dist2(x, nd->lo, nd->hi)) > cl_maxf(best.v, 0.0f)) {
        continue;
      }
      if (nd->n > 0) {
        for (int32_t i = 0; i < nd->n; ++i) {
          cl_closest_visit(w, cw, cw->slots[cw->tree.items[nd->a + i]], x, &use, &best, false);
        }
        continue;
      }
      int32_t self = (int32_t)(nd - cw->tree.nodes);
      const cl_node *l = &cw->tree.nodes[self + 1], *rn = &cw->tree.nodes[nd->a];
      bool left_first = cl_box_dist2(x, l->lo, l->hi) <= cl_box_dist2(x, rn->lo, rn->hi);
      if (top + 2 <= CL_STACK) {
        stack[top++] = left_first ? nd->a : self + 1;
        stack[top++] = left_first ? self + 1 : nd->a;
      }
    }
  }
  cl_result(w, cw, &best, NULL, true, x, out);
  return LB_OK;
}

lb_result lb_world_closest_point(lb_world *w, const vec3 p, float max_distance,
                                 const lb_collide_filter *filter, lb_collide_hit *out) {
  return cl_closest_api(w, p, max_distance, filter, out, false);
}
lb_result lb_world_closest_point_brute(lb_world *w, const vec3 p, float max_distance,
                                       const lb_collide_filter *filter, lb_collide_hit *out) {
  return cl_closest_api(w, p, max_distance, filter, out, true);
}

lb_result lb_world_collider_bounds(lb_world *w, lb_entity e, vec3 lo, vec3 hi) {
  if (!w || !lo || !hi) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "colliderBounds: null output")
             : LB_ERR_INVALID_ARGUMENT;
  }
  int s = lb_slot_checked(w, e, "colliderBounds");
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  if (!lb_slot_has(w, (uint32_t)s, LB_COLLIDER)) {
    char lbl[48];
    return lb_fail(w, LB_ERR_MISSING_COMPONENT, "colliderBounds: %s has no Collider",
                   lb_entity_label(e, lbl, sizeof lbl));
  }
  cl_sync(w, false);
  const cl_proxy *p = cl_proxy_of(w, (uint32_t)s);
  lb_vec3_copy(p->lo, lo);
  lb_vec3_copy(p->hi, hi);
  return LB_OK;
}
