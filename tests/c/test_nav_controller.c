/* NavAgent with a CharacterController (Builtin backend) on the nav arena (its level colliders and
 * its Recast navmesh): the agent sends its movement through the controller instead of writing
 * the position. Checked per step: the capsule never penetrates a collider by more than 1 cm,
 * the controller stands on ground, the Transform stays over the mesh within 1 cm horizontally;
 * each leg ends within stoppingDistance of the goal. A step (a box on the floor that the
 * navmesh does not know) is climbed by the controller, not by the agent. */
#include "collide_fixture.h"

#include <math.h>
#include <stdlib.h>

#define LEVEL "assets/levels/nav-arena.json"
#define NAVMESH "assets/levels/nav-arena.navmesh.json"

typedef struct leg_stats {
  int steps, ungrounded;
  double worst_penetration; /* metres beyond the 1 cm allowance: > 0 fails */
  double worst_off_mesh;    /* horizontal metres from the mesh */
  double travelled, max_rise;
  double worst_lag; /* horizontal metres from the Transform to the agent's mesh point */
  float end[3];
} leg_stats;

#define GLB "assets/rigs/mannequin-mixamo.glb"

/* The arena's level and navmesh, plus `entities` (a JSON array) and, with `rig`, the mannequin
 * and a locomotion blend space (idle / walk / run on MoveSpeed). */
static lb_scene *load_arena_with(lb_world *w, const char *entities, bool rig) {
  char scene[4096];
  snprintf(scene, sizeof scene,
           "{\"name\": \"nav controller test\", \"level\": \"" LEVEL "\", \"assets\": {%s"
           "\"navmeshes\": {\"arena\": {\"file\": \"" NAVMESH "\"}}}, \"entities\": %s}",
           rig ? "\"rigs\": {\"mannequin\": {\"gltf\": \"" GLB "\"}}, \"controllers\": "
                 "{\"locomotion\": {\"rig\": \"mannequin\", \"rootJoint\": \"Hips\", "
                 "\"parameters\": {\"MoveSpeed\": {\"type\": \"float\", \"default\": 0}}, "
                 "\"entry\": \"Locomotion\", \"states\": {\"Locomotion\": {\"blend\": "
                 "{\"parameter\": \"MoveSpeed\", \"points\": [{\"clip\": \"idle\", \"value\": 0}, "
                 "{\"clip\": \"walk\", \"value\": 1.4}, {\"clip\": \"run\", \"value\": 3.5}]}}}}}, "
               : "",
           entities);
  size_t nl = 0, nm = 0, ng = 0;
  void *level = lb_test_read_file(LEVEL, &nl);
  void *mesh = lb_test_read_file(NAVMESH, &nm);
  void *glb = rig ? lb_test_read_file(GLB, &ng) : NULL;
  LB_CHECK(level != NULL && mesh != NULL && (!rig || glb != NULL));
  lb_scene_file files[3] = {{LEVEL, level, nl}, {NAVMESH, mesh, nm}, {GLB, glb, ng}};
  lb_scene *sc = NULL;
  lb_result r = lb_scene_load_files(w, scene, strlen(scene), files, rig ? 3 : 2, &sc);
  if (r != LB_OK) {
    fprintf(stderr, "scene: %s\n", lb_world_last_error(w));
  }
  LB_CHECK(r == LB_OK);
  free(level);
  free(mesh);
  free(glb);
  return sc;
}

static lb_scene *load_arena(lb_world *w) {
  return load_arena_with(w, "[]", false);
}

/* Colliders the capsule (shrunk by the 1 cm allowance) overlaps: 0 = no deeper penetration. */
static uint32_t penetrating(lb_world *w, const lb_transform_c *t,
                            const lb_character_controller_c *c, lb_entity self) {
  float half = c->height * 0.5f - c->radius;
  vec3 a = {t->position[0] + c->center[0], t->position[1] + c->center[1] - half,
            t->position[2] + c->center[2]};
  vec3 b = {a[0], t->position[1] + c->center[1] + half, a[2]};
  lb_collide_filter f = lb_collide_default_filter();
  f.exclude = self;
  lb_entity hits[8];
  uint32_t n = 0;
  LB_CHECK(lb_world_overlap_capsule(w, a, b, c->radius - 0.01f, &f, hits, 8, &n) == LB_OK);
  return n;
}

