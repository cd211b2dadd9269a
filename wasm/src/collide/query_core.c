/* The query core (a point, or a capsule's segment a + s e, moved by t along d) against one
 * shape: its distance and the core parameter s where it is nearest. That parameter is where
 * the slope of the (convex) distance along the core changes sign; the slope is piecewise
 * linear in s, so it is found in closed form: the breaks (where the core point crosses from
 * one region of the shape to the next) narrow a bracket, and the slope's root on the last,
 * linear, piece is the answer. Ties are those of a search on the slope's sign: s = 0 when
 * the distance does not fall from there, s = 1 when it falls all the way, and a flat interior
 * minimum (a core parallel to a face) at the first bisection midpoint on it. Cylinders, and a
 * core that enters a box or crosses a round shape's core, keep that search itself
 * (cl_segment_min): the slope there has no simple form. */
#include "collide_internal.h"

#define CL_SEGMENT_ITERATIONS 40 /* bisection steps */
#define CL_BREAKS 9              /* at most: a triangle's nine region planes */

typedef float (*cl_fn)(const void *ctx, float s, float *slope);

/* Minimum over s in [0, 1] of the convex distance along the core: bisection on the sign of
 * its derivative (the normal at the closest point dotted with the core direction), which
 * locates the minimum to rounding level where a search on values alone would stop at the
 * square root of it (the distance is flat there). */
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

static float cl_seg_prim(const void *ctx, float s, float *slope) {
  const cl_seg_ctx *c = ctx;
  float x[3];
  cl_core_at(c->q, c->t, s, x);
  return cl_prim_slope(c->p, x, c->q->e, slope);
}

/* The slope times the distance: the same sign, and linear in s within one region of the
 * triangle (the closest point moves linearly there). */
static float cl_seg_tri(const void *ctx, float s, float *slope) {
  const cl_seg_ctx *c = ctx;
  float x[3], q[3], v[3];
  cl_core_at(c->q, c->t, s, x);
  float d = cl_triangle_closest(x, c->ta, c->tb, c->tc, q);
  lb_vec3_sub(x, q, v);
  *slope = d > 0.0f ? lb_vec3_dot(v, c->q->e) : 0.0f; /* 0: the core crosses the triangle */
  return d;
}

/* ---- the bracket on a piecewise-linear slope ---------------------------------------------- */
static float cl_slope_only(cl_fn f, const void *ctx, float s) {
  float g;
  f(ctx, s, &g);
  return g;
}

/* The parameter cl_segment_min would settle on, from the slope's breaks: the slope is linear
 * between neighbouring breaks, so once no break lies inside the bracket its root is one
 * division away. A slope of exactly 0 at a break (a flat stretch, or a root right there) is
 * left to the search itself, which then makes the same choice. */
static float cl_min_param(cl_fn f, const void *ctx, const float *breaks, int n) {
  float g0 = cl_slope_only(f, ctx, 0.0f);
  if (g0 >= 0.0f) {
    return 0.0f;
  }
  float g1 = cl_slope_only(f, ctx, 1.0f);
  if (g1 <= 0.0f) {
    return 1.0f;
  }
  float lo = 0.0f, glo = g0, hi = 1.0f, ghi = g1;
  for (int i = 0; i < n; ++i) {
    float b = breaks[i];
    if (!(b > lo && b < hi)) {
      continue;
    }
    float gb = cl_slope_only(f, ctx, b);
    if (gb < 0.0f) {
      lo = b, glo = gb;
    } else if (gb > 0.0f) {
      hi = b, ghi = gb;
    } else {
      float s;
      cl_segment_min(f, ctx, &s);
      return s;
    }
  }
  return cl_clampf(lo + (hi - lo) * (glo / (glo - ghi)), lo, hi);
}

/* Where x0 + s e crosses the plane n . (x - o) = 0, kept when inside (0, 1). */
static int cl_plane_break(const float *x0, const float *e, const float *n, const float *o,
                          float *breaks, int count) {
  float w[3];
  lb_vec3_sub(x0, o, w);
  float ne = lb_vec3_dot(n, e);
  if (ne != 0.0f) {
    float s = -lb_vec3_dot(n, w) / ne;
    if (s > 0.0f && s < 1.0f) {
      breaks[count++] = s;
    }
  }
  return count;
}

/* ---- primitives: a rounded box in the proxy's frame ---------------------------------------- */
/* Spheres, capsules and boxes are a box of half extents h (0 on an axis a sphere or capsule
 * has no extent along) grown by a radius; the distance's slope along the core is then
 * sum_k excess_k(s) e_k with excess_k = x_k - clamp(x_k, -h_k, h_k). */
static float cl_rbox_excess(const cl_rbox *b, float s, float *ex) {
  float g = 0.0f;
  for (int k = 0; k < 3; ++k) {
    float x = b->l[k] + b->f[k] * s;
    ex[k] = x - cl_clampf(x, -b->h[k], b->h[k]);
    g += ex[k] * b->f[k];
  }
  return g;
}

