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

/* Every module's asset counts, in one flat array (module-major). */
#define LB_ASSET_COUNTS ((uint32_t)(LB_MODULES_MAX * LB_ASSET_KINDS_MAX))

uint32_t lb_world_asset_counts(const lb_world *w, uint32_t *out, uint32_t cap) {
  lb_world_mark m;
  lb_world_assets_mark(w, &m);
  const uint32_t *c = &m.modules[0].count[0];
  for (uint32_t i = 0; out && i < LB_ASSET_COUNTS && i < cap; ++i) {
    out[i] = c[i];
  }
  return LB_ASSET_COUNTS;
}

lb_result lb_world_asset_counts_reserve(lb_world *w, const uint32_t *counts, uint32_t n) {
  lb_world_mark m;
  if (!w || (!counts && n)) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "asset_counts_reserve: null counts")
             : LB_ERR_INVALID_ARGUMENT;
  }
  if (n != LB_ASSET_COUNTS) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                   "asset_counts_reserve: %u counts, this build has %u (lb_world_asset_counts)",
                   (unsigned)n, (unsigned)LB_ASSET_COUNTS);
  }
  memcpy(&m.modules[0].count[0], counts, sizeof m.modules);
  for (uint32_t i = 0; i < lb_registry_module_count(); ++i) {
    const lb_module_def *md = lb_registry_module(i);
    if (md->asset_reserve) {
      lb_result r = md->asset_reserve(w, w->module_state[i], &m.modules[i]);
      if (r != LB_OK) {
        return lb_fail(w, r, "asset_counts_reserve: module %s: out of memory", md->name);
      }
    }
  }
  return LB_OK;
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
