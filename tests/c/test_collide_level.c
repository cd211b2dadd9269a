/* Levels in scenes: the assets/levels JSON pieces become box colliders and the .glb mesh nodes
 * mesh colliders, named by piece, all or nothing, unloaded with the scene. */
#include "collide_fixture.h"

static const char *const levels[] = {"corridor", "vault-course", "nav-arena"};

typedef struct cl_level_file {
  char path[96];
  void *bytes;
  size_t size;
} cl_level_file;

static lb_scene *cl_load_level(lb_world *w, const char *path, lb_result *res) {
  char json[256];
  snprintf(json, sizeof json, "{\"name\": \"level test\", \"level\": \"%s\", \"entities\": []}",
           path);
  size_t size = 0;
  void *bytes = lb_test_read_file(path, &size);
  LB_CHECK(bytes != NULL);
  lb_scene_file f = {path, bytes, size};
  lb_scene *sc = NULL;
  *res = lb_scene_load_files(w, json, strlen(json), &f, 1, &sc);
  free(bytes);
  return sc;
}

static uint32_t cl_piece_count(const char *json_path) {
  size_t n = 0;
  char *text = lb_test_read_file(json_path, &n);
  uint32_t count = 0;
  for (char *p = text; p && (p = strstr(p, "\"shape\"")) != NULL; ++p) {
    count++;
  }
  free(text);
  return count;
}

static void test_corridor_floor(void) {
  const char *paths[2] = {"assets/levels/corridor.json", "assets/levels/corridor.glb"};
  for (int k = 0; k < 2; ++k) {
    lb_world *w = NULL;
    LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
    lb_result r;
    lb_scene *sc = cl_load_level(w, paths[k], &r);
    if (r != LB_OK) {
      fprintf(stderr, "%s: %s\n", paths[k], lb_world_last_error(w));
    }
    LB_CHECK(r == LB_OK && sc);
    lb_entity floor = lb_scene_entity(sc, "floor");
    LB_CHECK(floor != LB_NULL_ENTITY);
    lb_collide_hit h = cl_test_ray(w, 0.1f, 3, 2, 0, -1, 0, 10);
    LB_CHECK(h.entity == floor);
    LB_CHECK_NEAR(h.point[1], 0, 1e-5);
    LB_CHECK_NEAR(h.distance, 3, 1e-5);
    CL_CHECK_VEC(h.normal, 0, 1, 0, 1e-5);
    printf("%s: floor hit at y = %.3g (distance error %.3g m)\n", paths[k], (double)h.point[1],
           fabs((double)h.distance - 3.0));
    lb_scene_destroy(w, sc);
    lb_world_destroy(w);
  }
}

static void test_levels_json_and_glb_agree(void) {
  for (int l = 0; l < 3; ++l) {
    char jp[96], gp[96];
    snprintf(jp, sizeof jp, "assets/levels/%s.json", levels[l]);
    snprintf(gp, sizeof gp, "assets/levels/%s.glb", levels[l]);
    lb_world *wj = NULL, *wg = NULL;
    LB_CHECK(lb_world_create(NULL, &wj) == LB_OK && lb_world_create(NULL, &wg) == LB_OK);
    lb_result rj, rg;
    lb_scene *sj = cl_load_level(wj, jp, &rj), *sg = cl_load_level(wg, gp, &rg);
    LB_CHECK(rj == LB_OK && rg == LB_OK);
    uint32_t pieces = cl_piece_count(jp);
    LB_CHECK(lb_scene_entity_count(sj) == pieces && lb_scene_entity_count(sg) == pieces);
    rng r = {0x1e7e1u + (uint32_t)l};
    double worst = 0.0;
    uint32_t hits = 0, agree = 0, skipped = 0, n = 4000;
    for (uint32_t i = 0; i < n; ++i) {
      float ox = (float)(rng_u32(&r) % 2000u) * 0.01f - 5.0f;
      float oz = (float)(rng_u32(&r) % 2000u) * 0.01f - 5.0f;
      float oy = (float)(rng_u32(&r) % 300u) * 0.01f + 0.05f;
      float dx = (float)(rng_u32(&r) % 200u) * 0.01f - 1.0f;
      float dy = (float)(rng_u32(&r) % 200u) * 0.01f - 1.0f;
      float dz = (float)(rng_u32(&r) % 200u) * 0.01f - 1.0f;
      if (dx == 0.0f && dy == 0.0f && dz == 0.0f) {
        dy = -1.0f;
      }
      /* Starts on a surface are inside or outside by rounding: not compared. */
      lb_collide_hit cj = cl_test_closest(wj, ox, oy, oz, 1e-4f);
      lb_collide_hit cg = cl_test_closest(wg, ox, oy, oz, 1e-4f);
      if ((cj.entity && cj.distance > -1e-4f) || (cg.entity && cg.distance > -1e-4f)) {
        skipped++;
        continue;
      }
      lb_collide_hit a = cl_test_ray(wj, ox, oy, oz, dx, dy, dz, 30);
      lb_collide_hit b = cl_test_ray(wg, ox, oy, oz, dx, dy, dz, 30);
      bool same = (a.entity == LB_NULL_ENTITY) == (b.entity == LB_NULL_ENTITY);
      if (a.entity && b.entity && a.distance > 0.0f) {
        double d = fabs((double)a.distance - (double)b.distance);
        worst = fmax(worst, d);
        hits++;
      }
      agree += same;
    }
    printf("%s: %u pieces; json boxes vs glb meshes, %u rays: hit/miss agreement %u/%u, max "
           "distance difference %.3g m over %u hits (%u starts on a surface skipped)\n",
           levels[l], pieces, n, agree, n - skipped, worst, hits, skipped);
    LB_CHECK(agree + skipped == n);
    LB_CHECK(worst < 1e-4);
    lb_scene_destroy(wj, sj);
    lb_scene_destroy(wg, sg);
    lb_world_destroy(wj);
    lb_world_destroy(wg);
  }
}

