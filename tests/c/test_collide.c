/* Collide: exact geometry of every shape against every query (closest point, ray, sphere
 * cast, capsule cast, overlap), including inside starts, grazing, parallel and zero-length
 * casts. Tolerances are metres: 2e-6 for the closed-form tests, 2e-5 for the cylinder casts
 * solved iteratively (LB_COLLIDE_TOLERANCE is 1e-5). */
#include "collide_fixture.h"

#define EXACT 2e-6
#define ITER 2e-5

static lb_world *cl_world_new(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  return w;
}

static void test_sphere(void) {
  lb_world *w = cl_world_new();
  lb_entity s = cl_test_sphere(w, 0, 0, 0, 1);
  lb_collide_hit h = cl_test_ray(w, -5, 0, 0, 1, 0, 0, 10);
  LB_CHECK(h.entity == s && h.triangle == -1);
  LB_CHECK_NEAR(h.distance, 4, EXACT);
  CL_CHECK_VEC(h.point, -1, 0, 0, EXACT);
  CL_CHECK_VEC(h.normal, -1, 0, 0, EXACT);
  /* grazing: tangent at y = 1 hits at the tangent point; a hair above misses */
  h = cl_test_ray(w, -5, 1, 0, 1, 0, 0, 10);
  LB_CHECK(h.entity == s);
  LB_CHECK_NEAR(h.distance, 5, EXACT);
  LB_CHECK(cl_test_ray(w, -5, 1.0001f, 0, 1, 0, 0, 10).entity == LB_NULL_ENTITY);
  /* too short, pointing away */
  LB_CHECK(cl_test_ray(w, -5, 0, 0, 1, 0, 0, 3.99f).entity == LB_NULL_ENTITY);
  LB_CHECK(cl_test_ray(w, -5, 0, 0, -1, 0, 0, 10).entity == LB_NULL_ENTITY);
  /* inside start: distance 0, depenetration point and normal */
  h = cl_test_ray(w, 0.2f, 0, 0, 0, 1, 0, 10);
  LB_CHECK(h.entity == s);
  LB_CHECK(h.distance == 0.0f);
  CL_CHECK_VEC(h.point, 1, 0, 0, EXACT);
  CL_CHECK_VEC(h.normal, 1, 0, 0, EXACT);
  /* zero length: an overlap test at the start, direction may be zero */
  LB_CHECK(cl_test_ray(w, 0.5f, 0, 0, 0, 0, 0, 0).entity == s);
  LB_CHECK(cl_test_ray(w, 1.5f, 0, 0, 0, 0, 0, 0).entity == LB_NULL_ENTITY);
  /* sphere cast */
  h = cl_test_sphere_cast(w, -5, 0, 0, 0.5f, 1, 0, 0, 10);
  LB_CHECK_NEAR(h.distance, 3.5, EXACT);
  CL_CHECK_VEC(h.point, -1, 0, 0, EXACT);
  CL_CHECK_VEC(h.normal, -1, 0, 0, EXACT);
  h = cl_test_sphere_cast(w, -5, 1.5f, 0, 0.5f, 1, 0, 0, 10); /* grazing */
  LB_CHECK(h.entity == s);
  LB_CHECK_NEAR(h.distance, 5, 1e-3); /* tangency: sqrt of a rounding-level discriminant */
  /* capsule cast: a core across the motion */
  float a[3] = {-5, 0, -1}, b[3] = {-5, 0, 1};
  h = cl_test_capsule_cast(w, a, b, 0.25f, 1, 0, 0, 10);
  LB_CHECK(h.entity == s);
  LB_CHECK_NEAR(h.distance, 3.75, EXACT);
  CL_CHECK_VEC(h.point, -1, 0, 0, 1e-5);
  CL_CHECK_VEC(h.normal, -1, 0, 0, 1e-5);
  /* closest point: outside, inside, at the centre (its Y axis) */
  h = cl_test_closest(w, 3, 0, 0, 10);
  LB_CHECK_NEAR(h.distance, 2, EXACT);
  CL_CHECK_VEC(h.point, 1, 0, 0, EXACT);
  CL_CHECK_VEC(h.normal, 1, 0, 0, EXACT);
  h = cl_test_closest(w, 0, 0, -0.25f, 10);
  LB_CHECK_NEAR(h.distance, -0.75, EXACT);
  CL_CHECK_VEC(h.normal, 0, 0, -1, EXACT);
  h = cl_test_closest(w, 0, 0, 0, 10);
  LB_CHECK_NEAR(h.distance, -1, EXACT);
  CL_CHECK_VEC(h.normal, 0, 1, 0, EXACT);
  LB_CHECK(cl_test_closest(w, 3, 0, 0, 1.99f).entity == LB_NULL_ENTITY);
  lb_world_destroy(w);
}

