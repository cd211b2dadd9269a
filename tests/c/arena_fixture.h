/* The nav arena with characters walking it, as the NPC and player benches run it
 * (tests/bench/bench_npc.c: world.npc.1000, tests/bench/bench_player.c: world.player) and
 * tests/c/test_npc_steps.c checks it: one scene text, one route and one loader, so that the
 * test checks the crowd the bench times.
 *
 * The scene: the nav arena level (assets/levels/nav-arena.json), its Recast navmesh and the
 * Mixamo mannequin with an Animator on a locomotion blend (idle / walk / run on a damped
 * MoveSpeed, a Vault state), a CharacterController, a Vault probing every step,
 * EnvironmentInteraction and a NavAgent (Both, avoidance on) walking from (0, 0, -8) to
 * (0, 0, 8). Header-only: the benches and the tests are separate programs. */
#ifndef LIMBER_TESTS_ARENA_FIXTURE_H
#define LIMBER_TESTS_ARENA_FIXTURE_H

#include "limber/limber.h"
#include <stdlib.h>
#include <string.h>

#define LB_ARENA_LEVEL "assets/levels/nav-arena.json"
#define LB_ARENA_NAVMESH "assets/levels/nav-arena.navmesh.json"
#define LB_ARENA_GLB "assets/rigs/mannequin-mixamo.glb"

/* The arena's destinations: the rooms through their doors, behind the divider's gap, a corner,
 * the platform up the ramp, the start. */
static const float lb_arena_route[][3] = {
    {0.0f, 0.0f, 8.0f},   {7.5f, 0.0f, 7.5f},  {-4.0f, 0.0f, 3.0f}, {-7.5f, 0.0f, 7.5f},
    {-8.5f, 0.0f, -8.5f}, {8.0f, 1.0f, -8.0f}, {0.0f, 0.0f, -8.0f}};
#define LB_ARENA_LEGS ((uint32_t)(sizeof lb_arena_route / sizeof lb_arena_route[0]))

/* A walker's components, in the order they are copied from a template onto more entities. */
static const lb_component_type lb_arena_walker_types[] = {
    LB_RIG, LB_ANIMATOR, LB_CHARACTER_CONTROLLER, LB_VAULT, LB_ENV_INTERACTION, LB_NAV_AGENT};
#define LB_ARENA_WALKER_TYPES                                                                      \
  ((uint32_t)(sizeof lb_arena_walker_types / sizeof lb_arena_walker_types[0]))

/* The scene text up to its entity list: the level, the rig, the navmesh and the controller. */
#define LB_ARENA_SCENE_HEAD(name)                                                                  \
  "{\"name\": \"" name "\", \"level\": \"" LB_ARENA_LEVEL "\", \"assets\": {"                      \
  "\"rigs\": {\"mannequin\": {\"gltf\": \"" LB_ARENA_GLB "\"}},"                                   \
  "\"navmeshes\": {\"arena\": {\"file\": \"" LB_ARENA_NAVMESH "\"}},"                              \
  "\"controllers\": {\"locomotion\": {\"rig\": \"mannequin\", \"rootJoint\": \"Hips\","            \
  " \"parameters\": {\"MoveSpeed\": {\"type\": \"float\", \"default\": 0, \"damp\": 0.1},"         \
  " \"Vault\": {\"type\": \"trigger\"}}, \"entry\": \"Locomotion\", \"states\": {"                 \
  "\"Locomotion\": {\"blend\": {\"parameter\": \"MoveSpeed\", \"points\": ["                       \
  "{\"clip\": \"idle\", \"value\": 0}, {\"clip\": \"walk\", \"value\": 1.4},"                      \
  " {\"clip\": \"run\", \"value\": 3.5}]}},"                                                       \
  "\"Vault\": {\"clip\": \"vault\", \"loop\": false, \"next\": \"Locomotion\", \"nextFade\": "     \
  "0.3}},"                                                                                         \
  " \"transitions\": [{\"from\": \"Locomotion\", \"to\": \"Vault\", \"fade\": 0.2,"                \
  " \"conditions\": [{\"parameter\": \"Vault\"}]}]}}},"                                            \
  "\"entities\": ["

/* One walker entity; `extra` (text ending in a comma, or "") adds components before its
 * NavAgent. */
#define LB_ARENA_WALKER(name, extra)                                                               \
  "{\"name\": \"" name "\", \"components\": {\"Transform\": {\"position\": [0, 0, -8]},"           \
  " \"Rig\": {\"asset\": \"mannequin\"},"                                                          \
  " \"Animator\": {\"controller\": \"locomotion\", \"applyRootMotion\": true},"                    \
  " \"CharacterController\": {\"radius\": 0.3, \"height\": 1.8, \"center\": [0, 0.9, 0],"          \
  " \"stepOffset\": 0.35},"                                                                        \
  " \"Vault\": {\"hand\": \"Left\", \"probeEveryStep\": true},"                                    \
  " \"EnvironmentInteraction\": {\"height\": 1.8, \"handOffset\": 0.015}," extra                   \
  " \"NavAgent\": {\"navMesh\": \"arena\", \"driveMode\": \"Both\", \"baseOffset\": -0.1,"         \
  " \"baseLocomotionParam\": 1.4, \"movementSpeed\": 1.4, \"radius\": 0.35,"                       \
  " \"stoppingDistance\": 0.1, \"turningSpeed\": 360, \"destination\": [0, 0, 8],"                 \
  " \"hasDestination\": true}}}"

/* Reads a whole file (a path from the repository root); NULL when it cannot. */
typedef void *(*lb_arena_read_fn)(const char *path, size_t *size);

/* Loads `scene` (a text built from the macros above) with the arena's three files, read by
 * `read`. */
static inline lb_result lb_arena_load(lb_world *w, const char *scene, lb_arena_read_fn read,
                                      lb_scene **out) {
  static const char *const paths[3] = {LB_ARENA_LEVEL, LB_ARENA_NAVMESH, LB_ARENA_GLB};
  lb_scene_file files[3];
  lb_result r = LB_OK;
  for (int i = 0; i < 3; ++i) {
    size_t n = 0;
    files[i].path = paths[i];
    files[i].bytes = read(paths[i], &n);
    files[i].size = n;
    r = files[i].bytes ? r : LB_ERR_INVALID_ARGUMENT;
  }
  if (r == LB_OK) {
    r = lb_scene_load_files(w, scene, strlen(scene), files, 3, out);
  }
  for (int i = 0; i < 3; ++i) {
    free((void *)files[i].bytes);
  }
  return r;
}

/* The scene and its world (either may be NULL). */
static inline void lb_arena_destroy(lb_world *w, lb_scene *scene) {
  if (w) {
    lb_scene_destroy(w, scene);
    lb_world_destroy(w);
  }
}

#endif
