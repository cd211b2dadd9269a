/* Capsule casts (closed form per primitive, query_cast_box.c / query_cast.c) against an
 * independent reference in double precision: the distance between the moved core segment and
 * the shape, minimised over the core by golden section, and the first time it reaches the
 * radius by golden section then bisection over the cast (both convex). Checked on the
 * benchmark's 1024-query table over the corridor level (tests/bench/bench_controller.c: the
 * same xorshift32 numbers) and on random boxes, spheres, capsules and triangles in every
 * orientation: which collider is hit, the distance, the contact point (on the collider, the
 * radius from the core) and the normal (from the point to the core). */
#include "cJSON.h"
#include "collide_fixture.h"

#include <math.h>

/* Under the sanitizers (unoptimised, ~50x slower) a sixteenth of the queries. */
#if defined(__SANITIZE_ADDRESS__)
#define CC_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CC_SANITIZED 1
#endif
#endif
#ifndef CC_SANITIZED
#define CC_SANITIZED 0
#endif
#define CC_SHARE(n) (CC_SANITIZED ? (n) / 16 : (n))

#define CC_TOL_T 1e-5     /* m: distance along the cast */
#define CC_TOL_POINT 1e-5 /* m: the point on the surface, the radius from the core */
#define CC_TOL_NORMAL 1e-4
#define CC_GRAZE 1e-5 /* m: a closest approach this near the radius may go either way */

enum { CC_BOX, CC_SPHERE, CC_CAPSULE, CC_TRIANGLE };

typedef struct cc_shape {
  int kind;
  double c[3], ax[9], h[3]; /* box: centre, axes (column k = axis k), half extents */
  double a[3], b[3], tc[3]; /* capsule core a-b; triangle a, b, tc */
  double r;                 /* sphere (centre a) and capsule radius */
  lb_entity e;
} cc_shape;

typedef struct cc_cast {
  double a[3], e[3], d[3], r, maxd;
} cc_cast;

/* ---- double-precision geometry ---------------------------------------------------------- */
static double cc_dot(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double cc_clamp(double x, double lo, double hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

static void cc_seg_closest(const double *p, const double *a, const double *b, double *q) {
  double ab[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]},
         ap[3] = {p[0] - a[0], p[1] - a[1], p[2] - a[2]};
  double l2 = cc_dot(ab, ab), s = l2 > 0.0 ? cc_clamp(cc_dot(ap, ab) / l2, 0.0, 1.0) : 0.0;
  for (int k = 0; k < 3; ++k) {
    q[k] = a[k] + ab[k] * s;
  }
}

/* Ericson 5.1.5 in double. */
static void cc_tri_closest(const double *p, const double *a, const double *b, const double *c,
                           double *q) {
  double ab[3], ac[3], ap[3], bp[3], cp[3];
  for (int k = 0; k < 3; ++k) {
    ab[k] = b[k] - a[k], ac[k] = c[k] - a[k], ap[k] = p[k] - a[k];
    bp[k] = p[k] - b[k], cp[k] = p[k] - c[k];
  }
  double d1 = cc_dot(ab, ap), d2 = cc_dot(ac, ap), d3 = cc_dot(ab, bp), d4 = cc_dot(ac, bp);
  double d5 = cc_dot(ab, cp), d6 = cc_dot(ac, cp);
  double vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
  double u = 0.0, v = 0.0;
  if (d1 <= 0.0 && d2 <= 0.0) {
  } else if (d3 >= 0.0 && d4 <= d3) {
    u = 1.0;
  } else if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    u = d1 / (d1 - d3);
  } else if (d6 >= 0.0 && d5 <= d6) {
    v = 1.0;
  } else if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    v = d2 / (d2 - d6);
  } else if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {
    v = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    u = 1.0 - v;
  } else {
    double den = va + vb + vc;
    u = vb / den, v = vc / den;
  }
  for (int k = 0; k < 3; ++k) {
    q[k] = a[k] + ab[k] * u + ac[k] * v;
  }
}

/* Closest point q of the shape (its surface, or the point itself inside) and the signed
 * distance (negative inside a box, sphere or capsule). */
