/* Module "controller": the CharacterController component (validation, private state), the
 * `move` hook that takes an entity's movement requests (root motion, agents) and the Move
 * phase system that makes one move per controller (controller.h). */
#include "../base/format.h"
#include "../collide/collide_internal.h"
#include "../modules.h"
#include "../world/parallel.h"
#include "controller_internal.h"

#include <string.h>

/* The input a game move writes, as refusals name it. */
#define CTL_MOVE_INPUT "field 'move' (the movement request)"

#define LB_SCHEMA_STRUCT lb_character_controller_c
LB_COMPONENT_INFO(ctl_info, "CharacterController", LB_CHARACTER_CONTROLLER_FIELDS);
#undef LB_SCHEMA_STRUCT

static lb_result ctl_stage(lb_write *wr) {
  const lb_character_controller_c *c = wr->value;
  if (c->height < 2.0f * c->radius) {
    return lb_fail(wr->world, LB_ERR_DEGENERATE,
                   "%s: field 'height' = %g is less than 2 * radius (%g): the capsule's height "
                   "includes its caps",
                   wr->where, (double)c->height, (double)(2.0f * c->radius));
  }
  if (c->skin_width >= c->radius) {
    return lb_fail(wr->world, LB_ERR_OUT_OF_RANGE,
                   "%s: field 'skinWidth' = %g must be less than radius (%g)", wr->where,
                   (double)c->skin_width, (double)c->radius);
  }
  if (c->step_offset > c->height) {
    return lb_fail(wr->world, LB_ERR_OUT_OF_RANGE,
                   "%s: field 'stepOffset' = %g must be at most height (%g)", wr->where,
                   (double)c->step_offset, (double)c->height);
  }
  /* A changed movement request is a game move, refused while a system owns the movement
   * (the same rule as lb_world_controller_move). */
  const lb_character_controller_c *cur = wr->current;
  for (int k = 0; k < 3; ++k) {
    if (c->move[k] != (cur ? cur->move[k] : 0.0f)) {
      return lb_world_input_check(wr->world, wr->slot, LB_INPUT_MOVE, NULL, wr->where,
                                  CTL_MOVE_INPUT);
    }
  }
  return LB_OK;
}

static void ctl_commit(lb_write *wr, void *state) {
  ctl_state *st = state;
  lb_character_controller_c *c = lb_component_ptr(wr->world, wr->slot, LB_CHARACTER_CONTROLLER);
  if (!wr->had) {
    /* A new controller takes its size at once (the first move depenetrates it). */
    memset(st, 0, sizeof *st);
    st->applied_height = c->height;
    memcpy(st->applied_center, c->center, sizeof st->applied_center);
  }
  c->applied_height = st->applied_height;
  memcpy(c->applied_center, st->applied_center, sizeof c->applied_center);
}

/* Moves requests of an entity with a controller (a root with a Transform) into its pending
 * delta; the controller.move system applies them. */
static bool ctl_take_move(lb_world *w, uint32_t slot, const float delta[3]) {
  if (!lb_slot_has(w, slot, LB_CHARACTER_CONTROLLER) || !lb_slot_has(w, slot, LB_TRANSFORM)) {
    return false;
  }
  const lb_transform_c *t = lb_component_ptr(w, slot, LB_TRANSFORM);
  if (t->parent != LB_NULL_ENTITY && lb_slot_of(w, t->parent) >= 0) {
    return false; /* not a root: the request moves its local position as before */
  }
  ctl_state *st = ctl_state_of(w, slot);
  for (int k = 0; k < 3; ++k) {
    st->pending[k] += delta[k];
  }
  return true;
}

/* One controller's step: the step's requests into one move. Writes its own component, state
 * and Transform only; every query reads the colliders' tree as the last refit left it (a move
 * writes its position directly, which marks nothing: the Model phase refits), so controllers
 * are independent of each other's moves this step and run in parallel. */