static void test_level_all_or_nothing(void) {
  lb_test_counter cnt = {0};
  lb_world_def def = lb_test_counting_def(&cnt);
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(&def, &w) == LB_OK);
  /* load and unload: entities gone, meshes freed, memory back where it was after a first
   * cycle (which grows the entity and collider tables for good) */
  lb_result r;
  lb_scene *sc = cl_load_level(w, "assets/levels/nav-arena.json", &r);
  lb_scene_unload(w, sc);
  sc = cl_load_level(w, "assets/levels/vault-course.glb", &r);
  lb_scene_unload(w, sc);
  long live = cnt.live;
  sc = cl_load_level(w, "assets/levels/vault-course.glb", &r);
  LB_CHECK(r == LB_OK);
  LB_CHECK(lb_world_mesh_triangle_count(w, 1) > 0);
  lb_entity first = lb_scene_entity_at(sc, 0);
  lb_scene_unload(w, sc);
  LB_CHECK(!lb_world_alive(w, first));
  LB_CHECK(lb_world_mesh_triangle_count(w, 1) == 0);
  LB_CHECK(cl_test_ray(w, 0, 5, 0, 0, -1, 0, 10).entity == LB_NULL_ENTITY);
  /* missing file, a name used twice, a bad piece: nothing is left */
  const char *bad[3] = {
      "{\"level\": \"assets/levels/corridor.json\", \"entities\": [{\"name\": \"floor\"}]}",
      "{\"level\": \"nowhere.json\", \"entities\": []}",
      "{\"level\": 3, \"entities\": []}",
  };
  size_t size = 0;
  void *bytes = lb_test_read_file("assets/levels/corridor.json", &size);
  lb_scene_file f = {"assets/levels/corridor.json", bytes, size};
  long live_bad = 0; /* failed loads grow the message buffer once: compare two rounds */
  for (int i = 0; i < 6; ++i) {
    if (i == 3) {
      live_bad = cnt.live;
    }
    lb_scene *s2 = NULL;
    r = lb_scene_load_files(w, bad[i % 3], strlen(bad[i % 3]), &f, 1, &s2);
    LB_CHECK(r != LB_OK && s2 == NULL);
    if (i < 3) {
      printf("refused: %s\n", lb_world_last_error(w));
    }
    LB_CHECK(cl_test_ray(w, 0.1f, 3, 2, 0, -1, 0, 10).entity == LB_NULL_ENTITY);
  }
  const char *piece = "{\"pieces\": [{\"name\": \"a\", \"shape\": \"box\", \"center\": [0, 0, 0], "
                      "\"size\": [1, 1, 1]}, {\"name\": \"b\", \"shape\": \"box\", \"center\": "
                      "[0, 3, 0], \"size\": [1, 0, 1]}]}";
  lb_scene_file pf = {"bad.json", (const uint8_t *)piece, strlen(piece)};
  const char *doc = "{\"level\": \"bad.json\", \"entities\": []}";
  lb_scene *s3 = NULL;
  r = lb_scene_load_files(w, doc, strlen(doc), &pf, 1, &s3);
  LB_CHECK(r == LB_ERR_OUT_OF_RANGE);
  LB_CHECK(strstr(lb_world_last_error(w), "piece 'b'") && strstr(lb_world_last_error(w), "'size'"));
  printf("refused: %s\n", lb_world_last_error(w));
  LB_CHECK(cl_test_ray(w, 0, 5, 0, 0, -1, 0, 10).entity == LB_NULL_ENTITY);
  free(bytes);
  LB_CHECK(cnt.live == live_bad);
  LB_CHECK(live_bad - live <= 2); /* at most the message buffer */
  lb_world_destroy(w);
  LB_CHECK(cnt.live == 0);
}

static void test_scene_files_lists_the_level(void) {
  const char *doc = "{\"level\": \"assets/levels/corridor.glb\", \"entities\": []}";
  char buf[128];
  size_t needed = 0;
  LB_CHECK(lb_scene_files(doc, strlen(doc), buf, sizeof buf, &needed) == LB_OK);
  LB_CHECK(strcmp(buf, "assets/levels/corridor.glb\n") == 0);
}

int main(void) {
  LB_RUN(test_corridor_floor);
  LB_RUN(test_levels_json_and_glb_agree);
  LB_RUN(test_level_all_or_nothing);
  LB_RUN(test_scene_files_lists_the_level);
  LB_TEST_MAIN_END();
}
