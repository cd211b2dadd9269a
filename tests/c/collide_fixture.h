/* Helpers for the collide tests: colliders on entities, and query shorthands. */
#ifndef LIMBER_COLLIDE_FIXTURE_H
#define LIMBER_COLLIDE_FIXTURE_H

#include "limber/limber.h"
#include "test.h"
#include <string.h>

static inline lb_collider_c cl_test_collider(lb_collider_shape shape) {
  lb_collider_c c;
  lb_component_defaults(LB_COLLIDER, &c);
  c.shape = (uint32_t)shape;
  return c;
}

/* An entity at p (rotation r, scale s; null = identity / 1) with collider c. */
static inline lb_entity cl_test_spawn(lb_world *w, const lb_collider_c *c, float x, float y,
                                      float z, const float *r, const float *s) {
  lb_entity e = LB_NULL_ENTITY;
  LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[0] = x, t.position[1] = y, t.position[2] = z;
  if (r) {
    memcpy(t.rotation, r, sizeof(versor));
  }
  if (s) {
    memcpy(t.scale, s, sizeof(vec3));
  }
  LB_CHECK(lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK);
  lb_result res = lb_world_insert(w, e, LB_COLLIDER, c);
  if (res != LB_OK) {
    fprintf(stderr, "collider insert: %s\n", lb_world_last_error(w));
  }
  LB_CHECK(res == LB_OK);
  return e;
}

static inline lb_entity cl_test_sphere(lb_world *w, float x, float y, float z, float radius) {
  lb_collider_c c = cl_test_collider(LB_COLLIDER_SPHERE);
  c.radius = radius;
  return cl_test_spawn(w, &c, x, y, z, NULL, NULL);
}

static inline lb_entity cl_test_box(lb_world *w, float x, float y, float z, float sx, float sy,
                                    float sz, const float *r) {
  lb_collider_c c = cl_test_collider(LB_COLLIDER_BOX);
  c.size[0] = sx, c.size[1] = sy, c.size[2] = sz;
  return cl_test_spawn(w, &c, x, y, z, r, NULL);
}

/* Capsule or cylinder along `axis` (0 X, 1 Y, 2 Z). */
static inline lb_entity cl_test_round(lb_world *w, lb_collider_shape shape, float x, float y,
                                      float z, float radius, float height, uint32_t axis) {
  lb_collider_c c = cl_test_collider(shape);
  c.radius = radius;
  c.height = height;
  c.direction = axis;
  return cl_test_spawn(w, &c, x, y, z, NULL, NULL);
}

/* The quad [-half, half]^2 on the plane y = k x (mesh frame) as two triangles (0: the x+z<0
 * half, 1: the other). */
static inline uint32_t cl_test_sloped_quad_mesh(lb_world *w, float half, float k) {
  const float pos[] = {-half, -k * half, -half, half,  k * half,  -half,
                       half,  k * half,  half,  -half, -k * half, half};
  static const uint32_t idx[] = {0, 3, 1, 1, 3, 2};
  lb_mesh_def d = lb_mesh_default_def();
  d.positions = pos;
  d.vertex_count = 4;
  d.indices = idx;
  d.index_count = 6;
  uint32_t m = 0;
  LB_CHECK(lb_world_add_mesh(w, &d, &m) == LB_OK);
  return m;
}

/* The quad [-1, 1] x [-1, 1] at y = 0. */
static inline uint32_t cl_test_quad_mesh(lb_world *w) {
  return cl_test_sloped_quad_mesh(w, 1.0f, 0.0f);
}

static inline lb_collide_hit cl_test_ray(lb_world *w, float ox, float oy, float oz, float dx,
                                         float dy, float dz, float maxd) {
  lb_collide_hit h;
  vec3 o = {ox, oy, oz}, d = {dx, dy, dz};
  LB_CHECK(lb_world_raycast(w, o, d, maxd, NULL, &h) == LB_OK);
  return h;
}

static inline lb_collide_hit cl_test_sphere_cast(lb_world *w, float ox, float oy, float oz, float r,
                                                 float dx, float dy, float dz, float maxd) {
  lb_collide_hit h;
  vec3 o = {ox, oy, oz}, d = {dx, dy, dz};
  LB_CHECK(lb_world_sphere_cast(w, o, r, d, maxd, NULL, &h) == LB_OK);
  return h;
}

static inline lb_collide_hit cl_test_capsule_cast(lb_world *w, const float *a, const float *b,
                                                  float r, float dx, float dy, float dz,
                                                  float maxd) {
  lb_collide_hit h;
  vec3 d = {dx, dy, dz};
  LB_CHECK(lb_world_capsule_cast(w, a, b, r, d, maxd, NULL, &h) == LB_OK);
  return h;
}

static inline lb_collide_hit cl_test_closest(lb_world *w, float x, float y, float z, float maxd) {
  lb_collide_hit h;
  vec3 p = {x, y, z};
  LB_CHECK(lb_world_closest_point(w, p, maxd, NULL, &h) == LB_OK);
  return h;
}

#define CL_CHECK_VEC(v, x, y, z, tol)                                                              \
  do {                                                                                             \
    LB_CHECK_NEAR((v)[0], x, tol);                                                                 \
    LB_CHECK_NEAR((v)[1], y, tol);                                                                 \
    LB_CHECK_NEAR((v)[2], z, tol);                                                                 \
  } while (0)

#endif