static float cl_rbox_slope(const void *ctx, float s, float *slope) {
  float ex[3];
  *slope = cl_rbox_excess(ctx, s, ex);
  return 0.0f;
}

bool cl_rbox_nearest(const cl_rbox *b, float *s_out, float *dist2) {
  float breaks[6];
  int n = 0;
  for (int k = 0; k < 3; ++k) {
    if (b->f[k] == 0.0f || b->h[k] == 0.0f) {
      continue;
    }
    float inv = 1.0f / b->f[k];
    float s0 = (-b->h[k] - b->l[k]) * inv, s1 = (b->h[k] - b->l[k]) * inv;
    if (s0 > 0.0f && s0 < 1.0f) {
      breaks[n++] = s0;
    }
    if (s1 > 0.0f && s1 < 1.0f) {
      breaks[n++] = s1;
    }
  }
  float s = cl_min_param(cl_rbox_slope, b, breaks, n), ex[3];
  cl_rbox_excess(b, s, ex);
  *s_out = s;
  *dist2 = lb_vec3_dot(ex, ex);
  return *dist2 > 0.0f;
}

/* The query core (moved by t) in a sphere's, capsule's or box's frame; false for a cylinder.
 * *grow: the shape's radius (0 for a box). */
static bool cl_rbox_of(const cl_proxy *p, const cl_query *q, float t, cl_rbox *b, float *grow) {
  const lb_shape *sh = &p->shape;
  float x[3], w[3];
  cl_core_at(q, t, 0.0f, x);
  lb_vec3_sub(x, sh->center, w);
  for (int k = 0; k < 3; ++k) {
    b->l[k] = lb_vec3_dot(w, p->m + 3 * k);
    b->f[k] = lb_vec3_dot(q->e, p->m + 3 * k);
    b->h[k] = sh->type == LB_SHAPE_BOX ? sh->half_extents[k] : 0.0f;
  }
  if (sh->type == LB_SHAPE_CAPSULE) {
    b->h[0] = sh->half_height - sh->radius; /* the core, along the frame's first axis */
  }
  *grow = sh->type == LB_SHAPE_BOX ? 0.0f : sh->radius;
  return sh->type != LB_SHAPE_CYLINDER;
}

float cl_core_prim_closest(const cl_proxy *p, const cl_query *q, float t, float *s_out,
                           float *point, float *normal) {
  float x[3], s = 0.0f, d2, grow;
  cl_rbox b;
  if (q->segment && !(cl_rbox_of(p, q, t, &b, &grow) && cl_rbox_nearest(&b, &s, &d2))) {
    cl_seg_ctx c = {q, t, p, NULL, NULL, NULL};
    cl_segment_min(cl_seg_prim, &c, &s);
  }
  cl_core_at(q, t, s, x);
  *s_out = s;
  return cl_prim_closest(p, x, point, normal);
}

float cl_core_prim_distance(const cl_proxy *p, const cl_query *q, float t, float *s_out) {
  float x[3], point[3], normal[3], s = 0.0f, d2, grow;
  cl_rbox b;
  if (q->segment && !(cl_rbox_of(p, q, t, &b, &grow) && cl_rbox_nearest(&b, &s, &d2))) {
    cl_seg_ctx c = {q, t, p, NULL, NULL, NULL};
    return cl_segment_min(cl_seg_prim, &c, s_out); /* the search's own last distance */
  }
  cl_core_at(q, t, s, x);
  *s_out = s;
  return cl_prim_closest(p, x, point, normal);
}

bool cl_core_prim_touches(const cl_proxy *p, const cl_query *q) {
  float s, d2, grow;
  cl_rbox b;
  if (!q->segment || !cl_rbox_of(p, q, 0.0f, &b, &grow)) {
    return cl_core_prim_distance(p, q, 0.0f, &s) <= q->r;
  }
  if (!cl_rbox_nearest(&b, &s, &d2)) {
    return true; /* the core enters the box or crosses the round shape's core */
  }
  return cl_sqrt(d2) - grow <= q->r;
}

/* ---- triangles ------------------------------------------------------------------------------ */
/* The breaks of a triangle's slope: where the core crosses the planes that bound its closest
 * point's regions (Ericson 5.1.5: the corners' d1..d6, and the edges' va, vb, vc, each linear
 * in the point). */
static int cl_triangle_breaks(const float *x0, const float *e, const float *a, const float *b,
                              const float *c, float *breaks) {
  float ab[3], ac[3], bc[3], n[3], m[3];
  lb_vec3_sub(b, a, ab);
  lb_vec3_sub(c, a, ac);
  lb_vec3_sub(c, b, bc);
  lb_vec3_cross(ab, ac, n);
  int count = 0;
  count = cl_plane_break(x0, e, ab, a, breaks, count);
  count = cl_plane_break(x0, e, ac, a, breaks, count);
  count = cl_plane_break(x0, e, ab, b, breaks, count);
  count = cl_plane_break(x0, e, bc, b, breaks, count);
  count = cl_plane_break(x0, e, ac, c, breaks, count);
  count = cl_plane_break(x0, e, bc, c, breaks, count);
  lb_vec3_cross(n, ab, m);
  count = cl_plane_break(x0, e, m, a, breaks, count);
  lb_vec3_cross(n, ac, m);
  count = cl_plane_break(x0, e, m, a, breaks, count);
  lb_vec3_cross(n, bc, m);
  return cl_plane_break(x0, e, m, b, breaks, count);
}

