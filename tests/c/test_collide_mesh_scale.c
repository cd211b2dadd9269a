/* Mesh queries at any scale: a flat and a sloped quad mesh placed at uniform scales 0.01, 1
 * and 1000 and at non-uniform scales, queried by ray casts, sphere casts, closest points and
 * sphere overlaps whose answers are known in closed form (a plane through the origin).
 *
 * Two kinds of query:
 *  - scaled with the mesh (positions and radius times the scale): the whole layout scales,
 *    so every answer must scale with it: normals within 0.01 degrees of the plane's, distances
 *    within 1e-5 of the expected ones, relatively;
 *  - a character-sized one (a 0.3 m sphere 2 m above the surface near the origin) on a mesh
 *    scaled to tens of kilometres: a ground plane. The triangles' corners are then 5e4 m
 *    away, where a float's rounding is 4 mm; the normal must still be the face's (a normal
 *    taken from the centre minus a closest point carries that rounding over the 0.3 m radius:
 *    0.8 degrees before the fix, 7.6 at scale 1e4). */
#include "collide_fixture.h"

#define HALF 50.0f      /* the quad's half size in the mesh frame */
#define NORMAL_DEG 0.01 /* largest normal error, degrees */
#define REL 1e-5        /* largest relative distance error */

/* Angle between a float normal and the expected unit normal, degrees (atan2 of the cross
 * and dot products: acos near 1 would resolve no better than 0.02 degrees). */
static double angle_deg(const float *n, const double *e) {
  double c0 = n[1] * e[2] - n[2] * e[1], c1 = n[2] * e[0] - n[0] * e[2],
         c2 = n[0] * e[1] - n[1] * e[0];
  double dot = n[0] * e[0] + n[1] * e[1] + n[2] * e[2];
  return atan2(sqrt(c0 * c0 + c1 * c1 + c2 * c2), dot) * (180.0 / 3.14159265358979323846);
}

typedef struct worst {
  double normal_deg, rel;
} worst;

static void check_normal(worst *wo, const char *what, const float *n, const double *e) {
  double a = angle_deg(n, e);
  if (!(a <= NORMAL_DEG)) {
    fprintf(stderr, "%s: normal (%.7f %.7f %.7f) is %.4f degrees off\n", what, (double)n[0],
            (double)n[1], (double)n[2], a);
  }
  LB_CHECK(a <= NORMAL_DEG);
  wo->normal_deg = fmax(wo->normal_deg, a);
}

static void check_distance(worst *wo, const char *what, double got, double want, double tol) {
  double err = fabs(got - want);
  if (!(err <= tol)) {
    fprintf(stderr, "%s: distance %.9g, expected %.9g (error %.3g > %.3g)\n", what, got, want, err,
            tol);
  }
  LB_CHECK(err <= tol);
  wo->rel = fmax(wo->rel, err / want);
}

/* Every query from point p (world) with sphere radius r against the mesh entity e whose plane
 * through the origin has unit normal n (upward). dist_tol: allowed distance error, metres. */
static void query_all(lb_world *w, lb_entity e, const float *p, float r, const double *n,
                      double dist_tol_rel, double dist_tol_abs, worst *wo) {
  double h = n[0] * p[0] + n[1] * p[1] + n[2] * p[2]; /* height above the plane */
  LB_CHECK(h > 2.0 * r);
  double tol_ray = fmax(dist_tol_rel * (h / n[1]), dist_tol_abs);
  double tol_sph = fmax(dist_tol_rel * ((h - r) / n[1]), dist_tol_abs);
  const vec3 down = {0.0f, -1.0f, 0.0f};
  float maxd = (float)(4.0 * h / n[1]);
  lb_collide_hit hit;
  /* ray down */
  LB_CHECK(lb_world_raycast(w, p, down, maxd, NULL, &hit) == LB_OK && hit.entity == e);
  check_distance(wo, "ray", hit.distance, h / n[1], tol_ray);
  check_normal(wo, "ray", hit.normal, n);
  /* sphere down: touches the face when the centre is r above the plane */
  LB_CHECK(lb_world_sphere_cast(w, p, r, down, maxd, NULL, &hit) == LB_OK && hit.entity == e);
  check_distance(wo, "sphere cast", hit.distance, (h - r) / n[1], tol_sph);
  check_normal(wo, "sphere cast", hit.normal, n);
  LB_CHECK(lb_world_sphere_cast_brute(w, p, r, down, maxd, NULL, &hit) == LB_OK);
  check_normal(wo, "sphere cast (brute)", hit.normal, n);
  /* sphere from below, upward: the normal faces the query */
  vec3 below = {p[0], (float)(p[1] - 2.0 * h / n[1]), p[2]};
  const vec3 up = {0.0f, 1.0f, 0.0f};
  LB_CHECK(lb_world_sphere_cast(w, below, r, up, maxd, NULL, &hit) == LB_OK && hit.entity == e);
  double neg[3] = {-n[0], -n[1], -n[2]};
  check_normal(wo, "sphere cast from below", hit.normal, neg);
  /* closest point */
  LB_CHECK(lb_world_closest_point(w, p, maxd, NULL, &hit) == LB_OK && hit.entity == e);
  check_distance(wo, "closest point", hit.distance, h, fmax(dist_tol_rel * h, dist_tol_abs));
  check_normal(wo, "closest point", hit.normal, n);
  /* overlap: a sphere just reaching past the plane touches it, one just short does not */
  lb_entity out[2];
  uint32_t count = 9;
  float reach = (float)(h * (1.0 + 4.0 * dist_tol_rel) + 4.0 * dist_tol_abs);
  float short_of = (float)(h * (1.0 - 4.0 * dist_tol_rel) - 4.0 * dist_tol_abs);
  LB_CHECK(lb_world_overlap_sphere(w, p, reach, NULL, out, 2, &count) == LB_OK && count == 1);
  LB_CHECK(lb_world_overlap_sphere(w, p, short_of, NULL, out, 2, &count) == LB_OK && count == 0);
}