static double cc_closest(const cc_shape *s, const double *p, double *q) {
  double w[3], l[3], lq[3];
  if (s->kind == CC_BOX) {
    for (int k = 0; k < 3; ++k) {
      w[k] = p[k] - s->c[k];
    }
    double out = 0.0, in = -1e300;
    for (int k = 0; k < 3; ++k) {
      l[k] = cc_dot(w, s->ax + 3 * k);
      lq[k] = cc_clamp(l[k], -s->h[k], s->h[k]);
      out += (l[k] - lq[k]) * (l[k] - lq[k]);
      in = fmax(in, fabs(l[k]) - s->h[k]);
    }
    for (int k = 0; k < 3; ++k) {
      q[k] = s->c[k] + s->ax[k] * lq[0] + s->ax[3 + k] * lq[1] + s->ax[6 + k] * lq[2];
    }
    return out > 0.0 ? sqrt(out) : in;
  }
  if (s->kind == CC_TRIANGLE) {
    cc_tri_closest(p, s->a, s->b, s->tc, q);
    for (int k = 0; k < 3; ++k) {
      w[k] = p[k] - q[k];
    }
    return sqrt(cc_dot(w, w));
  }
  double core[3];
  cc_seg_closest(p, s->a, s->kind == CC_SPHERE ? s->a : s->b, core);
  for (int k = 0; k < 3; ++k) {
    w[k] = p[k] - core[k];
  }
  double l2 = sqrt(cc_dot(w, w));
  for (int k = 0; k < 3; ++k) {
    q[k] = l2 > 0.0 ? core[k] + w[k] / l2 * s->r : p[k];
  }
  return l2 - s->r;
}

static void cc_core_at(const cc_cast *c, double t, double s, double *x) {
  for (int k = 0; k < 3; ++k) {
    x[k] = c->a[k] + c->e[k] * s + c->d[k] * t;
  }
}

/* Golden-section minimum of a convex f on [lo, hi]. */
typedef double (*cc_fn)(const cc_shape *, const cc_cast *, double, double *);
static double cc_golden(cc_fn f, const cc_shape *s, const cc_cast *c, double u, double lo,
                        double hi, double *at) {
  const double g = 0.3819660112501051;
  double x1 = lo + g * (hi - lo), x2 = hi - g * (hi - lo), s1, s2;
  double f1 = f(s, c, u, &x1), f2 = f(s, c, u, &x2);
  for (int i = 0; i < 90; ++i) {
    if (f1 <= f2) {
      hi = x2, x2 = x1, f2 = f1, x1 = lo + g * (hi - lo), f1 = f(s, c, u, &x1);
    } else {
      lo = x1, x1 = x2, f1 = f2, x2 = hi - g * (hi - lo), f2 = f(s, c, u, &x2);
    }
  }
  s1 = f(s, c, u, &lo), s2 = f(s, c, u, &hi);
  double best = fmin(fmin(f1, f2), fmin(s1, s2));
  *at = best == s1 ? lo : (best == s2 ? hi : (best == f1 ? x1 : x2));
  return best;
}

/* Distance from the core moved by t to the shape at core parameter *s. */
static double cc_at(const cc_shape *sh, const cc_cast *c, double t, double *s) {
  double x[3], q[3];
  cc_core_at(c, t, *s, x);
  return cc_closest(sh, x, q);
}

/* Gap (distance minus radius) of the moved core, minimised over the core. */
static double cc_gap(const cc_shape *sh, const cc_cast *c, double unused, double *t) {
  (void)unused;
  double s;
  return cc_golden(cc_at, sh, c, *t, 0.0, 1.0, &s) - c->r;
}

