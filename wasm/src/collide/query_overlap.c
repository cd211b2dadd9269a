/* Oriented-box overlap tests: separating axes for box-box (15 axes) and box-triangle (13
 * axes, Ericson 5.2.1 and 5.2.9), the exact signed distance for spheres and capsules, and
 * alternating projections for cylinders (two convex sets: the iteration converges to a
 * common point when they intersect; touching within LB_COLLIDE_TOLERANCE counts). */
#include "../geom/distance_internal.h"
#include "collide_internal.h"

/* Projection radius of a box (axes ax, half extents h) on axis l. */
static float cl_box_radius(const float *ax, const float *h, const float *l) {
  return cl_absf(lb_vec3_dot(ax, l)) * h[0] + cl_absf(lb_vec3_dot(ax + 3, l)) * h[1] +
         cl_absf(lb_vec3_dot(ax + 6, l)) * h[2];
}

static bool cl_separated(const float *l, const float *c0, const float *ax0, const float *h0,
                         const float *c1, const float *ax1, const float *h1) {
  float l2 = lb_vec3_dot(l, l);
  if (l2 < 1e-12f) {
    return false; /* parallel edges: the face axes decide */
  }
  float d[3];
  lb_vec3_sub(c1, c0, d);
  float dist = cl_absf(lb_vec3_dot(d, l));
  return dist > cl_box_radius(ax0, h0, l) + cl_box_radius(ax1, h1, l);
}

static bool cl_box_box(const float *c0, const float *ax0, const float *h0, const float *c1,
                       const float *ax1, const float *h1) {
  for (int i = 0; i < 3; ++i) {
    if (cl_separated(ax0 + 3 * i, c0, ax0, h0, c1, ax1, h1) ||
        cl_separated(ax1 + 3 * i, c0, ax0, h0, c1, ax1, h1)) {
      return false;
    }
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      float l[3];
      lb_vec3_cross(ax0 + 3 * i, ax1 + 3 * j, l);
      if (cl_separated(l, c0, ax0, h0, c1, ax1, h1)) {
        return false;
      }
    }
  }
  return true;
}

bool cl_box_overlaps_triangle(const float *c, const float *ax, const float *h, const float *a,
                              const float *b, const float *tc) {
  /* The triangle in the box's frame. */
  float v[3][3];
  const float *src[3] = {a, b, tc};
  for (int k = 0; k < 3; ++k) {
    float w[3];
    lb_vec3_sub(src[k], c, w);
    v[k][0] = lb_vec3_dot(w, ax);
    v[k][1] = lb_vec3_dot(w, ax + 3);
    v[k][2] = lb_vec3_dot(w, ax + 6);
  }
  for (int i = 0; i < 3; ++i) { /* box faces */
    float mn = cl_minf(v[0][i], cl_minf(v[1][i], v[2][i]));
    float mx = cl_maxf(v[0][i], cl_maxf(v[1][i], v[2][i]));
    if (mn > h[i] || mx < -h[i]) {
      return false;
    }
  }
  float e[3][3];
  lb_vec3_sub(v[1], v[0], e[0]);
  lb_vec3_sub(v[2], v[1], e[1]);
  lb_vec3_sub(v[0], v[2], e[2]);
  float n[3];
  lb_vec3_cross(e[0], e[1], n);
  float ls[10][3];
  int count = 0;
  lb_vec3_copy(n, ls[count++]);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      float u[3] = {0.0f, 0.0f, 0.0f};
      u[i] = 1.0f;
      lb_vec3_cross(u, e[j], ls[count++]);
    }
  }
  for (int k = 0; k < count; ++k) {
    const float *l = ls[k];
    if (lb_vec3_dot(l, l) < 1e-12f * (1.0f + lb_vec3_dot(e[0], e[0]))) {
      continue;
    }
    float p0 = lb_vec3_dot(v[0], l), p1 = lb_vec3_dot(v[1], l), p2 = lb_vec3_dot(v[2], l);
    float r = h[0] * cl_absf(l[0]) + h[1] * cl_absf(l[1]) + h[2] * cl_absf(l[2]);
    if (cl_minf(p0, cl_minf(p1, p2)) > r || cl_maxf(p0, cl_maxf(p1, p2)) < -r) {
      return false;
    }
  }
  return true;
}

/* A proxy for the query box, so that sphere and capsule colliders can use the box's exact
 * signed distance. */
static void cl_box_proxy(const float *c, const float *ax, const float *h, cl_proxy *out) {
  *out = (cl_proxy){0};
  out->shape.type = LB_SHAPE_BOX;
  lb_vec3_copy(c, out->shape.center);
  lb_vec3_copy(h, out->shape.half_extents);
  for (int k = 0; k < 9; ++k) {
    out->m[k] = ax[k];
  }
  out->kind = LB_COLLIDER_BOX;
  out->valid = 1;
}

static void cl_project_box(const float *c, const float *ax, const float *h, const float *x,
                           float *out) {
  float w[3];
  lb_vec3_sub(x, c, w);
  lb_vec3_copy(c, out);
  for (int k = 0; k < 3; ++k) {
    float l = cl_clampf(lb_vec3_dot(w, ax + 3 * k), -h[k], h[k]);
    lb_vec3_mad(out, ax + 3 * k, l, out);
  }
}

bool cl_box_overlaps_prim(const float *c, const float *ax, const float *h, const cl_proxy *p) {
  const lb_shape *s = &p->shape;
  cl_proxy box;
  cl_box_proxy(c, ax, h, &box);
  switch (s->type) {
  case LB_SHAPE_BOX:
    return cl_box_box(c, ax, h, s->center, p->m, s->half_extents);
  case LB_SHAPE_SPHERE: {
    float q[3], n[3];
    return cl_prim_closest(&box, s->center, q, n) <= s->radius;
  }
  case LB_SHAPE_CAPSULE: {
    cl_query q = {{0}};
    float core = s->half_height - s->radius;
    lb_vec3_mad(s->center, p->m, -core, q.a);
    lb_vec3_mad(s->center, p->m, core, q.b);
    lb_vec3_sub(q.b, q.a, q.e);
    q.segment = core > 0.0f;
    float sp;
    return cl_core_prim_distance(&box, &q, 0.0f, &sp) <= s->radius;
  }
  default: { /* cylinder */
    float x[3], y[3], n[3];
    lb_vec3_copy(s->center, x);
    for (int i = 0; i < 64; ++i) {
      cl_project_box(c, ax, h, x, y);
      float d = cl_prim_closest(p, y, x, n);
      if (d <= 0.0f) {
        return true; /* a point of the box inside the cylinder */
      }
      if (d <= LB_COLLIDE_TOLERANCE) {
        return true; /* touching within the tolerance */
      }
    }
    return false;
  }
  }
}
