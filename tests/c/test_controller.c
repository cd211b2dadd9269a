/* CharacterController on the generated levels (the assets/levels JSON files as box colliders):
 * corridor walk without entering walls, the vault-course curb with stepOffset 0.35 / 0.25,
 * a 50-degree slope against slopeLimit 45, the nav-arena ramp, run-time size changes,
 * refused degenerate values, allocation-free steps and controllers pushing each other apart. */
#include "limber/limber.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "test.h"

#define DT (1.0f / 60.0f)

static float g_max_pen; /* deepest penetration seen by measure() */

/* Every piece of a level file as a box collider on its own entity. */
static void load_level(lb_world *w, const char *path) {
  size_t len = 0;
  char *text = lb_test_read_file(path, &len);
  LB_CHECK(text != NULL);
  cJSON *root = text ? cJSON_Parse(text) : NULL;
  const cJSON *pieces = cJSON_GetObjectItemCaseSensitive(root, "pieces");
  const cJSON *p;
  cJSON_ArrayForEach(p, pieces) {
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(p, "center");
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(p, "size");
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(p, "rotation");
    lb_entity e;
    LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
    lb_transform_c t;
    lb_component_defaults(LB_TRANSFORM, &t);
    for (int k = 0; k < 3; ++k) {
      t.position[k] = (float)cJSON_GetArrayItem(c, k)->valuedouble;
    }
    for (int k = 0; k < 4; ++k) {
      t.rotation[k] = (float)cJSON_GetArrayItem(r, k)->valuedouble;
    }
    LB_CHECK(lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK);
    lb_collider_c col;
    lb_component_defaults(LB_COLLIDER, &col);
    col.shape = LB_COLLIDER_BOX;
    for (int k = 0; k < 3; ++k) {
      col.size[k] = (float)cJSON_GetArrayItem(s, k)->valuedouble;
    }
    LB_CHECK(lb_world_insert(w, e, LB_COLLIDER, &col) == LB_OK);
  }
  cJSON_Delete(root);
  free(text);
}

static lb_entity spawn_character(lb_world *w, float x, float y, float z,
                                 const lb_character_controller_c *cc) {
  lb_entity e;
  LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[0] = x, t.position[1] = y, t.position[2] = z;
  LB_CHECK(lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK);
  lb_character_controller_c d;
  lb_component_defaults(LB_CHARACTER_CONTROLLER, &d);
  lb_result r = lb_world_insert(w, e, LB_CHARACTER_CONTROLLER, cc ? cc : &d);
  if (r != LB_OK) {
    fprintf(stderr, "controller insert: %s\n", lb_world_last_error(w));
  }
  LB_CHECK(r == LB_OK);
  return e;
}

static void pos_of(lb_world *w, lb_entity e, float *p) {
  lb_transform_c t;
  LB_CHECK(lb_world_get(w, e, LB_TRANSFORM, &t) == LB_OK);
  memcpy(p, t.position, sizeof(float) * 3);
}

/* Deepest penetration of the character's applied capsule into any collider: closest points
 * from 21 points along its core. */
static float measure(lb_world *w, lb_entity e) {
  lb_character_controller_c cc;
  LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
  float p[3];
  pos_of(w, e, p);
  lb_collide_filter f = lb_collide_default_filter();
  f.exclude = e;
  float half = cc.applied_height * 0.5f - cc.radius;
  float worst = 0.0f;
  for (int i = 0; i <= 20; ++i) {
    float s = -half + 2.0f * half * (float)i / 20.0f;
    vec3 q = {p[0] + cc.applied_center[0], p[1] + cc.applied_center[1] + s,
              p[2] + cc.applied_center[2]};
    lb_collide_hit h;
    LB_CHECK(lb_world_closest_point(w, q, cc.radius, &f, &h) == LB_OK);
    if (h.entity != LB_NULL_ENTITY && cc.radius - h.distance > worst) {
      worst = cc.radius - h.distance;
    }
  }
  if (worst > g_max_pen) {
    g_max_pen = worst;
  }
  return worst;
}

