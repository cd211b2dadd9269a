/* The controller module's internals: per-controller private state and the move. */
#ifndef LIMBER_CONTROLLER_INTERNAL_H
#define LIMBER_CONTROLLER_INTERNAL_H

#include "../modules.h"
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

/* ---- the stage split of a move, for the benches (tests/bench/bench_controller.c) --------- */
#define CTL_TRACE_QUERIES 24 /* a move makes at most 18 */

/* One query a move made: a capsule cast (core a-b, radius r) or a ray (r 0, a = b). */
typedef struct ctl_query {
  float a[3], b[3], dir[3], r, dist;
} ctl_query;

/* What one move did: its queries and where each stage of the walk started. */
typedef struct ctl_trace {
  uint32_t queries; /* recorded, at most CTL_TRACE_QUERIES */
  ctl_query q[CTL_TRACE_QUERIES];
  float delta[3], dt;
  float walk_from[3];   /* after the size and depenetration: where the slide starts */
  float snap_from[3];   /* after the foot-level slide: where the snap starts */
  float step_from[3];   /* after the snap, when the slide was blocked: the step's input */
  bool walked, stepped; /* the foot-level walk ran (not a jump); the step was tried */
} ctl_trace;

/* The controller module's per-world state. */
typedef struct ctl_world {
  ctl_trace *trace; /* when set, every move writes what it did there (benches only) */
} ctl_world;

static inline ctl_world *ctl_world_of(const lb_world *w) {
  return (ctl_world *)lb_world_module_state(w, LB_MODULE_controller);
}

typedef enum ctl_stage { CTL_STAGE_SLIDE, CTL_STAGE_SNAP, CTL_STAGE_STEP } ctl_stage_id;

/* Runs one stage of the traced move again from where it started (the controller's size as
 * it is now); the world is not changed. A stage the move did not run does nothing. */
void ctl_stage_run(lb_world *w, uint32_t slot, const ctl_trace *tr, ctl_stage_id stage);

#endif
