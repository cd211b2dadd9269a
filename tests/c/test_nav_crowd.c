/* NavAgent avoidance in crowds, on the nav arena (its level and Recast navmesh):
 *  - 100 bare agents (Transform and NavAgent only: NavDestination, no CharacterController, the
 *    agent moves itself) on the crowd scene's starts and goals (assets/scenes/crowd.json: both
 *    ways across the back round the pillar, through both room doors, across the front): no pair
 *    closer than two radii less 1 mm, every agent arrives, the same bits twice;
 *  - 12 agents squeezing through room_a's door (its navmesh opening is 0.3 m: one at a time),
 *    without and with CharacterControllers: none leaves the mesh (the surface clamp takes what an
 *    avoiding velocity asks beyond the walls, measured), no pair overlaps, all arrive;
 *    lb_world_nav_avoidance reports the neighbours and the path's velocity, and refuses what is
 *    not an agent;
 *  - the crowd scene itself (rigs and Animators) steps with no allocation after warm-up. */
#include "limber/limber.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "test.h"

#define LEVEL "assets/levels/nav-arena.json"
#define NAVMESH "assets/levels/nav-arena.navmesh.json"
#define DT (1.0f / 60.0f)
#define RADIUS 0.3f
#define MAX_AGENTS 100

/* The arena's navmesh, and with `level` its pieces as colliders (for controllers). */
static lb_scene *load_arena(lb_world *w, bool level, uint32_t *mesh) {
  char scene[512];
  snprintf(scene, sizeof scene,
           "{\"name\": \"crowd test\", %s\"assets\": {\"navmeshes\": {\"arena\": {\"file\": "
           "\"" NAVMESH "\"}}}, \"entities\": []}",
           level ? "\"level\": \"" LEVEL "\", " : "");
  size_t nl = 0, nm = 0;
  void *lv = lb_test_read_file(LEVEL, &nl);
  void *nv = lb_test_read_file(NAVMESH, &nm);
  LB_CHECK(lv != NULL && nv != NULL);
  lb_scene_file files[2] = {{NAVMESH, nv, nm}, {LEVEL, lv, nl}};
  lb_scene *sc = NULL;
  lb_result r = lb_scene_load_files(w, scene, strlen(scene), files, level ? 2 : 1, &sc);
  if (r != LB_OK) {
    fprintf(stderr, "scene: %s\n", lb_world_last_error(w));
  }
  LB_CHECK(r == LB_OK);
  free(lv);
  free(nv);
  *mesh = lb_world_navmesh_find(w, "arena");
  LB_CHECK(*mesh != 0);
  return sc;
}

/* A NavDestination agent at `at` heading for `goal`; with `controlled` a CharacterController
 * and a capsule Collider of its size (so other controllers meet it). */
