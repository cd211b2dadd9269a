/* Collide in a world: the hierarchies against brute force over random worlds (>= 100k
 * queries), colliders that move (writes between steps, parents, despawn), no allocation
 * after warm-up, and bad input refused with the world unchanged. */
#include "collide_fixture.h"

#include <time.h>

/* Under the sanitizers (the ASan + UBSan run of `npm test`, unoptimised and ~50x slower) the
 * randomized comparisons run a fiftieth of their queries; the optimised builds run them all. */
#if defined(__SANITIZE_ADDRESS__)
#define CL_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CL_SANITIZED 1
#endif
#endif
#ifndef CL_SANITIZED
#define CL_SANITIZED 0
#endif
#define CL_SHARE(n) (CL_SANITIZED ? (n) / 50 : (n))

static float cl_rand(rng *r, float lo, float hi) {
  return lo + (hi - lo) * (float)(rng_u32(r) >> 8) * (1.0f / 16777216.0f);
}

static void cl_rand_quat(rng *r, float *q) {
  q[0] = cl_rand(r, -1, 1), q[1] = cl_rand(r, -1, 1), q[2] = cl_rand(r, -1, 1);
  q[3] = cl_rand(r, -1, 1);
  lb_quat_normalize(q);
}

/* A bumpy grid of n x n quads (2 n^2 triangles) over [-1, 1]^2. */
static uint32_t cl_grid_mesh(lb_world *w, int n, rng *r) {
  int v = n + 1;
  float *pos = malloc(sizeof(float) * 3u * (size_t)(v * v));
  uint32_t *idx = malloc(sizeof(uint32_t) * 6u * (size_t)(n * n));
  for (int i = 0; i < v; ++i) {
    for (int j = 0; j < v; ++j) {
      float *p = pos + 3 * (i * v + j);
      p[0] = -1.0f + 2.0f * (float)i / (float)n;
      p[1] = cl_rand(r, -0.1f, 0.1f);
      p[2] = -1.0f + 2.0f * (float)j / (float)n;
    }
  }
  int k = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      uint32_t a = (uint32_t)(i * v + j), b = a + 1u, c = a + (uint32_t)v, d = c + 1u;
      uint32_t t[6] = {a, b, c, b, d, c};
      memcpy(idx + k, t, sizeof t);
      k += 6;
    }
  }
  lb_mesh_def def = lb_mesh_default_def();
  def.positions = pos;
  def.vertex_count = (uint32_t)(v * v);
  def.indices = idx;
  def.index_count = (uint32_t)k;
  uint32_t m = 0;
  LB_CHECK(lb_world_add_mesh(w, &def, &m) == LB_OK);
  free(pos);
  free(idx);
  return m;
}

static void cl_random_world(lb_world *w, rng *r, int count, uint32_t mesh) {
  for (int i = 0; i < count; ++i) {
    lb_collider_shape kind = (lb_collider_shape)(rng_u32(r) % 5u);
    lb_collider_c c = cl_test_collider(kind);
    c.radius = cl_rand(r, 0.1f, 1.0f);
    c.height = 2.0f * c.radius + cl_rand(r, 0.0f, 2.0f);
    c.direction = rng_u32(r) % 3u;
    c.size[0] = cl_rand(r, 0.1f, 3), c.size[1] = cl_rand(r, 0.1f, 3),
    c.size[2] = cl_rand(r, 0.1f, 3);
    c.center[0] = cl_rand(r, -0.5f, 0.5f);
    c.layer = 1u << (rng_u32(r) % 3u);
    c.mesh = mesh;
    versor q;
    cl_rand_quat(r, q);
    vec3 s = {1, 1, 1};
    if (kind == LB_COLLIDER_MESH || kind == LB_COLLIDER_BOX) {
      s[0] = cl_rand(r, 0.5f, 3), s[1] = cl_rand(r, 0.5f, 3), s[2] = cl_rand(r, 0.5f, 3);
    }
    cl_test_spawn(w, &c, cl_rand(r, -20, 20), cl_rand(r, -20, 20), cl_rand(r, -20, 20), q, s);
  }
}

typedef struct cl_stats {
  uint32_t queries, hits, agree;
  double max_diff;
} cl_stats;

