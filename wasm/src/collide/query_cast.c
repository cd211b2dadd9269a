/* Casts of a ray, sphere or capsule against one collider, and the contact they report.
 * Spheres, capsules, boxes and triangles are exact Minkowski-sum ray tests (query_ray.c):
 * a capsule against a box or triangle touches first with an end sphere or with its core
 * against an edge (a face contact of a parallel core also touches the face's edges), so
 * end-sphere casts plus segment-against-edge casts cover every first contact. Cylinders
 * (a sphere or capsule against their rims has no closed form without a quartic) are solved
 * by conservative advancement on the exact signed distance, which is convex along the cast:
 * steps never pass the first contact, and a grazing approach falls back to a golden-section
 * search for the closest approach plus bisection. */
#include "collide_internal.h"

#define CL_GOLDEN 0.381966011f   /* 2 - golden ratio */
#define CL_SEGMENT_ITERATIONS 40 /* bisection and golden-section steps */
#define CL_ADVANCE_STEPS 48

static float cl_core_point_prim(const cl_proxy *p, const float *x) {
  float q[3], n[3];
  return cl_prim_closest(p, x, q, n);
}

/* Minimum over s in [0, 1] of the convex distance along the core: bisection on the sign of
 * its derivative, the normal at the closest point dotted with the core direction. The
 * derivative locates the minimum to rounding level, where a search on values alone would stop
 * at the square root of it (the distance is flat there). */
