/* The nav module: navmesh checks (bad meshes refused, world unchanged), exact answers on small
 * meshes (nearest point, path, move along surface, raycast), JSON, asset rollback, and no
 * allocation in queries. */
#include "limber/limber.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../wasm/src/nav/nav_internal.h" /* asset marks, the scan for the grid */
#include "test.h"

#define TOL 1e-5

/* An L of three polygons (x, z in metres, y = 0) and an island:
 *   Q0 [0,1]x[0,1], Q1 [0,1]x[1,3] (a pentagon: vertex (1,2) on its right side),
 *   Q2 [1,3]x[2,3], Q3 [5,6]x[0,1] (not connected). Inner corner of the L at (1, 2). */
static const float L_VERTS[] = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 2, 1, 0, 3, 0, 0,
                                3, 3, 0, 2, 3, 0, 3, 5, 0, 0, 6, 0, 0, 6, 0, 1, 5, 0, 1};
static const uint8_t L_COUNTS[] = {4, 5, 4, 4};
static const uint32_t L_INDICES[] = {0, 3, 2, 1, 3, 6, 5, 4, 2, 4, 5, 8, 7, 9, 12, 11, 10};
static const int32_t L_NEIS[] = {-1, 1, -1, -1, -1, -1, 2, -1, 0, 1, -1, -1, -1, -1, -1, -1, -1};

typedef struct mesh_copy {
  float verts[sizeof L_VERTS / sizeof L_VERTS[0]];
  uint8_t counts[4];
  uint32_t indices[17];
  int32_t neis[17];
  lb_navmesh_def def;
} mesh_copy;

static void l_mesh(mesh_copy *c) {
  memcpy(c->verts, L_VERTS, sizeof L_VERTS);
  memcpy(c->counts, L_COUNTS, sizeof L_COUNTS);
  memcpy(c->indices, L_INDICES, sizeof L_INDICES);
  memcpy(c->neis, L_NEIS, sizeof L_NEIS);
  memset(&c->def, 0, sizeof c->def);
  c->def.vertices = c->verts;
  c->def.vertex_count = 13;
  c->def.counts = c->counts;
  c->def.indices = c->indices;
  c->def.neighbours = c->neis;
  c->def.polygon_count = 4;
}

static lb_world *new_world(void) {
  lb_world_def d = lb_world_default_def();
  lb_world *w = NULL;
  lb_world_create(&d, &w);
  return w;
}

static uint32_t add_l(lb_world *w) {
  mesh_copy c;
  l_mesh(&c);
  uint32_t id = 0;
  LB_CHECK(lb_world_add_navmesh(w, "L", &c.def, &id) == LB_OK);
  return id;
}

static void test_nearest(void) {
  lb_world *w = new_world();
  uint32_t m = add_l(w);
  LB_CHECK(m == 1);
  lb_nav_point p;
  LB_CHECK(lb_nav_nearest(w, m, (float[3]){0.5f, 1, 0.5f}, &p) == LB_OK);
  LB_CHECK(p.polygon == 0);
  LB_CHECK_NEAR(p.position[0], 0.5, TOL);
  LB_CHECK_NEAR(p.position[1], 0.0, TOL);
  LB_CHECK_NEAR(p.position[2], 0.5, TOL);
  LB_CHECK(lb_nav_nearest(w, m, (float[3]){2, 0, 0.5f}, &p) == LB_OK);
  LB_CHECK(p.polygon == 0);
  LB_CHECK_NEAR(p.position[0], 1.0, TOL);
  LB_CHECK_NEAR(p.position[2], 0.5, TOL);
  LB_CHECK(lb_nav_nearest(w, m, (float[3]){5.5f, 0, 0.5f}, &p) == LB_OK);
  LB_CHECK(p.polygon == 3);
  LB_CHECK(lb_nav_nearest(w, m, (float[3]){NAN, 0, 0}, &p) == LB_ERR_NOT_FINITE);
  LB_CHECK(lb_nav_nearest(w, m, (float[3]){1e8f, 0, 0}, &p) == LB_ERR_OUT_OF_RANGE);
  LB_CHECK(lb_nav_nearest(w, m, (float[3]){-9e6f, 5, 9e6f}, &p) == LB_OK && p.polygon == 1);
  LB_CHECK(lb_nav_nearest(w, 7, (float[3]){0, 0, 0}, &p) == LB_ERR_INVALID_ARGUMENT);
  lb_navmesh_info info;
  LB_CHECK(lb_world_navmesh_info(w, m, &info) == LB_OK);
  LB_CHECK(info.polygon_count == 4 && info.vertex_count == 13 && info.edge_count == 17);
  LB_CHECK(info.portal_count == 4);
  LB_CHECK(lb_world_navmesh_find(w, "L") == m && lb_world_navmesh_find(w, "M") == 0);
  lb_world_destroy(w);
}

