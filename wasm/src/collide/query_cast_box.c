/* Casts against a box. A sphere (or point) is a ray against the box grown by its radius.
 * A capsule is solved in the box's own frame, where every edge is parallel to an axis: its
 * first contact is one of
 *   - an end sphere against the box (the rounded box: a face, or an edge's or corner's
 *     rounding, found from the region where the ray enters the box grown by r on every
 *     axis, as Ericson, Real-Time Collision Detection, 5.5.7);
 *   - the core's inside against an edge's inside: the two lines at distance r, a linear
 *     equation, kept when both closest points lie inside their segments;
 *   - the core's inside against a corner: the corner's ray against the core's cylinder.
 * (A face against the core's inside touches only with a core parallel to it, when the end
 * spheres touch too.) Each is closed form: no iteration. */
#include "collide_internal.h"

#include <string.h>

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

static float cl_take(float best, float t) {
  return t >= 0.0f && (best < 0.0f || t < best) ? t : best;
}

/* Slabs of the box (local start lo, direction ld) grown by r on every axis: the entry
 * parameter (0 from inside) and the axis entered through (-1: from inside), or -1 on a miss:
 * a miss there misses the rounded box. */
static float cl_box_slabs(const float *h, const float *lo, const float *ld, float r, float maxd,
                          int *enter_axis) {
  float t0 = 0.0f, t1 = maxd;
  *enter_axis = -1;
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
      *enter_axis = k;
    }
    t1 = cl_minf(t1, b);
    if (t0 > t1) {
      return -1.0f;
    }
  }
  return t0;
}

/* On how many axes other than `skip` the point lo + ld t lies beyond the box; *out gets a
 * bit per such axis and *above a bit per axis it lies on the + side of (the skipped axis,
 * the one entered through, counts as beyond on the side the ray comes from). */
static int cl_box_region(const float *h, const float *lo, const float *ld, float t, int skip,
                         int *out, int *above) {
  int n = 0;
  *out = 1 << skip;
  *above = ld[skip] < 0.0f ? 1 << skip : 0;
  for (int k = 0; k < 3; ++k) {
    float x = lo[k] + ld[k] * t;
    if (k != skip && (x < -h[k] || x > h[k])) {
      n++;
      *out |= 1 << k;
      *above |= x > h[k] ? 1 << k : 0;
    }
  }
  return n;
}

/* Sphere (or point, r = 0) from o along d against a box grown by r. */
float cl_sphere_cast_box(const cl_proxy *p, const float *o, const float *d, float r, float maxd) {
  float w[3], lo[3], ld[3];
  lb_vec3_sub(o, p->shape.center, w);
  for (int k = 0; k < 3; ++k) {
    lo[k] = lb_vec3_dot(w, p->m + 3 * k);
    ld[k] = lb_vec3_dot(d, p->m + 3 * k);
  }
  const float *h = p->shape.half_extents;
  int enter_axis, out, above;
  float t0 = cl_box_slabs(h, lo, ld, r, maxd, &enter_axis);
  if (t0 < 0.0f || r == 0.0f) {
    return t0; /* a miss, or a point against the box itself */
  }
  /* Entering through a face region of the grown box (the other two coordinates within the
   * box) is the contact; otherwise (or from a start inside the grown box's corner and edge
   * regions) the first contact is with an edge's rounding. */
  if (enter_axis >= 0 && cl_box_region(h, lo, ld, t0, enter_axis, &out, &above) == 0) {
    return t0;
  }
  float corners[8][3], best = -1.0f;
  for (int c = 0; c < 8; ++c) {
    cl_box_corner(p, c & 1, (c >> 1) & 1, (c >> 2) & 1, corners[c]);
  }
  for (int e = 0; e < 12; ++e) {
    best = cl_take(
        best, cl_ray_capsule(o, d, corners[cl_box_edges[e][0]], corners[cl_box_edges[e][1]], r));
  }
  return best;
}

/* ---- capsules, in the box's frame ----------------------------------------------------------- */
typedef struct cl_box_cast {
  float a[3], b[3], e[3], d[3]; /* core ends, core, direction: box frame */
  float lo[3], hi[3];           /* bounds of the swept capsule, with a rounding margin */
  float grow[3];                /* r and that margin, per axis */
  const float *h;
  float r, ee, maxd; /* radius, |e|^2, cast length */
} cl_box_cast;

/* The query in the box's frame, and its swept bounds; false when those miss the box. The
 * margin covers the rounding of the sums the tests below make (never a touching box left
 * out). */
