/* Casts of a ray, sphere or capsule against one collider, and the contact they report.
 * Spheres, capsules, boxes and triangles are exact Minkowski-sum ray tests in closed form
 * (query_ray.c; boxes: query_cast_box.c). A capsule touches a triangle first with an end
 * sphere, with its core's inside against an edge's inside, or with its core's inside against a
 * corner (a face contact of a parallel core also touches with an end sphere), so those three
 * kinds of piece, each cast once, cover every first contact. The contact's core point is in
 * closed form too (query_core.c). Cylinders (a sphere or capsule against their rims has no
 * closed form without a quartic) are solved by conservative advancement on the exact signed
 * distance, which is convex along the cast: steps never pass the first contact, and a grazing
 * approach falls back to a golden-section search for the closest approach plus bisection. */
#include "collide_internal.h"

#define CL_GOLDEN 0.381966011f   /* 2 - golden ratio */
#define CL_SEGMENT_ITERATIONS 40 /* bisection and golden-section steps */
#define CL_ADVANCE_STEPS 48

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

static float cl_take(float best, float t) {
  return t >= 0.0f && (best < 0.0f || t < best) ? t : best;
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

/* The core's inside against the triangle's edges (the face of each edge's and the core's
 * Minkowski difference, a parallelogram) and corners (each corner's ray against the core's
 * cylinder): the rest of each edge-core pair is an end sphere's contact, cast already. */
static float cl_core_triangle_edges(const cl_query *q, const float *a, const float *b,
                                    const float *c, float t) {
  static const float zero[3] = {0.0f, 0.0f, 0.0f};
  const float *v[3] = {a, b, c};
  float back[3], corner[3], edge[3];
  lb_vec3_scale(q->e, -1.0f, back);
  for (int i = 0; i < 3; ++i) {
    const float *p0 = v[i == 2 ? 1 : 0], *p1 = v[i == 0 ? 1 : 2]; /* ab, ac, bc */
    lb_vec3_sub(p0, q->a, corner);
    lb_vec3_sub(p1, p0, edge);
    t = cl_take(t, cl_ray_polygon_face(zero, q->d, corner, edge, back, false, q->r));
  }
  for (int i = 0; i < 3; ++i) {
    lb_vec3_sub(v[i], q->a, corner);
    t = cl_take(t, cl_ray_cylinder_side(zero, q->d, corner, back, q->r));
  }
  return t;
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
  if (!cl_cast_may_touch(q, p->bc, p->br)) {
    return -1.0f;
  }
  if (q->segment && p->shape.type == LB_SHAPE_BOX) {
    return cl_capsule_cast_box(p, q); /* its own start check, in the box's frame */
  }
  if (cl_core_prim_touches(p, q)) {
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
  float cen[3], off[3];
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
  if (cl_core_triangle_touches(q, a, b, c)) {
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
      t = cl_core_triangle_edges(q, a, b, c, t);
    }
  }
  return t <= q->maxd ? t : -1.0f;
}

/* ---- contacts ----------------------------------------------------------------------------- */
void cl_contact_prim(const cl_proxy *p, const cl_query *q, float t, float *point, float *normal) {
  float s;
  if (q->r == 0.0f && !q->segment && t > 0.0f) {
    cl_core_at(q, t, 0.0f, point);
    cl_prim_normal_at(p, point, normal);
    return;
  }
  cl_core_prim_closest(p, q, t, &s, point, normal);
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
