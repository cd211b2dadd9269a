/* The Animator component's rules (run by the generic write on a staging copy), its per-entity
 * runtime state, and the parameter, root-motion and status API. */
#include "../base/format.h"
#include "animator_internal.h"
#include <stdio.h>
#include <string.h>

static void lb_instance_free(lb_world *w, lb_animator_instance *inst) {
  if (!inst) {
    return;
  }
  lb_free(w, inst->params);
  lb_free(w, inst->keys);
  lb_free(w, inst->poses);
  lb_free(w, inst);
}

/* Fresh state at the entry state with the default parameters. Allocates everything a step
 * will need, so steps never allocate. */
static lb_animator_instance *lb_instance_new(lb_world *w, uint32_t handle,
                                             const lb_animator_controller *c) {
  const lb_skeleton *sk = lb_skeleton_get(w, c->skeleton);
  lb_animator_instance *inst = lb_alloc(w, sizeof *inst);
  if (!inst || !sk) {
    lb_free(w, inst);
    return NULL;
  }
  inst->params = lb_alloc_array(w, 4u * (size_t)c->param_count, sizeof(float));
  inst->keys = lb_alloc_array(w, c->cursor_keys, sizeof(uint32_t));
  inst->poses =
      lb_alloc_array(w, (size_t)LB_ANIM_MAX_LAYERS * sk->joint_count, sizeof(lb_transform));
  if (!inst->params || !inst->keys || !inst->poses) {
    lb_instance_free(w, inst);
    return NULL;
  }
  inst->controller = handle;
  inst->skeleton = c->skeleton;
  inst->joint_count = sk->joint_count;
  inst->damped = inst->params + c->param_count;
  inst->rate = inst->damped + c->param_count;
  inst->damp = inst->rate + c->param_count;
  for (uint32_t i = 0; i < c->param_count; ++i) {
    inst->params[i] = inst->damped[i] = c->params[i].value;
    inst->damp[i] = c->params[i].damp;
  }
  inst->cur.state = c->entry;
  inst->prev.state = -1;
  inst->status.state = c->entry;
  inst->status.previous = -1;
  inst->status.weight = 1.0f;
  inst->status.idle = true;
  return inst;
}

lb_result lb_animator_stage(lb_write *wr) {
  lb_world *w = wr->world;
  const char *where = wr->where;
  uint32_t slot = wr->slot;
  const lb_animator_c *c = wr->value;
  lb_animator_instance **out = (lb_animator_instance **)wr->prep;
  if (!lb_slot_has(w, slot, LB_RIG)) {
    return lb_fail(w, LB_ERR_MISSING_COMPONENT, "%s: the entity needs a Rig (insert it first)",
                   where);
  }
  const lb_animator_controller *ctrl = lb_controller_get(w, c->controller);
  if (!ctrl) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME, "%s: field 'controller' = %u is not a controller asset",
                   where, c->controller);
  }
  uint32_t rig_asset = lb_rig_of_slot(w, slot)->asset;
  if (rig_asset != ctrl->skeleton) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                   "%s: field 'controller': controller '%s' animates skeleton %u but the Rig's "
                   "asset is %u",
                   where, ctrl->name, ctrl->skeleton, rig_asset);
  }
  const lb_animator_instance *have = lb_animator_of_slot(w, slot);
  if (have && have->controller == c->controller && have->skeleton == rig_asset) {
    return LB_OK; /* same controller: parameters and playback carry on */
  }
  *out = lb_instance_new(w, c->controller, ctrl);
  if (!*out) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "%s: cannot allocate the animator state", where);
  }
  return LB_OK;
}

void lb_animator_commit(lb_write *wr, void *state) {
  lb_world *w = wr->world;
  lb_animator_instance *fresh = *(lb_animator_instance **)wr->prep;
  lb_animator_instance **held = state;
  if (!fresh) {
    return;
  }
  lb_instance_free(w, *held);
  *held = fresh;
  /* The outputs show the entry state until the first step. */
  lb_animator_c *c = lb_component_ptr(w, wr->slot, LB_ANIMATOR);
  const lb_animator_controller *ctrl = lb_controller_get(w, c->controller);
  c->state = ctrl->states[ctrl->entry].name_id;
  c->state_time = 0.0f;
  c->blend = 1.0f;
}