static bool cl_box_cast_init(const cl_proxy *p, const cl_query *q, cl_box_cast *bc) {
  float wa[3], wb[3];
  lb_vec3_sub(q->a, p->shape.center, wa);
  lb_vec3_sub(q->b, p->shape.center, wb);
  bc->h = p->shape.half_extents;
  bc->r = q->r;
  bc->maxd = q->maxd;
  bool miss = false;
  for (int k = 0; k < 3; ++k) {
    const float *ax = p->m + 3 * k;
    bc->a[k] = lb_vec3_dot(wa, ax);
    bc->b[k] = lb_vec3_dot(wb, ax);
    bc->e[k] = lb_vec3_dot(q->e, ax);
    bc->d[k] = lb_vec3_dot(q->d, ax);
    float move = bc->d[k] * q->maxd, lo = cl_minf(bc->a[k], bc->b[k]);
    float hi = cl_maxf(bc->a[k], bc->b[k]);
    bc->grow[k] = q->r + (q->r + cl_maxf(-lo, hi) + q->maxd) * 1e-5f + 1e-5f;
    bc->lo[k] = lo + cl_minf(move, 0.0f) - bc->grow[k];
    bc->hi[k] = hi + cl_maxf(move, 0.0f) + bc->grow[k];
    miss = miss || bc->lo[k] > bc->h[k] || bc->hi[k] < -bc->h[k];
  }
  bc->ee = lb_vec3_dot(bc->e, bc->e);
  return !miss;
}

/* The capsule where it starts touches the box (distance <= r; checked only when its bounds
 * there reach the box). */
static bool cl_box_cast_touches(const cl_box_cast *bc) {
  for (int k = 0; k < 3; ++k) {
    float lo = cl_minf(bc->a[k], bc->b[k]), hi = cl_maxf(bc->a[k], bc->b[k]);
    if (lo - bc->grow[k] > bc->h[k] || hi + bc->grow[k] < -bc->h[k]) {
      return false;
    }
  }
  cl_rbox rb;
  float s, d2;
  memcpy(rb.l, bc->a, sizeof rb.l);
  memcpy(rb.f, bc->e, sizeof rb.f);
  memcpy(rb.h, bc->h, sizeof rb.h);
  return !cl_rbox_nearest(&rb, &s, &d2) || d2 <= bc->r * bc->r;
}

/* Corner c (bit k: + side of axis k) in the box's frame. */
static void cl_local_corner(const float *h, int c, float *out) {
  for (int k = 0; k < 3; ++k) {
    out[k] = (c >> k) & 1 ? h[k] : -h[k];
  }
}

/* The rounding of the edge along axis k through corner c. */
static float cl_local_edge(const cl_box_cast *bc, const float *o, int k, int c) {
  float c0[3], c1[3];
  cl_local_corner(bc->h, c & ~(1 << k), c0);
  cl_local_corner(bc->h, c | (1 << k), c1);
  return cl_ray_capsule(o, bc->d, c0, c1, bc->r);
}

/* The edge along axis k through corner c crosses the bounds the end sphere at o sweeps (its
 * coordinates on the other two axes lie within them). */
static bool cl_edge_in_reach(const cl_box_cast *bc, const float *o, int k, int c) {
  for (int j = 0; j < 3; ++j) {
    float x = (c >> j) & 1 ? bc->h[j] : -bc->h[j], move = bc->d[j] * bc->maxd;
    if (j != k && (x < o[j] + cl_minf(move, 0.0f) - bc->grow[j] ||
                   x > o[j] + cl_maxf(move, 0.0f) + bc->grow[j])) {
      return false;
    }
  }
  return true;
}

/* An end sphere at o against the rounded box. Entering the grown box through an edge region
 * meets that edge's rounding, through a corner region one of the corner's three edges';
 * from a start inside the grown box (outside the rounded one) any edge may come first. */
static float cl_end_sphere(const cl_box_cast *bc, const float *o) {
  int enter_axis, out, above;
  float t0 = cl_box_slabs(bc->h, o, bc->d, bc->r, bc->maxd, &enter_axis);
  if (t0 < 0.0f) {
    return -1.0f;
  }
  float best = -1.0f;
  if (enter_axis >= 0) {
    int n = cl_box_region(bc->h, o, bc->d, t0, enter_axis, &out, &above);
    if (n == 0) {
      return t0;
    }
    for (int k = 0; k < 3; ++k) {
      if (n == 2 || !(out & (1 << k))) { /* an edge region's edge runs along its inside axis */
        best = cl_take(best, cl_local_edge(bc, o, k, above));
      }
    }
    return best;
  }
  for (int k = 0; k < 3; ++k) {
    for (int c = 0; c < 4; ++c) { /* the four edges along axis k */
      int lo_bit = c & ((1 << k) - 1), corner = lo_bit | ((c >> k) << (k + 1));
      if (cl_edge_in_reach(bc, o, k, corner)) {
        best = cl_take(best, cl_local_edge(bc, o, k, corner));
      }
    }
  }
  return best;
}

