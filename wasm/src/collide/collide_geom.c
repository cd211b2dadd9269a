/* Point queries on one collider: closest points and surface normals of primitives (through
 * geom's local formulas, so distances equal lb_shape_distance) and of triangles (Ericson,
 * Real-Time Collision Detection, 5.1.5). */
#include "../geom/distance_internal.h"
#include "collide_internal.h"

#include <float.h>

/* x - centre in the proxy's local frame (column k of m = local axis k). */
static void cl_to_local(const cl_proxy *p, const float *x, float *l) {
  float d[3];
  lb_vec3_sub(x, p->shape.center, d);
  l[0] = lb_vec3_dot(d, p->m);
  l[1] = lb_vec3_dot(d, p->m + 3);
  l[2] = lb_vec3_dot(d, p->m + 6);
}

static void cl_to_world_dir(const cl_proxy *p, const float *l, float *o) {
  for (int i = 0; i < 3; ++i) {
    o[i] = p->m[i] * l[0] + p->m[3 + i] * l[1] + p->m[6 + i] * l[2];
  }
}

float cl_prim_closest(const cl_proxy *p, const float *x, float *q, float *n) {
  float l[3], lq[3], ln[3], wq[3];
  cl_to_local(p, x, l);
  float d = lb_shape_closest_local(p->shape.type, p->shape.radius, p->shape.half_height,
                                   p->shape.half_extents, l, lq, ln);
  cl_to_world_dir(p, lq, wq);
  lb_vec3_add(p->shape.center, wq, q);
  cl_to_world_dir(p, ln, n);
  return d;
}

float cl_prim_slope(const cl_proxy *p, const float *x, const float *e, float *slope) {
  float l[3], q[3], n[3];
  const float *h = p->shape.half_extents;
  if (p->shape.type == LB_SHAPE_BOX) {
    cl_to_local(p, x, l);
    float ex[3] = {cl_absf(l[0]) - h[0], cl_absf(l[1]) - h[1], cl_absf(l[2]) - h[2]};
    if (!(ex[0] > 0.0f || ex[1] > 0.0f || ex[2] > 0.0f)) {
      /* Inside: the nearest face's normal, +-axis k (geom's choice, ties to the lower
       * axis): cl_prim_closest's world normal is exactly that axis, so its dot is this one. */
      int k = ex[1] > ex[0] ? 1 : 0;
      k = ex[2] > ex[k] ? 2 : k;
      const float *m = p->m + 3 * k;
      float sg = l[k] < 0.0f ? -1.0f : 1.0f, w[3] = {m[0] * sg, m[1] * sg, m[2] * sg};
      *slope = lb_vec3_dot(w, e);
      return ex[k];
    }
  }
  float d = cl_prim_closest(p, x, q, n);
  *slope = lb_vec3_dot(n, e);
  return d;
}

void cl_prim_normal_at(const cl_proxy *p, const float *x, float *n) {
  float l[3], ln[3] = {0.0f, 0.0f, 0.0f};
  cl_to_local(p, x, l);
  const lb_shape *s = &p->shape;
  if (s->type == LB_SHAPE_BOX) {
    /* The face the point is most outside of (or least inside), relative to its size. */
    int k = 0;
    float best = 0.0f;
    for (int j = 0; j < 3; ++j) {
      float e = cl_absf(l[j]) - s->half_extents[j];
      if (j == 0 || e > best) {
        best = e;
        k = j;
      }
    }
    ln[k] = l[k] < 0.0f ? -1.0f : 1.0f;
  } else {
    float a = l[0];
    if (s->type == LB_SHAPE_CAPSULE) {
      float core = s->half_height - s->radius;
      a = a - cl_clampf(a, -core, core);
    } else if (s->type == LB_SHAPE_CYLINDER) {
      float rho = cl_sqrt(l[1] * l[1] + l[2] * l[2]);
      float da = cl_absf(l[0]) - s->half_height, dr = rho - s->radius;
      if (da >= dr) {
        ln[0] = l[0] < 0.0f ? -1.0f : 1.0f;
        cl_to_world_dir(p, ln, n);
        return;
      }
      a = 0.0f;
    }
    float v[3] = {a, l[1], l[2]}, fb[3] = {0.0f, 1.0f, 0.0f};
    cl_normalize(v, ln, fb);
  }
  cl_to_world_dir(p, ln, n);
}

void cl_triangle_world(const cl_proxy *p, const cl_mesh *m, uint32_t tri, float *a, float *b,
                       float *c) {
  float *out[3] = {a, b, c};
  for (int v = 0; v < 3; ++v) {
    const float *x = m->positions + 3u * m->indices[3u * tri + (uint32_t)v];
    for (int i = 0; i < 3; ++i) {
      out[v][i] = p->xf.t[i] + p->m[i] * x[0] + p->m[3 + i] * x[1] + p->m[6 + i] * x[2];
    }
  }
}

void cl_triangle_normal(const float *a, const float *b, const float *c, float *n) {
  float ab[3], ac[3], cr[3];
  lb_vec3_sub(b, a, ab);
  lb_vec3_sub(c, a, ac);
  lb_vec3_cross(ab, ac, cr);
  static const float up[3] = {0.0f, 1.0f, 0.0f};
  if (cl_normalize(cr, n, up) > 0.0f) {
    return;
  }
  /* Zero area: a normal across the longest edge (up when that works). */
  float bc[3], e[3];
  lb_vec3_sub(c, b, bc);
  const float *l = ab;
  if (lb_vec3_dot(ac, ac) > lb_vec3_dot(l, l)) {
    l = ac;
  }
  if (lb_vec3_dot(bc, bc) > lb_vec3_dot(l, l)) {
    l = bc;
  }
  float ll = lb_vec3_dot(l, l);
  if (ll == 0.0f) {
    lb_vec3_copy(up, n);
    return;
  }
  lb_vec3_mad(up, l, -lb_vec3_dot(up, l) / ll, e);
  static const float x[3] = {1.0f, 0.0f, 0.0f};
  if (cl_normalize(e, n, x) == 0.0f) {
    lb_vec3_cross(l, x, e);
    cl_normalize(e, n, up);
  }
}