/* Penetration depth beyond 1 cm, measured: the largest shrink that still overlaps (bisection). */
static double penetration_depth(lb_world *w, const lb_transform_c *t,
                                const lb_character_controller_c *c, lb_entity self) {
  lb_character_controller_c s = *c;
  double lo = 0.01, hi = c->radius - 0.001;
  for (int i = 0; i < 20; ++i) {
    double mid = 0.5 * (lo + hi);
    s.radius = (float)(c->radius - mid + 0.01);
    if (penetrating(w, t, &s, self)) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

static leg_stats walk(lb_world *w, lb_entity e, uint32_t mesh, const float goal[3], int max_steps) {
  leg_stats st;
  memset(&st, 0, sizeof st);
  lb_nav_agent_c a;
  LB_CHECK(lb_world_get(w, e, LB_NAV_AGENT, &a) == LB_OK);
  memcpy(a.destination, goal, sizeof(vec3));
  a.has_destination = 1;
  LB_CHECK(lb_world_set(w, e, LB_NAV_AGENT, &a) == LB_OK);
  lb_transform_c t;
  lb_character_controller_c c;
  LB_CHECK(lb_world_get(w, e, LB_TRANSFORM, &t) == LB_OK);
  float prev[3];
  memcpy(prev, t.position, sizeof prev);
  float y0 = t.position[1];
  const float dt = 1.0f / 60.0f;
  for (st.steps = 0; st.steps < max_steps; ++st.steps) {
    LB_CHECK(lb_world_step(w, dt) == LB_OK);
    LB_CHECK(lb_world_get(w, e, LB_TRANSFORM, &t) == LB_OK);
    LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &c) == LB_OK);
    LB_CHECK(lb_world_get(w, e, LB_NAV_AGENT, &a) == LB_OK);
    if (penetrating(w, &t, &c, e)) {
      double d = penetration_depth(w, &t, &c, e);
      st.worst_penetration = d > st.worst_penetration ? d : st.worst_penetration;
    }
    st.ungrounded += c.grounded ? 0 : 1;
    /* over the mesh: moving along the surface from the agent's mesh point to the Transform's
     * x, z gets there (a 3D nearest point would mix in the height gap to sloped polygons) */
    lb_nav_point from, near;
    float q[3] = {t.position[0], t.position[1] - a.base_offset, t.position[2]};
    LB_CHECK(lb_nav_nearest(w, mesh, a.next_position, &from) == LB_OK);
    LB_CHECK(lb_nav_move_along_surface(w, mesh, &from, q, &near) == LB_OK);
    double off = hypot(near.position[0] - t.position[0], near.position[2] - t.position[2]);
    st.worst_off_mesh = off > st.worst_off_mesh ? off : st.worst_off_mesh;
    double lag = hypot(a.next_position[0] - t.position[0], a.next_position[2] - t.position[2]);
    st.worst_lag = lag > st.worst_lag ? lag : st.worst_lag;
    st.travelled += hypot(t.position[0] - prev[0], t.position[2] - prev[2]);
    double rise = t.position[1] - y0;
    st.max_rise = rise > st.max_rise ? rise : st.max_rise;
    memcpy(prev, t.position, sizeof prev);
    if (a.arrived) {
      ++st.steps;
      break;
    }
  }
  memcpy(st.end, t.position, sizeof st.end);
  return st;
}