static void cl_compare(cl_stats *st, const lb_collide_hit *a, const lb_collide_hit *b) {
  st->queries++;
  bool same = a->entity == b->entity && a->triangle == b->triangle;
  st->agree += same;
  st->hits += a->entity != LB_NULL_ENTITY;
  if (same && a->entity) {
    double d = fabs((double)a->distance - (double)b->distance);
    for (int k = 0; k < 3; ++k) {
      d = fmax(d, fabs((double)a->point[k] - (double)b->point[k]));
      d = fmax(d, fabs((double)a->normal[k] - (double)b->normal[k]));
    }
    st->max_diff = fmax(st->max_diff, d);
  }
}

static void test_tree_matches_brute_force(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  rng r = {0xC0111DEu};
  uint32_t mesh = cl_grid_mesh(w, 6, &r);
  cl_random_world(w, &r, 200, mesh);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  const int per = CL_SHARE(25000);
  const char *names[4] = {"closest point", "raycast", "sphere cast", "capsule cast"};
  cl_stats st[4];
  memset(st, 0, sizeof st);
  clock_t t0 = clock();
  for (int i = 0; i < 4 * per; ++i) {
    int kind = i % 4;
    lb_collide_filter f = lb_collide_default_filter();
    if (rng_u32(&r) % 4u == 0) {
      f.layers = 1u << (rng_u32(&r) % 3u);
    }
    vec3 o = {cl_rand(&r, -25, 25), cl_rand(&r, -25, 25), cl_rand(&r, -25, 25)};
    vec3 d = {cl_rand(&r, -1, 1), cl_rand(&r, -1, 1), cl_rand(&r, -1, 1)};
    if (rng_u32(&r) % 8u == 0) {
      d[rng_u32(&r) % 3u] = 0.0f; /* axis-parallel components */
    }
    float maxd = cl_rand(&r, 0, 40), rad = cl_rand(&r, 0.05f, 1.0f);
    lb_collide_hit a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    if (kind == 0) {
      LB_CHECK(lb_world_closest_point(w, o, maxd, &f, &a) == LB_OK);
      LB_CHECK(lb_world_closest_point_brute(w, o, maxd, &f, &b) == LB_OK);
    } else if (kind == 1) {
      LB_CHECK(lb_world_raycast(w, o, d, maxd, &f, &a) == LB_OK);
      LB_CHECK(lb_world_raycast_brute(w, o, d, maxd, &f, &b) == LB_OK);
    } else if (kind == 2) {
      LB_CHECK(lb_world_sphere_cast(w, o, rad, d, maxd, &f, &a) == LB_OK);
      LB_CHECK(lb_world_sphere_cast_brute(w, o, rad, d, maxd, &f, &b) == LB_OK);
    } else {
      vec3 e = {o[0] + cl_rand(&r, -1, 1), o[1] + cl_rand(&r, -1, 1), o[2] + cl_rand(&r, -1, 1)};
      rad *= 0.5f;
      LB_CHECK(lb_world_capsule_cast(w, o, e, rad, d, maxd, &f, &a) == LB_OK);
      LB_CHECK(lb_world_capsule_cast_brute(w, o, e, rad, d, maxd, &f, &b) == LB_OK);
    }
    cl_compare(&st[kind], &a, &b);
  }
  uint32_t total = 0;
  for (int k = 0; k < 4; ++k) {
    printf("%-13s: %u queries, %u hits, hit/miss and entity agreement %u/%u, max difference "
           "%.3g m\n",
           names[k], st[k].queries, st[k].hits, st[k].agree, st[k].queries, st[k].max_diff);
    LB_CHECK(st[k].agree == st[k].queries);
    LB_CHECK(st[k].max_diff == 0.0);
    LB_CHECK(st[k].hits > st[k].queries / 20u); /* the test must hit things */
    total += st[k].queries;
  }
  printf("tree vs brute force: %u queries in %.2f s\n", total,
         (double)(clock() - t0) / CLOCKS_PER_SEC);
  LB_CHECK(total >= (uint32_t)CL_SHARE(100000));
  lb_world_destroy(w);
}

/* Cast results are contacts: at the reported distance the shape touches the collider (its
 * core at the collider's distance within 2e-5 m of the radius) and just before it does not. */