typedef float (*cl_fn)(const void *ctx, float s, float *slope);
static float cl_segment_min(cl_fn f, const void *ctx, float *s_out) {
  float g0, g1;
  float f0 = f(ctx, 0.0f, &g0);
  if (g0 >= 0.0f) {
    *s_out = 0.0f; /* also a parallel contact: it reports the core's start */
    return f0;
  }
  float f1 = f(ctx, 1.0f, &g1);
  if (g1 <= 0.0f) {
    *s_out = 1.0f;
    return f1;
  }
  float lo = 0.0f, hi = 1.0f, mid = 0.5f, fm = f0 < f1 ? f0 : f1;
  for (int i = 0; i < CL_SEGMENT_ITERATIONS; ++i) {
    mid = 0.5f * lo + 0.5f * hi;
    if (mid <= lo || mid >= hi) {
      break;
    }
    float gm;
    fm = f(ctx, mid, &gm);
    if (gm == 0.0f) {
      break;
    }
    if (gm < 0.0f) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  *s_out = mid;
  return fm;
}

typedef struct cl_seg_ctx {
  const cl_query *q;
  float t;
  const cl_proxy *p;
  const float *ta, *tb, *tc;
} cl_seg_ctx;

static void cl_core_at(const cl_query *q, float t, float s, float *x) {
  for (int i = 0; i < 3; ++i) {
    x[i] = q->a[i] + q->e[i] * s + q->d[i] * t;
  }
}

static float cl_seg_prim(const void *ctx, float s, float *slope) {
  const cl_seg_ctx *c = ctx;
  float x[3], q[3], n[3];
  cl_core_at(c->q, c->t, s, x);
  float d = cl_prim_closest(c->p, x, q, n);
  *slope = lb_vec3_dot(n, c->q->e);
  return d;
}

static float cl_seg_tri(const void *ctx, float s, float *slope) {
  const cl_seg_ctx *c = ctx;
  float x[3], q[3], v[3];
  cl_core_at(c->q, c->t, s, x);
  float d = cl_triangle_closest(x, c->ta, c->tb, c->tc, q);
  lb_vec3_sub(x, q, v);
  *slope = d > 0.0f ? lb_vec3_dot(v, c->q->e) / d : 0.0f; /* 0: the core crosses the triangle */
  return d;
}

float cl_core_prim_distance(const cl_proxy *p, const cl_query *q, float t, float *s_out) {
  if (!q->segment) {
    float x[3];
    cl_core_at(q, t, 0.0f, x);
    *s_out = 0.0f;
    return cl_core_point_prim(p, x);
  }
  cl_seg_ctx c = {q, t, p, NULL, NULL, NULL};
  return cl_segment_min(cl_seg_prim, &c, s_out);
}

float cl_core_triangle_distance(const cl_query *q, float t, const float *a, const float *b,
                                const float *tc, float *s_out) {
  if (!q->segment) {
    float x[3], cq[3];
    cl_core_at(q, t, 0.0f, x);
    *s_out = 0.0f;
    return cl_triangle_closest(x, a, b, tc, cq);
  }
  cl_seg_ctx c = {q, t, NULL, a, b, tc};
  return cl_segment_min(cl_seg_tri, &c, s_out);
}

/* ---- iterative solve (cylinders) ---------------------------------------------------------- */
static float cl_gap(const cl_proxy *p, const cl_query *q, float t) {
  float s;
  return cl_core_prim_distance(p, q, t, &s) - q->r;
}

static float cl_cast_iterative(const cl_proxy *p, const cl_query *q) {
  float t = 0.0f;
  for (int i = 0; i < CL_ADVANCE_STEPS; ++i) {
    float g = cl_gap(p, q, t);
    if (g <= 1e-6f) {
      return t;
    }
    t += g;
    if (t > q->maxd) {
      return -1.0f;
    }
  }
  /* Slow progress: a grazing approach. The gap is convex in t: find its minimum on
   * [t, maxd]; a hit needs it within the tolerance. */
  float a = t, b = q->maxd;
  float x1 = a + CL_GOLDEN * (b - a), x2 = b - CL_GOLDEN * (b - a);
  float f1 = cl_gap(p, q, x1), f2 = cl_gap(p, q, x2);
  for (int i = 0; i < CL_SEGMENT_ITERATIONS; ++i) {
    if (f1 <= f2) {
      b = x2;
      x2 = x1;
      f2 = f1;
      x1 = a + CL_GOLDEN * (b - a);
      f1 = cl_gap(p, q, x1);
    } else {
      a = x1;
      x1 = x2;
      f1 = f2;
      x2 = b - CL_GOLDEN * (b - a);
      f2 = cl_gap(p, q, x2);
    }
  }
  float tm = f1 <= f2 ? x1 : x2, gm = cl_minf(f1, f2);
  if (gm > LB_COLLIDE_TOLERANCE) {
    return -1.0f;
  }
  if (gm > 0.0f) {
    return tm; /* grazing within the tolerance: the closest approach */
  }
  float lo = t, hi = tm; /* gap(lo) > 0 >= gap(hi) */
  for (int i = 0; i < 40 && hi - lo > 0.0f; ++i) {
    float mid = 0.5f * lo + 0.5f * hi;
    if (mid <= lo || mid >= hi) {
      break;
    }
    if (cl_gap(p, q, mid) > 0.0f) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return hi;
}

/* ---- boxes ----------------------------------------------------------------------------------- */
static void cl_box_corner(const cl_proxy *p, int sx, int sy, int sz, float *out) {
  const float *h = p->shape.half_extents;
  float l[3] = {sx ? h[0] : -h[0], sy ? h[1] : -h[1], sz ? h[2] : -h[2]};
  for (int i = 0; i < 3; ++i) {
    out[i] = p->shape.center[i] + p->m[i] * l[0] + p->m[3 + i] * l[1] + p->m[6 + i] * l[2];
  }
}

/* The 12 edges as corner index pairs (bit k of a corner index = + side on axis k). */
static const uint8_t cl_box_edges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                            {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};

static void cl_box_corners(const cl_proxy *p, float corners[8][3]) {
  for (int c = 0; c < 8; ++c) {
    cl_box_corner(p, c & 1, (c >> 1) & 1, (c >> 2) & 1, corners[c]);
  }
}

static float cl_take(float best, float t) {
  return t >= 0.0f && (best < 0.0f || t < best) ? t : best;
}

/* Sphere (or point, r = 0) from o along d against a box grown by r. */
static float cl_sphere_cast_box(const cl_proxy *p, const float *o, const float *d, float r,
                                float maxd) {
  float w[3], lo[3], ld[3];
  lb_vec3_sub(o, p->shape.center, w);
  for (int k = 0; k < 3; ++k) {
    lo[k] = lb_vec3_dot(w, p->m + 3 * k);
    ld[k] = lb_vec3_dot(d, p->m + 3 * k);
  }
  const float *h = p->shape.half_extents;
  /* Slabs of the box grown by r on every axis: a miss there misses the rounded box. */
  float t0 = 0.0f, t1 = maxd;
  int enter_axis = -1;
  for (int k = 0; k < 3; ++k) {
    float e = h[k] + r;
    if (ld[k] == 0.0f) {
      if (lo[k] < -e || lo[k] > e) {
        return -1.0f;
      }
      continue;
    }
    float inv = 1.0f / ld[k];
    float a = (-e - lo[k]) * inv, b = (e - lo[k]) * inv;
    if (a > b) {
      float t = a;
      a = b;
      b = t;
    }
    if (a > t0) {
      t0 = a;
      enter_axis = k;
    }
    t1 = cl_minf(t1, b);
    if (t0 > t1) {
      return -1.0f;
    }
  }
  if (r == 0.0f) {
    return t0; /* a point against the box itself */
  }
  /* Entering through a face region of the grown box (the other two coordinates within the
   * box) is the contact; otherwise (or from a start inside the grown box's corner and edge
   * regions) the first contact is with an edge's rounding. */
  if (enter_axis >= 0) {
    int outside = 0;
    for (int k = 0; k < 3; ++k) {
      float x = lo[k] + ld[k] * t0;
      if (k != enter_axis && (x < -h[k] || x > h[k])) {
        outside++;
      }
    }
    if (outside == 0) {
      return t0;
    }
  }
  float corners[8][3], best = -1.0f;
  cl_box_corners(p, corners);
  for (int e = 0; e < 12; ++e) {
    best = cl_take(
        best, cl_ray_capsule(o, d, corners[cl_box_edges[e][0]], corners[cl_box_edges[e][1]], r));
  }
  return best;
}

/* The segment-against-segment cast: the query's core a-b moved along d against segment
 * p-q, radius rho: a ray from the origin against their rounded Minkowski difference. */
static float cl_segment_cast(const cl_query *q, const float *p0, const float *p1, float rho) {
  float corner[3], e1[3], e2[3];
  static const float zero[3] = {0.0f, 0.0f, 0.0f};
  lb_vec3_sub(p0, q->a, corner);
  lb_vec3_sub(p1, p0, e1);
  lb_vec3_scale(q->e, -1.0f, e2);
  return cl_ray_rounded_polygon(zero, q->d, corner, e1, e2, false, rho);
}

/* ---- per collider ---------------------------------------------------------------------------- */
bool cl_cast_may_touch(const cl_query *q, const float *center, float radius) {
  float mid[3], w[3], x[3];
  lb_vec3_mad(q->a, q->e, 0.5f, mid);
  float reach = radius + q->r + 0.5f * cl_sqrt(lb_vec3_dot(q->e, q->e));
  reach += reach * 1e-4f + 1e-5f; /* rounding margin: never reject a touching shape */
  lb_vec3_sub(center, mid, w);
  float t = cl_clampf(lb_vec3_dot(w, q->d), 0.0f, q->maxd);
  lb_vec3_mad(mid, q->d, t, x);
  lb_vec3_sub(center, x, w);
  return lb_vec3_dot(w, w) <= reach * reach;
}

float cl_cast_prim(const cl_proxy *p, const cl_query *q) {
  float s;
  if (!cl_cast_may_touch(q, p->bc, p->br)) {
    return -1.0f;
  }
  if (cl_core_prim_distance(p, q, 0.0f, &s) <= q->r) {
    return 0.0f; /* inside-start (touching included) */
  }
  if (q->maxd == 0.0f) {
    return -1.0f;
  }
  float t = -1.0f;
  const lb_shape *sh = &p->shape;
  switch (sh->type) {
  case LB_SHAPE_SPHERE:
    t = q->segment ? cl_ray_capsule(sh->center, (const float[3]){-q->d[0], -q->d[1], -q->d[2]},
                                    q->a, q->b, q->r + sh->radius)
                   : cl_ray_sphere(q->a, q->d, sh->center, q->r + sh->radius);
    break;
  case LB_SHAPE_CAPSULE: {
    float ca[3], cb[3];
    float core = sh->half_height - sh->radius;
    lb_vec3_mad(sh->center, p->m, -core, ca);
    lb_vec3_mad(sh->center, p->m, core, cb);
    t = q->segment ? cl_segment_cast(q, ca, cb, q->r + sh->radius)
                   : cl_ray_capsule(q->a, q->d, ca, cb, q->r + sh->radius);
    break;
  }
  case LB_SHAPE_BOX:
    t = cl_sphere_cast_box(p, q->a, q->d, q->r, q->maxd);
    if (q->segment) {
      t = cl_take(t, cl_sphere_cast_box(p, q->b, q->d, q->r, q->maxd));
      float corners[8][3];
      cl_box_corners(p, corners);
      for (int e = 0; e < 12; ++e) {
        t = cl_take(
            t, cl_segment_cast(q, corners[cl_box_edges[e][0]], corners[cl_box_edges[e][1]], q->r));
      }
    }
    break;
  default: /* cylinder */
    if (q->r == 0.0f) {
      float w[3], lo[3], ld[3];
      lb_vec3_sub(q->a, sh->center, w);
      for (int k = 0; k < 3; ++k) {
        lo[k] = lb_vec3_dot(w, p->m + 3 * k);
        ld[k] = lb_vec3_dot(q->d, p->m + 3 * k);
      }
      float mp[3] = {0.0f, lo[1], lo[2]}, dp[3] = {0.0f, ld[1], ld[2]};
      float tc = cl_ray_circle(mp, dp, sh->radius);
      if (tc >= 0.0f) {
        float ax = lo[0] + ld[0] * tc;
        if (ax >= -sh->half_height && ax <= sh->half_height) {
          t = tc;
        }
      }
      if (cl_absf(lo[0]) > sh->half_height && lo[0] * ld[0] < 0.0f) {
        float tcap = (cl_absf(lo[0]) - sh->half_height) / cl_absf(ld[0]);
        float u = lo[1] + ld[1] * tcap, v = lo[2] + ld[2] * tcap;
        if (u * u + v * v <= sh->radius * sh->radius) {
          t = cl_take(t, tcap);
        }
      }
    } else {
      t = cl_cast_iterative(p, q);
    }
    break;
  }
  return t <= q->maxd ? t : -1.0f;
}

float cl_cast_triangle(const cl_query *q, const float *a, const float *b, const float *c) {
  float s, cen[3], off[3];
  for (int i = 0; i < 3; ++i) {
    cen[i] = (a[i] + b[i] + c[i]) * (1.0f / 3.0f);
  }
  lb_vec3_sub(a, cen, off);
  float r2 = lb_vec3_dot(off, off);
  lb_vec3_sub(b, cen, off);
  r2 = cl_maxf(r2, lb_vec3_dot(off, off));
  lb_vec3_sub(c, cen, off);
  r2 = cl_maxf(r2, lb_vec3_dot(off, off));
  if (!cl_cast_may_touch(q, cen, cl_sqrt(r2))) {
    return -1.0f;
  }
  if (cl_core_triangle_distance(q, 0.0f, a, b, c, &s) <= q->r) {
    return 0.0f;
  }
  if (q->maxd == 0.0f) {
    return -1.0f;
  }
  float ab[3], ac[3], t = -1.0f;
  lb_vec3_sub(b, a, ab);
  lb_vec3_sub(c, a, ac);
  if (q->r == 0.0f) {
    /* Plane then barycentric test; a ray in the plane misses (no thickness). */
    float n[3], w[3];
    lb_vec3_cross(ab, ac, n);
    float dn = lb_vec3_dot(q->d, n);
    if (dn != 0.0f) {
      lb_vec3_sub(q->a, a, w);
      float tt = -lb_vec3_dot(w, n) / dn;
      if (tt >= 0.0f) {
        float x[3], c1[3], c2[3];
        lb_vec3_mad(w, q->d, tt, x);
        lb_vec3_cross(x, ac, c1);
        lb_vec3_cross(ab, x, c2);
        float nn = lb_vec3_dot(n, n);
        float u = lb_vec3_dot(c1, n) / nn, v = lb_vec3_dot(c2, n) / nn;
        if (u >= 0.0f && v >= 0.0f && u + v <= 1.0f) {
          t = tt;
        }
      }
    }
  } else {
    t = cl_ray_rounded_polygon(q->a, q->d, a, ab, ac, true, q->r);
    if (q->segment) {
      t = cl_take(t, cl_ray_rounded_polygon(q->b, q->d, a, ab, ac, true, q->r));
      t = cl_take(t, cl_segment_cast(q, a, b, q->r));
      t = cl_take(t, cl_segment_cast(q, a, c, q->r));
      t = cl_take(t, cl_segment_cast(q, b, c, q->r));
    }
  }
  return t <= q->maxd ? t : -1.0f;
}

/* ---- contacts ----------------------------------------------------------------------------- */
void cl_contact_prim(const cl_proxy *p, const cl_query *q, float t, float *point, float *normal) {
  float s, x[3];
  if (q->r == 0.0f && !q->segment && t > 0.0f) {
    cl_core_at(q, t, 0.0f, point);
    cl_prim_normal_at(p, point, normal);
    return;
  }
  cl_core_prim_distance(p, q, t, &s);
  cl_core_at(q, t, s, x);
  cl_prim_closest(p, x, point, normal);
}

void cl_contact_triangle(const cl_query *q, float t, const float *a, const float *b, const float *c,
                         float *point, float *normal) {
  float s, x[3], fn[3];
  cl_triangle_normal(a, b, c, fn);
  cl_core_triangle_distance(q, t, a, b, c, &s);
  cl_core_at(q, t, s, x);
  if (q->r == 0.0f && !q->segment) {
    lb_vec3_copy(x, point);
  } else {
    /* Far enough from the surface for a direction: the face normal on a face contact, the
     * direction to the edge or corner otherwise (cl_triangle_closest_normal). */
    float dist = cl_triangle_closest_normal(x, a, b, c, point, normal);
    if (q->r > 0.0f && dist > q->r * 0.5f) {
      return;
    }
  }
  /* Else the face normal, turned against the motion (or toward the query's side). */
  float side = lb_vec3_dot(q->d, fn);
  if (side == 0.0f) {
    float w[3];
    lb_vec3_sub(q->a, a, w);
    side = -lb_vec3_dot(w, fn);
  }
  lb_vec3_scale(fn, side > 0.0f ? -1.0f : 1.0f, normal);
}
