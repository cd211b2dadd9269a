/* The phase runner and the world hash: the modules' systems in pipeline order, no
 * allocation, no clock but dt. */
#include "../base/fnv.h"
#include "world_core.h"

bool lb_world_dt_valid(float dt) {
  return dt == 0.0f || (lb_is_finite(dt) && dt >= LB_STEP_DT_MIN && dt <= 1.0f);
}

lb_result lb_world_step(lb_world *w, float dt) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!lb_world_dt_valid(dt)) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE, "step: dt = %g s must be 0 (paused) or within [%g, 1] s",
                   (double)dt, (double)LB_STEP_DT_MIN);
  }
  for (uint32_t i = 0; i < w->system_count; ++i) {
    w->systems[i].def->run(w, dt);
  }
  w->steps++;
  return LB_OK;
}

void lb_world_run_phase(lb_world *w, lb_phase phase, float dt) {
  for (uint32_t i = 0; i < w->system_count; ++i) {
    if (w->systems[i].def->phase == phase) {
      w->systems[i].def->run(w, dt);
    }
  }
}

uint64_t lb_world_hash(const lb_world *w) {
  uint64_t h = LB_FNV_OFFSET;
  if (!w) {
    return h;
  }
  for (uint32_t m = 0; m < lb_registry_module_count(); ++m) {
    const lb_module_def *md = lb_registry_module(m);
    if (md->hash) {
      h = md->hash(w, h);
    }
  }
  return h;
}