static void test_path(void) {
  lb_world *w = new_world();
  uint32_t m = add_l(w);
  float pts[3 * 8];
  lb_nav_path path = {.points = pts, .point_capacity = 8};
  /* around the inner corner: 2 * sqrt(2.5) */
  LB_CHECK(lb_nav_find_path(w, m, (float[3]){0.5f, 0, 0.5f}, (float[3]){2.5f, 0, 2.5f}, &path) ==
           LB_OK);
  LB_CHECK(path.status == LB_NAV_PATH_COMPLETE);
  LB_CHECK(path.point_count == 3 && path.corner_count == 3 && path.polygon_count == 3);
  LB_CHECK_NEAR(path.length, 2.0 * sqrt(2.5), TOL);
  LB_CHECK_NEAR(pts[3], 1.0, TOL);
  LB_CHECK_NEAR(pts[5], 2.0, TOL);
  printf("  L path: %u corners, %.6f m (exact %.6f)\n", path.corner_count, (double)path.length,
         2.0 * sqrt(2.5));
  /* same polygon: a straight segment */
  LB_CHECK(lb_nav_find_path(w, m, (float[3]){0.5f, 0, 1.5f}, (float[3]){0.5f, 0, 2.5f}, &path) ==
           LB_OK);
  LB_CHECK(path.point_count == 2 && path.status == LB_NAV_PATH_COMPLETE);
  LB_CHECK_NEAR(path.length, 1.0, TOL);
  /* the island is unreachable: partial path to the reachable point nearest the goal (Q2's
   * corner (3, 2), as Detour picks the node nearest the goal) */
  LB_CHECK(lb_nav_find_path(w, m, (float[3]){0.5f, 0, 0.5f}, (float[3]){5.5f, 0, 0.5f}, &path) ==
           LB_OK);
  LB_CHECK(path.status == LB_NAV_PATH_PARTIAL);
  LB_CHECK(path.end.polygon == 2);
  LB_CHECK_NEAR(path.end.position[0], 3.0, TOL);
  LB_CHECK_NEAR(path.end.position[2], 2.0, TOL);
  LB_CHECK_NEAR(path.length, sqrt(2.5) + 2.0, TOL);
  /* a buffer too small: the length still covers the whole path */
  lb_nav_path small = {.points = pts, .point_capacity = 1};
  LB_CHECK(lb_nav_find_path(w, m, (float[3]){0.5f, 0, 0.5f}, (float[3]){2.5f, 0, 2.5f}, &small) ==
           LB_OK);
  LB_CHECK(small.point_count == 1 && small.corner_count == 3);
  LB_CHECK_NEAR(small.length, 2.0 * sqrt(2.5), TOL);
  lb_nav_path bad = {.points = NULL, .point_capacity = 4};
  LB_CHECK(lb_nav_find_path(w, m, (float[3]){0, 0, 0}, (float[3]){1, 0, 1}, &bad) ==
           LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_nav_find_path(w, m, (float[3]){0, 0, INFINITY}, (float[3]){1, 0, 1}, &path) ==
           LB_ERR_NOT_FINITE);
  lb_world_destroy(w);
}