static void test_agent_through_controller(void) {
  lb_test_counter cnt;
  memset(&cnt, 0, sizeof cnt);
  lb_world_def d = lb_test_counting_def(&cnt);
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(&d, &w) == LB_OK);
  lb_scene *sc = load_arena(w);
  uint32_t mesh = lb_world_navmesh_find(w, "arena");
  LB_CHECK(mesh != 0);
  if (!sc || !mesh) {
    lb_world_destroy(w);
    return;
  }
  /* a 0.15 m step across the first leg, unknown to the navmesh (x 0.5..2.5, z -6.4..-5.6) */
  lb_entity step_box = cl_test_box(w, 1.5f, 0.075f, -6.0f, 2.0f, 0.15f, 0.8f, NULL);
  (void)step_box;

  lb_entity e = LB_NULL_ENTITY;
  LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[0] = 0.0f;
  t.position[1] = 0.02f;
  t.position[2] = -8.0f;
  LB_CHECK(lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK);
  lb_character_controller_c c;
  lb_component_defaults(LB_CHARACTER_CONTROLLER, &c);
  LB_CHECK(lb_world_insert(w, e, LB_CHARACTER_CONTROLLER, &c) == LB_OK);
  lb_nav_agent_c a;
  lb_component_defaults(LB_NAV_AGENT, &a);
  a.nav_mesh = mesh;
  a.drive_mode = LB_NAV_DRIVE_DESTINATION;
  a.movement_speed = 1.4f;
  a.stopping_distance = 0.1f;
  a.base_offset = -0.1f;
  a.locomotion_param = 0;
  LB_CHECK(lb_world_insert(w, e, LB_NAV_AGENT, &a) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK); /* settles on the floor */
  size_t allocs = cnt.allocs;

  static const struct {
    const char *name;
    float goal[3];
  } legs[] = {{"spawn -> room_a (over the step, through the door)", {7.5f, 0.0f, 7.5f}},
              {"room_a -> platform (up the ramp)", {8.0f, 1.0f, -8.0f}},
              {"platform -> back_right (down the ramp, round the pillar)", {-8.5f, 0.0f, -8.5f}}};
  for (size_t k = 0; k < sizeof legs / sizeof legs[0]; ++k) {
    leg_stats s = walk(w, e, mesh, legs[k].goal, 3000);
    LB_CHECK(lb_world_get(w, e, LB_NAV_AGENT, &a) == LB_OK);
    LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &c) == LB_OK);
    lb_nav_point goal;
    LB_CHECK(lb_nav_nearest(w, mesh, legs[k].goal, &goal) == LB_OK);
    double miss = hypot(s.end[0] - goal.position[0], s.end[2] - goal.position[2]);
    printf("  %s: %d steps, %.3f m travelled, end %.3f m from the goal (stoppingDistance %.2f), "
           "height %.3f (max rise %.3f), penetration beyond 1 cm %.4f m, off the mesh <= %.4f m, "
           "Transform to the agent's point <= %.4f m, %d steps not grounded\n",
           legs[k].name, s.steps, s.travelled, miss, (double)a.stopping_distance, (double)s.end[1],
           s.max_rise, s.worst_penetration, s.worst_off_mesh, s.worst_lag, s.ungrounded);
    LB_CHECK(a.arrived == 1 && a.path_status == 1);
    LB_CHECK(miss <= a.stopping_distance + 1e-3);
    LB_CHECK(s.worst_penetration == 0.0);
    LB_CHECK(s.worst_off_mesh <= 0.01);
    LB_CHECK(s.ungrounded == 0);
    LB_CHECK(s.worst_lag <= 0.05); /* the controller follows the agent's requests */
    LB_CHECK(c.grounded == 1);
    if (k == 0) {
      LB_CHECK(s.max_rise > 0.14); /* the controller climbed the step */
    }
    if (k == 1) {
      LB_CHECK_NEAR(s.end[1], 1.0, 0.02); /* on the platform */
    }
  }
  LB_CHECK(cnt.allocs == allocs);

  /* the agent never wrote the position: the controller's request carried it */
  LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &c) == LB_OK);
  a.destination[0] = -8.5f;
  a.destination[2] = -6.5f;
  LB_CHECK(lb_world_set(w, e, LB_NAV_AGENT, &a) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &c) == LB_OK);
  double req = hypot(c.requested[0], c.requested[2]);
  printf("  a new destination: the controller's request this step %.5f m (1.4 m/s x dt = %.5f)\n",
         req, 1.4 / 60.0);
  LB_CHECK_NEAR(req, 1.4 / 60.0, 2e-3);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
  LB_CHECK(cnt.live == 0);
}

/* Both with a CharacterController: the mannequin's root motion goes through the controller, the
 * agent steers (turns the Transform) and re-syncs from where the controller left it, and
 * attenuates MoveSpeed near the goal: through the door of room_a. */
