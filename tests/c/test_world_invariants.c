/* World invariants (issue "release core"): handles never come back to life; references to
 * despawned entities read as null and block no later update; a scene step that fails
 * changes nothing (dt first, then the step's timeline commands all or nothing) and names
 * the scene, the timeline index, the command and the entity; no matrix entry or world
 * transform is ever non-finite, whatever extreme value goes in. */
#include "limber/limber.h"

#include <string.h>

#include "test.h"

/* ---- handles ------------------------------------------------------------------------ */

static void test_generation_never_wraps(void) {
  lb_world_def d = lb_world_default_def();
  d.entity_capacity = 1;
  lb_world *w = NULL;
  LB_CHECK(lb_world_create(&d, &w) == LB_OK);
  lb_entity first = 0, e = 0;
  LB_CHECK(lb_world_spawn(w, &first) == LB_OK);
  e = first;
  /* 4,096 despawns of slot 0: generations 0..4095, then the slot is retired. */
  for (uint32_t i = 0; i <= LB_ENTITY_GENERATION_MAX; ++i) {
    LB_CHECK(lb_world_despawn(w, e) == LB_OK);
    LB_CHECK(lb_world_spawn(w, &e) == LB_OK);
  }
  /* The last spawn could not reuse slot 0: it took a new slot. */
  LB_CHECK((e & LB_MAX_ENTITIES) == 2u);
  LB_CHECK(!lb_world_alive(w, first));
  lb_transform_c xf;
  lb_component_defaults(LB_TRANSFORM, &xf);
  LB_CHECK(lb_world_insert(w, first, LB_TRANSFORM, &xf) == LB_ERR_STALE_ENTITY);
  LB_CHECK(lb_world_get(w, first, LB_TRANSFORM, &xf) == LB_ERR_STALE_ENTITY);
  /* Every old handle of slot 0 stays stale from now on. */
  for (uint32_t g = 0; g <= LB_ENTITY_GENERATION_MAX; ++g) {
    LB_CHECK(!lb_world_alive(w, (g << LB_ENTITY_INDEX_BITS) | 1u));
  }
  for (int i = 0; i < 8; ++i) {
    lb_entity n = 0;
    LB_CHECK(lb_world_spawn(w, &n) == LB_OK && (n & LB_MAX_ENTITIES) != 1u);
  }
  lb_world_destroy(w);
}

/* ---- references to despawned entities --------------------------------------------- */

typedef struct refs {
  lb_world *w;
  lb_entity hero, target, child, arm, rifle, grip;
} refs;

