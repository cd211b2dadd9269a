/* The controller module's internals: per-controller private state and the move. */
#ifndef LIMBER_CONTROLLER_INTERNAL_H
#define LIMBER_CONTROLLER_INTERNAL_H

#include "../world/world_core.h"
#include "limber/collide.h"
#include "limber/controller.h"

/* Private state beside each CharacterController. */
typedef struct ctl_state {
  float pending[3];     /* requests of this step (root motion, agents), world metres */
  float applied_height; /* capsule size in use */
  float applied_center[3];
} ctl_state;

static inline ctl_state *ctl_state_of(const lb_world *w, uint32_t slot) {
  return (ctl_state *)lb_component_state(w, slot, LB_CHARACTER_CONTROLLER);
}

/* One move of the controller on `slot` by delta over dt seconds (dt 0: velocity 0). Moves
 * the Transform position, writes the component's outputs. Allocation-free. */
void ctl_move(lb_world *w, uint32_t slot, const float delta[3], float dt);

#endif