static void step_move(lb_world *w, lb_entity e, float dx, float dy, float dz) {
  vec3 d = {dx, dy, dz};
  LB_CHECK(lb_world_controller_move(w, e, d) == LB_OK);
  LB_CHECK(lb_world_step(w, DT) == LB_OK);
}

static void test_corridor_walk(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  load_level(w, "assets/levels/corridor.json");
  lb_entity e = spawn_character(w, 0, 0, 0, NULL);
  g_max_pen = 0.0f;
  const float speed = 1.4f;
  int wp = 0;
  uint32_t contacts = 0;
  bool grounded_all = true;
  float p[3], max_abs_x = 0.0f;
  for (int i = 0; i < 60 * 30; ++i) {
    pos_of(w, e, p);
    if (wp == 0 && p[2] > 11.7f) {
      wp = 1;
    }
    float tx = wp == 0 ? 0.0f : 8.0f, tz = 12.0f;
    float dx = tx - p[0], dz = tz - p[2];
    float l = sqrtf(dx * dx + dz * dz);
    if (wp == 1 && l < 0.2f) {
      break;
    }
    dx /= l, dz /= l;
    /* Lean into the walls: right wall (-X) early on, the left wall (+X) before the turn. */
    float bias = (wp == 0 && p[2] < 5.5f) ? -0.8f : ((wp == 0 && p[2] > 9.3f) ? 0.8f : 0.0f);
    step_move(w, e, (dx + bias) * speed * DT, -9.81f * DT * DT, dz * speed * DT);
    measure(w, e);
    lb_character_controller_c cc;
    LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
    contacts += cc.hit_count > 1 ? 1u : 0u; /* more than the ground */
    grounded_all &= cc.grounded == 1;
    if (p[2] > 0.5f && p[2] < 11.0f && fabsf(p[0]) > max_abs_x) {
      max_abs_x = fabsf(p[0]);
    }
  }
  pos_of(w, e, p);
  printf("  corridor: end (%.3f, %.4f, %.3f), max penetration %.6f m, steps with wall contact "
         "%u, max |x| in the lane %.4f m (walls at 0.6, radius 0.3)\n",
         (double)p[0], (double)p[1], (double)p[2], (double)g_max_pen, contacts, (double)max_abs_x);
  LB_CHECK(p[0] > 7.5f && fabsf(p[2] - 12.0f) < 0.35f);
  LB_CHECK(g_max_pen <= 1.0e-3f);
  LB_CHECK(contacts > 100);
  LB_CHECK(max_abs_x <= 0.3f + 1.0e-3f);
  LB_CHECK(grounded_all);
  lb_world_destroy(w);
}

/* Walks +Z from z = 3 at 1.4 m/s for 3 s against the 0.3 m curb (z 4.0 .. 4.4). */
static void curb(float step_offset, float *end, float *top) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  load_level(w, "assets/levels/vault-course.json");
  lb_character_controller_c cc;
  lb_component_defaults(LB_CHARACTER_CONTROLLER, &cc);
  cc.step_offset = step_offset;
  lb_entity e = spawn_character(w, 0, 0, 3.0f, &cc);
  g_max_pen = 0.0f;
  *top = 0.0f;
  for (int i = 0; i < 180; ++i) {
    step_move(w, e, 0, 0, 1.4f * DT);
    measure(w, e);
    float p[3];
    pos_of(w, e, p);
    *top = p[1] > *top ? p[1] : *top;
  }
  pos_of(w, e, end);
  lb_world_destroy(w);
}

static void test_curb_step(void) {
  float a[3], b[3], ta, tb;
  curb(0.35f, a, &ta);
  float pen_a = g_max_pen;
  curb(0.25f, b, &tb);
  printf("  curb 0.3 m: stepOffset 0.35 -> z %.3f (highest foot %.4f m, back at %.4f m); "
         "stepOffset 0.25 -> z %.4f, highest foot %.4f m; max penetration %.6f / %.6f m\n",
         (double)a[2], (double)ta, (double)a[1], (double)b[2], (double)tb, (double)pen_a,
         (double)g_max_pen);
  LB_CHECK(a[2] > 6.5f);                        /* over the curb and on */
  LB_CHECK(ta > 0.3f && ta < 0.33f);            /* stood on its top */
  LB_CHECK(a[1] < 0.02f);                       /* and down again */
  LB_CHECK(b[2] < 3.7f + 1e-3f && b[2] > 3.6f); /* stopped at the face (4.0 - radius) */
  LB_CHECK(tb < 0.02f);
  LB_CHECK(pen_a <= 1e-3f && g_max_pen <= 1e-3f);
}

