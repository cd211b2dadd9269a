/* Asset marks, so a failed load (scene, glTF) leaves the world's assets as they were. */
#include "world_core.h"
#include <string.h>

void lb_world_assets_mark(const lb_world *w, lb_world_mark *out) {
  memset(out, 0, sizeof *out);
  for (uint32_t m = 0; m < lb_registry_module_count(); ++m) {
    const lb_module_def *md = lb_registry_module(m);
    if (md->asset_mark) {
      md->asset_mark(w, w->module_state[m], &out->modules[m]);
    }
  }
}

void lb_world_assets_rollback(lb_world *w, const lb_world_mark *mark) {
  /* Later modules' assets refer to earlier ones' (controllers to skeletons): undo them
   * first. */
  for (uint32_t m = lb_registry_module_count(); m-- > 0;) {
    const lb_module_def *md = lb_registry_module(m);
    if (md->asset_rollback) {
      md->asset_rollback(w, w->module_state[m], &mark->modules[m]);
    }
  }
}

bool lb_world_assets_release(lb_world *w, const lb_world_mark *from, const lb_world_mark *to) {
  lb_world_mark now;
  lb_world_assets_mark(w, &now);
  if (memcmp(&now, to, sizeof now) != 0 || memcmp(from, to, sizeof *from) == 0) {
    return false;
  }
  for (uint32_t m = 0; m < lb_registry_module_count(); ++m) {
    const lb_module_def *md = lb_registry_module(m);
    if (md->asset_in_use && md->asset_in_use(w, w->module_state[m], &from->modules[m])) {
      return false;
    }
  }
  lb_world_assets_rollback(w, from);
  return true;
}