static void refs_setup(refs *r) {
  memset(r, 0, sizeof *r);
  LB_CHECK(lb_world_create(NULL, &r->w) == LB_OK);
  lb_world *w = r->w;
  uint32_t asset = 0;
  lb_humanoid_def hd = lb_humanoid_default_def();
  LB_CHECK(lb_world_add_humanoid(w, &hd, &asset) == LB_OK);
  lb_world_spawn(w, &r->hero);
  lb_world_spawn(w, &r->target);
  lb_world_spawn(w, &r->child);
  lb_world_spawn(w, &r->arm);
  lb_world_spawn(w, &r->rifle);
  lb_world_spawn(w, &r->grip);
  lb_transform_c xf;
  lb_component_defaults(LB_TRANSFORM, &xf);
  LB_CHECK(lb_world_insert(w, r->hero, LB_TRANSFORM, &xf) == LB_OK);
  lb_rig_c rig = {asset};
  LB_CHECK(lb_world_insert(w, r->hero, LB_RIG, &rig) == LB_OK);
  xf.position[1] = 1.2f;
  xf.position[2] = 0.3f;
  LB_CHECK(lb_world_insert(w, r->target, LB_TRANSFORM, &xf) == LB_OK);
  LB_CHECK(lb_world_insert(w, r->rifle, LB_TRANSFORM, &xf) == LB_OK);
  lb_component_defaults(LB_TRANSFORM, &xf);
  xf.parent = r->hero;
  xf.parent_joint = lb_world_name(w, "RightHand");
  LB_CHECK(lb_world_insert(w, r->child, LB_TRANSFORM, &xf) == LB_OK);
  xf.parent = r->rifle;
  xf.parent_joint = 0;
  LB_CHECK(lb_world_insert(w, r->grip, LB_TRANSFORM, &xf) == LB_OK);
  lb_two_bone_ik_c ik;
  lb_component_defaults(LB_TWO_BONE_IK, &ik);
  ik.rig = r->hero;
  ik.target = r->target;
  ik.hint = r->target;
  LB_CHECK(lb_world_insert(w, r->arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  lb_grip_profile_c prof;
  lb_component_defaults(LB_GRIP_PROFILE, &prof);
  prof.main_anchor = r->grip;
  LB_CHECK(lb_world_insert(w, r->rifle, LB_GRIP_PROFILE, &prof) == LB_OK);
  lb_grip_holder_c gh;
  lb_component_defaults(LB_GRIP_HOLDER, &gh);
  gh.held = r->rifle;
  LB_CHECK(lb_world_insert(w, r->hero, LB_GRIP_HOLDER, &gh) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
}

static void test_despawned_references(void) {
  refs r;
  refs_setup(&r);
  lb_world *w = r.w;
  /* The IK target and the held object go. */
  LB_CHECK(lb_world_despawn(w, r.target) == LB_OK);
  LB_CHECK(lb_world_despawn(w, r.grip) == LB_OK);
  lb_two_bone_ik_c ik;
  LB_CHECK(lb_world_get(w, r.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  LB_CHECK(ik.target == LB_NULL_ENTITY && ik.hint == LB_NULL_ENTITY && ik.rig == r.hero);
  /* Read, change another field, write back: accepted (was LB_ERR_STALE_ENTITY). */
  ik.weight = 0.5f;
  lb_result res = lb_world_set(w, r.arm, LB_TWO_BONE_IK, &ik);
  if (res != LB_OK) {
    fprintf(stderr, "  update after despawn: %s\n", lb_world_last_error(w));
  }
  LB_CHECK(res == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_world_get(w, r.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  LB_CHECK(ik.weight == 0.5f && ik.target == LB_NULL_ENTITY && ik.reached == 0);
  /* A stale handle written where the field did not hold it is still an error. */
  lb_entity stale_target = r.target;
  lb_two_bone_ik_c other = ik;
  other.hint = stale_target;
  LB_CHECK(lb_world_get(w, r.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  /* hint held the same stale handle: writing it back is "unchanged" and fine. */
  LB_CHECK(lb_world_set(w, r.arm, LB_TWO_BONE_IK, &other) == LB_OK);
  lb_transform_c xf;
  lb_component_defaults(LB_TRANSFORM, &xf);
  xf.parent = stale_target;
  LB_CHECK(lb_world_set(w, r.rifle, LB_TRANSFORM, &xf) == LB_ERR_STALE_ENTITY);
  /* A live target replaces the stale one. */
  lb_entity t2 = 0;
  lb_world_spawn(w, &t2);
  lb_component_defaults(LB_TRANSFORM, &xf);
  xf.position[1] = 1.0f;
  LB_CHECK(lb_world_insert(w, t2, LB_TRANSFORM, &xf) == LB_OK);
  ik.target = t2;
  LB_CHECK(lb_world_set(w, r.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  /* The rig itself goes: the constraint idles and stays writable. */
  lb_grip_holder_c gh;
  LB_CHECK(lb_world_get(w, r.hero, LB_GRIP_HOLDER, &gh) == LB_OK && gh.held == r.rifle);
  LB_CHECK(lb_world_despawn(w, r.rifle) == LB_OK);
  LB_CHECK(lb_world_get(w, r.hero, LB_GRIP_HOLDER, &gh) == LB_OK && gh.held == LB_NULL_ENTITY);
  gh.weight = 0.25f;
  LB_CHECK(lb_world_set(w, r.hero, LB_GRIP_HOLDER, &gh) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  LB_CHECK(lb_world_despawn(w, r.hero) == LB_OK);
  LB_CHECK(lb_world_get(w, r.arm, LB_TWO_BONE_IK, &ik) == LB_OK && ik.rig == LB_NULL_ENTITY);
  ik.soften = 0.75f;
  LB_CHECK(lb_world_set(w, r.arm, LB_TWO_BONE_IK, &ik) == LB_OK);
  LB_CHECK(lb_world_step(w, 1.0f / 60.0f) == LB_OK);
  /* The Transform child of the despawned hero is a root now, and says so. */
  LB_CHECK(lb_world_get(w, r.child, LB_TRANSFORM, &xf) == LB_OK);
  LB_CHECK(xf.parent == LB_NULL_ENTITY && xf.parent_joint == 0);
  xf.position[0] = 2.0f;
  LB_CHECK(lb_world_set(w, r.child, LB_TRANSFORM, &xf) == LB_OK);
  lb_world_destroy(w);
}

int main(void) {
  LB_RUN(test_generation_never_wraps);
  LB_RUN(test_despawned_references);
  LB_TEST_MAIN_END();
}