/* A slab rising along +Z at `deg` degrees from z = 2, 3 m wide, on a floor. */
static void slope_world(lb_world *w, float deg) {
  lb_entity e;
  lb_transform_c t;
  lb_collider_c col;
  /* floor */
  LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[1] = -0.05f;
  t.position[2] = 5.0f;
  LB_CHECK(lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK);
  lb_component_defaults(LB_COLLIDER, &col);
  col.shape = LB_COLLIDER_BOX;
  col.size[0] = 6, col.size[1] = 0.1f, col.size[2] = 14;
  LB_CHECK(lb_world_insert(w, e, LB_COLLIDER, &col) == LB_OK);
  /* slab: 4 m long, 0.2 thick, tilted about X so its top rises along +Z from (0, 0, 2) */
  float a = (float)(deg * 3.14159265358979 / 180.0);
  float L = 4.0f, th = 0.2f;
  LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  lb_component_defaults(LB_TRANSFORM, &t);
  /* rotation about -X by a: local +Z goes up toward +Z */
  t.rotation[0] = -sinf(a * 0.5f), t.rotation[1] = 0, t.rotation[2] = 0;
  t.rotation[3] = cosf(a * 0.5f);
  /* top-face centre = (0, sin a * L/2, 2 + cos a * L/2); centre is th/2 below along the normal
   * (0, cos a, -sin a) */
  float topy = sinf(a) * L * 0.5f, topz = 2.0f + cosf(a) * L * 0.5f;
  t.position[0] = 0;
  t.position[1] = topy - cosf(a) * th * 0.5f;
  t.position[2] = topz + sinf(a) * th * 0.5f;
  LB_CHECK(lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK);
  lb_component_defaults(LB_COLLIDER, &col);
  col.shape = LB_COLLIDER_BOX;
  col.size[0] = 3, col.size[1] = th, col.size[2] = L;
  LB_CHECK(lb_world_insert(w, e, LB_COLLIDER, &col) == LB_OK);
}

static void slope_walk(float deg, float limit, float *end) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  slope_world(w, deg);
  lb_character_controller_c cc;
  lb_component_defaults(LB_CHARACTER_CONTROLLER, &cc);
  cc.slope_limit = limit;
  lb_entity e = spawn_character(w, 0, 0, 0.5f, &cc);
  g_max_pen = 0.0f;
  for (int i = 0; i < 240; ++i) {
    step_move(w, e, 0, -9.81f * DT * DT, 1.4f * DT);
    measure(w, e);
  }
  pos_of(w, e, end);
  lb_world_destroy(w);
}

static void test_slope_limit(void) {
  float a[3], b[3], c[3];
  slope_walk(50.0f, 45.0f, a);
  float pen = g_max_pen;
  slope_walk(50.0f, 55.0f, b);
  slope_walk(40.0f, 45.0f, c);
  printf("  50 deg slope, slopeLimit 45: stopped at z %.3f y %.4f (foot of slope z 2); "
         "slopeLimit 55: z %.3f y %.3f; 40 deg slope, limit 45: z %.3f y %.3f; max penetration "
         "%.6f m\n",
         (double)a[2], (double)a[1], (double)b[2], (double)b[1], (double)c[2], (double)c[1],
         (double)pen);
  LB_CHECK(a[1] < 0.1f && a[2] < 2.2f);
  LB_CHECK(b[1] > 1.0f);
  LB_CHECK(c[1] > 1.0f);
  LB_CHECK(pen <= 1e-3f);
}