typedef struct layout {
  float scale[3];
  float k; /* slope in the mesh frame */
} layout;

static void run_layout(const layout *L, bool character, worst *wo) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_collider_c c = cl_test_collider(LB_COLLIDER_MESH);
  c.mesh = cl_test_sloped_quad_mesh(w, HALF, L->k);
  lb_entity e = cl_test_spawn(w, &c, 0, 0, 0, NULL, L->scale);
  /* the plane in the world: y = g x with g = k sy / sx */
  double g = (double)L->k * L->scale[1] / L->scale[0];
  double len = sqrt(1.0 + g * g), n[3] = {-g / len, 1.0 / len, 0.0};
  float u = fminf(L->scale[0], fminf(L->scale[1], L->scale[2]));
  if (character) {
    /* a 0.3 m sphere 2 m above the ground near the origin (the last point over the diagonal
     * edge the two triangles share); distance tolerance: relative,
     * but not below single precision's resolution of a plane through corners S metres
     * away (S 1e-7; S = 5e4 m at scale 1000; a flat mesh is exact) */
    double S = HALF * fmax(L->scale[0], fmax(L->scale[1], L->scale[2]));
    const float pts[4][3] = {
        {0.37f, 2.0f, -0.23f}, {-1.61f, 1.5f, 2.87f}, {5.3f, 2.2f, -4.1f}, {1.3f, 2.0f, -1.3f}};
    for (int i = 0; i < 4; ++i) {
      float p[3] = {pts[i][0], (float)(pts[i][1] + g * pts[i][0]), pts[i][2]};
      query_all(w, e, p, 0.3f, n, REL, L->k == 0.0f ? 0.0 : 1e-7 * S, wo);
    }
  } else {
    /* the layout scaled with the mesh */
    const float pts[4][3] = {
        {3.7f, 2.0f, -2.3f}, {-16.1f, 1.5f, 28.7f}, {41.3f, 2.2f, -37.1f}, {13.0f, 2.0f, -13.0f}};
    for (int i = 0; i < 4; ++i) {
      float p[3] = {pts[i][0] * u, (float)((pts[i][1] + g * pts[i][0]) * u), pts[i][2] * u};
      query_all(w, e, p, 0.3f * u, n, REL, 0.0, wo);
    }
  }
  lb_world_destroy(w);
}

static void test_scaled_layouts(void) {
  static const layout layouts[] = {
      {{0.01f, 0.01f, 0.01f}, 0.0f},  {{1, 1, 1}, 0.0f},    {{1000, 1000, 1000}, 0.0f},
      {{0.01f, 0.01f, 0.01f}, 0.5f},  {{1, 1, 1}, 0.5f},    {{1000, 1000, 1000}, 0.5f},
      {{0.02f, 0.01f, 0.005f}, 0.5f}, {{3, 0.5f, 2}, 0.5f}, {{1000, 250, 2000}, 0.5f},
  };
  for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; ++i) {
    worst wo = {0, 0};
    run_layout(&layouts[i], false, &wo);
    printf("scaled queries, scale (%g, %g, %g), slope %g: worst normal %.2e deg, distance "
           "%.2e relative\n",
           (double)layouts[i].scale[0], (double)layouts[i].scale[1], (double)layouts[i].scale[2],
           (double)layouts[i].k, wo.normal_deg, wo.rel);
  }
}

static void test_character_on_large_mesh(void) {
  static const layout layouts[] = {
      {{1, 1, 1}, 0.0f},          {{1000, 1000, 1000}, 0.0f}, {{1000, 250, 2000}, 0.0f},
      {{1e4f, 1e4f, 1e4f}, 0.0f}, /* 5e5 m across: past LB_COLLIDE_MAX_EXTENT, still flat */
      {{1, 1, 1}, 0.5f},          {{1000, 1000, 1000}, 0.5f}, {{1000, 250, 2000}, 0.5f},
  };
  for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; ++i) {
    worst wo = {0, 0};
    run_layout(&layouts[i], true, &wo);
    printf("0.3 m sphere, scale (%g, %g, %g), slope %g: worst normal %.2e deg, distance %.2e "
           "relative\n",
           (double)layouts[i].scale[0], (double)layouts[i].scale[1], (double)layouts[i].scale[2],
           (double)layouts[i].k, wo.normal_deg, wo.rel);
  }
}

int main(void) {
  LB_RUN(test_scaled_layouts);
  LB_RUN(test_character_on_large_mesh);
  LB_TEST_MAIN_END();
}