static void test_move_and_raycast(void) {
  lb_world *w = new_world();
  uint32_t m = add_l(w);
  lb_nav_point from = {{0.5f, 0, 0.5f}, 0}, out;
  /* into the wall x = 1: clamped onto it */
  LB_CHECK(lb_nav_move_along_surface(w, m, &from, (float[3]){2, 0, 0.5f}, &out) == LB_OK);
  LB_CHECK(out.polygon == 0);
  LB_CHECK_NEAR(out.position[0], 1.0, TOL);
  LB_CHECK_NEAR(out.position[2], 0.5, TOL);
  /* over the next polygon: reached */
  LB_CHECK(lb_nav_move_along_surface(w, m, &from, (float[3]){0.5f, 0, 1.4f}, &out) == LB_OK);
  LB_CHECK(out.polygon == 1);
  LB_CHECK_NEAR(out.position[2], 1.4, TOL);
  /* sliding: toward (1.5, 1.5) from Q0 ends on Q1's wall x = 1 at z = 1.5 */
  LB_CHECK(lb_nav_move_along_surface(w, m, &from, (float[3]){1.5f, 0, 1.5f}, &out) == LB_OK);
  LB_CHECK_NEAR(out.position[0], 1.0, TOL);
  LB_CHECK_NEAR(out.position[2], 1.5, TOL);
  lb_nav_point bad = {{0, 0, 0}, 9};
  LB_CHECK(lb_nav_move_along_surface(w, m, &bad, (float[3]){0, 0, 0}, &out) == LB_ERR_OUT_OF_RANGE);

  lb_nav_hit hit;
  LB_CHECK(lb_nav_raycast(w, m, &from, (float[3]){0.5f, 0, 5}, &hit) == LB_OK);
  LB_CHECK(hit.hit && hit.polygon == 1);
  LB_CHECK_NEAR(hit.t, 2.5 / 4.5, TOL);
  LB_CHECK_NEAR(hit.position[2], 3.0, TOL);
  LB_CHECK_NEAR(hit.normal[0], 0.0, TOL);
  LB_CHECK_NEAR(hit.normal[2], -1.0, TOL);
  LB_CHECK(lb_nav_raycast(w, m, &from, (float[3]){0.9f, 0, 2.9f}, &hit) == LB_OK);
  LB_CHECK(!hit.hit && hit.polygon == 1);
  LB_CHECK_NEAR(hit.t, 1.0, TOL);
  /* sideways into x = 1 */
  LB_CHECK(lb_nav_raycast(w, m, &from, (float[3]){2.5f, 0, 0.5f}, &hit) == LB_OK);
  LB_CHECK(hit.hit && hit.polygon == 0);
  LB_CHECK_NEAR(hit.t, 0.25, TOL);
  LB_CHECK_NEAR(hit.normal[0], -1.0, TOL);
  lb_world_destroy(w);
}

/* Each bad mesh is refused with its code and a message; the world keeps no mesh. */
static void expect_refused(const char *what, void (*spoil)(mesh_copy *), lb_result code,
                           const char *needle) {
  lb_world *w = new_world();
  mesh_copy c;
  l_mesh(&c);
  spoil(&c);
  uint32_t id = 0;
  lb_result r = lb_world_add_navmesh(w, "bad", &c.def, &id);
  const char *msg = lb_world_last_error(w);
  bool ok =
      r == code && strstr(msg, needle) != NULL && id == 0 && lb_world_navmesh_find(w, "bad") == 0;
  if (!ok) {
    fprintf(stderr, "  %s: got %s '%s'\n", what, lb_result_name(r), msg);
  }
  LB_CHECK(ok);
  /* the next good mesh gets the first handle */
  LB_CHECK(add_l(w) == 1);
  lb_world_destroy(w);
}