static lb_entity spawn_agent(lb_world *w, uint32_t mesh, const float at[3], const float goal[3],
                             bool controlled) {
  lb_entity e = 0;
  LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  memcpy(t.position, at, sizeof t.position);
  LB_CHECK(lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK);
  if (controlled) {
    lb_character_controller_c cc;
    lb_component_defaults(LB_CHARACTER_CONTROLLER, &cc);
    LB_CHECK(lb_world_insert(w, e, LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
    lb_collider_c cap;
    lb_component_defaults(LB_COLLIDER, &cap);
    cap.shape = LB_COLLIDER_CAPSULE;
    cap.radius = cc.radius, cap.height = cc.height;
    memcpy(cap.center, cc.center, sizeof cap.center);
    LB_CHECK(lb_world_insert(w, e, LB_COLLIDER, &cap) == LB_OK);
  }
  lb_nav_agent_c a;
  lb_component_defaults(LB_NAV_AGENT, &a);
  a.nav_mesh = mesh;
  a.avoidance_radius = RADIUS;
  a.stopping_distance = 0.1f;
  memcpy(a.destination, goal, sizeof a.destination);
  a.has_destination = 1;
  LB_CHECK(lb_world_insert(w, e, LB_NAV_AGENT, &a) == LB_OK);
  return e;
}

typedef struct crowd_stats {
  int steps, all_arrived; /* step at which every agent reported arrived (0: never) */
  uint32_t arrived;       /* agents arrived at the end */
  double closest;         /* smallest XZ distance of any pair, any step */
  double off_mesh;        /* largest XZ distance of a Transform from the mesh */
  double clamp_loss;      /* largest part of an avoiding step the surface clamp removed, m */
  uint32_t avoided_steps; /* agent-steps whose velocity avoidance changed */
  float end[MAX_AGENTS][3];
} crowd_stats;

/* How far p is from the mesh across (XZ): moving along the surface from the agent's point to
 * p gets there when p is over the mesh. */
static double off_mesh(lb_world *w, uint32_t mesh, const lb_nav_agent_c *a, const float p[3]) {
  lb_nav_point from, near;
  float q[3] = {p[0], p[1] - a->base_offset, p[2]};
  LB_CHECK(lb_nav_nearest(w, mesh, a->next_position, &from) == LB_OK);
  LB_CHECK(lb_nav_move_along_surface(w, mesh, &from, q, &near) == LB_OK);
  return hypot(near.position[0] - p[0], near.position[2] - p[2]);
}

/* One agent after a step: off the mesh, and when avoidance changed its velocity (desired !=
 * preferred), how much of that velocity's step did not happen (the clamp took it). */
static void measure_agent(lb_world *w, uint32_t mesh, lb_entity e, const float before[3],
                          const float after[3], crowd_stats *st) {
  lb_nav_agent_c a;
  LB_CHECK(lb_world_get(w, e, LB_NAV_AGENT, &a) == LB_OK);
  double off = off_mesh(w, mesh, &a, after);
  st->off_mesh = off > st->off_mesh ? off : st->off_mesh;
  lb_nav_agent_avoidance av;
  LB_CHECK(lb_world_nav_avoidance(w, e, &av) == LB_OK);
  LB_CHECK(av.neighbour_count == a.neighbours);
  if (av.preferred_velocity[0] == a.desired_velocity[0] &&
      av.preferred_velocity[2] == a.desired_velocity[2]) {
    return;
  }
  st->avoided_steps++;
  double lx = after[0] - before[0] - a.desired_velocity[0] * DT;
  double lz = after[2] - before[2] - a.desired_velocity[2] * DT;
  double loss = hypot(lx, lz);
  st->clamp_loss = loss > st->clamp_loss ? loss : st->clamp_loss;
}

static double closest_pair(float (*p)[3], uint32_t n) {
  double best = INFINITY;
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t j = i + 1u; j < n; ++j) {
      double d = hypot(p[i][0] - p[j][0], p[i][2] - p[j][2]);
      best = d < best ? d : best;
    }
  }
  return best;
}

/* What run_crowd measures each step: nothing (a repeat for the bits), the pairs and the mesh, or
 * those and the clamp's loss (agents that move themselves; a controller's step is its own). */
typedef enum run_mode { RUN_PLAIN, RUN_MEASURE, RUN_MEASURE_CLAMP } run_mode;

