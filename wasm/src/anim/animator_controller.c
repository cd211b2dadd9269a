/* Animator controller assets: validation of a def (all of it, before anything is added), the
 * compiled form (names resolved to indices and clip handles) and read access. */
#include "../base/array.h"
#include "../base/format.h"
#include "animator_internal.h"
#include <string.h>

lb_animator_controller_def lb_animator_controller_default_def(void) {
  lb_animator_controller_def d;
  memset(&d, 0, sizeof d);
  return d;
}

lb_anim_state_def lb_anim_state_default_def(void) {
  lb_anim_state_def d;
  memset(&d, 0, sizeof d);
  d.speed = 1.0f;
  d.loop = true;
  d.next_fade = 0.25f;
  return d;
}

lb_anim_transition_def lb_anim_transition_default_def(void) {
  lb_anim_transition_def d;
  memset(&d, 0, sizeof d);
  d.fade = 0.25f;
  d.exit_time = -1.0f;
  return d;
}

const lb_animator_controller *lb_controller_get(const lb_world *w, uint32_t handle) {
  if (!w || !(handle & LB_CONTROLLER_HANDLE_TAG)) {
    return NULL;
  }
  uint32_t index = (handle & ~LB_CONTROLLER_HANDLE_TAG) - 1u;
  return index < lb_anim_world_of(w)->controller_count ? lb_anim_world_of(w)->controllers[index]
                                                       : NULL;
}

int lb_controller_find_param(const lb_animator_controller *c, const char *name) {
  for (uint32_t i = 0; c && name && i < c->param_count; ++i) {
    if (strcmp(c->params[i].name, name) == 0) {
      return (int)i;
    }
  }
  return -1;
}

lb_result lb_controllers_reserve(lb_world *w, uint32_t upto) {
  lb_anim_world *aw = lb_anim_world_of(w);
  if (upto <= aw->controller_count) {
    return LB_OK;
  }
  if (lb_array_reserve(&w->allocator, (void **)&aw->controllers, &aw->controller_capacity,
                       aw->controller_count, upto, sizeof(lb_animator_controller *), 4u) != LB_OK) {
    return LB_ERR_OUT_OF_MEMORY;
  }
  /* null: no controller (lb_controller_get answers null, release frees nothing) */
  for (uint32_t i = aw->controller_count; i < upto; ++i) {
    aw->controllers[i] = NULL;
  }
  aw->controller_count = upto;
  return LB_OK;
}

void lb_controllers_release(lb_world *w, uint32_t keep) {
  lb_anim_world *aw = lb_anim_world_of(w);
  while (aw->controller_count > keep) {
    lb_free(w, aw->controllers[--aw->controller_count]);
  }
  if (keep == 0) {
    lb_free(w, aw->controllers);
    aw->controllers = NULL;
    aw->controller_capacity = 0;
  }
}

/* ---- validation ---------------------------------------------------------------------------- */

/* 1 .. max-1 bytes. */
static bool lb_name_ok(const char *s, size_t max) {
  if (!s) {
    return false;
  }
  size_t n = 0;
  while (n < max && s[n]) {
    ++n;
  }
  return n > 0 && n < max;
}

static bool lb_empty(const char *s) {
  return !s || !s[0];
}

typedef struct checker {
  lb_world *w;
  const lb_animator_controller_def *def;
  const lb_skeleton *sk;
  char where[LB_JOINT_NAME_MAX + 32];
} checker;

static int lb_def_param(const checker *c, const char *name) {
  for (uint32_t i = 0; name && i < c->def->param_count; ++i) {
    if (strcmp(c->def->params[i].name, name) == 0) {
      return (int)i;
    }
  }
  return -1;
}

static int lb_def_state(const checker *c, const char *name) {
  for (uint32_t i = 0; name && i < c->def->state_count; ++i) {
    if (strcmp(c->def->states[i].name, name) == 0) {
      return (int)i;
    }
  }
  return -1;
}

static lb_result lb_check_range(const checker *c, const char *what, float v, float lo, float hi) {
  if (!lb_is_finite(v)) {
    return lb_fail(c->w, LB_ERR_NOT_FINITE, "%s: %s is not finite", c->where, what);
  }
  if (v < lo || v > hi) {
    return lb_fail(c->w, LB_ERR_OUT_OF_RANGE, "%s: %s = %g is outside [%g, %g]", c->where, what,
                   (double)v, (double)lo, (double)hi);
  }
  return LB_OK;
}