/* First time the gap reaches 0 within maxd, or -1; *closest: the least gap. */
static double cc_reference_cast(const cc_shape *sh, const cc_cast *c, double *closest) {
  double t0 = 0.0, tm;
  if ((*closest = cc_gap(sh, c, 0.0, &t0)) <= 0.0) {
    return 0.0;
  }
  *closest = cc_golden(cc_gap, sh, c, 0.0, 0.0, c->maxd, &tm);
  if (*closest > 0.0) {
    return -1.0;
  }
  double lo = 0.0, hi = tm;
  for (int i = 0; i < 80; ++i) {
    double mid = 0.5 * (lo + hi);
    if (cc_gap(sh, c, 0.0, &mid) > 0.0) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return hi;
}

/* ---- comparing one query -------------------------------------------------------------- */
typedef struct cc_stats {
  int queries, hits, compared;
  double dt, dpoint, dnormal;
} cc_stats;

/* Checks the point and normal of a hit at h->distance on entity h->entity (one shape, or a
 * mesh's triangles). */
static void cc_check_contact(cc_stats *st, const cc_shape *shapes, int n, const cc_cast *c,
                             const lb_collide_hit *h) {
  double p[3] = {h->point[0], h->point[1], h->point[2]}, q[3], core[3], x0[3], x1[3], w[3];
  double on = 1e300;
  for (int i = 0; i < n; ++i) {
    if (shapes[i].e == h->entity) {
      on = fmin(on, fabs(cc_closest(&shapes[i], p, q)));
    }
  }
  cc_core_at(c, h->distance, 0.0, x0);
  for (int k = 0; k < 3; ++k) {
    x1[k] = x0[k] + c->e[k];
  }
  cc_seg_closest(p, x0, x1, core);
  for (int k = 0; k < 3; ++k) {
    w[k] = core[k] - p[k];
  }
  double len = sqrt(cc_dot(w, w)), dn = 0.0;
  for (int k = 0; k < 3; ++k) {
    dn = fmax(dn, fabs(w[k] / len - (double)h->normal[k]));
  }
  st->dpoint = fmax(st->dpoint, fmax(on, fabs(len - c->r)));
  st->dnormal = fmax(st->dnormal, dn);
}

static void cc_compare(cc_stats *st, lb_world *w, const cc_shape *shapes, int n, const cc_cast *c) {
  vec3 a, b, d;
  for (int k = 0; k < 3; ++k) {
    a[k] = (float)c->a[k], b[k] = (float)(c->a[k] + c->e[k]), d[k] = (float)c->d[k];
  }
  lb_collide_hit h;
  LB_CHECK(lb_world_capsule_cast(w, a, b, (float)c->r, d, (float)c->maxd, NULL, &h) == LB_OK);
  st->queries++;
  double best = -1.0, graze = 1e300, t_hit = -1.0;
  for (int i = 0; i < n; ++i) {
    double closest, t = cc_reference_cast(&shapes[i], c, &closest);
    graze = fmin(graze, fabs(closest));
    best = t >= 0.0 && (best < 0.0 || t < best) ? t : best;
    if (shapes[i].e == h.entity && t >= 0.0 && (t_hit < 0.0 || t < t_hit)) {
      t_hit = t;
    }
  }
  if (!h.entity) {
    LB_CHECK(best < 0.0 || graze <= CC_GRAZE);
    return;
  }
  st->hits++;
  LB_CHECK(t_hit >= 0.0 || graze <= CC_GRAZE);
  if (t_hit < 0.0) {
    return;
  }
  /* the collider hit is the first one (ties within the tolerance) */
  LB_CHECK(t_hit <= best + CC_TOL_T);
  st->dt = fmax(st->dt, fabs((double)h.distance - t_hit));
  if (h.distance > 0.0f) {
    st->compared++;
    cc_check_contact(st, shapes, n, c, &h);
  }
}

static void cc_report(const char *what, const cc_stats *st) {
  printf("%s: %d queries, %d hits (%d with a contact point); max |t - reference| %.3g m, "
         "point %.3g m, normal %.3g\n",
         what, st->queries, st->hits, st->compared, st->dt, st->dpoint, st->dnormal);
  LB_CHECK(st->dt <= CC_TOL_T);
  LB_CHECK(st->dpoint <= CC_TOL_POINT);
  LB_CHECK(st->dnormal <= CC_TOL_NORMAL);
  LB_CHECK(st->hits > st->queries / 10);
}

/* ---- the benchmark's table on the corridor ---------------------------------------------- */
static uint32_t cc_s;
static float cc_rand(void) { /* tests/bench/bench_controller.c's lb_cq_rand */
  uint32_t x = cc_s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  cc_s = x;
  return (float)(x >> 8) / 16777216.0f;
}

static void cc_dir(float *o) {
  for (;;) {
    float v[3] = {cc_rand() * 2.0f - 1.0f, cc_rand() * 2.0f - 1.0f, cc_rand() * 2.0f - 1.0f};
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.1f && l <= 1.0f) {
      o[0] = v[0] / l, o[1] = v[1] / l, o[2] = v[2] / l;
      return;
    }
  }
}