static void test_box(void) {
  lb_world *w = cl_world_new();
  lb_entity bx = cl_test_box(w, 0, 0, 0, 2, 2, 2, NULL);
  lb_collide_hit h = cl_test_ray(w, -5, 0.3f, 0.2f, 1, 0, 0, 10);
  LB_CHECK(h.entity == bx);
  LB_CHECK_NEAR(h.distance, 4, EXACT);
  CL_CHECK_VEC(h.normal, -1, 0, 0, EXACT);
  /* parallel, in the plane of the top face: a box is solid, the ray meets the edge */
  h = cl_test_ray(w, -5, 1, 0, 1, 0, 0, 10);
  LB_CHECK(h.entity == bx);
  LB_CHECK_NEAR(h.distance, 4, EXACT);
  LB_CHECK(cl_test_ray(w, -5, 1.001f, 0, 1, 0, 0, 10).entity == LB_NULL_ENTITY);
  /* inside: nearest face */
  h = cl_test_ray(w, 0.1f, 0.8f, 0, 1, 0, 0, 10);
  LB_CHECK(h.distance == 0.0f);
  CL_CHECK_VEC(h.point, 0.1, 1, 0, EXACT);
  CL_CHECK_VEC(h.normal, 0, 1, 0, EXACT);
  /* sphere cast onto a face, and onto an edge's rounding */
  h = cl_test_sphere_cast(w, -5, 0, 0, 0.5f, 1, 0, 0, 10);
  LB_CHECK_NEAR(h.distance, 3.5, EXACT);
  CL_CHECK_VEC(h.normal, -1, 0, 0, EXACT);
  h = cl_test_sphere_cast(w, -5, 1.3f, 0, 0.5f, 1, 0, 0, 10);
  LB_CHECK_NEAR(h.distance, 3.6, EXACT);
  CL_CHECK_VEC(h.point, -1, 1, 0, 1e-5);
  CL_CHECK_VEC(h.normal, -0.8, 0.6, 0, 1e-5);
  /* corner: sphere on the diagonal */
  h = cl_test_sphere_cast(w, -5, 5, 5, 0.5f, 1, -1, -1, 20);
  LB_CHECK_NEAR(h.distance, 4 * sqrtf(3.0f) - 0.5f, 4e-6);
  CL_CHECK_VEC(h.point, -1, 1, 1, 1e-5);
  /* capsule cast: upright core down onto the top face; a long core across a small box
   * (its middle meets the top face's edges) */
  float a[3] = {0, 3, 0}, b[3] = {0, 4, 0};
  h = cl_test_capsule_cast(w, a, b, 0.5f, 0, -1, 0, 10);
  LB_CHECK_NEAR(h.distance, 1.5, EXACT);
  CL_CHECK_VEC(h.normal, 0, 1, 0, 1e-5);
  float la[3] = {-10, 3, 0}, lb_[3] = {10, 3, 0};
  h = cl_test_capsule_cast(w, la, lb_, 0.5f, 0, -1, 0, 10);
  LB_CHECK(h.entity == bx);
  LB_CHECK_NEAR(h.distance, 1.5, EXACT);
  CL_CHECK_VEC(h.normal, 0, 1, 0, 1e-5);
  /* rotated 45 degrees about Y: the ray along X meets the vertical edge */
  lb_world_despawn(w, bx);
  versor q = {0, 0.38268343f, 0, 0.92387953f};
  bx = cl_test_box(w, 0, 0, 0, 2, 2, 2, q);
  h = cl_test_ray(w, -5, 0, 0, 1, 0, 0, 10);
  LB_CHECK(h.entity == bx);
  LB_CHECK_NEAR(h.distance, 5 - sqrtf(2.0f), 4e-6);
  /* closest point: outside an edge, inside */
  lb_world_despawn(w, bx);
  bx = cl_test_box(w, 0, 0, 0, 2, 2, 2, NULL);
  h = cl_test_closest(w, 2, 2, 0, 10);
  LB_CHECK_NEAR(h.distance, sqrtf(2.0f), EXACT);
  CL_CHECK_VEC(h.point, 1, 1, 0, EXACT);
  h = cl_test_closest(w, 0.5f, 0.2f, 0, 10);
  LB_CHECK_NEAR(h.distance, -0.5, EXACT);
  CL_CHECK_VEC(h.normal, 1, 0, 0, EXACT);
  lb_world_destroy(w);
}