/* Closest point q on abc to p and the distance; *face tells whether q is inside the face (not
 * on an edge or a corner). */
static float cl_triangle_closest_region(const float *p, const float *a, const float *b,
                                        const float *c, float *q, bool *face) {
  float ab[3], ac[3], ap[3], bp[3], cp[3];
  *face = false;
  lb_vec3_sub(b, a, ab);
  lb_vec3_sub(c, a, ac);
  lb_vec3_sub(p, a, ap);
  float d1 = lb_vec3_dot(ab, ap), d2 = lb_vec3_dot(ac, ap);
  if (d1 <= 0.0f && d2 <= 0.0f) {
    lb_vec3_copy(a, q);
  } else {
    lb_vec3_sub(p, b, bp);
    float d3 = lb_vec3_dot(ab, bp), d4 = lb_vec3_dot(ac, bp);
    lb_vec3_sub(p, c, cp);
    float d5 = lb_vec3_dot(ab, cp), d6 = lb_vec3_dot(ac, cp);
    float vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
    if (d3 >= 0.0f && d4 <= d3) {
      lb_vec3_copy(b, q);
    } else if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
      lb_vec3_mad(a, ab, d1 / (d1 - d3), q);
    } else if (d6 >= 0.0f && d5 <= d6) {
      lb_vec3_copy(c, q);
    } else if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
      lb_vec3_mad(a, ac, d2 / (d2 - d6), q);
    } else if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
      float bc[3];
      lb_vec3_sub(c, b, bc);
      lb_vec3_mad(b, bc, (d4 - d3) / ((d4 - d3) + (d5 - d6)), q);
    } else {
      float den = va + vb + vc;
      if (!(den > 0.0f)) { /* degenerate triangle: its longest edge's closest point */
        float best = -1.0f, tq[3];
        const float *ends[3][2] = {{a, b}, {a, c}, {b, c}};
        for (int e = 0; e < 3; ++e) {
          float ed[3], pd[3];
          lb_vec3_sub(ends[e][1], ends[e][0], ed);
          lb_vec3_sub(p, ends[e][0], pd);
          float ll = lb_vec3_dot(ed, ed);
          float t = ll > 0.0f ? cl_clampf(lb_vec3_dot(pd, ed) / ll, 0.0f, 1.0f) : 0.0f;
          lb_vec3_mad(ends[e][0], ed, t, tq);
          float dd[3];
          lb_vec3_sub(p, tq, dd);
          float d2e = lb_vec3_dot(dd, dd);
          if (best < 0.0f || d2e < best) {
            best = d2e;
            lb_vec3_copy(tq, q);
          }
        }
      } else {
        float v = vb / den, w = vc / den;
        for (int i = 0; i < 3; ++i) {
          q[i] = a[i] + ab[i] * v + ac[i] * w;
        }
        *face = true;
      }
    }
  }
  /* Inside the face the distance is the one along the face normal: q's rounding, a few float
   * steps of the corners' magnitude, lies mostly in the plane, and |p - q| would carry it
   * into the distance (a mesh scaled up: 5e4 m corners round by 4 mm). The same on an edge or
   * corner when p - q leaves the plane by no more than that rounding (p over the edge two
   * coplanar triangles share): the closest point is then not resolved from the face's. */
  float d[3], cr[3];
  lb_vec3_sub(p, q, d);
  lb_vec3_cross(ab, ac, cr);
  float cc = lb_vec3_dot(cr, cr);
  if (cc > 0.0f) {
    float hn = lb_vec3_dot(d, cr);
    if (!*face) {
      float m = 0.0f, e[3];
      for (int i = 0; i < 3; ++i) {
        m = cl_maxf(m, cl_maxf(cl_absf(a[i]), cl_maxf(cl_absf(b[i]), cl_absf(c[i]))));
      }
      float tol = m * (4.0f * FLT_EPSILON);
      lb_vec3_mad(d, cr, -hn / cc, e);
      *face = lb_vec3_dot(e, e) <= tol * tol;
    }
    if (*face) {
      return cl_absf(hn) / cl_sqrt(cc);
    }
  }
  return cl_sqrt(lb_vec3_dot(d, d));
}

float cl_triangle_closest(const float *p, const float *a, const float *b, const float *c,
                          float *q) {
  bool face;
  return cl_triangle_closest_region(p, a, b, c, q, &face);
}

float cl_triangle_closest_normal(const float *p, const float *a, const float *b, const float *c,
                                 float *q, float *n) {
  bool face;
  float dist = cl_triangle_closest_region(p, a, b, c, q, &face);
  float d[3];
  lb_vec3_sub(p, q, d);
  if (face || !(dist > 0.0f)) {
    /* The face normal (from the placed, scaled corners), turned toward p: p - q would tilt by
     * q's rounding over the distance, degrees for a small query on a large mesh (0.8 for a
     * 0.3 m sphere on a flat mesh 1e5 m across). */
    cl_triangle_normal(a, b, c, n);
    if (lb_vec3_dot(d, n) < 0.0f) {
      lb_vec3_scale(n, -1.0f, n);
    }
    return dist;
  }
  lb_vec3_scale(d, 1.0f / dist, n);
  return dist;
}
