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

int main(void) {
  LB_RUN(test_generation_never_wraps);
  LB_TEST_MAIN_END();
}