static void test_capsule(void) {
  lb_world *w = cl_world_new();
  lb_entity c = cl_test_round(w, LB_COLLIDER_CAPSULE, 0, 0, 0, 0.5f, 2, 1);
  lb_collide_hit h = cl_test_ray(w, -5, 0.3f, 0, 1, 0, 0, 10);
  LB_CHECK(h.entity == c);
  LB_CHECK_NEAR(h.distance, 4.5, EXACT);
  CL_CHECK_VEC(h.normal, -1, 0, 0, EXACT);
  h = cl_test_ray(w, -5, 0.8f, 0, 1, 0, 0, 10); /* the upper cap, centre (0, 0.5, 0) */
  LB_CHECK_NEAR(h.distance, 4.6, EXACT);
  CL_CHECK_VEC(h.normal, -0.8, 0.6, 0, 1e-5);
  h = cl_test_ray(w, 0, 5, 0, 0, -1, 0, 10); /* along the axis onto the cap */
  LB_CHECK_NEAR(h.distance, 4, EXACT);
  CL_CHECK_VEC(h.normal, 0, 1, 0, EXACT);
  /* parallel to the axis at the radius: grazes the side */
  h = cl_test_ray(w, 0.5f, 5, 0, 0, -1, 0, 10);
  LB_CHECK(h.entity == c);
  LB_CHECK_NEAR(h.distance, 4.5, 1e-3);
  h = cl_test_sphere_cast(w, -5, 0, 0, 0.5f, 1, 0, 0, 10);
  LB_CHECK_NEAR(h.distance, 4, EXACT);
  /* capsule against capsule: crossed cores, and parallel cores */
  float a[3] = {-5, 0, -1}, b[3] = {-5, 0, 1};
  h = cl_test_capsule_cast(w, a, b, 0.25f, 1, 0, 0, 10);
  LB_CHECK_NEAR(h.distance, 4.25, EXACT);
  CL_CHECK_VEC(h.normal, -1, 0, 0, 1e-5);
  float pa[3] = {-5, -0.2f, 0}, pb[3] = {-5, 0.2f, 0};
  h = cl_test_capsule_cast(w, pa, pb, 0.25f, 1, 0, 0, 10);
  LB_CHECK_NEAR(h.distance, 4.25, EXACT);
  h = cl_test_closest(w, 0, 2, 0, 10);
  LB_CHECK_NEAR(h.distance, 1, EXACT);
  CL_CHECK_VEC(h.point, 0, 1, 0, EXACT);
  h = cl_test_closest(w, 0, 0.3f, 0, 10); /* on the axis: radial fallback */
  LB_CHECK_NEAR(h.distance, -0.5, EXACT);
  lb_world_destroy(w);
}