static void test_cast_results_are_first_contacts(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  rng r = {0xFACADEu};
  uint32_t mesh = cl_grid_mesh(w, 6, &r);
  cl_random_world(w, &r, 60, mesh);
  double worst = 0.0;
  uint32_t hits = 0;
  for (int i = 0; i < CL_SHARE(20000); ++i) {
    vec3 o = {cl_rand(&r, -25, 25), cl_rand(&r, -25, 25), cl_rand(&r, -25, 25)};
    vec3 d = {cl_rand(&r, -1, 1), cl_rand(&r, -1, 1), cl_rand(&r, -1, 1)};
    float rad = cl_rand(&r, 0.05f, 1.0f);
    lb_collide_hit h;
    LB_CHECK(lb_world_sphere_cast(w, o, rad, d, 40, NULL, &h) == LB_OK);
    if (!h.entity || h.distance == 0.0f) {
      continue;
    }
    hits++;
    float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    vec3 c = {o[0] + d[0] / len * h.distance, o[1] + d[1] / len * h.distance,
              o[2] + d[2] / len * h.distance};
    /* the contact point lies on the sphere at the hit */
    double pc =
        sqrt(pow(c[0] - h.point[0], 2) + pow(c[1] - h.point[1], 2) + pow(c[2] - h.point[2], 2));
    worst = fmax(worst, fabs(pc - rad));
    /* no collider is closer than the radius there, and none overlaps slightly before */
    lb_collide_hit cp;
    LB_CHECK(lb_world_closest_point(w, c, 100, NULL, &cp) == LB_OK);
    worst = fmax(worst, fabs((double)cp.distance - rad) * (cp.entity == h.entity));
    LB_CHECK(cp.distance >= rad - 2e-5f);
    vec3 back = {c[0] - d[0] / len * 1e-3f, c[1] - d[1] / len * 1e-3f, c[2] - d[2] / len * 1e-3f};
    LB_CHECK(lb_world_closest_point(w, back, 100, NULL, &cp) == LB_OK);
    LB_CHECK(cp.distance > rad - 2e-5f);
  }
  printf("sphere casts: %u hits, max |contact gap - radius| = %.3g m\n", hits, worst);
  LB_CHECK(hits > (uint32_t)CL_SHARE(1000));
  LB_CHECK(worst < 2e-5);
  lb_world_destroy(w);
}

static void test_moving_colliders(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_entity parent = LB_NULL_ENTITY;
  LB_CHECK(lb_world_spawn(w, &parent) == LB_OK);
  lb_transform_c pt;
  lb_component_defaults(LB_TRANSFORM, &pt);
  LB_CHECK(lb_world_insert(w, parent, LB_TRANSFORM, &pt) == LB_OK);
  lb_entity s = cl_test_sphere(w, 0, 0, 0, 1);
  lb_transform_c t;
  LB_CHECK(lb_world_get(w, s, LB_TRANSFORM, &t) == LB_OK);
  t.parent = parent;
  t.position[1] = 2;
  LB_CHECK(lb_world_set(w, s, LB_TRANSFORM, &t) == LB_OK);
  /* no step yet: queries see the write */
  lb_collide_hit h = cl_test_ray(w, 0, 10, 0, 0, -1, 0, 20);
  LB_CHECK(h.entity == s);
  LB_CHECK_NEAR(h.distance, 7, 1e-6);
  pt.position[1] = 3; /* the parent moves: so does the child's collider */
  LB_CHECK(lb_world_set(w, parent, LB_TRANSFORM, &pt) == LB_OK);
  h = cl_test_ray(w, 0, 10, 0, 0, -1, 0, 20);
  LB_CHECK_NEAR(h.distance, 4, 1e-6);
  LB_CHECK(lb_world_step(w, 0.016f) == LB_OK);
  lb_collide_hit h2 = cl_test_ray(w, 0, 10, 0, 0, -1, 0, 20);
  LB_CHECK(h2.entity == s && h2.distance == h.distance);
  vec3 lo, hi;
  LB_CHECK(lb_world_collider_bounds(w, s, lo, hi) == LB_OK);
  LB_CHECK_NEAR(lo[1], 4, 1e-4);
  LB_CHECK_NEAR(hi[1], 6, 1e-4);
  /* the parent goes: the child becomes a root at its local position */
  LB_CHECK(lb_world_despawn(w, parent) == LB_OK);
  h = cl_test_ray(w, 0, 10, 0, 0, -1, 0, 20);
  LB_CHECK_NEAR(h.distance, 7, 1e-6);
  LB_CHECK(lb_world_remove(w, s, LB_COLLIDER) == LB_OK);
  LB_CHECK(cl_test_ray(w, 0, 10, 0, 0, -1, 0, 20).entity == LB_NULL_ENTITY);
  lb_world_destroy(w);
}