static void spoil_nan(mesh_copy *c) {
  c->verts[4] = NAN;
}
static void spoil_index(mesh_copy *c) {
  c->indices[5] = 13;
}
/* (1, 2) -> (0.5, 2): a reflex vertex in Q1 */
static void spoil_nonconvex(mesh_copy *c) {
  c->verts[3 * 4 + 0] = 0.5f;
}
static void spoil_cw(mesh_copy *c) {
  uint32_t t = c->indices[1];
  c->indices[1] = c->indices[3];
  c->indices[3] = t;
}
static void spoil_asym(mesh_copy *c) {
  c->neis[8] = -1;
}
static void spoil_not_shared(mesh_copy *c) {
  c->neis[0] = 1;
}
static void spoil_range(mesh_copy *c) {
  c->neis[1] = 4;
}
static void spoil_self(mesh_copy *c) {
  c->neis[0] = 0;
}
static void spoil_count(mesh_copy *c) {
  c->counts[0] = 2;
}
static void spoil_count7(mesh_copy *c) {
  c->counts[0] = 7;
}
static void spoil_repeat(mesh_copy *c) {
  c->indices[2] = 0;
}

static void test_bad_meshes(void) {
  expect_refused("NaN", spoil_nan, LB_ERR_NOT_FINITE, "vertex 1");
  expect_refused("index", spoil_index, LB_ERR_OUT_OF_RANGE, "polygon 1 vertex 1");
  expect_refused("non-convex", spoil_nonconvex, LB_ERR_DEGENERATE, "not convex");
  expect_refused("clockwise", spoil_cw, LB_ERR_DEGENERATE, "polygon 0");
  expect_refused("asymmetric", spoil_asym, LB_ERR_INVALID_ARGUMENT, "not symmetric");
  expect_refused("not shared", spoil_not_shared, LB_ERR_INVALID_ARGUMENT, "has no edge");
  expect_refused("neighbour range", spoil_range, LB_ERR_OUT_OF_RANGE, "neighbour 4");
  expect_refused("self", spoil_self, LB_ERR_INVALID_ARGUMENT, "itself");
  expect_refused("2 vertices", spoil_count, LB_ERR_OUT_OF_RANGE, "polygon 0 has 2");
  expect_refused("7 vertices", spoil_count7, LB_ERR_OUT_OF_RANGE, "polygon 0 has 7");
  expect_refused("repeat", spoil_repeat, LB_ERR_DEGENERATE, "twice");
  lb_world *w = new_world();
  mesh_copy c;
  l_mesh(&c);
  uint32_t id = 0;
  LB_CHECK(lb_world_add_navmesh(w, "", &c.def, &id) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_world_add_navmesh(w, "x", NULL, &id) == LB_ERR_INVALID_ARGUMENT);
  lb_world_destroy(w);
}

static const char L_JSON[] =
    "{\"format\": \"limber-navmesh\", \"version\": 1, \"source\": {\"any\": 1},"
    " \"vertices\": [[0,0,0],[1,0,0],[1,0,1],[0,0,1],[1,0,2],[0,0,2]],"
    " \"polygons\": [[0,3,2,1],[3,5,4,2]], \"neighbours\": [[-1,1,-1,-1],[-1,-1,-1,0]]}";