static void test_cylinder(void) {
  lb_world *w = cl_world_new();
  lb_entity c = cl_test_round(w, LB_COLLIDER_CYLINDER, 0, 0, 0, 0.5f, 2, 1);
  lb_collide_hit h = cl_test_ray(w, -5, 0.3f, 0, 1, 0, 0, 10);
  LB_CHECK(h.entity == c);
  LB_CHECK_NEAR(h.distance, 4.5, EXACT);
  CL_CHECK_VEC(h.normal, -1, 0, 0, EXACT);
  h = cl_test_ray(w, 0.2f, 5, 0, 0, -1, 0, 10);
  LB_CHECK_NEAR(h.distance, 4, EXACT);
  CL_CHECK_VEC(h.normal, 0, 1, 0, EXACT);
  LB_CHECK(cl_test_ray(w, -5, 1.01f, 0, 1, 0, 0, 10).entity == LB_NULL_ENTITY);
  /* sphere casts: side, cap, rim (iterative) */
  h = cl_test_sphere_cast(w, -5, 0, 0, 0.5f, 1, 0, 0, 10);
  LB_CHECK_NEAR(h.distance, 4, ITER);
  CL_CHECK_VEC(h.normal, -1, 0, 0, 1e-4);
  h = cl_test_sphere_cast(w, 0.1f, 5, 0, 0.5f, 0, -1, 0, 10);
  LB_CHECK_NEAR(h.distance, 3.5, ITER);
  h = cl_test_sphere_cast(w, -5, 1.3f, 0, 0.5f, 1, 0, 0, 10);
  LB_CHECK_NEAR(h.distance, 4.1, ITER);
  CL_CHECK_VEC(h.point, -0.5, 1, 0, 1e-4);
  CL_CHECK_VEC(h.normal, -0.8, 0.6, 0, 1e-4);
  /* capsule cast across the side */
  float a[3] = {-5, 0, -1}, b[3] = {-5, 0, 1};
  h = cl_test_capsule_cast(w, a, b, 0.25f, 1, 0, 0, 10);
  LB_CHECK_NEAR(h.distance, 4.25, ITER);
  /* closest: beyond the rim, inside nearer the cap */
  h = cl_test_closest(w, 1.5f, 2, 0, 10);
  LB_CHECK_NEAR(h.distance, sqrtf(2.0f), EXACT);
  CL_CHECK_VEC(h.point, 0.5, 1, 0, EXACT);
  h = cl_test_closest(w, 0.1f, 0.9f, 0, 10);
  LB_CHECK_NEAR(h.distance, -0.1, EXACT);
  CL_CHECK_VEC(h.normal, 0, 1, 0, EXACT);
  lb_world_destroy(w);
}