static lb_result lb_check_params(const checker *c) {
  const lb_animator_controller_def *d = c->def;
  if (d->param_count > LB_ANIM_MAX_PARAMS) {
    return lb_fail(c->w, LB_ERR_CAPACITY, "%s: %u parameters (at most %d)", c->where,
                   d->param_count, LB_ANIM_MAX_PARAMS);
  }
  if (d->param_count && !d->params) {
    return lb_fail(c->w, LB_ERR_INVALID_ARGUMENT, "%s: params is null", c->where);
  }
  for (uint32_t i = 0; i < d->param_count; ++i) {
    const lb_anim_param_def *p = &d->params[i];
    if (!lb_name_ok(p->name, LB_ANIM_NAME_MAX)) {
      return lb_fail(c->w, LB_ERR_OUT_OF_RANGE, "%s: parameter %u needs a name of 1..%d bytes",
                     c->where, i, LB_ANIM_NAME_MAX - 1);
    }
    if (lb_def_param(c, p->name) != (int)i) {
      return lb_fail(c->w, LB_ERR_UNKNOWN_NAME, "%s: parameter '%s' is declared twice", c->where,
                     p->name);
    }
    if ((unsigned)p->type > LB_ANIM_PARAM_TRIGGER) {
      return lb_fail(c->w, LB_ERR_INVALID_ARGUMENT, "%s: parameter '%s' has unknown type %d",
                     c->where, p->name, (int)p->type);
    }
    if (!lb_is_finite(p->value)) {
      return lb_fail(c->w, LB_ERR_NOT_FINITE, "%s: parameter '%s': default is not finite", c->where,
                     p->name);
    }
    if (p->type != LB_ANIM_PARAM_FLOAT && p->value != 0.0f && p->value != 1.0f) {
      return lb_fail(c->w, LB_ERR_OUT_OF_RANGE, "%s: parameter '%s': default %g must be 0 or 1",
                     c->where, p->name, (double)p->value);
    }
    if (!(p->damp >= 0.0f && p->damp <= LB_ANIM_MAX_SECONDS) ||
        (p->type != LB_ANIM_PARAM_FLOAT && p->damp != 0.0f)) {
      return lb_fail(c->w, lb_is_finite(p->damp) ? LB_ERR_OUT_OF_RANGE : LB_ERR_NOT_FINITE,
                     "%s: parameter '%s': damp = %g s must be within [0, %g] (floats only)",
                     c->where, p->name, (double)p->damp, (double)LB_ANIM_MAX_SECONDS);
    }
  }
  return LB_OK;
}

/* Resolves a clip name on the controller's skeleton; explains a clip of another skeleton. */
static lb_result lb_resolve_clip(const checker *c, const char *state, const char *clip,
                                 uint32_t root_joint, uint32_t *out) {
  if (!lb_name_ok(clip, LB_JOINT_NAME_MAX)) {
    return lb_fail(c->w, LB_ERR_OUT_OF_RANGE,
                   "%s: state '%s': a clip name of 1..%d bytes is needed", c->where, state,
                   LB_JOINT_NAME_MAX - 1);
  }
  uint32_t h = lb_world_find_clip(c->w, c->def->skeleton, clip);
  if (h == 0) {
    uint32_t other = lb_world_find_clip(c->w, 0, clip);
    if (other) {
      return lb_fail(c->w, LB_ERR_INVALID_ARGUMENT,
                     "%s: state '%s': clip '%s' animates skeleton %u, not the controller's "
                     "skeleton %u",
                     c->where, state, clip, lb_world_clip_skeleton(c->w, other), c->def->skeleton);
    }
    return lb_fail(c->w, LB_ERR_UNKNOWN_NAME, "%s: state '%s': no clip '%s' on skeleton %u",
                   c->where, state, clip, c->def->skeleton);
  }
  if (lb_world_clip(c->w, h)->joint_count <= root_joint) {
    return lb_fail(c->w, LB_ERR_INVALID_ARGUMENT,
                   "%s: state '%s': clip '%s' has no tracks for the root joint %u", c->where, state,
                   clip, root_joint);
  }
  *out = h;
  return LB_OK;
}

/* A blend space state: a declared float parameter and 2..LB_ANIM_MAX_POINTS points with
 * clips and finite, strictly ascending values. */
