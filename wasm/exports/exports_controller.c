/* CharacterController exports (controller.h): script moves. Every check lives in the core. */
#include "limber/limber.h"

#include "exports.h"

/* delta: float[3], metres, added to this step's movement request. */
LBW_EXPORT(lbw_controller_move)
int lbw_controller_move(lb_world *w, lb_entity e, const float *delta) {
  return lb_world_controller_move(w, e, delta);
}
