/* The anim module: the Animator component, clip and controller assets, and the systems
 * that play controllers (Animate) and apply root motion (Move). */
#include "animator_internal.h"

#define LB_SCHEMA_STRUCT lb_animator_c
LB_COMPONENT_INFO(lb_animator_info, "Animator", LB_ANIMATOR_FIELDS);
#undef LB_SCHEMA_STRUCT

static void lb_anim_asset_mark(const lb_world *w, const void *state, lb_asset_mark *out) {
  (void)w;
  const lb_anim_world *aw = state;
  out->count[0] = aw->clip_count;
  out->count[1] = aw->controller_count;
}

static void lb_anim_asset_rollback(lb_world *w, void *state, const lb_asset_mark *mark) {
  (void)state;
  lb_controllers_release(w, mark->count[1]);
  lb_clip_assets_release(w, mark->count[0]);
}

static lb_result lb_anim_asset_reserve(lb_world *w, void *state, const lb_asset_mark *upto) {
  (void)state;
  lb_result r = lb_clip_assets_reserve(w, upto->count[0]);
  return r == LB_OK ? lb_controllers_reserve(w, upto->count[1]) : r;
}

/* Controllers are the anim assets components name (clips only through controllers). */
static bool lb_anim_asset_in_use(const lb_world *w, const void *state, const lb_asset_mark *mark) {
  (void)state;
  uint32_t s;
  for (lb_each it = lb_each_begin(w, LB_ANIMATOR); lb_each_next(&it, &s);) {
    const lb_animator_c *c = lb_component_ptr(w, s, LB_ANIMATOR);
    if ((c->controller & ~LB_CONTROLLER_HANDLE_TAG) > mark->count[1]) {
      return true;
    }
  }
  return false;
}

static void lb_anim_release(lb_world *w, void *state) {
  (void)state;
  lb_controllers_release(w, 0);
  lb_clip_assets_release(w, 0);
}

static const lb_component_def lb_anim_components[] = {
    {.type = LB_ANIMATOR,
     .info = &lb_animator_info,
     .state_size = sizeof(lb_animator_instance *),
     .stage = lb_animator_stage,
     .commit = lb_animator_commit,
     .remove = lb_animator_remove},
};

static const lb_system_def lb_anim_systems[] = {
    {LB_PHASE_ANIMATE, 10, "anim.animator", lb_system_animator},
    {LB_PHASE_MOVE, 0, "anim.root_motion", lb_system_root_motion},
};

const lb_module_def lb_module_anim = {
    .name = "anim",
    .state_size = sizeof(lb_anim_world),
    .release = lb_anim_release,
    .components = lb_anim_components,
    .component_count = 1,
    .systems = lb_anim_systems,
    .system_count = 2,
    .asset_mark = lb_anim_asset_mark,
    .asset_reserve = lb_anim_asset_reserve,
    .asset_rollback = lb_anim_asset_rollback,
    .asset_in_use = lb_anim_asset_in_use,
};
