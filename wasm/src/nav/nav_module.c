/* The nav module: navmesh assets (navmesh.c), the queries on them (nav_query.c) and the
 * NavAgent component with its Move system (nav_agent.c). */
#include "nav_internal.h"

static void nav_asset_mark(const lb_world *w, const void *state, lb_asset_mark *out) {
  (void)w;
  const lb_nav_world *nw = state;
  out->count[0] = nw->mesh_count;
}

static void nav_asset_rollback(lb_world *w, void *state, const lb_asset_mark *mark) {
  (void)state;
  lb_navmeshes_release(w, mark->count[0]);
}

static lb_result nav_asset_reserve(lb_world *w, void *state, const lb_asset_mark *upto) {
  (void)state;
  return lb_navmeshes_reserve(w, upto->count[0]);
}

/* Agents name meshes by handle: one added after the mark is in use while an agent names it. */
static bool nav_asset_in_use(const lb_world *w, const void *state, const lb_asset_mark *mark) {
  (void)state;
  return lb_nav_agents_use(w, mark->count[0] + 1u);
}

static void nav_release(lb_world *w, void *state) {
  (void)state;
  lb_navmeshes_release(w, 0);
  lb_nav_crowd_release(w);
}

const lb_module_def lb_module_nav = {
    .name = "nav",
    .state_size = sizeof(lb_nav_world),
    .release = nav_release,
    .asset_mark = nav_asset_mark,
    .asset_reserve = nav_asset_reserve,
    .asset_rollback = nav_asset_rollback,
    .asset_in_use = nav_asset_in_use,
    .components = lb_nav_components,
    .component_count = LB_NAV_COMPONENT_COUNT,
    .systems = lb_nav_systems,
    .system_count = LB_NAV_SYSTEM_COUNT,
    .changed = lb_nav_changed,
    .move = lb_nav_take_move,
    .owner = lb_nav_owner,
};