static void test_json(void) {
  lb_world *w = new_world();
  uint32_t id = 0;
  LB_CHECK(lb_world_add_navmesh_json(w, "j", L_JSON, strlen(L_JSON), &id) == LB_OK && id == 1);
  float pts[12];
  lb_nav_path path = {.points = pts, .point_capacity = 4};
  LB_CHECK(lb_nav_find_path(w, id, (float[3]){0.5f, 0, 0.25f}, (float[3]){0.5f, 0, 1.75f}, &path) ==
           LB_OK);
  LB_CHECK_NEAR(path.length, 1.5, TOL);
  static const char *bad[] = {
      "{\"format\": \"limber-navmesh\", \"version\": 2, \"vertices\": [], \"polygons\": [], "
      "\"neighbours\": []}",
      "{\"format\": \"limber-navmesh\", \"version\": 1, \"vertices\": [[0,0,0],[1,0,0],[1,0,1]],"
      " \"polygons\": [[0,2,1]], \"neighbours\": [[-1,-1]]}",
      "{\"format\": \"limber-navmesh\", \"version\": 1, \"vertices\": [[0,0,0],[1,0,0],[1,0,1]],"
      " \"polygons\": [[0,2,1.5]], \"neighbours\": [[-1,-1,-1]]}",
      "{\"format\": \"limber-navmesh\", \"version\": 1, \"vertices\": [[0,0,0],[1,0],[1,0,1]],"
      " \"polygons\": [[0,2,1]], \"neighbours\": [[-1,-1,-1]]}",
      "{\"format\": \"limber-navmesh\"",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    uint32_t bid = 0;
    lb_result r = lb_world_add_navmesh_json(w, "b", bad[i], strlen(bad[i]), &bid);
    LB_CHECK(r == LB_ERR_PARSE && bid == 0);
  }
  LB_CHECK(lb_world_navmesh_find(w, "b") == 0);
  lb_world_destroy(w);
}

static void test_rollback_and_memory(void) {
  lb_test_counter cnt;
  memset(&cnt, 0, sizeof cnt);
  lb_world_def d = lb_test_counting_def(&cnt);
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(&d, &w) == LB_OK);
  uint32_t m = add_l(w);
  lb_world_mark mark;
  lb_world_assets_mark(w, &mark);
  LB_CHECK(add_l(w) == 2);
  lb_world_assets_rollback(w, &mark);
  lb_navmesh_info info;
  LB_CHECK(lb_world_navmesh_info(w, 2, &info) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(lb_world_navmesh_info(w, m, &info) == LB_OK);
  /* warm-up done at add: queries allocate nothing */
  size_t before = cnt.allocs;
  rng r = {12345u};
  float pts[3 * 16];
  for (int i = 0; i < 1000; ++i) {
    float a[3] = {(float)(rng_u32(&r) % 700) / 100.0f - 0.5f, 0,
                  (float)(rng_u32(&r) % 400) / 100.0f - 0.5f};
    float b[3] = {(float)(rng_u32(&r) % 700) / 100.0f - 0.5f, 0,
                  (float)(rng_u32(&r) % 400) / 100.0f - 0.5f};
    lb_nav_path path = {.points = pts, .point_capacity = 16};
    lb_nav_point p, q;
    lb_nav_hit hit;
    LB_CHECK(lb_nav_find_path(w, m, a, b, &path) == LB_OK);
    LB_CHECK(lb_nav_nearest(w, m, a, &p) == LB_OK);
    LB_CHECK(lb_nav_move_along_surface(w, m, &p, b, &q) == LB_OK);
    LB_CHECK(lb_nav_raycast(w, m, &p, b, &hit) == LB_OK);
  }
  LB_CHECK(cnt.allocs == before);
  printf("  4000 queries: %zu allocations\n", cnt.allocs - before);
  lb_world_destroy(w);
  LB_CHECK(cnt.live == 0);
}

