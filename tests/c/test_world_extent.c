/* The supported world extent (LB_WORLD_EXTENT, components.h): Transform positions beyond it
 * are refused at write, naming entity, component and field; a controller at +-(extent - 1 m)
 * on every axis falls onto floors and stops at walls exactly as at the origin; and every
 * system that writes a Transform (controller, vault through it, root motion, nav agents)
 * stops at the edge, so the Transform stays writable. Before, positions to 1e6 m were
 * accepted, the controller passed through geometry beyond 1e5 m (its queries refused) and a
 * nav agent wrote y = 1,000,010, after which every write of that Transform was refused. */
#include "limber/limber.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

#define DT (1.0f / 60.0f)
#define E LB_WORLD_EXTENT

static lb_entity spawn_at(lb_world *w, float x, float y, float z) {
  lb_entity e = LB_NULL_ENTITY;
  LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[0] = x, t.position[1] = y, t.position[2] = z;
  lb_result r = lb_world_insert(w, e, LB_TRANSFORM, &t);
  if (r != LB_OK) {
    fprintf(stderr, "spawn at (%g, %g, %g): %s\n", (double)x, (double)y, (double)z,
            lb_world_last_error(w));
  }
  LB_CHECK(r == LB_OK);
  return e;
}

static lb_entity spawn_box(lb_world *w, const float *c, float sx, float sy, float sz) {
  lb_entity e = spawn_at(w, c[0], c[1], c[2]);
  lb_collider_c col;
  lb_component_defaults(LB_COLLIDER, &col);
  col.shape = LB_COLLIDER_BOX;
  col.size[0] = sx, col.size[1] = sy, col.size[2] = sz;
  LB_CHECK(lb_world_insert(w, e, LB_COLLIDER, &col) == LB_OK);
  return e;
}