static void test_both_through_controller(void) {
  lb_world_def d = lb_world_default_def();
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(&d, &w) == LB_OK);
  lb_scene *sc = load_arena_with(
      w,
      "[{\"name\": \"hero\", \"components\": {\"Transform\": {\"position\": [0, 0.02, -8]},"
      " \"Rig\": {\"asset\": \"mannequin\"},"
      " \"Animator\": {\"controller\": \"locomotion\", \"applyRootMotion\": true},"
      " \"CharacterController\": {},"
      " \"NavAgent\": {\"navMesh\": \"arena\", \"driveMode\": \"Both\", \"baseOffset\": -0.1,"
      " \"baseLocomotionParam\": 1.4, \"radius\": 0.35, \"stoppingDistance\": 0.1,"
      " \"turningSpeed\": 360}}}]",
      true);
  uint32_t mesh = lb_world_navmesh_find(w, "arena");
  LB_CHECK(sc != NULL && mesh != 0);
  if (!sc || !mesh) {
    lb_world_destroy(w);
    return;
  }
  lb_entity e = lb_scene_entity(sc, "hero");
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  static const float goals[][3] = {{7.5f, 0.0f, 7.5f}, {8.0f, 1.0f, -8.0f}};
  static const char *const names[] = {"spawn -> room_a", "room_a -> platform (ramp)"};
  for (int k = 0; k < 2; ++k) {
    leg_stats s = walk(w, e, mesh, goals[k], 4000);
    lb_nav_agent_c a;
    lb_character_controller_c c;
    LB_CHECK(lb_world_get(w, e, LB_NAV_AGENT, &a) == LB_OK);
    LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &c) == LB_OK);
    lb_nav_point goal;
    LB_CHECK(lb_nav_nearest(w, mesh, goals[k], &goal) == LB_OK);
    double miss = hypot(s.end[0] - goal.position[0], s.end[2] - goal.position[2]);
    printf("  Both, %s: %d steps, %.3f m travelled, end %.3f m from the goal, height %.3f, "
           "penetration beyond 1 cm %.4f m, off the mesh <= %.4f m, Transform to the agent's "
           "point <= %.4f m, %d steps not grounded\n",
           names[k], s.steps, s.travelled, miss, (double)s.end[1], s.worst_penetration,
           s.worst_off_mesh, s.worst_lag, s.ungrounded);
    LB_CHECK(a.arrived == 1);
    LB_CHECK(miss <= a.stopping_distance + 0.05);
    LB_CHECK(s.worst_penetration == 0.0);
    LB_CHECK(s.worst_off_mesh <= 0.01);
    LB_CHECK(s.ungrounded == 0);
  }
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
}

/* One owner: a Both agent with a destination refuses the game's locomotion parameter and
 * moves (LB_ERR_BUSY, naming the entity and the NavAgent, nothing changed); other parameters
 * stay the game's; stopped or Manual, the game's writes are taken and kept. */
static void test_owner(void) {
  lb_world_def d = lb_world_default_def();
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(&d, &w) == LB_OK);
  lb_scene *sc = load_arena_with(
      w,
      "[{\"name\": \"hero\", \"components\": {\"Transform\": {\"position\": [0, 0.02, -8]},"
      " \"Rig\": {\"asset\": \"mannequin\"}, \"Animator\": {\"controller\": \"locomotion\"},"
      " \"CharacterController\": {}, \"NavAgent\": {\"navMesh\": \"arena\", \"driveMode\":"
      " \"Both\", \"baseLocomotionParam\": 1.4, \"destination\": [0, 0, 0], \"hasDestination\":"
      " true}}}]",
      true);
  LB_CHECK(sc != NULL);
  if (!sc) {
    lb_world_destroy(w);
    return;
  }
  lb_entity e = lb_scene_entity(sc, "hero");
  for (int i = 0; i < 30; ++i) {
    LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  }
  const char *owner = NULL;
  LB_CHECK(lb_world_input_owner(w, e, LB_INPUT_MOVE, NULL, &owner) == LB_OK && owner &&
           strcmp(owner, "NavAgent") == 0);
  float before = 0.0f, after = 0.0f;
  LB_CHECK(lb_world_get_animator_param(w, e, "MoveSpeed", &before, NULL) == LB_OK);
  LB_CHECK(lb_world_set_animator_float(w, e, "MoveSpeed", 3.5f) == LB_ERR_BUSY);
  const char *msg = lb_world_last_error(w);
  printf("  refused: %s\n", msg);
  LB_CHECK(strstr(msg, "entity 0v0") && strstr(msg, "parameter 'MoveSpeed'") &&
           strstr(msg, "owned by its NavAgent"));
  LB_CHECK(lb_world_get_animator_param(w, e, "MoveSpeed", &after, NULL) == LB_OK);
  LB_CHECK(memcmp(&before, &after, sizeof before) == 0);
  vec3 push = {0.1f, 0.0f, 0.0f};
  LB_CHECK(lb_world_controller_move(w, e, push) == LB_ERR_BUSY);
  lb_character_controller_c c;
  LB_CHECK(lb_world_get(w, e, LB_CHARACTER_CONTROLLER, &c) == LB_OK);
  LB_CHECK(c.move[0] == 0.0f && c.move[1] == 0.0f && c.move[2] == 0.0f);
  LB_CHECK(lb_world_input_owner(w, e, LB_INPUT_ANIMATOR_PARAM, "Vault", &owner) == LB_OK &&
           owner == NULL);
  /* stopped: the game's again, and the agent leaves the game's value alone */
  lb_nav_agent_c a;
  LB_CHECK(lb_world_get(w, e, LB_NAV_AGENT, &a) == LB_OK);
  a.stopped = 1;
  LB_CHECK(lb_world_set(w, e, LB_NAV_AGENT, &a) == LB_OK);
  LB_CHECK(lb_world_set_animator_float(w, e, "MoveSpeed", 0.5f) == LB_OK);
  LB_CHECK(lb_world_controller_move(w, e, push) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_world_get_animator_param(w, e, "MoveSpeed", &after, NULL) == LB_OK);
  LB_CHECK(after == 0.5f);
  /* Manual with a destination: still the game's */
  a.stopped = 0;
  a.drive_mode = LB_NAV_DRIVE_MANUAL;
  LB_CHECK(lb_world_set(w, e, LB_NAV_AGENT, &a) == LB_OK);
  LB_CHECK(lb_world_input_owner(w, e, LB_INPUT_MOVE, NULL, &owner) == LB_OK && owner == NULL);
  LB_CHECK(lb_world_input_owner(w, e, (lb_input)7, NULL, &owner) == LB_ERR_INVALID_ARGUMENT);
  lb_scene_destroy(w, sc);
  lb_world_destroy(w);
}

