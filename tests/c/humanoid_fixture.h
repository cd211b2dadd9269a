/* The grip tests' common start: a fresh world with the procedural humanoid on an entity,
 * stepped once, and its skeleton and rest pose as flat depth-first arrays. */
#ifndef LIMBER_TEST_HUMANOID_FIXTURE_H
#define LIMBER_TEST_HUMANOID_FIXTURE_H

#include "limber/limber.h"
#include "test.h"
#include <string.h>

#define LB_TEST_MAX_JOINTS 128

typedef struct lb_test_humanoid {
  lb_world *w;
  lb_entity e;
  uint32_t asset, count;
  const char *names[LB_TEST_MAX_JOINTS];
  int16_t parents[LB_TEST_MAX_JOINTS];
  lb_transform local[LB_TEST_MAX_JOINTS]; /* local rest pose */
  lb_transform model[LB_TEST_MAX_JOINTS]; /* its model pose */
} lb_test_humanoid;

/* An entity with a Transform at (x, y, z), rotation r, under `parent` (or null). */
static inline lb_entity lb_test_spawn_xf(lb_world *w, lb_entity parent, float x, float y, float z,
                                         const versor r) {
  lb_entity e = LB_NULL_ENTITY;
  LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  lb_transform_c t;
  lb_component_defaults(LB_TRANSFORM, &t);
  t.position[0] = x, t.position[1] = y, t.position[2] = z;
  memcpy(t.rotation, r, sizeof(versor));
  t.parent = parent;
  LB_CHECK(lb_world_insert(w, e, LB_TRANSFORM, &t) == LB_OK);
  return e;
}

/* height <= 0: the builder's default. */
static inline void lb_test_humanoid_init(lb_test_humanoid *h, lb_humanoid_naming naming,
                                         float height) {
  memset(h, 0, sizeof *h);
  LB_CHECK(lb_world_create(NULL, &h->w) == LB_OK);
  lb_humanoid_def def = lb_humanoid_default_def();
  def.naming = naming;
  if (height > 0.0f) {
    def.height = height;
  }
  LB_CHECK(lb_world_add_humanoid(h->w, &def, &h->asset) == LB_OK);
  LB_CHECK(lb_world_spawn(h->w, &h->e) == LB_OK);
  lb_rig_c rig = {h->asset};
  LB_CHECK(lb_world_insert(h->w, h->e, LB_RIG, &rig) == LB_OK);
  LB_CHECK(lb_world_step(h->w, 1.0f / 60.0f) == LB_OK);
  h->count = lb_skeleton_joint_count(h->w, h->asset);
  LB_CHECK(h->count > 0 && h->count <= LB_TEST_MAX_JOINTS);
  uint32_t n = 0;
  const lb_transform *local = lb_rig_local_pose(h->w, h->e, &n);
  const lb_transform *model = lb_rig_model_pose(h->w, h->e, &n);
  LB_CHECK(n == h->count);
  for (uint32_t j = 0; j < h->count && j < LB_TEST_MAX_JOINTS; ++j) {
    h->names[j] = lb_skeleton_joint_name(h->w, h->asset, j);
    h->parents[j] = (int16_t)lb_skeleton_joint_parent(h->w, h->asset, j);
    h->local[j] = local[j];
    h->model[j] = model[j];
  }
}

#endif