static lb_entity spawn_controller(lb_world *w, float x, float y, float z) {
  lb_entity e = spawn_at(w, x, y, z);
  lb_character_controller_c cc;
  lb_component_defaults(LB_CHARACTER_CONTROLLER, &cc);
  LB_CHECK(lb_world_insert(w, e, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
  return e;
}

static void pos_of(lb_world *w, lb_entity e, float *p) {
  lb_transform_c t;
  LB_CHECK(lb_world_get(w, e, LB_TRANSFORM, &t) == LB_OK);
  memcpy(p, t.position, sizeof(float) * 3);
}

/* The Transform as the world holds it is accepted when written back (it is in range). */
static bool transform_writable(lb_world *w, lb_entity e) {
  lb_transform_c t;
  LB_CHECK(lb_world_get(w, e, LB_TRANSFORM, &t) == LB_OK);
  lb_result r = lb_world_set(w, e, LB_TRANSFORM, &t);
  if (r != LB_OK) {
    fprintf(stderr, "  write back refused: %s\n", lb_world_last_error(w));
  }
  return r == LB_OK;
}

static void test_refused_beyond(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_entity e = LB_NULL_ENTITY;
  LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  const float bad[] = {101000.0f, -99000.0f, E + 1.0f, -(E + 0.01f)};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    for (int k = 0; k < 3; ++k) {
      lb_component_defaults(LB_TRANSFORM, &t);
      t.position[k] = bad[i];
      LB_CHECK(lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_ERR_OUT_OF_RANGE);
      const char *msg = lb_world_last_error(w);
      LB_CHECK(strstr(msg, "Transform") && strstr(msg, "position") && strstr(msg, "entity"));
      if (i == 0 && k == 0) {
        printf("  refused: %s\n", msg);
      }
      LB_CHECK(!lb_world_has(w, e, LB_TRANSFORM));
    }
  }
  /* the edge itself is accepted; a write past it leaves the stored value */
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[0] = E, t.position[1] = -E, t.position[2] = E;
  LB_CHECK(lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK);
  lb_transform_c moved = t, now;
  moved.position[1] = -101000.0f;
  LB_CHECK(lb_world_set(w, e, LB_TRANSFORM, &moved) == LB_ERR_OUT_OF_RANGE);
  LB_CHECK(lb_world_get(w, e, LB_TRANSFORM, &now) == LB_OK);
  LB_CHECK(now.position[0] == E && now.position[1] == -E && now.position[2] == E);
  lb_world_destroy(w);
}

/* At O = +-(E - 1) on each axis (and at the origin, for reference): a controller 0.5 m above
 * a floor falls onto it and walks (1.4 m/s, with gravity) toward a wall whose face is 1.05 m
 * ahead, along x toward the origin, then is pushed 0.5 m into it in one move. It must land skin
 * clear, stay grounded and stop at the wall: never through it, at most the skin (10 mm) short
 * of it (less when a step ended within the skin without touching), give or take the float
 * spacing at the extent (1.95 mm). */
static void test_controller_at_edges(void) {
  float worst_gap = 0.0f, worst_y = 0.0f;
  for (int c = 0; c < 7; ++c) {
    float o[3] = {0.0f, 0.0f, 0.0f};
    if (c > 0) {
      o[(c - 1) / 2] = (c & 1) ? E - 1.0f : -(E - 1.0f);
    }
    float dir = o[0] > 0.0f ? -1.0f : 1.0f; /* toward the origin along x */
    lb_world *w = NULL;
    LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
    float floor_c[3] = {o[0], o[1] - 0.5f, o[2]};
    spawn_box(w, floor_c, 20.0f, 1.0f, 20.0f);
    float wall_c[3] = {o[0] + dir * 1.55f, o[1] + 0.5f, o[2]};
    spawn_box(w, wall_c, 1.0f, 3.0f, 20.0f);
    lb_entity e = spawn_controller(w, o[0], o[1] + 0.5f, o[2]);
    float vy = 0.0f, p[3] = {0, 0, 0};
    int ungrounded = 0, hits = 0;
    float y_err = 0.0f;
    for (int i = 0; i < 121; ++i) {
      vy -= 9.81f * DT;
      float across = i == 120 ? 0.5f : (i >= 30 ? 1.4f * DT : 0.0f);
      vec3 m = {dir * across, vy * DT, 0.0f};
      LB_CHECK(lb_world_controller_move(w, e, m) == LB_OK);
      LB_CHECK(lb_world_step(w, DT) == LB_OK);
      lb_character_controller_c cc;
      LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
      pos_of(w, e, p);
      if (cc.grounded) {
        vy = 0.0f;
      }
      if (i >= 30) {
        ungrounded += cc.grounded ? 0 : 1;
        float dy = (float)fabs((double)p[1] - ((double)o[1] + 0.01));
        y_err = dy > y_err ? dy : y_err;
      }
      hits = (int)cc.hit_count;
    }
    double travel = ((double)p[0] - (double)o[0]) * dir;
    float gap = (float)(1.05 - 0.3 - travel); /* capsule surface to the wall face */
    printf("  O (%g, %g, %g): stopped %.5f m from the wall (skin 0.01), foot %.5f m off the "
           "floor's skin height, ungrounded %d of 91 steps, %d contacts\n",
           (double)o[0], (double)o[1], (double)o[2], (double)gap, (double)y_err, ungrounded, hits);
    LB_CHECK(gap >= -0.002f && gap <= 0.012f); /* at the wall, never through it */
    LB_CHECK(y_err <= 0.002f);
    LB_CHECK(ungrounded == 0);
    LB_CHECK(hits >= 2); /* the wall and the ground */
    LB_CHECK_NEAR(p[2], o[2], 1e-6);
    worst_gap = fabsf(gap) > worst_gap ? fabsf(gap) : worst_gap;
    worst_y = y_err > worst_y ? y_err : worst_y;
    lb_world_destroy(w);
  }
  printf("  largest gap to the wall %.5f m, foot off the floor's skin height %.5f m\n",
         (double)worst_gap, (double)worst_y);
}

/* A controller walking 1.4 m/s toward +x from E - 0.5 m on a floor that goes on stops at E
 * (the Transform's range), grounded, and its Transform stays writable; so does a vault's
 * scripted travel (through the controller) that would land 0.1 m past the edge. */
static void test_controller_and_vault_stop_at_edge(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  float floor_c[3] = {E - 5.0f, -0.5f, 0.0f};
  spawn_box(w, floor_c, 20.0f, 1.0f, 20.0f);
  lb_entity e = spawn_controller(w, E - 0.5f, 0.0f, 0.0f);
  for (int i = 0; i < 60; ++i) {
    vec3 m = {1.4f * DT, -0.1f * DT, 0.0f};
    LB_CHECK(lb_world_controller_move(w, e, m) == LB_OK);
    LB_CHECK(lb_world_step(w, DT) == LB_OK);
  }
  float p[3];
  pos_of(w, e, p);
  lb_character_controller_c cc;
  LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
  printf("  controller toward +x from E - 0.5 m for 1.4 m: x = E %+g m, grounded %u\n",
         (double)(p[0] - E), cc.grounded);
  LB_CHECK(p[0] == E && cc.grounded == 1u);
  LB_CHECK_NEAR(p[1], 0.01, 1e-3);
  LB_CHECK(transform_writable(w, e));
  lb_world_destroy(w);

  /* the vault: test_vault.c's scripted 0.75 x 0.4 m box, the character at z = E - 1.8 */
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  float z0 = E - 1.8f;
  float fl[3] = {0.0f, -0.05f, E - 3.0f}, box[3] = {0.0f, 0.375f, z0 + 1.2f};
  spawn_box(w, fl, 4.0f, 0.1f, 12.0f);
  spawn_box(w, box, 1.6f, 0.75f, 0.4f);
  e = spawn_controller(w, 0.0f, 0.0f, z0);
  lb_vault_c v;
  lb_component_defaults(LB_VAULT, &v);
  LB_CHECK(lb_world_insert(w, e, LB_VAULT, &v) == LB_OK);
  LB_CHECK(lb_world_step(w, DT) == LB_OK);
  LB_CHECK(lb_world_vault_request(w, e) == LB_OK);
  int steps = 0;
  float top = 0.0f;
  do {
    LB_CHECK(lb_world_step(w, DT) == LB_OK);
    LB_CHECK(lb_world_get(w, e, LB_VAULT, &v) == LB_OK);
    pos_of(w, e, p);
    top = p[2] > top ? p[2] : top;
    LB_CHECK(p[2] <= E);
    steps++;
  } while (v.state != LB_VAULT_IDLE && steps < 400);
  LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
  printf("  vault from z = E - 1.8 m (travel 1.9 m): %d vault(s), end z = E %+g m, y %.4f, "
         "grounded %u\n",
         v.vaults, (double)(p[2] - E), (double)p[1], cc.grounded);
  LB_CHECK(v.vaults == 1 && v.state == LB_VAULT_IDLE);
  LB_CHECK(p[2] == E && top == E);
  LB_CHECK_NEAR(p[1], 0.01, 2e-3);
  LB_CHECK(transform_writable(w, e));
  lb_world_destroy(w);
}

/* Root motion without a controller (the corridor-walk scene's walk, its hero's controller
 * removed) from z = E - 0.5 m for 2 s: the Transform stops at z = E. */
static void test_root_motion_stops_at_edge(void) {
  const char *glb = "assets/rigs/mannequin-mixamo.glb";
  size_t len = 0, n = 0;
  char *json = lb_test_read_file("assets/scenes/corridor-walk.json", &len);
  uint8_t *bytes = lb_test_read_file(glb, &n);
  LB_CHECK(json && bytes);
  if (!json || !bytes) {
    free(json);
    free(bytes);
    return;
  }
  lb_world *w = NULL;
  lb_scene *sc = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  lb_scene_file file = {glb, bytes, n};
  LB_CHECK(lb_scene_load_files(w, json, len, &file, 1, &sc) == LB_OK);
  lb_entity hero = lb_scene_entity(sc, "hero");
  LB_CHECK(lb_world_remove(w, hero, LB_CHARACTER_CONTROLLER) == LB_OK);
  lb_transform_c t;
  LB_CHECK(lb_world_get(w, hero, LB_TRANSFORM, &t) == LB_OK);
  t.position[2] = E - 0.5f;
  LB_CHECK(lb_world_set(w, hero, LB_TRANSFORM, &t) == LB_OK);
  float p[3], top = 0.0f;
  for (int i = 0; i < 120; ++i) {
    LB_CHECK(lb_world_step(w, DT) == LB_OK);
    pos_of(w, hero, p);
    top = p[2] > top ? p[2] : top;
  }
  printf("  root motion from z = E - 0.5 m for 2 s: z = E %+g m, x %.4f\n", (double)(p[2] - E),
         (double)p[0]);
  LB_CHECK(p[2] == E && top == E);
  LB_CHECK(p[0] != t.position[0]); /* it walked (x drifts with its 4 degree heading) */
  LB_CHECK(transform_writable(w, hero));
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
  free(json);
  free(bytes);
}

/* One 10 x 10 m quad navmesh centred at (cx, y, 0). */
static uint32_t add_quad(lb_world *w, float cx, float y) {
  const float v[12] = {cx - 5.0f, y, -5.0f, cx - 5.0f, y, 5.0f,
                       cx + 5.0f, y, 5.0f,  cx + 5.0f, y, -5.0f};
  const uint8_t counts[1] = {4};
  const uint32_t idx[4] = {0, 1, 2, 3};
  const int32_t nei[4] = {-1, -1, -1, -1};
  lb_navmesh_def d = {v, 4, counts, idx, nei, 1};
  uint32_t id = 0;
  lb_result r = lb_world_add_navmesh(w, "quad", &d, &id);
  if (r != LB_OK) {
    fprintf(stderr, "navmesh: %s\n", lb_world_last_error(w));
  }
  LB_CHECK(r == LB_OK);
  return id;
}

/* NavAgents on meshes beyond the extent (navmesh vertices go to 1e6 m): the mesh at
 * y = 1e6 with baseOffset 10, and a path that ends 4 m past x = E. The Transform stops at the
 * edge, the agent keeps its mesh point (nextPosition) and moving, and the Transform stays
 * writable. */
static void test_nav_agent_stops_at_edge(void) {
  for (int c = 0; c < 2; ++c) {
    lb_world *w = NULL;
    LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
    float mx = c == 0 ? 0.0f : E - 1.0f, my = c == 0 ? 1e6f : 0.0f;
    uint32_t mesh = add_quad(w, mx, my);
    lb_entity e = spawn_at(w, c == 0 ? 0.0f : E - 3.0f, 0.0f, 0.0f);
    lb_nav_agent_c a;
    lb_component_defaults(LB_NAV_AGENT, &a);
    a.nav_mesh = mesh;
    a.base_offset = c == 0 ? 10.0f : 0.0f;
    a.destination[0] = c == 0 ? 3.0f : E + 3.0f;
    a.destination[1] = my;
    a.has_destination = 1;
    a.locomotion_param = 0;
    lb_result r = lb_world_insert(w, e, LB_NAV_AGENT, &a);
    if (r != LB_OK) {
      fprintf(stderr, "agent: %s\n", lb_world_last_error(w));
    }
    LB_CHECK(r == LB_OK);
    float p[3];
    for (int i = 0; i < 300; ++i) {
      LB_CHECK(lb_world_step(w, DT) == LB_OK);
      pos_of(w, e, p);
      for (int k = 0; k < 3; ++k) {
        LB_CHECK(p[k] >= -E && p[k] <= E);
      }
    }
    LB_CHECK(lb_world_get(w, e, LB_NAV_AGENT, &a) == LB_OK);
    printf("  agent on a mesh at (%g, %g): Transform (%.3f, %.3f, %.3f), mesh point (%.3f, %.3f, "
           "%.3f), arrived %u\n",
           (double)mx, (double)my, (double)p[0], (double)p[1], (double)p[2],
           (double)a.next_position[0], (double)a.next_position[1], (double)a.next_position[2],
           a.arrived);
    if (c == 0) {
      LB_CHECK(p[1] == E);
      LB_CHECK_NEAR(p[0], 3.0, 0.06);
      LB_CHECK(a.next_position[1] == 1e6f);
    } else {
      LB_CHECK(p[0] == E);
      LB_CHECK_NEAR(a.next_position[0], E + 3.0f, 0.06);
    }
    LB_CHECK(a.arrived == 1u);
    LB_CHECK(transform_writable(w, e));
    lb_world_destroy(w);
  }
}

int main(void) {
  LB_RUN(test_refused_beyond);
  LB_RUN(test_controller_at_edges);
  LB_RUN(test_controller_and_vault_stop_at_edge);
  LB_RUN(test_root_motion_stops_at_edge);
  LB_RUN(test_nav_agent_stops_at_edge);
  LB_TEST_MAIN_END();
}