/* Scenes declare navmeshes from the caller's file table; a failing load keeps none. */
static void test_scene_assets(void) {
  size_t len = 0;
  char *arena = lb_test_read_file("assets/levels/nav-arena.navmesh.json", &len);
  LB_CHECK(arena != NULL);
  if (!arena) {
    return;
  }
  static const char scene[] =
      "{\"assets\": {\"navmeshes\": {\"arena\": {\"file\": \"levels/nav-arena.navmesh.json\"}}},"
      " \"entities\": [{\"name\": \"a\", \"components\": {\"Transform\": {}}}]}";
  char list[256];
  size_t need = 0;
  LB_CHECK(lb_scene_files(scene, strlen(scene), list, sizeof list, &need) == LB_OK);
  LB_CHECK(strcmp(list, "levels/nav-arena.navmesh.json\n") == 0);
  lb_scene_file file = {"levels/nav-arena.navmesh.json", (const uint8_t *)arena, len};
  lb_world *w = new_world();
  lb_scene *sc = NULL;
  LB_CHECK(lb_scene_load_files(w, scene, strlen(scene), &file, 1, &sc) == LB_OK);
  uint32_t m = lb_world_navmesh_find(w, "arena");
  LB_CHECK(m == 1);
  lb_navmesh_info info;
  LB_CHECK(lb_world_navmesh_info(w, m, &info) == LB_OK && info.polygon_count == 60);
  lb_nav_path path = {0};
  LB_CHECK(lb_nav_find_path(w, m, (float[3]){0, 0, -8}, (float[3]){7.5f, 0, 7.5f}, &path) == LB_OK);
  LB_CHECK(path.status == LB_NAV_PATH_COMPLETE);
  printf("  nav-arena from a scene: spawn -> room_a %.4f m, %u corners\n", (double)path.length,
         path.corner_count);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);

  /* the same scene with a broken entity after the navmesh: nothing stays */
  static const char broken[] =
      "{\"assets\": {\"navmeshes\": {\"arena\": {\"file\": \"levels/nav-arena.navmesh.json\"}}},"
      " \"entities\": [{\"name\": \"a\", \"components\": {\"Nope\": {}}}]}";
  w = new_world();
  LB_CHECK(lb_scene_load_files(w, broken, strlen(broken), &file, 1, &sc) != LB_OK && sc == NULL);
  LB_CHECK(lb_world_navmesh_find(w, "arena") == 0);
  LB_CHECK(lb_world_navmesh_info(w, 1, &info) == LB_ERR_INVALID_ARGUMENT);
  /* a bad navmesh file: refused with the asset named */
  char *bad = malloc(len + 1);
  memcpy(bad, arena, len + 1);
  char *at = strstr(bad, "\"neighbours\": [");
  at = at ? strchr(at + 16, '[') : NULL; /* the first polygon's list */
  LB_CHECK(at != NULL);
  if (at) {
    at = strchr(at, '-'); /* its first wall (-1) becomes a neighbour 9 */
    at[0] = ' ';
    at[1] = '9';
  }
  lb_scene_file badfile = {"levels/nav-arena.navmesh.json", (const uint8_t *)bad, len};
  lb_result r = lb_scene_load_files(w, scene, strlen(scene), &badfile, 1, &sc);
  LB_CHECK(r != LB_OK && strstr(lb_world_last_error(w), "navmesh asset 'arena'") != NULL);
  printf("  bad navmesh in a scene: %s\n", lb_world_last_error(w));
  LB_CHECK(lb_world_navmesh_find(w, "arena") == 0);
  lb_scene_file none = {"other.json", (const uint8_t *)arena, len};
  LB_CHECK(lb_scene_load_files(w, scene, strlen(scene), &none, 1, &sc) == LB_ERR_UNKNOWN_NAME);
  lb_world_destroy(w);
  free(bad);
  free(arena);
}

/* The grid search gives exactly the answer of trying every polygon, inside and outside the
 * mesh's bounds, on the baked arena. */
