/* The nav module: navmesh assets (navmesh.c) and the queries on them (nav_query.c). No
 * component yet; the NavAgent component will join this table. */
#include "nav_internal.h"

static void lb_nav_asset_mark(const lb_world *w, const void *state, lb_asset_mark *out) {
  (void)w;
  const lb_nav_world *nw = state;
  out->count[0] = nw->mesh_count;
}

static void lb_nav_asset_rollback(lb_world *w, void *state, const lb_asset_mark *mark) {
  (void)state;
  lb_navmeshes_release(w, mark->count[0]);
}

static void lb_nav_release(lb_world *w, void *state) {
  (void)state;
  lb_navmeshes_release(w, 0);
}

const lb_module_def lb_module_nav = {
    .name = "nav",
    .state_size = sizeof(lb_nav_world),
    .release = lb_nav_release,
    .asset_mark = lb_nav_asset_mark,
    .asset_rollback = lb_nav_asset_rollback,
};
