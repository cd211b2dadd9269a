/* collide.<query>.<scene>[.brute]: queries per second of the built-in collision backend.
 *
 *   query  closest (closest point, maxDistance 5 m), sphere_cast (radius 0.3 m, 20 m),
 *          ray (20 m)
 *   scene  100 / 1000: that many colliders (spheres, capsules, cylinders and boxes of
 *          0.2-2 m, random rotations) in a 60 m cube; mesh: one mesh collider of 100,352
 *          triangles (a bumpy 224 x 224 grid over 100 m x 100 m, rotated and moved)
 *   .brute the same queries through lb_world_*_brute (every collider, every triangle):
 *          the in-run baseline; the table prints brute / tree.
 * 1024 deterministic queries (xorshift) are cycled; one operation = one query, the sample
 * is microseconds per query. work = hits (work_per_op = hit rate). */
#include "bench.h"
#include "limber/limber.h"
#include <stdlib.h>
#include <string.h>

#define CB_QUERIES 1024u

typedef enum { CB_CLOSEST, CB_SPHERE, CB_RAY } cb_query;

typedef struct cb_state {
  lb_world *w;
  float o[CB_QUERIES][3], d[CB_QUERIES][3];
  uint32_t next;
} cb_state;

static uint32_t cb_u32(uint32_t *s) {
  uint32_t x = *s;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  *s = x;
  return x;
}

static float cb_rand(uint32_t *s, float lo, float hi) {
  return lo + (hi - lo) * (float)(cb_u32(s) >> 8) * (1.0f / 16777216.0f);
}

static int cb_spawn(lb_world *w, const lb_collider_c *c, const float *p, const float *q) {
  lb_entity e;
  if (lb_world_spawn(w, &e) != LB_OK) {
    return 0;
  }
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  memcpy(t.position, p, sizeof t.position);
  memcpy(t.rotation, q, sizeof t.rotation);
  return lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK &&
         lb_world_insert(w, e, LB_COLLIDER, c) == LB_OK;
}

static int cb_colliders(lb_world *w, uint32_t n, uint32_t *s) {
  for (uint32_t i = 0; i < n; ++i) {
    lb_collider_c c;
    lb_component_defaults(LB_COLLIDER, &c);
    c.shape = cb_u32(s) % 4u;
    c.radius = cb_rand(s, 0.1f, 1.0f);
    c.height = 2.0f * c.radius + cb_rand(s, 0.0f, 1.0f);
    c.direction = cb_u32(s) % 3u;
    for (int k = 0; k < 3; ++k) {
      c.size[k] = cb_rand(s, 0.2f, 2.0f);
    }
    float p[3] = {cb_rand(s, -30, 30), cb_rand(s, -30, 30), cb_rand(s, -30, 30)};
    versor q = {cb_rand(s, -1, 1), cb_rand(s, -1, 1), cb_rand(s, -1, 1), cb_rand(s, -1, 1)};
    lb_quat_normalize(q);
    if (!cb_spawn(w, &c, p, q)) {
      return 0;
    }
  }
  return 1;
}