static void test_nearest_grid(void) {
  size_t len = 0;
  char *json = lb_test_read_file("assets/levels/nav-arena.navmesh.json", &len);
  LB_CHECK(json != NULL);
  if (!json) {
    return;
  }
  lb_world *w = new_world();
  uint32_t id = 0;
  LB_CHECK(lb_world_add_navmesh_json(w, "arena", json, len, &id) == LB_OK);
  const lb_navmesh *m = lb_navmesh_get(w, id);
  rng r = {777u};
  int same = 0, n = 20000;
  for (int i = 0; i < n; ++i) {
    float p[3] = {(float)(rng_u32(&r) % 30000) / 1000.0f - 15.0f,
                  (float)(rng_u32(&r) % 4000) / 1000.0f - 1.0f,
                  (float)(rng_u32(&r) % 30000) / 1000.0f - 15.0f};
    lb_nav_point a, b;
    LB_CHECK(lb_nav_nearest(w, id, p, &a) == LB_OK);
    lb_nav_nearest_scan(m, p, &b);
    same += a.polygon == b.polygon && memcmp(a.position, b.position, sizeof a.position) == 0;
  }
  printf("  nearest: grid == scan for %d of %d points (grid %ux%u cells of %.3f m)\n", same, n,
         m->grid_nx, m->grid_nz, (double)m->grid_cell);
  LB_CHECK(same == n);
  lb_world_destroy(w);
  free(json);
}

/* NavAgent (NavDestination, no Animator) on the L: around the corner to the goal, on the
 * mesh every step, no allocation in steps, stop holds, a new destination moves it in the very
 * next step, a bad mesh handle is refused. */
static void test_agent(void) {
  lb_test_counter cnt;
  memset(&cnt, 0, sizeof cnt);
  lb_world_def d = lb_test_counting_def(&cnt);
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(&d, &w) == LB_OK);
  uint32_t m = add_l(w);
  lb_entity e = 0;
  LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[0] = 0.5f;
  t.position[2] = 0.5f;
  LB_CHECK(lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK);
  lb_nav_agent_c a;
  lb_component_defaults(LB_NAV_AGENT, &a);
  a.nav_mesh = 7;
  LB_CHECK(lb_world_insert(w, e, LB_NAV_AGENT, &a) == LB_ERR_INVALID_ARGUMENT);
  LB_CHECK(strstr(lb_world_last_error(w), "'navMesh'") != NULL);
  a.nav_mesh = m;
  a.destination[0] = 2.5f;
  a.destination[2] = 2.5f;
  a.has_destination = 1;
  a.movement_speed = 1.0f;
  a.stopping_distance = 0.01f;
  LB_CHECK(lb_world_insert(w, e, LB_NAV_AGENT, &a) == LB_OK);
  const float dt = 1.0f / 60.0f;
  LB_CHECK(lb_world_step(w, dt) == LB_OK);
  size_t allocs = cnt.allocs;
  double travelled = 0.0, off_max = 0.0;
  int steps = 1;
  float prev[3] = {0.5f, 0.0f, 0.5f};
  for (; steps < 600; ++steps) {
    LB_CHECK(lb_world_get(w, e, LB_NAV_AGENT, &a) == LB_OK);
    if (a.arrived) {
      break;
    }
    LB_CHECK(lb_world_step(w, dt) == LB_OK);
    LB_CHECK(lb_world_get(w, e, LB_TRANSFORM, &t) == LB_OK);
    lb_nav_point near;
    lb_nav_nearest(w, m, t.position, &near);
    double off = hypot(near.position[0] - t.position[0], near.position[2] - t.position[2]);
    off_max = off > off_max ? off : off_max;
    travelled += hypot(t.position[0] - prev[0], t.position[2] - prev[2]);
    memcpy(prev, t.position, sizeof prev);
  }
  printf("  agent: arrived after %d steps, %.4f m travelled (path %.4f m), off the mesh <= %.2g "
         "m, %zu allocations in steps\n",
         steps, travelled, 2.0 * sqrt(2.5), off_max, cnt.allocs - allocs);
  LB_CHECK(a.arrived && a.path_status == 1);
  LB_CHECK(cnt.allocs == allocs);
  LB_CHECK(off_max < 1e-6);
  LB_CHECK(fabs(travelled + a.remaining_distance - 2.0 * sqrt(2.5)) < 0.02);
  LB_CHECK(hypot(t.position[0] - 2.5, t.position[2] - 2.5) <= 0.011);
  /* stop, then a new destination: moving in the very next step */
  a.stopped = 1;
  LB_CHECK(lb_world_set(w, e, LB_NAV_AGENT, &a) == LB_OK);
  LB_CHECK(lb_world_step(w, dt) == LB_OK);
  LB_CHECK(lb_world_get(w, e, LB_NAV_AGENT, &a) == LB_OK);
  LB_CHECK(a.velocity[0] == 0.0f && a.velocity[2] == 0.0f);
  a.destination[0] = 0.5f;
  a.destination[2] = 2.5f; /* stopped stays 1 in what is written: the new destination clears it */
  LB_CHECK(lb_world_set(w, e, LB_NAV_AGENT, &a) == LB_OK);
  LB_CHECK(lb_world_get(w, e, LB_NAV_AGENT, &a) == LB_OK);
  LB_CHECK(a.stopped == 0 && a.has_destination == 1);
  LB_CHECK(lb_world_step(w, dt) == LB_OK);
  LB_CHECK(lb_world_get(w, e, LB_NAV_AGENT, &a) == LB_OK);
  LB_CHECK_NEAR(hypot(a.velocity[0], a.velocity[2]), 1.0, 1e-3);
  lb_world_destroy(w);
  LB_CHECK(cnt.live == 0);
}