/* Steps until every agent has arrived (or max_steps), measuring as `mode` says. */
static void run_crowd(lb_world *w, uint32_t mesh, const lb_entity *es, uint32_t n, int max_steps,
                      run_mode mode, crowd_stats *st) {
  memset(st, 0, sizeof *st);
  st->closest = INFINITY;
  float pos[MAX_AGENTS][3], prev[MAX_AGENTS][3];
  for (st->steps = 1; st->steps <= max_steps; ++st->steps) {
    for (uint32_t i = 0; i < n; ++i) {
      lb_transform_c t;
      LB_CHECK(lb_world_get(w, es[i], LB_TRANSFORM, &t) == LB_OK);
      memcpy(prev[i], t.position, sizeof prev[i]);
    }
    LB_CHECK(lb_world_step(w, DT) == LB_OK);
    bool all = true;
    st->arrived = 0;
    for (uint32_t i = 0; i < n; ++i) {
      lb_transform_c t;
      lb_nav_agent_c a;
      LB_CHECK(lb_world_get(w, es[i], LB_TRANSFORM, &t) == LB_OK);
      LB_CHECK(lb_world_get(w, es[i], LB_NAV_AGENT, &a) == LB_OK);
      memcpy(pos[i], t.position, sizeof pos[i]);
      all = all && a.arrived;
      st->arrived += a.arrived ? 1u : 0u;
      double keep = st->clamp_loss;
      if (mode != RUN_PLAIN) {
        measure_agent(w, mesh, es[i], prev[i], pos[i], st);
      }
      st->clamp_loss = mode == RUN_MEASURE_CLAMP ? st->clamp_loss : keep;
    }
    double c = mode != RUN_PLAIN ? closest_pair(pos, n) : INFINITY;
    st->closest = c < st->closest ? c : st->closest;
    if (all) {
      st->all_arrived = st->steps;
      break;
    }
  }
  memcpy(st->end, pos, (size_t)n * sizeof pos[0]);
}

/* One of the crowd scene's agents as the file gives it. */
typedef struct crowd_agent {
  float at[3], goal[3];
  float offset, turning, stopping, radius, speed; /* NavAgent fields */
} crowd_agent;

static float num_of(const cJSON *o, const char *key, float def) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsNumber(v) ? (float)v->valuedouble : def;
}

/* The crowd scene's agents (Transform.position and the NavAgent's destination and fields), read
 * from assets/scenes/crowd.json; the count read. */
static uint32_t crowd_agents(crowd_agent *out) {
  size_t len = 0;
  char *text = lb_test_read_file("assets/scenes/crowd.json", &len);
  LB_CHECK(text != NULL);
  cJSON *root = text ? cJSON_Parse(text) : NULL;
  const cJSON *ent;
  uint32_t n = 0;
  cJSON_ArrayForEach(ent, cJSON_GetObjectItemCaseSensitive(root, "entities")) {
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(ent, "components");
    const cJSON *nav = cJSON_GetObjectItemCaseSensitive(c, "NavAgent");
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(c, "Transform"), "position");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(nav, "destination");
    if (n == MAX_AGENTS || cJSON_GetArraySize(p) != 3 || cJSON_GetArraySize(d) != 3) {
      continue;
    }
    crowd_agent *g = &out[n++];
    for (int k = 0; k < 3; ++k) {
      g->at[k] = (float)cJSON_GetArrayItem(p, k)->valuedouble;
      g->goal[k] = (float)cJSON_GetArrayItem(d, k)->valuedouble;
    }
    g->offset = num_of(nav, "baseOffset", 0.0f);
    g->turning = num_of(nav, "turningSpeed", 720.0f);
    g->stopping = num_of(nav, "stoppingDistance", 0.05f);
    g->radius = num_of(nav, "avoidanceRadius", 0.0f);
    g->speed = num_of(nav, "movementSpeed", 1.4f);
  }
  cJSON_Delete(root);
  free(text);
  return n;
}

/* The crowd scene's agents without their Rig and Animator (Transform and NavAgent only), in a
 * world with the arena's navmesh only. */