static void test_ramp(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  load_level(w, "assets/levels/nav-arena.json");
  lb_entity e = spawn_character(w, 8, 0, -0.5f, NULL);
  g_max_pen = 0.0f;
  int grounded = 0;
  for (int i = 0; i < 300; ++i) {
    step_move(w, e, 0, -9.81f * DT * DT, -1.4f * DT);
    measure(w, e);
    lb_character_controller_c cc;
    LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
    grounded += (int)cc.grounded;
  }
  float p[3];
  pos_of(w, e, p);
  printf("  nav-arena ramp (14 deg): end (%.3f, %.4f, %.3f), grounded %d/300 steps, max "
         "penetration %.6f m\n",
         (double)p[0], (double)p[1], (double)p[2], grounded, (double)g_max_pen);
  LB_CHECK(p[1] > 0.99f && p[1] < 1.03f && p[2] < -6.5f);
  LB_CHECK(grounded == 300);
  LB_CHECK(g_max_pen <= 1e-3f);
  lb_world_destroy(w);
}

/* A vault-style shrink under a low beam: height 1.8 -> 1.0 (centre 0.5), walk under the beam
 * (bottom at 1.2 m), ask for the full size back: it waits until the capsule is out. */
static void test_resize(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  slope_world(w, 0.0001f);
  lb_entity beam;
  LB_CHECK(lb_world_spawn(w, &beam) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[1] = 1.5f, t.position[2] = 3.0f;
  LB_CHECK(lb_world_insert(w, beam, LB_TRANSFORM, &t) == LB_OK);
  lb_collider_c col;
  lb_component_defaults(LB_COLLIDER, &col);
  col.shape = LB_COLLIDER_BOX;
  col.size[0] = 3, col.size[1] = 0.6f, col.size[2] = 1.0f;
  LB_CHECK(lb_world_insert(w, beam, LB_COLLIDER, &col) == LB_OK);
  lb_entity e = spawn_character(w, 0, 0, 1.0f, NULL);
  /* full size: stopped by the beam */
  for (int i = 0; i < 60; ++i) {
    step_move(w, e, 0, 0, 1.4f * DT);
  }
  float p[3];
  pos_of(w, e, p);
  LB_CHECK(p[2] < 2.5f - 0.3f + 1e-3f);
  lb_character_controller_c cc;
  LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
  cc.height = 1.0f, cc.center[1] = 0.5f;
  LB_CHECK(lb_world_set(w, e, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
  for (int i = 0; i < 50; ++i) { /* under the beam: z ~ 3 */
    step_move(w, e, 0, 0, 1.4f * DT);
  }
  pos_of(w, e, p);
  LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
  float under_z = p[2];
  LB_CHECK(cc.applied_height == 1.0f);
  cc.height = 1.8f, cc.center[1] = 0.9f;
  LB_CHECK(lb_world_set(w, e, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
  LB_CHECK(lb_world_step(w, DT) == LB_OK);
  LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
  float waiting = cc.applied_height;
  g_max_pen = 0.0f;
  int restored_at = -1;
  for (int i = 0; i < 120; ++i) {
    step_move(w, e, 0, 0, 1.4f * DT);
    measure(w, e);
    LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
    if (restored_at < 0 && cc.applied_height == 1.8f) {
      restored_at = i;
      pos_of(w, e, p);
    }
  }
  printf("  resize: under the beam at z %.3f the restore waits (applied height %.2f); restored "
         "at z %.3f (beam ends at 3.5 + radius 0.3), max penetration %.6f m\n",
         (double)under_z, (double)waiting, (double)p[2], (double)g_max_pen);
  LB_CHECK(waiting == 1.0f);
  LB_CHECK(restored_at >= 0 && p[2] >= 3.8f - 1e-3f);
  LB_CHECK(g_max_pen <= 1e-3f);
  lb_world_destroy(w);
}

static void test_refused(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_entity e = spawn_character(w, 0, 0, 0, NULL);
  lb_character_controller_c before, cc;
  LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &before) == LB_OK);
  struct {
    const char *what;
    int field;
    float value;
  } bad[] = {{"height", 0, 0.5f},  {"skinWidth", 1, 0.3f},    {"stepOffset", 2, 2.0f},
             {"radius", 3, 0.0f},  {"radius", 3, NAN},        {"slopeLimit", 4, 90.0f},
             {"height", 0, -1.0f}, {"skinWidth", 1, INFINITY}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    cc = before;
    float *f = bad[i].field == 0   ? &cc.height
               : bad[i].field == 1 ? &cc.skin_width
               : bad[i].field == 2 ? &cc.step_offset
               : bad[i].field == 3 ? &cc.radius
                                   : &cc.slope_limit;
    *f = bad[i].value;
    LB_CHECK(lb_world_set(w, e, LB_CHARACTER_CONTROLLER, &cc) != LB_OK);
    const char *msg = lb_world_last_error(w);
    LB_CHECK(strstr(msg, bad[i].what) != NULL && strstr(msg, "CharacterController") != NULL);
    if (i == 0) {
      printf("  refused: %s\n", msg);
    }
    LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
    LB_CHECK(memcmp(&cc, &before, sizeof cc) == 0);
  }
  vec3 nan3 = {NAN, 0, 0};
  LB_CHECK(lb_world_controller_move(w, e, nan3) == LB_ERR_NOT_FINITE);
  lb_entity other;
  LB_CHECK(lb_world_spawn(w, &other) == LB_OK);
  vec3 z = {0, 0, 0};
  LB_CHECK(lb_world_controller_move(w, other, z) == LB_ERR_MISSING_COMPONENT);
  lb_world_destroy(w);
}

static void test_no_alloc_and_determinism(void) {
  lb_test_counter c = {0};
  lb_world_def d = lb_test_counting_def(&c);
  float end[2][3];
  for (int run = 0; run < 2; ++run) {
    lb_world *w = NULL;
    LB_CHECK(lb_world_create(&d, &w) == LB_OK);
    load_level(w, "assets/levels/corridor.json");
    lb_entity e = spawn_character(w, 0, 0, 0, NULL);
    LB_CHECK(lb_world_step(w, DT) == LB_OK);
    size_t before = c.allocs;
    for (int i = 0; i < 600; ++i) {
      step_move(w, e, 0.3f * DT, 0, 1.4f * DT);
    }
    LB_CHECK(c.allocs == before);
    if (run == 0) {
      printf("  allocations during 600 controller steps: %zu\n", c.allocs - before);
    }
    pos_of(w, e, end[run]);
    lb_world_destroy(w);
  }
  LB_CHECK(memcmp(end[0], end[1], sizeof end[0]) == 0);
  LB_CHECK(c.allocs == c.frees);
}

/* assets/scenes/corridor-walk.json: the mannequin's walk root motion goes through its
 * controller (Move phase hook); it never enters a wall, reaches the second leg, and its hash is
 * the stored one (tests/expected-hashes.json), twice from scratch. */
static void test_corridor_walk_scene(void) {
  const char *glb = "assets/rigs/mannequin-mixamo.glb";
  size_t len = 0, n = 0, hlen = 0;
  char *json = lb_test_read_file("assets/scenes/corridor-walk.json", &len);
  uint8_t *bytes = lb_test_read_file(glb, &n);
  char *hashes = lb_test_read_file("tests/expected-hashes.json", &hlen);
  LB_CHECK(json && bytes && hashes);
  if (!json || !bytes || !hashes) {
    return;
  }
  cJSON *exp = cJSON_Parse(hashes);
  const cJSON *want = cJSON_GetObjectItemCaseSensitive(exp, "corridor-walk.json@840");
  uint64_t h[2] = {0, 0};
  for (int run = 0; run < 2; ++run) {
    lb_world *w = NULL;
    lb_scene *sc = NULL;
    LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
    lb_scene_file file = {glb, bytes, n};
    lb_result r = lb_scene_load_files(w, json, len, &file, 1, &sc);
    if (r != LB_OK) {
      fprintf(stderr, "corridor-walk: %s\n", lb_world_last_error(w));
    }
    LB_CHECK(r == LB_OK);
    lb_entity hero = lb_scene_entity(sc, "hero");
    g_max_pen = 0.0f;
    uint32_t contacts = 0;
    for (int i = 0; i < 840 && r == LB_OK; ++i) {
      LB_CHECK(lb_scene_step(w, sc, DT) == LB_OK);
      measure(w, hero);
      lb_character_controller_c cc;
      LB_CHECK(lb_world_get(w, hero, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
      contacts += cc.hit_count > 1 ? 1u : 0u;
    }
    float p[3];
    pos_of(w, hero, p);
    if (run == 0) {
      printf("  corridor-walk scene: walk root motion through the controller to (%.3f, %.4f, "
             "%.3f), %u steps with wall contact, max penetration %.6f m\n",
             (double)p[0], (double)p[1], (double)p[2], contacts, (double)g_max_pen);
    }
    LB_CHECK(p[0] > 6.0f && p[2] > 11.4f && p[2] < 12.6f);
    LB_CHECK(contacts > 50);
    LB_CHECK(g_max_pen <= 1e-3f);
    h[run] = lb_world_hash(w);
    lb_scene_destroy(w, sc);
    lb_world_destroy(w);
  }
  char text[17];
  snprintf(text, sizeof text, "%016llx", (unsigned long long)h[0]);
  printf("  corridor-walk.json@840 hash %s (stored %s)\n", text,
         cJSON_IsString(want) ? want->valuestring : "(missing)");
  LB_CHECK(h[0] == h[1]);
  LB_CHECK(cJSON_IsString(want) && strcmp(want->valuestring, text) == 0);
  cJSON_Delete(exp);
  free(hashes);
  free(bytes);
  free(json);
}

/* Two controllers, each with a capsule Collider the size of its capsule, on a floor. */
static void spawn_pair(lb_world *w, float dx, lb_entity out[2]) {
  lb_entity floor;
  LB_CHECK(lb_world_spawn(w, &floor) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[1] = -0.05f;
  LB_CHECK(lb_world_insert(w, floor, LB_TRANSFORM, &t) == LB_OK);
  lb_collider_c col;
  lb_component_defaults(LB_COLLIDER, &col);
  col.shape = LB_COLLIDER_BOX;
  col.size[0] = col.size[2] = 20.0f, col.size[1] = 0.1f;
  LB_CHECK(lb_world_insert(w, floor, LB_COLLIDER, &col) == LB_OK);
  for (int i = 0; i < 2; ++i) {
    out[i] = spawn_character(w, i ? dx : 0.0f, 0, 0, NULL);
    lb_collider_c cap;
    lb_component_defaults(LB_COLLIDER, &cap);
    cap.shape = LB_COLLIDER_CAPSULE;
    cap.radius = 0.3f, cap.height = 1.8f, cap.center[1] = 0.9f;
    LB_CHECK(lb_world_insert(w, out[i], LB_COLLIDER, &cap) == LB_OK);
  }
}

/* Controllers spawned inside each other (the same point, 1e-6 m apart) separate at no more
 * than LB_CONTROLLER_SEPARATION_SPEED each, in opposite directions (coincident: the pair's
 * fixed axis), and come to rest skin apart on the floor; a step of dt 0 moves neither. The
 * old depenetration pushed both the same way by 0.61 m a step (36.6 m/s), forever. */
static void test_controllers_separate(void) {
  const float offsets[2] = {0.0f, 1e-6f};
  for (int o = 0; o < 2; ++o) {
    float end[2][2][3];
    for (int run = 0; run < 2; ++run) {
      lb_world *w = NULL;
      LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
      lb_entity e[2];
      spawn_pair(w, offsets[o], e);
      float prev[2][3], fastest = 0.0f, last_motion = 0.0f;
      int settled = 0; /* first step after the last motion */
      for (int i = 0; i < 2; ++i) {
        pos_of(w, e[i], prev[i]);
      }
      for (int step = 0; step < 120; ++step) {
        LB_CHECK(lb_world_step(w, DT) == LB_OK);
        float motion = 0.0f;
        for (int i = 0; i < 2; ++i) {
          float p[3];
          pos_of(w, e[i], p);
          float dx = p[0] - prev[i][0], dz = p[2] - prev[i][2];
          float across = sqrtf(dx * dx + dz * dz);
          fastest = across > fastest ? across : fastest;
          motion += across; /* (the ground snap moves y by ~1e-8 m at rest, as alone) */
          memcpy(prev[i], p, sizeof p);
        }
        settled = motion > 0.0f ? step + 1 : settled;
        last_motion = step >= 60 ? last_motion + motion : last_motion;
      }
      float gx = prev[1][0] - prev[0][0], gz = prev[1][2] - prev[0][2];
      float gap = sqrtf(gx * gx + gz * gz) - 0.6f;
      if (run == 0) {
        printf("  controllers %g m apart: fastest %.4f m/step (%.2f m/s), at rest from step %d, "
               "gap %.5f m, a (%.4f, %.4f, %.4f), b (%.4f, %.4f, %.4f)\n",
               (double)offsets[o], (double)fastest, (double)(fastest / DT), settled, (double)gap,
               (double)prev[0][0], (double)prev[0][1], (double)prev[0][2], (double)prev[1][0],
               (double)prev[1][1], (double)prev[1][2]);
      }
      LB_CHECK(fastest <= LB_CONTROLLER_SEPARATION_SPEED * DT * 1.001f);
      LB_CHECK(last_motion == 0.0f && settled < 30); /* at rest across from step 30 on */
      LB_CHECK(gap >= 0.0f && gap <= 0.0101f);       /* skin (0.01 m) apart */
      LB_CHECK(prev[0][0] * prev[1][0] + prev[0][2] * prev[1][2] < 0.0f); /* opposite ways */
      for (int i = 0; i < 2; ++i) {
        LB_CHECK_NEAR(prev[i][1], 0.01, 1e-5); /* on the floor, skin clear */
        lb_character_controller_c cc;
        LB_CHECK(lb_world_get(w, e[i], LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
        LB_CHECK(cc.grounded == 1u);
        memcpy(end[run][i], prev[i], sizeof prev[i]);
      }
      lb_world_destroy(w);
    }
    LB_CHECK(memcmp(end[0], end[1], sizeof end[0]) == 0);
  }
  /* dt 0: nothing moves apart (the first step still snaps both onto the floor) */
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_entity e[2];
  spawn_pair(w, 0.0f, e);
  float a0[3], b0[3], a[3], b[3];
  pos_of(w, e[0], a0);
  pos_of(w, e[1], b0);
  for (int step = 0; step < 600; ++step) {
    LB_CHECK(lb_world_step(w, 0.0f) == LB_OK);
  }
  pos_of(w, e[0], a);
  pos_of(w, e[1], b);
  printf("  dt 0, 600 steps: a moved %.6f m, b %.6f m\n", (double)fabsf(a[2] - a0[2]),
         (double)fabsf(b[2] - b0[2]));
  LB_CHECK(a[0] == a0[0] && a[2] == a0[2] && b[0] == b0[0] && b[2] == b0[2]);
  LB_CHECK_NEAR(a[1], 0.01, 1e-5);
  LB_CHECK_NEAR(b[1], 0.01, 1e-5);
  /* the next real step starts separating them */
  LB_CHECK(lb_world_step(w, DT) == LB_OK);
  pos_of(w, e[0], a);
  pos_of(w, e[1], b);
  LB_CHECK_NEAR(sqrtf((b[0] - a[0]) * (b[0] - a[0]) + (b[2] - a[2]) * (b[2] - a[2])),
                2.0f * LB_CONTROLLER_SEPARATION_SPEED * DT, 1e-5);
  lb_world_destroy(w);
}

int main(void) {
  LB_RUN(test_corridor_walk);
  LB_RUN(test_curb_step);
  LB_RUN(test_slope_limit);
  LB_RUN(test_ramp);
  LB_RUN(test_resize);
  LB_RUN(test_refused);
  LB_RUN(test_no_alloc_and_determinism);
  LB_RUN(test_corridor_walk_scene);
  LB_RUN(test_controllers_separate);
  LB_TEST_MAIN_END();
}