static lb_result lb_check_blend_space(const checker *c, const lb_anim_state_def *s,
                                      uint32_t root_joint) {
  if (!s->parameter) {
    return lb_fail(c->w, LB_ERR_INVALID_ARGUMENT, "%s: state '%s' needs a clip or a blend space",
                   c->where, s->name);
  }
  int p = lb_def_param(c, s->parameter);
  if (p < 0) {
    return lb_fail(c->w, LB_ERR_UNKNOWN_NAME,
                   "%s: state '%s': blend parameter '%s' is not declared", c->where, s->name,
                   s->parameter);
  }
  if (c->def->params[p].type != LB_ANIM_PARAM_FLOAT) {
    return lb_fail(c->w, LB_ERR_INVALID_ARGUMENT,
                   "%s: state '%s': blend parameter '%s' must be a float", c->where, s->name,
                   s->parameter);
  }
  if (s->point_count < 2 || s->point_count > LB_ANIM_MAX_POINTS) {
    return lb_fail(c->w,
                   s->point_count > LB_ANIM_MAX_POINTS ? LB_ERR_CAPACITY : LB_ERR_OUT_OF_RANGE,
                   "%s: state '%s': a blend space needs 2..%d points, has %u", c->where, s->name,
                   LB_ANIM_MAX_POINTS, s->point_count);
  }
  if (!s->points) {
    return lb_fail(c->w, LB_ERR_INVALID_ARGUMENT, "%s: state '%s': points is null", c->where,
                   s->name);
  }
  for (uint32_t k = 0; k < s->point_count; ++k) {
    const lb_anim_blend_point *pt = &s->points[k];
    uint32_t h;
    lb_result r = lb_resolve_clip(c, s->name, pt->clip, root_joint, &h);
    if (r != LB_OK) {
      return r;
    }
    if (!lb_is_finite(pt->value)) {
      return lb_fail(c->w, LB_ERR_NOT_FINITE, "%s: state '%s': point %u ('%s') value is not finite",
                     c->where, s->name, k, pt->clip);
    }
    if (k > 0 && !(pt->value > s->points[k - 1].value)) {
      return lb_fail(c->w, LB_ERR_OUT_OF_RANGE,
                     "%s: state '%s': blend points must be strictly ascending: point %u ('%s', "
                     "%g) after point %u ('%s', %g)",
                     c->where, s->name, k, pt->clip, (double)pt->value, k - 1,
                     s->points[k - 1].clip, (double)s->points[k - 1].value);
    }
  }
  return LB_OK;
}

/* A state's 'next': only on a one-shot state, a declared state other than itself, with a
 * fade in range. */
static lb_result lb_check_next(const checker *c, const lb_anim_state_def *s, uint32_t i) {
  if (s->loop) {
    return lb_fail(c->w, LB_ERR_INVALID_ARGUMENT,
                   "%s: state '%s': 'next' needs a one-shot state (loop false)", c->where, s->name);
  }
  int n = lb_def_state(c, s->next);
  if (n < 0) {
    return lb_fail(c->w, LB_ERR_UNKNOWN_NAME, "%s: state '%s': next state '%s' is not declared",
                   c->where, s->name, s->next);
  }
  if (n == (int)i) {
    return lb_fail(c->w, LB_ERR_INVALID_ARGUMENT, "%s: state '%s' cannot return to itself",
                   c->where, s->name);
  }
  char what[LB_ANIM_NAME_MAX + 32];
  lb_snprintf(what, sizeof what, "state '%s': nextFade", s->name);
  return lb_check_range(c, what, s->next_fade, 0.0f, LB_ANIM_MAX_SECONDS);
}