float cl_core_triangle_distance(const cl_query *q, float t, const float *a, const float *b,
                                const float *tc, float *s_out) {
  float x[3], cq[3];
  if (!q->segment) {
    cl_core_at(q, t, 0.0f, x);
    *s_out = 0.0f;
    return cl_triangle_closest(x, a, b, tc, cq);
  }
  float breaks[CL_BREAKS];
  cl_core_at(q, t, 0.0f, x);
  int n = cl_triangle_breaks(x, q->e, a, b, tc, breaks);
  cl_seg_ctx c = {q, t, NULL, a, b, tc};
  float s = cl_min_param(cl_seg_tri, &c, breaks, n);
  cl_core_at(q, t, s, x);
  *s_out = s;
  return cl_triangle_closest(x, a, b, tc, cq);
}

/* ---- does the core come within r of a triangle? ------------------------------------------ */
/* Squared distance between segments p0 + u d1 and q0 + v d2, u, v in [0, 1] (Ericson 5.1.9). */
static float cl_segments_dist2(const float *p0, const float *d1, const float *q0, const float *d2) {
  float r[3];
  lb_vec3_sub(p0, q0, r);
  float a = lb_vec3_dot(d1, d1), e = lb_vec3_dot(d2, d2), f = lb_vec3_dot(d2, r);
  float u = 0.0f, v = 0.0f;
  if (a == 0.0f && e == 0.0f) {
    return lb_vec3_dot(r, r);
  }
  if (a == 0.0f) {
    v = cl_clampf(f / e, 0.0f, 1.0f);
  } else {
    float c = lb_vec3_dot(d1, r);
    if (e == 0.0f) {
      u = cl_clampf(-c / a, 0.0f, 1.0f);
    } else {
      float bb = lb_vec3_dot(d1, d2), den = a * e - bb * bb;
      u = den > 0.0f ? cl_clampf((bb * f - c * e) / den, 0.0f, 1.0f) : 0.0f;
      v = (bb * u + f) / e;
      if (v < 0.0f) {
        v = 0.0f, u = cl_clampf(-c / a, 0.0f, 1.0f);
      } else if (v > 1.0f) {
        v = 1.0f, u = cl_clampf((bb - c) / a, 0.0f, 1.0f);
      }
    }
  }
  float x[3], y[3], w[3];
  lb_vec3_mad(p0, d1, u, x);
  lb_vec3_mad(q0, d2, v, y);
  lb_vec3_sub(x, y, w);
  return lb_vec3_dot(w, w);
}

/* The core crosses the triangle's plane inside the triangle. */
static bool cl_core_pierces(const cl_query *q, const float *a, const float *b, const float *c) {
  float ab[3], ac[3], n[3], wa[3], wb[3];
  lb_vec3_sub(b, a, ab);
  lb_vec3_sub(c, a, ac);
  lb_vec3_cross(ab, ac, n);
  lb_vec3_sub(q->a, a, wa);
  lb_vec3_sub(q->b, a, wb);
  float ha = lb_vec3_dot(wa, n), hb = lb_vec3_dot(wb, n);
  if ((ha > 0.0f && hb > 0.0f) || (ha < 0.0f && hb < 0.0f) || ha == hb) {
    return false;
  }
  float x[3], c1[3], c2[3];
  lb_vec3_mad(wa, q->e, ha / (ha - hb), x);
  lb_vec3_cross(x, ac, c1);
  lb_vec3_cross(ab, x, c2);
  float nn = lb_vec3_dot(n, n), u = lb_vec3_dot(c1, n) / nn, v = lb_vec3_dot(c2, n) / nn;
  return u >= 0.0f && v >= 0.0f && u + v <= 1.0f;
}

/* The distance between a segment and a triangle is 0 where the segment crosses it, else the
 * least of its ends' distances to the triangle and its distances to the three edges. */
bool cl_core_triangle_touches(const cl_query *q, const float *a, const float *b, const float *c) {
  float cq[3];
  if (cl_triangle_closest(q->a, a, b, c, cq) <= q->r) {
    return true;
  }
  if (!q->segment) {
    return false;
  }
  if (cl_triangle_closest(q->b, a, b, c, cq) <= q->r || cl_core_pierces(q, a, b, c)) {
    return true;
  }
  const float *ends[3][2] = {{a, b}, {a, c}, {b, c}};
  float r2 = q->r * q->r;
  for (int i = 0; i < 3; ++i) {
    float ed[3];
    lb_vec3_sub(ends[i][1], ends[i][0], ed);
    if (cl_segments_dist2(q->a, q->e, ends[i][0], ed) <= r2) {
      return true;
    }
  }
  return false;
}