static void test_mesh(void) {
  lb_world *w = cl_world_new();
  uint32_t m = cl_test_quad_mesh(w);
  LB_CHECK(lb_world_mesh_triangle_count(w, m) == 2);
  lb_collider_c c = cl_test_collider(LB_COLLIDER_MESH);
  c.mesh = m;
  lb_entity e = cl_test_spawn(w, &c, 0, 0, 0, NULL, NULL);
  lb_collide_hit h = cl_test_ray(w, 0.3f, 2, 0.2f, 0, -1, 0, 10);
  LB_CHECK(h.entity == e && h.triangle == 1);
  LB_CHECK_NEAR(h.distance, 2, EXACT);
  CL_CHECK_VEC(h.normal, 0, 1, 0, EXACT);
  h = cl_test_ray(w, 0.3f, -2, 0.2f, 0, 1, 0, 10); /* from below: the normal faces the ray */
  LB_CHECK_NEAR(h.distance, 2, EXACT);
  CL_CHECK_VEC(h.normal, 0, -1, 0, EXACT);
  /* on the shared diagonal: the lower triangle index wins */
  h = cl_test_ray(w, 0.5f, 2, -0.5f, 0, -1, 0, 10);
  LB_CHECK(h.triangle == 0);
  /* parallel in the plane: no thickness, a miss; starting on the surface: 0 */
  LB_CHECK(cl_test_ray(w, -5, 0, 0, 1, 0, 0, 10).entity == LB_NULL_ENTITY);
  h = cl_test_ray(w, 0.2f, 0, 0.1f, 0, 1, 0, 10);
  LB_CHECK(h.entity == e && h.distance == 0.0f);
  h = cl_test_sphere_cast(w, 0.2f, 2, 0.1f, 0.5f, 0, -1, 0, 10);
  LB_CHECK_NEAR(h.distance, 1.5, EXACT);
  CL_CHECK_VEC(h.point, 0.2, 0, 0.1, 1e-5);
  CL_CHECK_VEC(h.normal, 0, 1, 0, 1e-5);
  h = cl_test_sphere_cast(w, -3, 0.3f, 0, 0.5f, 1, 0, 0, 10); /* onto the edge x = -1 */
  LB_CHECK_NEAR(h.distance, 2 - 0.4, EXACT);
  CL_CHECK_VEC(h.normal, -0.8, 0.6, 0, 1e-5);
  float a[3] = {0, 2, 0}, b[3] = {0, 3, 0};
  h = cl_test_capsule_cast(w, a, b, 0.5f, 0, -1, 0, 10);
  LB_CHECK_NEAR(h.distance, 1.5, EXACT);
  float la[3] = {-3, 2, 0}, lb2[3] = {3, 2, 0}; /* long core over the quad: edge contacts */
  h = cl_test_capsule_cast(w, la, lb2, 0.5f, 0, -1, 0, 10);
  LB_CHECK_NEAR(h.distance, 1.5, EXACT);
  CL_CHECK_VEC(h.normal, 0, 1, 0, 1e-5);
  h = cl_test_closest(w, 0.3f, 0.7f, 0.2f, 10);
  LB_CHECK_NEAR(h.distance, 0.7, EXACT);
  CL_CHECK_VEC(h.point, 0.3, 0, 0.2, EXACT);
  CL_CHECK_VEC(h.normal, 0, 1, 0, EXACT);
  /* scaled and moved: the mesh follows its entity's full transform */
  vec3 s = {2, 1, 3};
  lb_entity e2 = cl_test_spawn(w, &c, 10, 1, 0, NULL, s);
  h = cl_test_ray(w, 11.9f, 5, 2.9f, 0, -1, 0, 10);
  LB_CHECK(h.entity == e2);
  LB_CHECK_NEAR(h.distance, 4, EXACT);
  LB_CHECK(cl_test_ray(w, 12.1f, 5, 0, 0, -1, 0, 10).entity == LB_NULL_ENTITY);
  lb_world_destroy(w);
}