static void cc_axes_identity(double *ax) {
  memset(ax, 0, 9 * sizeof(double));
  ax[0] = ax[4] = ax[8] = 1.0;
}

static int cc_corridor(lb_world *w, cc_shape *shapes) {
  size_t len;
  char *text = lb_test_read_file("assets/levels/corridor.json", &len);
  cJSON *root = text ? cJSON_Parse(text) : NULL;
  free(text);
  int n = 0;
  const cJSON *p;
  cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(root, "pieces")) {
    float c[3], s[3];
    for (int k = 0; k < 3; ++k) {
      c[k] = (float)cJSON_GetArrayItem(cJSON_GetObjectItem(p, "center"), k)->valuedouble;
      s[k] = (float)cJSON_GetArrayItem(cJSON_GetObjectItem(p, "size"), k)->valuedouble;
    }
    cc_shape *sh = &shapes[n++];
    sh->kind = CC_BOX;
    sh->e = cl_test_box(w, c[0], c[1], c[2], s[0], s[1], s[2], NULL); /* every piece unrotated */
    cc_axes_identity(sh->ax);
    for (int k = 0; k < 3; ++k) {
      sh->c[k] = c[k], sh->h[k] = 0.5 * (double)s[k];
    }
  }
  cJSON_Delete(root);
  return n;
}

static void test_corridor_table(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  cc_shape shapes[16];
  int n = cc_corridor(w, shapes);
  LB_CHECK(n == 12);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  cc_s = 2024u;
  const float lo[3] = {-2.0f, -0.1f, -2.0f}, hi[3] = {10.0f, 2.5f, 14.0f};
  cc_stats st = {0};
  for (int i = 0; i < CC_SHARE(1024); ++i) {
    float p[3], d[3], ax[3];
    for (int k = 0; k < 3; ++k) {
      p[k] = lo[k] + (hi[k] - lo[k]) * cc_rand();
    }
    cc_dir(d);
    cc_dir(ax);
    float maxd = 0.5f + 4.0f * cc_rand(), radius = 0.05f + 0.45f * cc_rand();
    float half = 0.1f + 0.6f * cc_rand();
    cc_cast c = {.r = radius, .maxd = maxd};
    for (int k = 0; k < 3; ++k) {
      float a = p[k] - ax[k] * half, b = p[k] + ax[k] * half;
      c.a[k] = a, c.e[k] = (double)b - (double)a, c.d[k] = d[k];
    }
    cc_compare(&st, w, shapes, n, &c);
  }
  cc_report("corridor, the 1024-query table", &st);
  lb_world_destroy(w);
}

/* ---- random primitives and triangles in every orientation ---------------------------------- */
static double cc_randd(rng *r, double lo, double hi) {
  return lo + (hi - lo) * (double)(rng_u32(r) >> 8) / 16777216.0;
}

static void cc_rotate(const float *q, const double *v, double *o) {
  double x = q[0], y = q[1], z = q[2], s = q[3];
  double t[3] = {2.0 * (y * v[2] - z * v[1]), 2.0 * (z * v[0] - x * v[2]),
                 2.0 * (x * v[1] - y * v[0])};
  o[0] = v[0] + s * t[0] + (y * t[2] - z * t[1]);
  o[1] = v[1] + s * t[1] + (z * t[0] - x * t[2]);
  o[2] = v[2] + s * t[2] + (x * t[1] - y * t[0]);
}

static void cc_random_quat(rng *r, float *q) {
  double l = 0.0, v[4];
  do {
    for (int k = 0; k < 4; ++k) {
      v[k] = cc_randd(r, -1.0, 1.0);
    }
    l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
  } while (!(l > 0.1 && l <= 1.0));
  for (int k = 0; k < 4; ++k) {
    q[k] = (float)(v[k] / l);
  }
}

/* One collider of `kind` at the origin in a random orientation, its reference shapes (a
 * mesh: its triangles). */