static void test_no_allocation_after_warm_up(void) {
  lb_test_counter cnt = {0};
  lb_world_def def = lb_test_counting_def(&cnt);
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(&def, &w) == LB_OK);
  rng r = {0xA110Cu};
  uint32_t mesh = cl_grid_mesh(w, 8, &r);
  cl_random_world(w, &r, 100, mesh);
  lb_entity movers[4];
  for (int i = 0; i < 4; ++i) {
    movers[i] = cl_test_sphere(w, (float)i, 0, 0, 0.5f);
  }
  lb_entity out[256];
  uint32_t n;
  for (int round = 0; round < 2; ++round) {
    if (round == 1) {
      cnt.allocs = 0;
    }
    for (int i = 0; i < 200; ++i) {
      for (int k = 0; k < 4; ++k) {
        lb_transform_c t;
        LB_CHECK(lb_world_get(w, movers[k], LB_TRANSFORM, &t) == LB_OK);
        t.position[1] = (float)i * 0.01f;
        LB_CHECK(lb_world_set(w, movers[k], LB_TRANSFORM, &t) == LB_OK);
      }
      vec3 o = {cl_rand(&r, -20, 20), cl_rand(&r, -20, 20), cl_rand(&r, -20, 20)};
      vec3 d = {0.3f, -1, 0.2f}, b = {o[0] + 1, o[1], o[2]};
      versor q = {0, 0, 0, 1};
      vec3 he = {1, 2, 3};
      lb_collide_hit h;
      LB_CHECK(lb_world_closest_point(w, o, 10, NULL, &h) == LB_OK);
      LB_CHECK(lb_world_raycast(w, o, d, 30, NULL, &h) == LB_OK);
      LB_CHECK(lb_world_sphere_cast(w, o, 0.5f, d, 30, NULL, &h) == LB_OK);
      LB_CHECK(lb_world_capsule_cast(w, o, b, 0.5f, d, 30, NULL, &h) == LB_OK);
      LB_CHECK(lb_world_overlap_sphere(w, o, 3, NULL, out, 256, &n) == LB_OK);
      LB_CHECK(lb_world_overlap_capsule(w, o, b, 3, NULL, out, 256, &n) == LB_OK);
      LB_CHECK(lb_world_overlap_box(w, o, q, he, NULL, out, 256, &n) == LB_OK);
      LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
    }
  }
  printf("allocations over 200 steps x (4 moves + 7 queries) after warm-up: %zu\n", cnt.allocs);
  LB_CHECK(cnt.allocs == 0);
  lb_world_destroy(w);
  LB_CHECK(cnt.live == 0);
}

static bool cl_has_text(const char *s, const char *t) {
  return strstr(s, t) != NULL;
}