static void test_overlap(void) {
  lb_world *w = cl_world_new();
  lb_entity sp = cl_test_sphere(w, 0, 0, 0, 1);
  lb_entity bx = cl_test_box(w, 3, 0, 0, 1, 1, 1, NULL);
  lb_entity cy = cl_test_round(w, LB_COLLIDER_CYLINDER, 6, 0, 0, 0.5f, 2, 1);
  lb_entity ca = cl_test_round(w, LB_COLLIDER_CAPSULE, 9, 0, 0, 0.5f, 2, 1);
  lb_collider_c mc = cl_test_collider(LB_COLLIDER_MESH);
  mc.mesh = cl_test_quad_mesh(w);
  lb_entity me = cl_test_spawn(w, &mc, 12, 0, 0, NULL, NULL);
  lb_entity out[8];
  uint32_t n = 0;
  /* a sphere touching the sphere and the box */
  vec3 c = {1.75f, 0, 0};
  LB_CHECK(lb_world_overlap_sphere(w, c, 0.75f, NULL, out, 8, &n) == LB_OK);
  LB_CHECK(n == 2 && out[0] == sp && out[1] == bx);
  vec3 c2 = {1.75f, 0, 0};
  LB_CHECK(lb_world_overlap_sphere(w, c2, 0.2f, NULL, out, 8, &n) == LB_OK && n == 0);
  /* a capsule along X through everything; only two written, the count is all */
  vec3 a = {-2, 0.05f, 0}, b = {14, 0.05f, 0};
  LB_CHECK(lb_world_overlap_capsule(w, a, b, 0.1f, NULL, out, 2, &n) == LB_OK);
  LB_CHECK(n == 5 && out[0] == sp && out[1] == bx);
  LB_CHECK(lb_world_overlap_capsule(w, a, b, 0.1f, NULL, out, 8, &n) == LB_OK);
  LB_CHECK(n == 5 && out[2] == cy && out[3] == ca && out[4] == me);
  /* a layer filter and an excluded entity */
  lb_collide_filter f = lb_collide_default_filter();
  f.exclude = bx;
  LB_CHECK(lb_world_overlap_capsule(w, a, b, 0.1f, &f, out, 8, &n) == LB_OK && n == 4);
  f = lb_collide_default_filter();
  f.layers = 2;
  LB_CHECK(lb_world_overlap_capsule(w, a, b, 0.1f, &f, out, 8, &n) == LB_OK && n == 0);
  /* boxes: rotated box touching the cylinder's side; box against the box; against the mesh */
  versor id = {0, 0, 0, 1}, q45 = {0, 0.38268343f, 0, 0.92387953f};
  vec3 h = {0.25f, 0.25f, 0.25f};
  vec3 bc = {6.5f + 0.3535f, 0, 0}; /* its corner reaches x = 6.5 - 0.0001 */
  LB_CHECK(lb_world_overlap_box(w, bc, q45, h, NULL, out, 8, &n) == LB_OK);
  LB_CHECK(n == 1 && out[0] == cy);
  vec3 bc2 = {6.5f + 0.3545f, 0, 0};
  LB_CHECK(lb_world_overlap_box(w, bc2, q45, h, NULL, out, 8, &n) == LB_OK && n == 0);
  vec3 bc3 = {3.74f, 0.74f, 0};
  LB_CHECK(lb_world_overlap_box(w, bc3, id, h, NULL, out, 8, &n) == LB_OK);
  LB_CHECK(n == 1 && out[0] == bx);
  vec3 bc4 = {12.5f, 0.24f, 0.5f};
  LB_CHECK(lb_world_overlap_box(w, bc4, id, h, NULL, out, 8, &n) == LB_OK);
  LB_CHECK(n == 1 && out[0] == me);
  vec3 bc5 = {12.5f, 0.26f, 0.5f};
  LB_CHECK(lb_world_overlap_box(w, bc5, id, h, NULL, out, 8, &n) == LB_OK && n == 0);
  /* box against the sphere and the capsule by distance */
  vec3 bc6 = {9.0f, 1.7f, 0}; /* capsule top at y = 1; box bottom at 1.45: apart */
  LB_CHECK(lb_world_overlap_box(w, bc6, id, h, NULL, out, 8, &n) == LB_OK && n == 0);
  vec3 bc7 = {9.0f, 1.2f, 0};
  LB_CHECK(lb_world_overlap_box(w, bc7, id, h, NULL, out, 8, &n) == LB_OK);
  LB_CHECK(n == 1 && out[0] == ca);
  lb_world_destroy(w);
}