static int cb_mesh(lb_world *w, uint32_t *s) {
  const int n = 224, v = n + 1;
  float *pos = malloc(sizeof(float) * 3u * (size_t)(v * v));
  uint32_t *idx = malloc(sizeof(uint32_t) * 6u * (size_t)(n * n));
  if (!pos || !idx) {
    free(pos);
    free(idx);
    return 0;
  }
  for (int i = 0; i < v; ++i) {
    for (int j = 0; j < v; ++j) {
      float *p = pos + 3 * (i * v + j);
      p[0] = -50.0f + 100.0f * (float)i / (float)n;
      p[1] = cb_rand(s, -0.5f, 0.5f);
      p[2] = -50.0f + 100.0f * (float)j / (float)n;
    }
  }
  uint32_t k = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      uint32_t a = (uint32_t)(i * v + j), b = a + 1u, c = a + (uint32_t)v, d = c + 1u;
      uint32_t t[6] = {a, b, c, b, d, c};
      memcpy(idx + k, t, sizeof t);
      k += 6u;
    }
  }
  lb_mesh_def def = lb_mesh_default_def();
  def.positions = pos;
  def.vertex_count = (uint32_t)(v * v);
  def.indices = idx;
  def.index_count = k;
  uint32_t mesh = 0;
  lb_result r = lb_world_add_mesh(w, &def, &mesh);
  free(pos);
  free(idx);
  if (r != LB_OK) {
    return 0;
  }
  lb_collider_c c;
  lb_component_defaults(LB_COLLIDER, &c);
  c.shape = LB_COLLIDER_MESH;
  c.mesh = mesh;
  float p[3] = {1.5f, -2.0f, 0.5f};
  versor q = {0.0f, 0.0998334f, 0.0f, 0.9950042f}; /* 11.5 degrees about Y */
  return cb_spawn(w, &c, p, q);
}

/* scene 0: 100 colliders, 1: 1000, 2: the mesh. */
static void *cb_setup(int scene) {
  cb_state *st = calloc(1, sizeof *st);
  if (!st || lb_world_create(NULL, &st->w) != LB_OK) {
    free(st);
    return NULL;
  }
  uint32_t seed = 0xC011DEu + (uint32_t)scene;
  int ok = scene == 2 ? cb_mesh(st->w, &seed) : cb_colliders(st->w, scene ? 1000u : 100u, &seed);
  if (!ok || lb_world_step(st->w, 1.0f / 60.0f) != LB_OK) {
    lb_world_destroy(st->w);
    free(st);
    return NULL;
  }
  for (uint32_t i = 0; i < CB_QUERIES; ++i) {
    float span = scene == 2 ? 45.0f : 32.0f;
    st->o[i][0] = cb_rand(&seed, -span, span);
    st->o[i][1] = scene == 2 ? cb_rand(&seed, -1.0f, 4.0f) : cb_rand(&seed, -span, span);
    st->o[i][2] = cb_rand(&seed, -span, span);
    st->d[i][0] = cb_rand(&seed, -1, 1);
    st->d[i][1] = scene == 2 ? cb_rand(&seed, -1.0f, -0.1f) : cb_rand(&seed, -1, 1);
    st->d[i][2] = cb_rand(&seed, -1, 1);
  }
  return st;
}

static void cb_teardown(void *p) {
  cb_state *st = p;
  lb_world_destroy(st->w);
  free(st);
}

static void cb_run(void *p, uint32_t iters, lb_bench_stats *stats, cb_query kind, int brute) {
  cb_state *st = p;
  for (uint32_t i = 0; i < iters; ++i) {
    uint32_t k = st->next++ & (CB_QUERIES - 1u);
    lb_collide_hit h;
    lb_result r;
    if (kind == CB_CLOSEST) {
      r = brute ? lb_world_closest_point_brute(st->w, st->o[k], 5.0f, NULL, &h)
                : lb_world_closest_point(st->w, st->o[k], 5.0f, NULL, &h);
    } else if (kind == CB_SPHERE) {
      r = brute ? lb_world_sphere_cast_brute(st->w, st->o[k], 0.3f, st->d[k], 20.0f, NULL, &h)
                : lb_world_sphere_cast(st->w, st->o[k], 0.3f, st->d[k], 20.0f, NULL, &h);
    } else {
      r = brute ? lb_world_raycast_brute(st->w, st->o[k], st->d[k], 20.0f, NULL, &h)
                : lb_world_raycast(st->w, st->o[k], st->d[k], 20.0f, NULL, &h);
    }
    stats->ops++;
    stats->failures += r != LB_OK;
    stats->work += h.entity != LB_NULL_ENTITY;
  }
}