/* The core's inside against the insides of the four edges along axis k (the other axes
 * i, j): the lines' distance along n = axis_k x e is linear in t; at distance r from the
 * side the core comes from, the closest points must lie within both segments. Edges outside
 * the swept bounds are skipped. */
static float cl_edges_along(const cl_box_cast *bc, int k, float best) {
  int i = (k + 1) % 3, j = (k + 2) % 3;
  float ni = -bc->e[j], nj = bc->e[i];
  float nn2 = ni * ni + nj * nj;
  if (!(nn2 > bc->ee * 1e-12f)) {
    return best; /* parallel: the end spheres touch first or at once */
  }
  float rn = -1.0f, dn = bc->d[i] * ni + bc->d[j] * nj;
  for (int c = 0; c < 4; ++c) {
    float ei = (c & 1) ? bc->h[i] : -bc->h[i], ej = (c & 2) ? bc->h[j] : -bc->h[j];
    if (ei < bc->lo[i] || ei > bc->hi[i] || ej < bc->lo[j] || ej > bc->hi[j]) {
      continue;
    }
    rn = rn < 0.0f ? bc->r * cl_sqrt(nn2) : rn;
    float wi = bc->a[i] - ei, wj = bc->a[j] - ej;
    float hh = wi * ni + wj * nj;
    if (!((hh > rn && dn < 0.0f) || (hh < -rn && dn > 0.0f))) {
      continue;
    }
    float t = ((hh > 0.0f ? rn : -rn) - hh) / dn;
    if (best >= 0.0f && !(t < best)) {
      continue;
    }
    wi += bc->d[i] * t;
    wj += bc->d[j] * t;
    float s = -(wi * bc->e[i] + wj * bc->e[j]) / nn2;
    float x = bc->a[k] + bc->d[k] * t + bc->e[k] * s;
    if (s >= 0.0f && s <= 1.0f && x >= -bc->h[k] && x <= bc->h[k]) {
      best = t;
    }
  }
  return best;
}

/* The eight corners against the core's cylinder (its inside: 0 <= s <= 1). Each corner's ray
 * runs along -d; in the plane across the core the cylinder is a circle. Corners outside the
 * swept bounds are skipped. */
static float cl_corners_core(const cl_box_cast *bc, float best) {
  float dpar = lb_vec3_dot(bc->d, bc->e) / bc->ee, dp[3];
  for (int k = 0; k < 3; ++k) {
    dp[k] = bc->e[k] * dpar - bc->d[k]; /* -d across the core */
  }
  for (int c = 0; c < 8; ++c) {
    float v[3], m[3], mp[3];
    cl_local_corner(bc->h, c, v);
    if (v[0] < bc->lo[0] || v[0] > bc->hi[0] || v[1] < bc->lo[1] || v[1] > bc->hi[1] ||
        v[2] < bc->lo[2] || v[2] > bc->hi[2]) {
      continue;
    }
    lb_vec3_sub(v, bc->a, m);
    float mpar = lb_vec3_dot(m, bc->e) / bc->ee;
    lb_vec3_mad(m, bc->e, -mpar, mp);
    float t = cl_ray_circle(mp, dp, bc->r);
    if (t < 0.0f || (best >= 0.0f && !(t < best))) {
      continue;
    }
    float s = mpar - dpar * t; /* the core parameter opposite the corner then */
    if (s >= 0.0f && s <= 1.0f) {
      best = t;
    }
  }
  return best;
}

float cl_capsule_cast_box(const cl_proxy *p, const cl_query *q) {
  cl_box_cast bc;
  if (!cl_box_cast_init(p, q, &bc)) {
    return -1.0f;
  }
  if (cl_box_cast_touches(&bc)) {
    return 0.0f;
  }
  if (q->maxd == 0.0f) {
    return -1.0f;
  }
  float best = cl_end_sphere(&bc, bc.a);
  best = cl_take(best, cl_end_sphere(&bc, bc.b));
  if (bc.ee > 0.0f) {
    for (int k = 0; k < 3; ++k) {
      best = cl_edges_along(&bc, k, best);
    }
    best = cl_corners_core(&bc, best);
  }
  return best <= q->maxd ? best : -1.0f;
}