static void test_bad_input_refused(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_entity e = cl_test_sphere(w, 0, 0, 0, 1);
  lb_collider_c good;
  LB_CHECK(lb_world_get(w, e, LB_COLLIDER, &good) == LB_OK);
  struct {
    const char *field;
    lb_result code;
    lb_collider_c c;
  } bad[6];
  for (int i = 0; i < 6; ++i) {
    bad[i].c = good;
  }
  bad[0].field = "'radius'", bad[0].code = LB_ERR_OUT_OF_RANGE, bad[0].c.radius = 0;
  bad[1].field = "'radius'", bad[1].code = LB_ERR_NOT_FINITE, bad[1].c.radius = NAN;
  bad[2].field = "'height'", bad[2].code = LB_ERR_OUT_OF_RANGE;
  bad[2].c.shape = LB_COLLIDER_CAPSULE, bad[2].c.radius = 0.5f, bad[2].c.height = 0.9f;
  bad[3].field = "'size'", bad[3].code = LB_ERR_OUT_OF_RANGE;
  bad[3].c.shape = LB_COLLIDER_BOX, bad[3].c.size[1] = -1;
  bad[4].field = "'mesh'", bad[4].code = LB_ERR_INVALID_ARGUMENT, bad[4].c.shape = LB_COLLIDER_MESH;
  bad[5].field = "'mesh'", bad[5].code = LB_ERR_UNKNOWN_NAME;
  bad[5].c.shape = LB_COLLIDER_MESH, bad[5].c.mesh = 7;
  for (int i = 0; i < 6; ++i) {
    lb_result r = lb_world_set(w, e, LB_COLLIDER, &bad[i].c);
    const char *msg = lb_world_last_error(w);
    LB_CHECK(r == bad[i].code);
    LB_CHECK(cl_has_text(msg, "Collider") && cl_has_text(msg, bad[i].field) &&
             cl_has_text(msg, "entity 0v"));
    lb_collider_c now;
    LB_CHECK(lb_world_get(w, e, LB_COLLIDER, &now) == LB_OK);
    LB_CHECK(memcmp(&now, &good, sizeof now) == 0);
    if (i == 2) {
      printf("refused: %s\n", msg);
    }
  }
  LB_CHECK_NEAR(cl_test_ray(w, -5, 0, 0, 1, 0, 0, 10).distance, 4, 1e-6);
  /* a new entity: nothing inserted */
  lb_entity f = LB_NULL_ENTITY;
  LB_CHECK(lb_world_spawn(w, &f) == LB_OK);
  LB_CHECK(lb_world_insert(w, f, LB_COLLIDER, &bad[0].c) != LB_OK);
  LB_CHECK(!lb_world_has(w, f, LB_COLLIDER));
  /* meshes */
  static const float pos[] = {0, 0, 0, 1, 0, 0, 0, 0, 1};
  float nanpos[9] = {0, 0, 0, 1, 0, 0, 0, NAN, 1};
  static const uint32_t idx[] = {0, 1, 2}, far[] = {0, 1, 3};
  lb_mesh_def d = lb_mesh_default_def();
  uint32_t m = 0;
  d.positions = pos, d.vertex_count = 3, d.indices = far, d.index_count = 3;
  LB_CHECK(lb_world_add_mesh(w, &d, &m) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(cl_has_text(lb_world_last_error(w), "out of range"));
  d.indices = idx, d.index_count = 0;
  LB_CHECK(lb_world_add_mesh(w, &d, &m) == LB_ERR_INVALID_ARGUMENT);
  d.index_count = 2;
  LB_CHECK(lb_world_add_mesh(w, &d, &m) == LB_ERR_INVALID_ARGUMENT);
  d.index_count = 3, d.positions = nanpos;
  LB_CHECK(lb_world_add_mesh(w, &d, &m) == LB_ERR_NOT_FINITE);
  LB_CHECK(m == 0 && lb_world_mesh_triangle_count(w, 1) == 0);
  d.positions = pos;
  LB_CHECK(lb_world_add_mesh(w, &d, &m) == LB_OK && m == 1);
  /* queries */
  lb_collide_hit h;
  vec3 o = {0, 0, 0}, zero = {0, 0, 0}, nanv = {NAN, 0, 0}, x = {1, 0, 0};
  LB_CHECK(lb_world_raycast(w, o, zero, 1, NULL, &h) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(cl_has_text(lb_world_last_error(w), "'dir'"));
  LB_CHECK(lb_world_raycast(w, nanv, x, 1, NULL, &h) == LB_ERR_NOT_FINITE);
  LB_CHECK(cl_has_text(lb_world_last_error(w), "'origin'"));
  LB_CHECK(lb_world_raycast(w, o, x, -1, NULL, &h) == LB_ERR_OUT_OF_RANGE);
  LB_CHECK(lb_world_sphere_cast(w, o, 0, x, 1, NULL, &h) == LB_ERR_OUT_OF_RANGE);
  LB_CHECK(cl_has_text(lb_world_last_error(w), "'radius'"));
  LB_CHECK(lb_world_capsule_cast(w, o, x, -1, x, 1, NULL, &h) == LB_ERR_OUT_OF_RANGE);
  LB_CHECK(lb_world_closest_point(w, o, NAN, NULL, &h) == LB_ERR_NOT_FINITE);
  uint32_t n;
  versor badq = {0, 0, 0, 2};
  LB_CHECK(lb_world_overlap_box(w, o, badq, x, NULL, NULL, 0, &n) == LB_ERR_OUT_OF_RANGE);
  LB_CHECK(cl_has_text(lb_world_last_error(w), "'rotation'"));
  lb_world_destroy(w);
}

/* ---- the same answers in WebAssembly ---------------------------------------------------- */
/* A world and queries that tests/node/collide.test.mjs builds through the bridge with the
 * same generator (every value a float made in a fixed order, so JavaScript can repeat it
 * with Math.fround); both hash the answers bit for bit. */
static uint64_t cl_fnv(uint64_t h, uint32_t x) {
  for (int k = 0; k < 4; ++k) {
    h ^= (x >> (8 * k)) & 0xffu;
    h *= 0x100000001b3ull;
  }
  return h;
}

static uint64_t cl_fnv_f(uint64_t h, float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return cl_fnv(h, u);
}

#define CL_HASH_EXPECTED 0xaaefdf94086596d1ull /* the Node test holds the same */

static void test_query_hash(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  rng r = {0x5EED5u};
  uint32_t mesh = cl_grid_mesh(w, 4, &r);
  for (int i = 0; i < 40; ++i) {
    lb_collider_c c = cl_test_collider((lb_collider_shape)(rng_u32(&r) % 5u));
    c.radius = cl_rand(&r, 0.1f, 1.0f);
    c.height = 2.0f * c.radius + cl_rand(&r, 0.0f, 2.0f);
    c.direction = rng_u32(&r) % 3u;
    c.size[0] = cl_rand(&r, 0.1f, 3.0f);
    c.size[1] = cl_rand(&r, 0.1f, 3.0f);
    c.size[2] = cl_rand(&r, 0.1f, 3.0f);
    c.layer = 1u << (rng_u32(&r) % 3u);
    c.mesh = mesh;
    versor q;
    q[0] = cl_rand(&r, -1, 1);
    q[1] = cl_rand(&r, -1, 1);
    q[2] = cl_rand(&r, -1, 1);
    q[3] = cl_rand(&r, -1, 1);
    vec3 s = {1, 1, 1};
    if (c.shape == LB_COLLIDER_MESH || c.shape == LB_COLLIDER_BOX) {
      s[0] = cl_rand(&r, 0.5f, 3.0f);
      s[1] = cl_rand(&r, 0.5f, 3.0f);
      s[2] = cl_rand(&r, 0.5f, 3.0f);
    }
    float x = cl_rand(&r, -8, 8);
    float y = cl_rand(&r, -8, 8);
    float z = cl_rand(&r, -8, 8);
    cl_test_spawn(w, &c, x, y, z, q, s);
  }
  uint64_t h = 0xcbf29ce484222325ull;
  uint32_t hits = 0;
  for (int i = 0; i < 4000; ++i) {
    vec3 o, d, b;
    o[0] = cl_rand(&r, -10, 10);
    o[1] = cl_rand(&r, -10, 10);
    o[2] = cl_rand(&r, -10, 10);
    d[0] = cl_rand(&r, -1, 1);
    d[1] = cl_rand(&r, -1, 1);
    d[2] = cl_rand(&r, -1, 1);
    float maxd = cl_rand(&r, 0, 20);
    float rad = cl_rand(&r, 0.05f, 1.0f);
    b[0] = o[0] + cl_rand(&r, -1, 1);
    b[1] = o[1] + cl_rand(&r, -1, 1);
    b[2] = o[2] + cl_rand(&r, -1, 1);
    lb_collide_hit hit;
    memset(&hit, 0, sizeof hit);
    switch (i % 4) {
    case 0:
      LB_CHECK(lb_world_closest_point(w, o, maxd, NULL, &hit) == LB_OK);
      break;
    case 1:
      LB_CHECK(lb_world_raycast(w, o, d, maxd, NULL, &hit) == LB_OK);
      break;
    case 2:
      LB_CHECK(lb_world_sphere_cast(w, o, rad, d, maxd, NULL, &hit) == LB_OK);
      break;
    default:
      LB_CHECK(lb_world_capsule_cast(w, o, b, rad, d, maxd, NULL, &hit) == LB_OK);
      break;
    }
    hits += hit.entity != LB_NULL_ENTITY;
    h = cl_fnv(h, hit.entity);
    h = cl_fnv_f(h, hit.distance);
    for (int k = 0; k < 3; ++k) {
      h = cl_fnv_f(h, hit.point[k]);
      h = cl_fnv_f(h, hit.normal[k]);
    }
    h = cl_fnv(h, (uint32_t)hit.triangle);
  }
  printf("query hash over 4000 queries (%u hits): %016llx\n", hits, (unsigned long long)h);
  LB_CHECK(hits > 400u);
  LB_CHECK(h == CL_HASH_EXPECTED);
  lb_world_destroy(w);
}

int main(void) {
  LB_RUN(test_tree_matches_brute_force);
  LB_RUN(test_cast_results_are_first_contacts);
  LB_RUN(test_moving_colliders);
  LB_RUN(test_no_allocation_after_warm_up);
  LB_RUN(test_bad_input_refused);
  LB_RUN(test_query_hash);
  LB_TEST_MAIN_END();
}