static void ctl_move_one(lb_world *w, uint32_t s, uint32_t worker, void *context) {
  (void)worker;
  float dt = *(const float *)context;
  lb_character_controller_c *c = lb_component_ptr(w, s, LB_CHARACTER_CONTROLLER);
  ctl_state *st = ctl_state_of(w, s);
  float d[3] = {st->pending[0] + c->move[0], st->pending[1] + c->move[1],
                st->pending[2] + c->move[2]};
  memset(st->pending, 0, sizeof st->pending);
  memset(c->move, 0, sizeof c->move);
  memcpy(c->requested, d, sizeof d);
  if (c->backend == LB_CONTROLLER_BACKEND_HOST) {
    return; /* a host backend moves it after the step */
  }
  if (!lb_slot_has(w, s, LB_TRANSFORM)) {
    return;
  }
  const lb_transform_c *t = lb_component_ptr(w, s, LB_TRANSFORM);
  if (t->parent != LB_NULL_ENTITY && lb_slot_of(w, t->parent) >= 0) {
    return;
  }
  ctl_move(w, s, d, dt);
}

static void ctl_system_move(lb_world *w, float dt) {
  /* The tree is brought up to date once before the section: a query would otherwise do it
   * lazily, on whichever thread asked first. A bench trace records one move: serial then. */
  cl_sync(w, false);
  if (ctl_world_of(w)->trace) {
    uint32_t s;
    for (lb_each it = lb_each_begin(w, LB_CHARACTER_CONTROLLER); lb_each_next(&it, &s);) {
      ctl_move_one(w, s, 0u, &dt);
    }
    return;
  }
  lb_parallel_each(w, LB_CHARACTER_CONTROLLER, ctl_move_one, &dt);
}

lb_result lb_world_controller_move(lb_world *w, lb_entity e, const vec3 delta) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  int s = lb_slot_checked(w, e, "controller_move");
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  char lbl[48];
  if (!lb_slot_has(w, (uint32_t)s, LB_CHARACTER_CONTROLLER)) {
    return lb_fail(w, LB_ERR_MISSING_COMPONENT, "controller_move: %s has no CharacterController",
                   lb_entity_label(e, lbl, sizeof lbl));
  }
  if (!delta) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "controller_move: null delta");
  }
  lb_character_controller_c *c = lb_component_ptr(w, (uint32_t)s, LB_CHARACTER_CONTROLLER);
  float sum[3];
  for (int k = 0; k < 3; ++k) {
    if (!lb_is_finite(delta[k])) {
      return lb_fail(w, LB_ERR_NOT_FINITE, "controller_move: %s: delta[%d] is not finite",
                     lb_entity_label(e, lbl, sizeof lbl), k);
    }
    sum[k] = c->move[k] + delta[k];
    if (!(sum[k] >= -1e4f && sum[k] <= 1e4f)) {
      return lb_fail(w, LB_ERR_OUT_OF_RANGE,
                     "controller_move: %s: field 'move' would leave [-1e4, 1e4] (axis %d)",
                     lb_entity_label(e, lbl, sizeof lbl), k);
    }
  }
  lb_input_owner owner;
  if (lb_world_input_owned(w, (uint32_t)s, LB_INPUT_MOVE, NULL, &owner)) {
    /* the refusal's text only when there is one: a call per character per step */
    char where[64];
    lb_snprintf(where, sizeof where, "controller_move: %s", lb_entity_label(e, lbl, sizeof lbl));
    return lb_world_input_check(w, (uint32_t)s, LB_INPUT_MOVE, NULL, where, CTL_MOVE_INPUT);
  }
  memcpy(c->move, sum, sizeof sum);
  return LB_OK;
}

static const lb_component_def ctl_components[] = {
    {.type = LB_CHARACTER_CONTROLLER,
     .info = &ctl_info,
     .state_size = sizeof(ctl_state),
     .stage = ctl_stage,
     .commit = ctl_commit},
};

static const lb_system_def ctl_systems[] = {
    {LB_PHASE_MOVE, 50, "controller.move", ctl_system_move},
};

const lb_module_def lb_module_controller = {
    .name = "controller",
    .state_size = sizeof(ctl_world),
    .components = ctl_components,
    .component_count = 1,
    .systems = ctl_systems,
    .system_count = 1,
    .move = ctl_take_move,
};