static lb_result lb_check_state(const checker *c, uint32_t i, uint32_t root_joint) {
  const lb_anim_state_def *s = &c->def->states[i];
  if (!lb_name_ok(s->name, LB_ANIM_NAME_MAX)) {
    return lb_fail(c->w, LB_ERR_OUT_OF_RANGE, "%s: state %u needs a name of 1..%d bytes", c->where,
                   i, LB_ANIM_NAME_MAX - 1);
  }
  if (strcmp(s->name, LB_ANIM_ANY_STATE) == 0) {
    return lb_fail(c->w, LB_ERR_UNKNOWN_NAME, "%s: state %u: the name '%s' is reserved", c->where,
                   i, LB_ANIM_ANY_STATE);
  }
  if (lb_def_state(c, s->name) != (int)i) {
    return lb_fail(c->w, LB_ERR_UNKNOWN_NAME, "%s: state '%s' is declared twice", c->where,
                   s->name);
  }
  lb_result r;
  if (s->clip) {
    if (s->parameter || s->point_count) {
      return lb_fail(c->w, LB_ERR_INVALID_ARGUMENT,
                     "%s: state '%s' has both a clip and a blend space", c->where, s->name);
    }
    uint32_t h;
    r = lb_resolve_clip(c, s->name, s->clip, root_joint, &h);
  } else {
    r = lb_check_blend_space(c, s, root_joint);
  }
  if (r != LB_OK) {
    return r;
  }
  char what[LB_ANIM_NAME_MAX + 32];
  lb_snprintf(what, sizeof what, "state '%s': speed", s->name);
  r = lb_check_range(c, what, s->speed, 0.0f, 10.0f);
  if (r != LB_OK) {
    return r;
  }
  return lb_empty(s->next) ? LB_OK : lb_check_next(c, s, i);
}

static lb_result lb_check_transition(const checker *c, uint32_t i) {
  const lb_anim_transition_def *t = &c->def->transitions[i];
  int from = -1;
  if (!t->from || strcmp(t->from, LB_ANIM_ANY_STATE) != 0) {
    from = lb_def_state(c, t->from);
    if (from < 0) {
      return lb_fail(c->w, LB_ERR_UNKNOWN_NAME,
                     "%s: transition %u: 'from' state '%s' is not declared", c->where, i,
                     t->from ? t->from : "(null)");
    }
  }
  int to = lb_def_state(c, t->to);
  if (to < 0) {
    return lb_fail(c->w, LB_ERR_UNKNOWN_NAME, "%s: transition %u: 'to' state '%s' is not declared",
                   c->where, i, t->to ? t->to : "(null)");
  }
  if (to == from) {
    return lb_fail(c->w, LB_ERR_INVALID_ARGUMENT, "%s: transition %u goes from '%s' to itself",
                   c->where, i, t->to);
  }
  char what[64];
  lb_snprintf(what, sizeof what, "transition %u: fade", i);
  lb_result r = lb_check_range(c, what, t->fade, 0.0f, LB_ANIM_MAX_SECONDS);
  if (r == LB_OK && t->exit_time >= 0.0f) {
    lb_snprintf(what, sizeof what, "transition %u: exitTime", i);
    r = lb_check_range(c, what, t->exit_time, 0.0f, 1e6f);
  } else if (r == LB_OK && !lb_is_finite(t->exit_time)) {
    r = lb_fail(c->w, LB_ERR_NOT_FINITE, "%s: transition %u: exitTime is not finite", c->where, i);
  }
  if (r != LB_OK) {
    return r;
  }
  if (t->condition_count > LB_ANIM_MAX_CONDITIONS) {
    return lb_fail(c->w, LB_ERR_CAPACITY, "%s: transition %u has %u conditions (at most %d)",
                   c->where, i, t->condition_count, LB_ANIM_MAX_CONDITIONS);
  }
  if (t->condition_count && !t->conditions) {
    return lb_fail(c->w, LB_ERR_INVALID_ARGUMENT, "%s: transition %u: conditions is null", c->where,
                   i);
  }
  static const lb_anim_param_type needs[] = {LB_ANIM_PARAM_FLOAT, LB_ANIM_PARAM_FLOAT,
                                             LB_ANIM_PARAM_BOOL, LB_ANIM_PARAM_TRIGGER};
  static const char *const ops[] = {"greater", "less", "equals", "trigger"};
  static const char *const types[] = {"float", "bool", "trigger"};
  for (uint32_t k = 0; k < t->condition_count; ++k) {
    const lb_anim_condition *cd = &t->conditions[k];
    int p = lb_def_param(c, cd->parameter);
    if (p < 0) {
      return lb_fail(c->w, LB_ERR_UNKNOWN_NAME,
                     "%s: transition %u: condition %u: parameter '%s' is not declared", c->where, i,
                     k, cd->parameter ? cd->parameter : "(null)");
    }
    if ((unsigned)cd->op > LB_ANIM_IF_TRIGGER) {
      return lb_fail(c->w, LB_ERR_INVALID_ARGUMENT,
                     "%s: transition %u: condition %u: unknown op %d", c->where, i, k, (int)cd->op);
    }
    lb_anim_param_type have = c->def->params[p].type;
    if (needs[cd->op] != have) {
      return lb_fail(c->w, LB_ERR_INVALID_ARGUMENT,
                     "%s: transition %u: condition %u: '%s' is a %s parameter; '%s' needs a %s",
                     c->where, i, k, cd->parameter, types[have], ops[cd->op], types[needs[cd->op]]);
    }
    if (!lb_is_finite(cd->value)) {
      return lb_fail(c->w, LB_ERR_NOT_FINITE,
                     "%s: transition %u: condition %u: value is not finite", c->where, i, k);
    }
  }
  return LB_OK;
}