static void bare_crowd(run_mode mode, crowd_stats *st) {
  static crowd_agent ca[MAX_AGENTS];
  uint32_t n = crowd_agents(ca);
  LB_CHECK(n == MAX_AGENTS);
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  uint32_t mesh = 0;
  lb_scene *sc = load_arena(w, false, &mesh);
  lb_entity es[MAX_AGENTS];
  for (uint32_t i = 0; i < n; ++i) {
    es[i] = spawn_agent(w, mesh, ca[i].at, ca[i].goal, false);
    lb_nav_agent_c a;
    LB_CHECK(lb_world_get(w, es[i], LB_NAV_AGENT, &a) == LB_OK);
    a.base_offset = ca[i].offset;
    a.turning_speed = ca[i].turning;
    a.stopping_distance = ca[i].stopping;
    a.avoidance_radius = ca[i].radius;
    a.movement_speed = ca[i].speed;
    LB_CHECK(lb_world_set(w, es[i], LB_NAV_AGENT, &a) == LB_OK);
  }
  run_crowd(w, mesh, es, n, 60 * 60, mode, st);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
}

static void test_crowd_without_controllers(void) {
  crowd_stats a, b;
  bare_crowd(RUN_MEASURE_CLAMP, &a);
  bare_crowd(RUN_PLAIN, &b);
  printf("  100 bare agents on crowd.json's starts and goals: all arrived at step %d (%.2f s), "
         "closest pair %.4f m (2 radii %.2f m), off the mesh <= %.6f m; avoidance changed %u "
         "agent-steps, the surface clamp took <= %.4f m of one\n",
         a.all_arrived, (double)a.all_arrived * DT, a.closest, 2.0 * RADIUS, a.off_mesh,
         a.avoided_steps, a.clamp_loss);
  LB_CHECK(a.all_arrived > 0 && a.arrived == MAX_AGENTS);
  /* the 5 cm pair margin keeps them clear (closest measured in the report); 1 mm of tolerance */
  LB_CHECK(a.closest >= 2.0 * RADIUS - 0.001);
  LB_CHECK(a.off_mesh <= 1e-6);
  LB_CHECK(a.avoided_steps > 1000);
  LB_CHECK(a.all_arrived == b.all_arrived && memcmp(a.end, b.end, sizeof a.end) == 0);
}

/* `n` agents in two columns (0.8 m apart, rows 0.8 m apart) in front of room_a's door (centre
 * (7.5, 0, 5), 1.2 m wide: its navmesh opening is 0.3 m, one agent at a time), each heading for
 * a place of its own in the room (4 across, 0.9 m apart, rows 1 m apart). */
static void door_squeeze(bool controlled, uint32_t n, crowd_stats *st) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  uint32_t mesh = 0;
  lb_scene *sc = load_arena(w, controlled, &mesh);
  lb_entity es[MAX_AGENTS];
  for (uint32_t i = 0; i < n; ++i) {
    float x = 7.1f + 0.8f * (float)(i & 1u), z = 3.8f - 0.8f * (float)(i >> 1u);
    float at[3] = {x, 0.0f, z};
    float goal[3] = {6.1f + 0.9f * (float)(i % 4u), 0.0f, 6.2f + 1.0f * (float)(i / 4u)};
    es[i] = spawn_agent(w, mesh, at, goal, controlled);
  }
  run_crowd(w, mesh, es, n, 60 * 60, controlled ? RUN_MEASURE : RUN_MEASURE_CLAMP, st);
  for (uint32_t i = 0; controlled && i < n; ++i) {
    lb_character_controller_c cc; /* the controller moved it: on the floor at the end */
    LB_CHECK(lb_world_get(w, es[i], LB_CHARACTER_CONTROLLER, &cc) == LB_OK);
    LB_CHECK(cc.grounded == 1u);
  }
  /* the query answers for a live agent, refuses a dead handle and an entity without a NavAgent */
  lb_nav_agent_avoidance av;
  LB_CHECK(lb_world_nav_avoidance(w, es[0], &av) == LB_OK);
  lb_entity plain = 0;
  LB_CHECK(lb_world_spawn(w, &plain) == LB_OK);
  LB_CHECK(lb_world_nav_avoidance(w, plain, &av) == LB_ERR_MISSING_COMPONENT);
  LB_CHECK(strstr(lb_world_last_error(w), "has no NavAgent") != NULL);
  LB_CHECK(lb_world_despawn(w, plain) == LB_OK);
  LB_CHECK(lb_world_nav_avoidance(w, plain, &av) == LB_ERR_STALE_ENTITY);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
}

