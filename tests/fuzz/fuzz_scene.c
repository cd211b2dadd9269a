/* libFuzzer target: scene JSON and component JSON parsing, then a few steps.
 * Any input must give LB_OK or a clear error; never a crash, leak or UB. */
#include "limber/limber.h"
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  lb_world *w = NULL;
  if (lb_world_create(NULL, &w) != LB_OK) {
    return 0;
  }
  lb_scene *scene = NULL;
  if (lb_scene_load(w, (const char *)data, size, &scene) == LB_OK) {
    for (int i = 0; i < 4; ++i) {
      lb_scene_step(w, scene, 1.0f / 60.0f);
    }
    (void)lb_world_hash(w);
    lb_scene_destroy(w, scene);
  } else if (lb_world_last_error(w)[0] == 0) {
    __builtin_trap(); /* a failure must always say why */
  }
  /* The same bytes as one component's fields. */
  for (uint32_t t = 0; t < lb_component_count(); ++t) {
    _Alignas(16) uint8_t buf[LB_COMPONENT_MAX_SIZE];
    lb_component_defaults(t, buf);
    lb_component_from_json(w, NULL, t, (const char *)data, size, buf);
  }
  lb_world_destroy(w);
  return 0;
}