static lb_result lb_check_def(checker *c, uint32_t *root_joint, int *entry) {
  const lb_animator_controller_def *d = c->def;
  if (!lb_empty(d->root_joint)) {
    int j = lb_skeleton_lookup(c->sk, d->root_joint);
    if (j < 0) {
      return lb_fail(c->w, LB_ERR_UNKNOWN_NAME, "%s: root joint '%s' is not in skeleton %u",
                     c->where, d->root_joint, d->skeleton);
    }
    *root_joint = (uint32_t)j;
  }
  lb_result r = lb_check_params(c);
  if (r != LB_OK) {
    return r;
  }
  if (d->state_count == 0 || d->state_count > LB_ANIM_MAX_STATES) {
    return lb_fail(c->w, d->state_count ? LB_ERR_CAPACITY : LB_ERR_OUT_OF_RANGE,
                   "%s: %u states (1..%d)", c->where, d->state_count, LB_ANIM_MAX_STATES);
  }
  if (!d->states) {
    return lb_fail(c->w, LB_ERR_INVALID_ARGUMENT, "%s: states is null", c->where);
  }
  for (uint32_t i = 0; i < d->state_count; ++i) {
    r = lb_check_state(c, i, *root_joint);
    if (r != LB_OK) {
      return r;
    }
  }
  if (d->transition_count > LB_ANIM_MAX_TRANSITIONS) {
    return lb_fail(c->w, LB_ERR_CAPACITY, "%s: %u transitions (at most %d)", c->where,
                   d->transition_count, LB_ANIM_MAX_TRANSITIONS);
  }
  if (d->transition_count && !d->transitions) {
    return lb_fail(c->w, LB_ERR_INVALID_ARGUMENT, "%s: transitions is null", c->where);
  }
  for (uint32_t i = 0; i < d->transition_count; ++i) {
    r = lb_check_transition(c, i);
    if (r != LB_OK) {
      return r;
    }
  }
  *entry = lb_empty(d->entry) ? 0 : lb_def_state(c, d->entry);
  if (*entry < 0) {
    return lb_fail(c->w, LB_ERR_UNKNOWN_NAME, "%s: entry state '%s' is not declared", c->where,
                   d->entry);
  }
  return LB_OK;
}

/* ---- building ------------------------------------------------------------------------------ */

static size_t lb_align8(size_t n) {
  return (n + 7u) & ~(size_t)7u;
}

/* Offsets of the controller's arrays in its one block (8-byte aligned), and its size. */
typedef struct controller_layout {
  size_t params, states, points, trans, conds, total;
} controller_layout;

static controller_layout lb_controller_layout_of(const lb_animator_controller_def *d) {
  uint32_t points = 0, conds = 0;
  for (uint32_t i = 0; i < d->state_count; ++i) {
    points += d->states[i].clip ? 1u : d->states[i].point_count;
  }
  for (uint32_t i = 0; i < d->transition_count; ++i) {
    conds += d->transitions[i].condition_count;
  }
  controller_layout L;
  L.params = lb_align8(sizeof(lb_animator_controller));
  L.states = L.params + lb_align8(d->param_count * sizeof(lb_anim_param));
  L.points = L.states + lb_align8(d->state_count * sizeof(lb_anim_state));
  L.trans = L.points + lb_align8(points * sizeof(lb_anim_point));
  L.conds = L.trans + lb_align8(d->transition_count * sizeof(lb_anim_transition));
  L.total = L.conds + conds * sizeof(lb_anim_cond);
  return L;
}

/* State i and its points (one for a clip state) appended to the controller's points: clip,
 * value, key cursor, and whether root yaw is baked. False when the name cannot be interned. */