void lb_animator_remove(lb_world *w, uint32_t slot, void *value, void *state) {
  (void)value;
  lb_rig_instance *rig = lb_rig_of_slot(w, slot);
  if (rig) {
    rig->driven = false; /* the next start pose copies the animation pose again */
  }
  lb_animator_instance **held = state;
  lb_instance_free(w, *held);
  *held = NULL;
}

/* ---- parameters ---------------------------------------------------------------------------- */

static const char *const type_names[] = {"float", "bool", "trigger"};

/* The entity's Animator state, or null with the error recorded. */
static lb_animator_instance *lb_animator_of(lb_world *w, lb_entity e, const char *what,
                                            const lb_animator_controller **ctrl) {
  int s = lb_slot_checked(w, e, what);
  if (s < 0) {
    return NULL;
  }
  char lbl[48];
  lb_animator_instance *inst = lb_animator_of_slot(w, (uint32_t)s);
  if (!inst) {
    lb_fail(w, LB_ERR_MISSING_COMPONENT, "%s: %s has no Animator", what,
            lb_entity_label(e, lbl, sizeof lbl));
    return NULL;
  }
  *ctrl = lb_controller_get(w, inst->controller);
  return inst;
}

static int lb_param_checked(lb_world *w, lb_entity e, const lb_animator_controller *ctrl,
                            const char *what, const char *name) {
  char lbl[48];
  int i = lb_controller_find_param(ctrl, name);
  if (i < 0) {
    lb_fail(w, LB_ERR_UNKNOWN_NAME, "%s: Animator on %s: controller '%s' has no parameter '%s'",
            what, lb_entity_label(e, lbl, sizeof lbl), ctrl->name, name ? name : "(null)");
  }
  return i;
}

lb_result lb_animator_set_param(lb_world *w, lb_entity e, const char *name, float value,
                                lb_anim_param_type type) {
  static const char *const what[] = {"set_animator_float", "set_animator_bool",
                                     "set_animator_trigger"};
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  const lb_animator_controller *ctrl = NULL;
  lb_animator_instance *inst = lb_animator_of(w, e, what[type], &ctrl);
  if (!inst) {
    return lb_slot_of(w, e) < 0 ? LB_ERR_STALE_ENTITY : LB_ERR_MISSING_COMPONENT;
  }
  int i = lb_param_checked(w, e, ctrl, what[type], name);
  if (i < 0) {
    return LB_ERR_UNKNOWN_NAME;
  }
  char lbl[48];
  if (ctrl->params[i].type != (uint32_t)type) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                   "%s: Animator on %s: parameter '%s' is a %s, not a %s", what[type],
                   lb_entity_label(e, lbl, sizeof lbl), name, type_names[ctrl->params[i].type],
                   type_names[type]);
  }
  if (!lb_is_finite(value)) {
    return lb_fail(w, LB_ERR_NOT_FINITE, "%s: Animator on %s: parameter '%s' = %g is not finite",
                   what[type], lb_entity_label(e, lbl, sizeof lbl), name, (double)value);
  }
  /* A system that writes this parameter itself (a NavAgent's locomotion value) would undo
   * the game's value, or the game's would undo its own: one owner at a time. */
  char where[96], input[LB_ANIM_NAME_MAX + 16];
  lb_snprintf(where, sizeof where, "%s: Animator on %s", what[type],
              lb_entity_label(e, lbl, sizeof lbl));
  lb_snprintf(input, sizeof input, "parameter '%s'", name);
  lb_result busy = lb_world_input_check(w, (uint32_t)lb_slot_of(w, e), LB_INPUT_ANIMATOR_PARAM,
                                        name, where, input);
  if (busy != LB_OK) {
    return busy;
  }
  inst->params[i] = value;
  return LB_OK;
}