/* An agent following its kept corridor reports what a fresh plan from where it stands reports:
 * every step's remaining distance and steering target equal lb_nav_find_path's from the step's
 * start point, across the corridor's shrinking, its 0.5 s replans and a destination sent again. */
static void test_agent_corridor(void) {
  lb_world *w = new_world();
  uint32_t m = add_l(w);
  lb_entity e = 0;
  LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[0] = 0.5f;
  t.position[2] = 0.5f;
  LB_CHECK(lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK);
  lb_nav_agent_c a;
  lb_component_defaults(LB_NAV_AGENT, &a);
  a.nav_mesh = m;
  a.destination[0] = 2.5f;
  a.destination[2] = 2.5f;
  a.has_destination = 1;
  a.movement_speed = 0.5f;
  a.stopping_distance = 0.01f;
  LB_CHECK(lb_world_insert(w, e, LB_NAV_AGENT, &a) == LB_OK);
  float from[3] = {0.5f, 0.0f, 0.5f}, pts[3 * 4];
  double worst = 0.0;
  int steps = 0;
  for (; steps < 600 && !a.arrived; ++steps) {
    if (steps == 200) {
      LB_CHECK(lb_world_set(w, e, LB_NAV_AGENT, &a) == LB_OK); /* the same destination again */
    }
    LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
    LB_CHECK(lb_world_get(w, e, LB_NAV_AGENT, &a) == LB_OK);
    lb_nav_path fresh = {.points = pts, .point_capacity = 4};
    LB_CHECK(lb_nav_find_path(w, m, from, a.destination, &fresh) == LB_OK);
    const float *target = fresh.point_count > 1 ? pts + 3 : fresh.end.position;
    double d = fabs(fresh.length - a.remaining_distance);
    d = fmax(d, hypot(target[0] - a.steering_target[0], target[2] - a.steering_target[2]));
    worst = d > worst ? d : worst;
    memcpy(from, a.next_position, sizeof from);
  }
  printf("  corridor: arrived after %d steps, largest difference from a fresh plan %.3g m\n", steps,
         worst);
  LB_CHECK(a.arrived && a.path_status == 1);
  LB_CHECK(worst < 1e-5);
  lb_world_destroy(w);
}

int main(void) {
  LB_RUN(test_nearest);
  LB_RUN(test_path);
  LB_RUN(test_move_and_raycast);
  LB_RUN(test_bad_meshes);
  LB_RUN(test_json);
  LB_RUN(test_rollback_and_memory);
  LB_RUN(test_scene_assets);
  LB_RUN(test_nearest_grid);
  LB_RUN(test_agent);
  LB_RUN(test_agent_corridor);
  LB_TEST_MAIN_END();
}