static int cc_spawn_random(lb_world *w, rng *r, int kind, cc_shape *out) {
  lb_collider_c col = cl_test_collider(kind == CC_BOX       ? LB_COLLIDER_BOX
                                       : kind == CC_SPHERE  ? LB_COLLIDER_SPHERE
                                       : kind == CC_CAPSULE ? LB_COLLIDER_CAPSULE
                                                            : LB_COLLIDER_MESH);
  float q[4];
  cc_random_quat(r, q);
  col.radius = (float)cc_randd(r, 0.1, 1.0);
  col.height = 2.0f * col.radius + (float)cc_randd(r, 0.0, 2.0);
  col.direction = rng_u32(r) % 3u;
  for (int k = 0; k < 3; ++k) {
    col.size[k] = (float)cc_randd(r, 0.1, 3.0);
  }
  static const float pos[] = {-1.0f, 0.0f,  -1.0f, 1.0f, 0.3f, -1.0f, 1.0f, -0.2f,
                              1.0f,  -1.0f, 0.4f,  1.0f, 0.0f, 0.9f,  0.0f};
  static const uint32_t idx[] = {0, 4, 1, 1, 4, 2, 2, 4, 3, 3, 4, 0};
  if (kind == CC_TRIANGLE) {
    lb_mesh_def md = lb_mesh_default_def();
    md.positions = pos, md.vertex_count = 5, md.indices = idx, md.index_count = 12;
    LB_CHECK(lb_world_add_mesh(w, &md, &col.mesh) == LB_OK);
  }
  lb_entity e = cl_test_spawn(w, &col, 0.0f, 0.0f, 0.0f, q, NULL);
  double unit[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  cc_shape s = {.kind = kind, .e = e, .r = col.radius};
  if (kind == CC_TRIANGLE) {
    for (int t = 0; t < 4; ++t) {
      double *corner[3] = {s.a, s.b, s.tc};
      for (int v = 0; v < 3; ++v) {
        const float *p = pos + 3 * idx[3 * t + v];
        double pd[3] = {p[0], p[1], p[2]};
        cc_rotate(q, pd, corner[v]);
      }
      out[t] = s;
    }
    return 4;
  }
  for (int k = 0; k < 3; ++k) {
    cc_rotate(q, unit[k], s.ax + 3 * k);
    s.h[k] = 0.5 * (double)col.size[k];
  }
  double core = 0.5 * (double)col.height - (double)col.radius;
  for (int k = 0; k < 3; ++k) {
    s.a[k] = kind == CC_CAPSULE ? -core * s.ax[3 * col.direction + k] : 0.0;
    s.b[k] = -s.a[k];
  }
  out[0] = s;
  return 1;
}

static void test_random_shapes(void) {
  static const char *names[4] = {"boxes", "spheres", "capsules", "triangles"};
  rng r = {0xCA95u};
  cc_s = 7u;
  for (int kind = 0; kind < 4; ++kind) {
    cc_stats st = {0};
    for (int world = 0; world < CC_SHARE(48); ++world) {
      lb_world *w = NULL;
      LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
      cc_shape shapes[4];
      int n = cc_spawn_random(w, &r, kind, shapes);
      LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
      for (int i = 0; i < 25; ++i) {
        cc_cast c = {.r = (float)cc_randd(&r, 0.02, 0.8), .maxd = (float)cc_randd(&r, 0.0, 8.0)};
        float ax[3], d[3], to[3];
        cc_dir(ax);
        double half = (float)cc_randd(&r, 0.05, 1.0);
        for (int k = 0; k < 3; ++k) {
          float p = (float)cc_randd(&r, -3.0, 3.0), a = (float)(p - ax[k] * half);
          float b = (float)(p + ax[k] * half);
          c.a[k] = a, c.e[k] = (double)b - (double)a;
          to[k] = (float)cc_randd(&r, -0.8, 0.8) - p; /* aim near the collider */
        }
        float l = sqrtf(to[0] * to[0] + to[1] * to[1] + to[2] * to[2]);
        for (int k = 0; k < 3; ++k) {
          d[k] = to[k] / l, c.d[k] = d[k];
        }
        cc_compare(&st, w, shapes, n, &c);
      }
      lb_world_destroy(w);
    }
    cc_report(names[kind], &st);
  }
}

int main(void) {
  LB_RUN(test_corridor_table);
  LB_RUN(test_random_shapes);
  LB_TEST_MAIN_END();
}