static bool lb_build_state(lb_world *w, const lb_animator_controller_def *d, const checker *k,
                           lb_animator_controller *c, uint32_t i) {
  const lb_anim_state_def *s = &d->states[i];
  lb_anim_state *o = &c->states[i];
  strcpy(o->name, s->name);
  if (lb_names_intern(&w->names, s->name, strlen(s->name), &o->name_id) != LB_OK) {
    return false;
  }
  o->param = s->clip ? -1 : lb_def_param(k, s->parameter);
  o->first_point = c->point_count;
  o->point_count = s->clip ? 1u : s->point_count;
  o->speed = s->speed;
  o->loop = s->loop ? 1u : 0u;
  o->next = lb_empty(s->next) ? -1 : lb_def_state(k, s->next);
  o->next_fade = o->next >= 0 ? s->next_fade : 0.0f;
  for (uint32_t p = 0; p < o->point_count; ++p) {
    lb_anim_point *pt = &c->points[c->point_count++];
    const char *clip = s->clip ? s->clip : s->points[p].clip;
    pt->clip = lb_world_find_clip(w, d->skeleton, clip);
    pt->value = s->clip ? 0.0f : s->points[p].value;
    pt->cursor = c->cursor_keys;
    /* A straight walk's hips sway; extracting that yaw would steer the path by the sway
     * at the moment the state starts. Clips that turn overall keep yaw extraction. */
    float turn = lb_clip_root_turn(lb_world_clip(w, pt->clip), c->root_joint);
    pt->bake_yaw = (turn < 0.0f ? -turn : turn) < 1.0f * LB_DEG2RAD;
    c->cursor_keys += lb_clip_track_count(lb_world_clip(w, pt->clip));
  }
  return true;
}

/* Transition i and its conditions appended to the controller's conditions. */
static void lb_build_transition(const lb_animator_controller_def *d, const checker *k,
                                lb_animator_controller *c, uint32_t i) {
  const lb_anim_transition_def *t = &d->transitions[i];
  lb_anim_transition *o = &c->transitions[i];
  o->from = t->from && strcmp(t->from, LB_ANIM_ANY_STATE) == 0 ? -1 : lb_def_state(k, t->from);
  o->to = lb_def_state(k, t->to);
  o->fade = t->fade;
  o->exit_time = t->exit_time >= 0.0f ? t->exit_time : -1.0f;
  o->first_cond = c->cond_count;
  o->cond_count = t->condition_count;
  for (uint32_t j = 0; j < t->condition_count; ++j) {
    lb_anim_cond *cd = &c->conds[c->cond_count++];
    cd->param = (uint32_t)lb_def_param(k, t->conditions[j].parameter);
    cd->op = (uint32_t)t->conditions[j].op;
    cd->value = t->conditions[j].value;
  }
}

static lb_animator_controller *lb_build(lb_world *w, const lb_animator_controller_def *d,
                                        uint32_t root_joint, int entry) {
  controller_layout L = lb_controller_layout_of(d);
  uint8_t *block = lb_alloc(w, L.total);
  if (!block) {
    return NULL;
  }
  lb_animator_controller *c = (lb_animator_controller *)block;
  c->params = (lb_anim_param *)(block + L.params);
  c->states = (lb_anim_state *)(block + L.states);
  c->points = (lb_anim_point *)(block + L.points);
  c->transitions = (lb_anim_transition *)(block + L.trans);
  c->conds = (lb_anim_cond *)(block + L.conds);
  if (d->name) {
    strncpy(c->name, d->name, sizeof c->name - 1u);
  }
  c->skeleton = d->skeleton;
  c->root_joint = root_joint;
  c->entry = entry;
  c->param_count = d->param_count;
  c->state_count = d->state_count;
  c->transition_count = d->transition_count;
  for (uint32_t i = 0; i < d->param_count; ++i) {
    strcpy(c->params[i].name, d->params[i].name);
    c->params[i].type = (uint32_t)d->params[i].type;
    c->params[i].value = d->params[i].value;
    c->params[i].damp = d->params[i].damp;
  }
  checker k = {w, d, NULL, {0}};
  for (uint32_t i = 0; i < d->state_count; ++i) {
    if (!lb_build_state(w, d, &k, c, i)) {
      lb_free(w, block);
      return NULL;
    }
  }
  for (uint32_t i = 0; i < d->transition_count; ++i) {
    lb_build_transition(d, &k, c, i);
  }
  return c;
}