/* Two 2 x 2 m quads of one mesh, z 0..2 and 3..5 (x -1..1), with nothing between: the hole a
 * Recast bake leaves under a crate. */
static uint32_t add_gap_mesh(lb_world *w) {
  static const float v[] = {-1, 0, 0, -1, 0, 2, 1, 0, 2, 1, 0, 0,
                            -1, 0, 3, -1, 0, 5, 1, 0, 5, 1, 0, 3};
  static const uint8_t counts[] = {4, 4};
  static const uint32_t idx[] = {0, 1, 2, 3, 4, 5, 6, 7};
  static const int32_t nei[] = {-1, -1, -1, -1, -1, -1, -1, -1};
  lb_navmesh_def def = {.vertices = v,
                        .vertex_count = 8,
                        .counts = counts,
                        .indices = idx,
                        .neighbours = nei,
                        .polygon_count = 2};
  uint32_t mesh = 0;
  LB_CHECK(lb_world_add_navmesh(w, "gap", &def, &mesh) == LB_OK);
  return mesh;
}

/* A character with a CharacterController and a NavAgent in `mode` at z, on a floor over both
 * quads. */
static lb_entity gap_hero(lb_world *w, uint32_t mesh, lb_nav_drive_mode mode, float z) {
  cl_test_box(w, 0.0f, -0.05f, 2.5f, 4.0f, 0.1f, 8.0f, NULL);
  lb_entity e = LB_NULL_ENTITY;
  LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  lb_transform_c t;
  lb_character_controller_c c;
  lb_nav_agent_c a;
  lb_component_defaults(LB_TRANSFORM, &t);
  lb_component_defaults(LB_CHARACTER_CONTROLLER, &c);
  lb_component_defaults(LB_NAV_AGENT, &a);
  t.position[2] = z;
  a.nav_mesh = mesh;
  a.drive_mode = (uint32_t)mode;
  a.movement_speed = 1.4f;
  a.stopping_distance = 0.05f;
  LB_CHECK(lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK);
  LB_CHECK(lb_world_insert(w, e, LB_CHARACTER_CONTROLLER, &c) == LB_OK);
  LB_CHECK(lb_world_insert(w, e, LB_NAV_AGENT, &a) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  return e;
}

static float gap_z(lb_world *w, lb_entity e, float *agent_z) {
  lb_transform_c t;
  lb_nav_agent_c a;
  LB_CHECK(lb_world_get(w, e, LB_TRANSFORM, &t) == LB_OK);
  LB_CHECK(lb_world_get(w, e, LB_NAV_AGENT, &a) == LB_OK);
  *agent_z = a.next_position[2];
  return t.position[2];
}

/* Manual: the game walks the body over the gap (0.05 m a step). Once the body's nearest mesh
 * point is on the far quad (more than the agent's radius from where the walk along the surface
 * stopped, the near edge) the agent is placed there; a destination given then walks the body on
 * (Unity's NavMeshAgent.Warp, without the game writing the Transform). */
static void test_gap_manual(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  uint32_t mesh = add_gap_mesh(w);
  lb_entity e = gap_hero(w, mesh, LB_NAV_DRIVE_MANUAL, 0.5f);
  const float step[3] = {0.0f, 0.0f, 0.05f};
  float agent = 0.0f, body = 0.0f, worst_past = 0.0f;
  for (int i = 0; i < 60; ++i) {
    LB_CHECK(lb_world_controller_move(w, e, step) == LB_OK);
    LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
    body = gap_z(w, e, &agent);
    /* on the far quad, past its edge: the agent is on the body */
    float lag = body > 3.0f ? fabsf(agent - body) : 0.0f;
    worst_past = lag > worst_past ? lag : worst_past;
  }
  /* the agent syncs before the controller's move of the same step: one step behind */
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  body = gap_z(w, e, &agent);
  printf("  gap, Manual: body walked to z %.3f, the agent's point at z %.3f (on the far quad "
         "past its edge: within %.4f m of the body, one step behind)\n",
         (double)body, (double)agent, (double)worst_past);
  LB_CHECK_NEAR(body, 3.5f, 0.01f);
  LB_CHECK_NEAR(agent, body, 1e-4f);
  LB_CHECK(worst_past <= 0.05f + 1e-4f);
  lb_nav_agent_c a;
  LB_CHECK(lb_world_get(w, e, LB_NAV_AGENT, &a) == LB_OK);
  a.drive_mode = LB_NAV_DRIVE_DESTINATION;
  a.destination[2] = 4.5f;
  LB_CHECK(lb_world_set(w, e, LB_NAV_AGENT, &a) == LB_OK);
  float lowest = body;
  for (int i = 0; i < 120 && !a.arrived; ++i) {
    LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
    float z = gap_z(w, e, &agent);
    lowest = z < lowest ? z : lowest;
    LB_CHECK(lb_world_get(w, e, LB_NAV_AGENT, &a) == LB_OK);
  }
  body = gap_z(w, e, &agent);
  printf("  gap, Manual -> NavDestination z 4.5: arrived %u at z %.3f, path %s, never back "
         "behind z %.4f (the body was at %.4f)\n",
         a.arrived, (double)body, a.path_status == 1 ? "Complete" : "not complete", (double)lowest,
         3.5);
  LB_CHECK(a.arrived == 1 && a.path_status == 1);
  LB_CHECK(lowest >= 3.5f - 0.01f);
  LB_CHECK_NEAR(body, 4.5f, 0.06f);
  lb_world_destroy(w);
}

/* RootMotion: the agent clamps the body onto the mesh; a body that lands on the far quad in one
 * move (a vault's travel) is not pulled back over the gap: the agent joins it there. A body that
 * only steps off the edge is still clamped back (the gap is less than the radius away). */
static void test_gap_root_motion(void) {
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(NULL, &w) == LB_OK);
  uint32_t mesh = add_gap_mesh(w);
  lb_entity e = gap_hero(w, mesh, LB_NAV_DRIVE_ROOT_MOTION, 1.9f);
  float agent = 0.0f;
  const float off_edge[3] = {0.0f, 0.0f, 0.2f};
  LB_CHECK(lb_world_controller_move(w, e, off_edge) == LB_OK);
  for (int i = 0; i < 3; ++i) {
    LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  }
  float clamped = gap_z(w, e, &agent);
  const float over[3] = {0.0f, 0.0f, 1.5f};
  LB_CHECK(lb_world_controller_move(w, e, over) == LB_OK);
  for (int i = 0; i < 3; ++i) {
    LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  }
  float body = gap_z(w, e, &agent);
  printf("  gap, RootMotion: 0.2 m off the edge clamped back to z %.3f; 1.5 m over the gap: "
         "body at z %.3f, the agent's point at z %.3f\n",
         (double)clamped, (double)body, (double)agent);
  LB_CHECK_NEAR(clamped, 2.0f, 1e-3f);
  LB_CHECK_NEAR(body, 3.5f, 1e-3f);
  LB_CHECK_NEAR(agent, body, 1e-4f);
  lb_world_destroy(w);
}

int main(void) {
  LB_RUN(test_agent_through_controller);
  LB_RUN(test_both_through_controller);
  LB_RUN(test_owner);
  LB_RUN(test_gap_manual);
  LB_RUN(test_gap_root_motion);
  LB_TEST_MAIN_END();
}