static void test_door_squeeze(void) {
  for (int controlled = 0; controlled < 2; ++controlled) {
    crowd_stats st;
    door_squeeze(controlled != 0, 12, &st);
    printf("  room_a door, 12 agents %s: all arrived at step %d (%.2f s), closest pair %.4f m, "
           "off the mesh <= %.6f m; avoidance changed %u agent-steps",
           controlled ? "with CharacterControllers" : "moving themselves", st.all_arrived,
           (double)st.all_arrived * DT, st.closest, st.off_mesh, st.avoided_steps);
    if (!controlled) {
      printf(", the surface clamp took <= %.4f m of an avoiding step", st.clamp_loss);
    }
    printf("\n");
    LB_CHECK(st.all_arrived > 0 && st.arrived == 12u);
    LB_CHECK(st.closest >= 2.0 * RADIUS - 0.001);
    /* moving themselves they are their mesh point; a controller's Transform measured 0 off */
    LB_CHECK(st.off_mesh <= (controlled ? 0.01 : 1e-6));
    LB_CHECK(st.avoided_steps > 100);
  }
}

/* assets/scenes/crowd.json (100 agents with rigs and Animators): after the first steps (warm-up:
 * the Animators' first poses), 300 steps allocate nothing; everything is freed. */
static void test_crowd_scene_no_alloc(void) {
  const char *glb = "assets/rigs/mannequin-mixamo.glb";
  size_t len = 0, ng = 0, nl = 0, nm = 0;
  char *json = lb_test_read_file("assets/scenes/crowd.json", &len);
  void *bytes = lb_test_read_file(glb, &ng);
  void *lv = lb_test_read_file(LEVEL, &nl);
  void *nv = lb_test_read_file(NAVMESH, &nm);
  LB_CHECK(json && bytes && lv && nv);
  lb_test_counter cnt;
  memset(&cnt, 0, sizeof cnt);
  lb_world_def d = lb_test_counting_def(&cnt);
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(&d, &w) == LB_OK);
  lb_scene_file files[3] = {{glb, bytes, ng}, {LEVEL, lv, nl}, {NAVMESH, nv, nm}};
  lb_scene *sc = NULL;
  lb_result r = lb_scene_load_files(w, json, len, files, 3, &sc);
  if (r != LB_OK) {
    fprintf(stderr, "crowd.json: %s\n", lb_world_last_error(w));
  }
  LB_CHECK(r == LB_OK);
  for (int i = 0; r == LB_OK && i < 2; ++i) {
    LB_CHECK(lb_scene_step(w, sc, DT) == LB_OK);
  }
  size_t before = cnt.allocs;
  uint32_t avoiding = 0;
  for (int i = 0; r == LB_OK && i < 300; ++i) {
    LB_CHECK(lb_scene_step(w, sc, DT) == LB_OK);
    lb_nav_agent_c a;
    LB_CHECK(lb_world_get(w, lb_scene_entity(sc, "west0"), LB_NAV_AGENT, &a) == LB_OK);
    avoiding += a.neighbours > 0 ? 1u : 0u;
  }
  printf("  crowd.json, 300 steps of 100 agents (west0 had neighbours in %u): %zu allocations\n",
         avoiding, cnt.allocs - before);
  LB_CHECK(cnt.allocs == before);
  LB_CHECK(avoiding > 0);
  if (sc) {
    lb_scene_destroy(w, sc);
  }
  lb_world_destroy(w);
  LB_CHECK(cnt.allocs == cnt.frees);
  free(json);
  free(bytes);
  free(lv);
  free(nv);
}

int main(void) {
  LB_RUN(test_crowd_without_controllers);
  LB_RUN(test_door_squeeze);
  LB_RUN(test_crowd_scene_no_alloc);
  LB_TEST_MAIN_END();
}