static void test_ties_and_filters(void) {
  lb_world *w = cl_world_new();
  lb_entity a = cl_test_sphere(w, 0, 0, 0, 1);
  lb_entity b = cl_test_sphere(w, 0, 0, 0, 1); /* the same place: entity order decides */
  LB_CHECK(cl_test_ray(w, -5, 0, 0, 1, 0, 0, 10).entity == a);
  LB_CHECK(cl_test_closest(w, 3, 0, 0, 10).entity == a);
  lb_collide_filter f = lb_collide_default_filter();
  f.exclude = a;
  lb_collide_hit h;
  vec3 o = {-5, 0, 0}, d = {2, 0, 0}; /* directions need not be unit */
  LB_CHECK(lb_world_raycast(w, o, d, 10, &f, &h) == LB_OK && h.entity == b);
  LB_CHECK_NEAR(h.distance, 4, EXACT);
  lb_collider_c c;
  LB_CHECK(lb_world_get(w, b, LB_COLLIDER, &c) == LB_OK);
  c.layer = 4;
  LB_CHECK(lb_world_set(w, b, LB_COLLIDER, &c) == LB_OK);
  f.layers = 4;
  LB_CHECK(lb_world_raycast(w, o, d, 10, &f, &h) == LB_OK && h.entity == b);
  f.layers = 2;
  LB_CHECK(lb_world_raycast(w, o, d, 10, &f, &h) == LB_OK && h.entity == LB_NULL_ENTITY);
  lb_world_destroy(w);
}

static void test_geom_closest_matches_distance(void) {
  /* lb_shape_closest gives lb_shape_distance's value, and a point at that distance */
  rng r = {0x1234567u};
  double worst = 0.0;
  for (int i = 0; i < 20000; ++i) {
    lb_shape_def d = lb_shape_default_def();
    d.type = (lb_shape_type)(rng_u32(&r) % 4u);
    d.direction = (lb_axis)(rng_u32(&r) % 3u);
    d.radius = 0.1f + (float)(rng_u32(&r) % 1000u) * 1e-3f;
    d.height = 2.0f * d.radius + (float)(rng_u32(&r) % 1000u) * 1e-3f;
    for (int k = 0; k < 3; ++k) {
      d.size[k] = 0.1f + (float)(rng_u32(&r) % 1000u) * 1e-3f;
    }
    lb_transform xf;
    lb_transform_identity(&xf);
    versor q = {(float)(rng_u32(&r) % 200u) - 100.0f, (float)(rng_u32(&r) % 200u) - 100.0f,
                (float)(rng_u32(&r) % 200u) - 100.0f, 50.0f};
    lb_quat_normalize(q);
    memcpy(xf.r, q, sizeof q);
    lb_shape s;
    LB_CHECK(lb_shape_resolve(&d, &xf, &s) == LB_OK);
    vec3 p = {(float)(rng_u32(&r) % 4000u) * 1e-3f - 2.0f,
              (float)(rng_u32(&r) % 4000u) * 1e-3f - 2.0f,
              (float)(rng_u32(&r) % 4000u) * 1e-3f - 2.0f};
    vec3 cp, n;
    float dc = lb_shape_closest(&s, p, cp, n);
    float dd = lb_shape_distance(&s, p);
    LB_CHECK_NEAR(dc, dd, 1e-6);
    vec3 v = {p[0] - cp[0], p[1] - cp[1], p[2] - cp[2]};
    double len = sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
    double err = fabs(len - fabs((double)dc));
    worst = err > worst ? err : worst;
    LB_CHECK(fabs(lb_shape_distance(&s, cp)) < 2e-6);
    LB_CHECK_NEAR(n[0] * n[0] + n[1] * n[1] + n[2] * n[2], 1.0, 1e-5);
  }
  printf("lb_shape_closest: max | |p - closest| - |distance| | = %.3g m over 20000 points\n",
         worst);
  LB_CHECK(worst < 2e-6);
}

int main(void) {
  LB_RUN(test_sphere);
  LB_RUN(test_box);
  LB_RUN(test_capsule);
  LB_RUN(test_cylinder);
  LB_RUN(test_mesh);
  LB_RUN(test_overlap);
  LB_RUN(test_ties_and_filters);
  LB_RUN(test_geom_closest_matches_distance);
  LB_TEST_MAIN_END();
}