lb_result lb_world_add_controller(lb_world *w, const lb_animator_controller_def *def,
                                  uint32_t *out) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!def || !out) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "add_controller: null def or out");
  }
  checker c;
  memset(&c, 0, sizeof c);
  c.w = w;
  c.def = def;
  if (!lb_empty(def->name) && !lb_name_ok(def->name, LB_JOINT_NAME_MAX)) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE, "add_controller: name is longer than %d bytes",
                   LB_JOINT_NAME_MAX - 1);
  }
  lb_snprintf(c.where, sizeof c.where, "controller '%s'", def->name ? def->name : "");
  c.sk = lb_skeleton_get(w, def->skeleton);
  if (!c.sk) {
    return lb_fail(w, LB_ERR_UNKNOWN_NAME, "%s: skeleton asset %u does not exist", c.where,
                   def->skeleton);
  }
  uint32_t root_joint = 0;
  int entry = 0;
  lb_result r = lb_check_def(&c, &root_joint, &entry);
  if (r != LB_OK) {
    return r;
  }
  if (lb_anim_world_of(w)->controller_count >= (LB_CONTROLLER_HANDLE_TAG - 1u)) {
    return lb_fail(w, LB_ERR_CAPACITY, "%s: too many controllers", c.where);
  }
  lb_anim_world *aw = lb_anim_world_of(w);
  if (lb_array_reserve(&w->allocator, (void **)&aw->controllers, &aw->controller_capacity,
                       aw->controller_count, aw->controller_count + 1u,
                       sizeof(lb_animator_controller *), 4u) != LB_OK) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "%s: out of memory", c.where);
  }
  lb_animator_controller *built = lb_build(w, def, root_joint, entry);
  if (!built) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "%s: out of memory", c.where);
  }
  aw->controllers[aw->controller_count++] = built;
  *out = LB_CONTROLLER_HANDLE_TAG | aw->controller_count;
  return LB_OK;
}

/* ---- read access --------------------------------------------------------------------------- */

uint32_t lb_controller_skeleton(const lb_world *w, uint32_t controller) {
  const lb_animator_controller *c = lb_controller_get(w, controller);
  return c ? c->skeleton : 0;
}

const char *lb_controller_name(const lb_world *w, uint32_t controller) {
  const lb_animator_controller *c = lb_controller_get(w, controller);
  return c ? c->name : NULL;
}

uint32_t lb_controller_param_count(const lb_world *w, uint32_t controller) {
  const lb_animator_controller *c = lb_controller_get(w, controller);
  return c ? c->param_count : 0;
}

const char *lb_controller_param_name(const lb_world *w, uint32_t controller, uint32_t i) {
  const lb_animator_controller *c = lb_controller_get(w, controller);
  return c && i < c->param_count ? c->params[i].name : NULL;
}

int lb_controller_param_type(const lb_world *w, uint32_t controller, uint32_t i) {
  const lb_animator_controller *c = lb_controller_get(w, controller);
  return c && i < c->param_count ? (int)c->params[i].type : -1;
}

float lb_controller_param_default(const lb_world *w, uint32_t controller, uint32_t i) {
  const lb_animator_controller *c = lb_controller_get(w, controller);
  return c && i < c->param_count ? c->params[i].value : 0.0f;
}

uint32_t lb_controller_state_count(const lb_world *w, uint32_t controller) {
  const lb_animator_controller *c = lb_controller_get(w, controller);
  return c ? c->state_count : 0;
}

const char *lb_controller_state_name(const lb_world *w, uint32_t controller, uint32_t i) {
  const lb_animator_controller *c = lb_controller_get(w, controller);
  return c && i < c->state_count ? c->states[i].name : NULL;
}

int lb_controller_state_blend(const lb_world *w, uint32_t controller, uint32_t i,
                              uint32_t *point_count, float *min_value, float *max_value) {
  const lb_animator_controller *c = lb_controller_get(w, controller);
  if (!c || i >= c->state_count) {
    if (point_count) {
      *point_count = 0;
    }
    return -1;
  }
  const lb_anim_state *s = &c->states[i];
  if (point_count) {
    *point_count = s->point_count;
  }
  if (min_value) {
    *min_value = c->points[s->first_point].value;
  }
  if (max_value) {
    *max_value = c->points[s->first_point + s->point_count - 1u].value;
  }
  return s->param;
}