lb_result lb_world_set_animator_float(lb_world *w, lb_entity e, const char *name, float value) {
  return lb_animator_set_param(w, e, name, value, LB_ANIM_PARAM_FLOAT);
}

lb_result lb_world_set_animator_float_damped(lb_world *w, lb_entity e, const char *name,
                                             float value, float damp) {
  if (w && !(damp >= 0.0f && damp <= LB_ANIM_MAX_SECONDS)) {
    char lbl[48];
    return lb_fail(w, lb_is_finite(damp) ? LB_ERR_OUT_OF_RANGE : LB_ERR_NOT_FINITE,
                   "set_animator_float: Animator on %s: parameter '%s': damp = %g s is outside "
                   "[0, %g]",
                   lb_entity_label(e, lbl, sizeof lbl), name ? name : "", (double)damp,
                   (double)LB_ANIM_MAX_SECONDS);
  }
  lb_result r = lb_animator_set_param(w, e, name, value, LB_ANIM_PARAM_FLOAT);
  if (r == LB_OK) {
    const lb_animator_controller *ctrl = NULL;
    lb_animator_instance *inst = lb_animator_of(w, e, "set_animator_float", &ctrl);
    inst->damp[lb_controller_find_param(ctrl, name)] = damp;
  }
  return r;
}

lb_result lb_world_get_animator_damped(lb_world *w, lb_entity e, const char *name, float *value) {
  float set = 0.0f;
  lb_result r = lb_world_get_animator_param(w, e, name, &set, NULL);
  if (r == LB_OK) {
    const lb_animator_controller *ctrl = NULL;
    lb_animator_instance *inst = lb_animator_of(w, e, "get_animator_param", &ctrl);
    *value = inst->damped[lb_controller_find_param(ctrl, name)];
  }
  return r;
}

lb_result lb_world_set_animator_bool(lb_world *w, lb_entity e, const char *name, bool value) {
  return lb_animator_set_param(w, e, name, value ? 1.0f : 0.0f, LB_ANIM_PARAM_BOOL);
}

lb_result lb_world_set_animator_trigger(lb_world *w, lb_entity e, const char *name, bool set) {
  return lb_animator_set_param(w, e, name, set ? 1.0f : 0.0f, LB_ANIM_PARAM_TRIGGER);
}

lb_result lb_world_get_animator_param(lb_world *w, lb_entity e, const char *name, float *value,
                                      lb_anim_param_type *type) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!value) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "get_animator_param: null value");
  }
  const lb_animator_controller *ctrl = NULL;
  lb_animator_instance *inst = lb_animator_of(w, e, "get_animator_param", &ctrl);
  if (!inst) {
    return lb_slot_of(w, e) < 0 ? LB_ERR_STALE_ENTITY : LB_ERR_MISSING_COMPONENT;
  }
  int i = lb_param_checked(w, e, ctrl, "get_animator_param", name);
  if (i < 0) {
    return LB_ERR_UNKNOWN_NAME;
  }
  *value = inst->params[i];
  if (type) {
    *type = (lb_anim_param_type)ctrl->params[i].type;
  }
  return LB_OK;
}

lb_result lb_world_root_motion(lb_world *w, lb_entity e, lb_root_motion *out) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!out) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "root_motion: null out");
  }
  const lb_animator_controller *ctrl = NULL;
  lb_animator_instance *inst = lb_animator_of(w, e, "root_motion", &ctrl);
  if (!inst) {
    return lb_slot_of(w, e) < 0 ? LB_ERR_STALE_ENTITY : LB_ERR_MISSING_COMPONENT;
  }
  *out = inst->motion;
  return LB_OK;
}

lb_result lb_world_animator_status(lb_world *w, lb_entity e, lb_animator_status *out) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!out) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "animator_status: null out");
  }
  const lb_animator_controller *ctrl = NULL;
  lb_animator_instance *inst = lb_animator_of(w, e, "animator_status", &ctrl);
  if (!inst) {
    return lb_slot_of(w, e) < 0 ? LB_ERR_STALE_ENTITY : LB_ERR_MISSING_COMPONENT;
  }
  *out = inst->status;
  return LB_OK;
}