#define CB_BENCH(var, nm, kind, scene, brute, iters, what)                                         \
  static void *var##_setup(void) {                                                                 \
    return cb_setup(scene);                                                                        \
  }                                                                                                \
  static void var##_run(void *s, uint32_t n, lb_bench_stats *st) {                                 \
    cb_run(s, n, st, kind, brute);                                                                 \
  }                                                                                                \
  const lb_bench var = {nm, "us", what, iters, var##_setup, var##_run, cb_teardown, "hits", 0, 0}

CB_BENCH(lb_bench_collide_closest_100, "collide.closest.100", CB_CLOSEST, 0, 0, 20000,
         "closest point within 5 m among 100 colliders");
CB_BENCH(lb_bench_collide_closest_100_brute, "collide.closest.100.brute", CB_CLOSEST, 0, 1, 2000,
         "the same, every collider tested");
CB_BENCH(lb_bench_collide_closest_1000, "collide.closest.1000", CB_CLOSEST, 1, 0, 20000,
         "closest point within 5 m among 1000 colliders");
CB_BENCH(lb_bench_collide_closest_1000_brute, "collide.closest.1000.brute", CB_CLOSEST, 1, 1, 200,
         "the same, every collider tested");
CB_BENCH(lb_bench_collide_closest_mesh, "collide.closest.mesh", CB_CLOSEST, 2, 0, 20000,
         "closest point within 5 m on a 100,352-triangle mesh");
CB_BENCH(lb_bench_collide_closest_mesh_brute, "collide.closest.mesh.brute", CB_CLOSEST, 2, 1, 4,
         "the same, every triangle tested");
CB_BENCH(lb_bench_collide_sphere_100, "collide.sphere_cast.100", CB_SPHERE, 0, 0, 20000,
         "sphere cast r 0.3 m, 20 m, among 100 colliders");
CB_BENCH(lb_bench_collide_sphere_100_brute, "collide.sphere_cast.100.brute", CB_SPHERE, 0, 1, 2000,
         "the same, every collider tested");
CB_BENCH(lb_bench_collide_sphere_1000, "collide.sphere_cast.1000", CB_SPHERE, 1, 0, 20000,
         "sphere cast r 0.3 m, 20 m, among 1000 colliders");
CB_BENCH(lb_bench_collide_sphere_1000_brute, "collide.sphere_cast.1000.brute", CB_SPHERE, 1, 1, 200,
         "the same, every collider tested");
CB_BENCH(lb_bench_collide_sphere_mesh, "collide.sphere_cast.mesh", CB_SPHERE, 2, 0, 20000,
         "sphere cast r 0.3 m, 20 m, on a 100,352-triangle mesh");
CB_BENCH(lb_bench_collide_sphere_mesh_brute, "collide.sphere_cast.mesh.brute", CB_SPHERE, 2, 1, 4,
         "the same, every triangle tested");
CB_BENCH(lb_bench_collide_ray_100, "collide.ray.100", CB_RAY, 0, 0, 20000,
         "ray, 20 m, among 100 colliders");
CB_BENCH(lb_bench_collide_ray_100_brute, "collide.ray.100.brute", CB_RAY, 0, 1, 2000,
         "the same, every collider tested");
CB_BENCH(lb_bench_collide_ray_1000, "collide.ray.1000", CB_RAY, 1, 0, 20000,
         "ray, 20 m, among 1000 colliders");
CB_BENCH(lb_bench_collide_ray_1000_brute, "collide.ray.1000.brute", CB_RAY, 1, 1, 200,
         "the same, every collider tested");
CB_BENCH(lb_bench_collide_ray_mesh, "collide.ray.mesh", CB_RAY, 2, 0, 20000,
         "ray, 20 m, on a 100,352-triangle mesh");
CB_BENCH(lb_bench_collide_ray_mesh_brute, "collide.ray.mesh.brute", CB_RAY, 2, 1, 4,
         "the same, every triangle tested");
