/* The interact module: the EnvironmentInteraction component (limber/interact.h) and its
 * Reach system. Joints come from the grip module's hand finding (resolved on write and when
 * the Rig changes skeleton); walls from the collide module's box overlap and per-collider
 * closest points; the arm moves by the grip module's arm reach (one two-bone IK job). */
#include "../collide/collide_internal.h"
#include "../grip/grip_internal.h"
#include "../world/parallel.h"
#include "limber/collide.h"
#include "limber/interact.h"
#include <string.h>

#define LB_SCHEMA_STRUCT lb_env_interaction_c
LB_COMPONENT_INFO(lb_env_interaction_info, "EnvironmentInteraction", LB_ENV_INTERACTION_FIELDS);
#undef LB_SCHEMA_STRUCT

/* Private per-instance state. */
typedef struct lb_interact_state_s {
  uint32_t asset;                 /* skeleton the hands were found on */
  const lb_grip_hand_def *def[2]; /* lb_hand_side: 0 right, 1 left; null = not found */
  bool measured;                  /* shoulder and hip heights, arm lengths taken */
  float shoulder_h, hip_h;        /* model-space heights above the root, first step */
  float arm_length[2];            /* upper arm + forearm, metres */
  float switch_wait;              /* seconds since the last transition */
  vec3 planted;                   /* Touch: wall point the hand is planted at (+ offset) */
  vec3 replant_goal;              /* Touch: where a re-plant goes */
  bool replanting;
  bool target_valid; /* target holds a position (else it starts at the palm) */
  int solved_arm;    /* lb_hand_side the arm was solved for this step, -1 none: the Output
                        system measures that palm against the wall on the final pose */
} lb_interact_inst;

/* ---- small vector helpers (+ - * / sqrt only) ---------------------------------------------- */
static inline float lb_v3_dist(const float *a, const float *b) {
  vec3 d;
  lb_vec3_sub(a, b, d);
  return lb_vec3_length(d);
}
/* Moves `cur` toward `goal` by at most `step`. */
static void lb_v3_step_toward(float *cur, const float *goal, float step) {
  vec3 d;
  lb_vec3_sub(goal, cur, d);
  float len = lb_vec3_length(d);
  if (len <= step || len <= 0.0f) {
    memcpy(cur, goal, sizeof(vec3));
    return;
  }
  float k = step / len;
  cur[0] += d[0] * k;
  cur[1] += d[1] * k;
  cur[2] += d[2] * k;
}
static float lb_f_step_toward(float cur, float goal, float step) {
  if (goal > cur + step) {
    return cur + step;
  }
  if (goal < cur - step) {
    return cur - step;
  }
  return goal;
}
/* 0..1 ease (smoothstep). */
static float lb_f_ease(float t) {
  t = lb_clamp(t, 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

/* ---- walls ------------------------------------------------------------------------------------
 */

/* Closest surface point of one collider (slot) to x: signed distance (meshes unsigned),
 * point and unit normal out of the collider. False when it has no usable collider. */
static bool lb_wall_closest(const lb_world *w, uint32_t slot, const float *x, float *q, float *n,
                            float *dist) {
  if (!lb_slot_has(w, slot, LB_COLLIDER)) {
    return false;
  }
  const cl_proxy *p = cl_proxy_of(w, slot);
  if (!p->valid) {
    return false;
  }
  if (p->kind != LB_COLLIDER_MESH) {
    *dist = cl_prim_closest(p, x, q, n);
    return true;
  }
  const cl_mesh *m = cl_mesh_get(cl_state(w), p->mesh);
  if (!m) {
    return false;
  }
  float best = 3.0e38f;
  for (uint32_t t = 0; t < m->triangle_count; ++t) {
    vec3 a, b, c, qq, nn;
    cl_triangle_world(p, m, t, a, b, c);
    float d = cl_triangle_closest_normal(x, a, b, c, qq, nn);
    if (d < best) {
      best = d;
      memcpy(q, qq, sizeof qq);
      memcpy(n, nn, sizeof nn);
    }
  }
  *dist = best;
  return best < 3.0e38f;
}

/* ---- writes ------------------------------------------------------------------------------------
 */

static lb_result lb_interact_find(lb_world *w, const char *where, const lb_env_interaction_c *c,
                                  uint32_t asset, lb_interact_inst *out) {
  out->asset = asset;
  for (int side = 0; side < 2; ++side) {
    lb_name path = side ? c->left_hand : c->right_hand;
    const lb_grip_hand_def *d = lb_grip_hand_def_get(w, asset, (lb_hand_side)side, path, 0);
    if (!d) {
      return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "%s: out of memory", where);
    }
    if (d->found != LB_OK || d->upper < 0 || d->lower < 0) {
      return lb_fail(w, LB_ERR_JOINT_NOT_FOUND,
                     "%s: field '%s': no %s arm (upper arm, forearm, hand) found in the rig%s%s",
                     where, side ? "leftHand" : "rightHand", side ? "left" : "right",
                     d->info.report && d->info.report[0] ? ": " : "",
                     d->info.report ? d->info.report : "");
    }
    out->def[side] = d;
  }
  return LB_OK;
}

static lb_result lb_interact_stage(lb_write *wr) {
  lb_world *w = wr->world;
  const lb_env_interaction_c *c = wr->value;
  const lb_rig_instance *inst = lb_rig_of_slot(w, wr->slot);
  if (!inst) {
    return lb_fail(w, LB_ERR_MISSING_COMPONENT, "%s: the entity has no Rig (insert a Rig first)",
                   wr->where);
  }
  if (!(c->release_reach > c->engage_reach)) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE,
                   "%s: field 'releaseReach' (%g) must be greater than 'engageReach' (%g): the "
                   "release distance is longer than the engage distance",
                   wr->where, (double)c->release_reach, (double)c->engage_reach);
  }
  const lb_env_interaction_c *cur = wr->current;
  const lb_interact_inst *st = wr->state;
  lb_interact_inst *prep = (lb_interact_inst *)wr->prep;
  _Static_assert(sizeof(lb_interact_inst) <= LB_WRITE_PREP_BYTES, "prep holds the state");
  if (wr->had && st && st->asset == inst->asset && cur->right_hand == c->right_hand &&
      cur->left_hand == c->left_hand) {
    memcpy(prep, st, sizeof *prep);
    return LB_OK;
  }
  return lb_interact_find(w, wr->where, c, inst->asset, prep);
}

static void lb_interact_commit(lb_write *wr, void *state) {
  lb_interact_inst *st = state;
  const lb_interact_inst *prep = (const lb_interact_inst *)wr->prep;
  if (wr->had && st->asset == prep->asset && st->def[0] == prep->def[0] &&
      st->def[1] == prep->def[1]) {
    return; /* settings changed only: keep the runtime state */
  }
  memset(st, 0, sizeof *st);
  st->asset = prep->asset;
  st->def[0] = prep->def[0];
  st->def[1] = prep->def[1];
}

/* A Rig that changed skeleton: find the arms again (an arm the new skeleton lacks idles). */
static void lb_interact_changed(lb_world *w, uint32_t type, uint32_t slot) {
  if (type != LB_RIG || !lb_slot_has(w, slot, LB_ENV_INTERACTION)) {
    return;
  }
  const lb_rig_instance *inst = lb_rig_of_slot(w, slot);
  lb_interact_inst *st = lb_component_state(w, slot, LB_ENV_INTERACTION);
  if (!inst || st->asset == inst->asset) {
    return;
  }
  const lb_env_interaction_c *c = lb_component_ptr(w, slot, LB_ENV_INTERACTION);
  memset(st, 0, sizeof *st);
  st->asset = inst->asset;
  for (int side = 0; side < 2; ++side) {
    const lb_grip_hand_def *d = lb_grip_hand_def_get(w, inst->asset, (lb_hand_side)side,
                                                     side ? c->left_hand : c->right_hand, 0);
    st->def[side] = d && d->found == LB_OK && d->upper >= 0 && d->lower >= 0 ? d : NULL;
  }
}

/* ---- the Reach system ----------------------------------------------------------------------- */

/* True when the character holds something with this hand: wall touch ranks below both grip
 * hands (the ownership rule, grip/grip_internal.h), so it never uses one. */
static bool lb_hand_busy(const lb_world *w, uint32_t slot, int side) {
  return lb_grip_hand_holding(w, slot, side) != LB_GRIP_HOLDING_NONE;
}

static void lb_enter(lb_env_interaction_c *c, lb_interact_inst *st, lb_interact_state s) {
  c->state = s;
  c->state_time = 0.0f;
  st->switch_wait = 0.0f;
  st->replanting = false;
}

/* Shoulder world position of a side. */
static void lb_shoulder_world(const lb_transform *root, const lb_rig_instance *inst,
                              const lb_grip_hand_def *d, vec3 out) {
  lb_transform_point(root, inst->model[d->upper].t, out);
}

/* The wall point for a probe, pushed toward the shoulder by the hand offset. */
static bool lb_wall_target(const lb_world *w, uint32_t wall_slot, const float *probe,
                           const float *shoulder, float offset, float *point, float *normal,
                           float *target) {
  float dist;
  if (!lb_wall_closest(w, wall_slot, probe, point, normal, &dist)) {
    return false;
  }
  vec3 u;
  lb_vec3_sub(shoulder, point, u);
  if (lb_vec3_normalize_to(u, u) < 1e-6f) {
    memcpy(u, normal, sizeof u);
  }
  for (int i = 0; i < 3; ++i) {
    target[i] = point[i] + u[i] * offset;
  }
  return true;
}

/* The touching hand's fingers toward the rest pose (open, flat: the rigs' bind pose) by the
 * arm's weight, when no GripPose shapes the hand (the grip phase then does, after Reach). */
static void lb_open_fingers(const lb_skeleton *sk, lb_rig_instance *inst, const lb_grip_hand *h,
                            float weight) {
  uint32_t first = lb_grip_blend_arm_count(h);
  const lb_grip_hand_def *d = h->def;
  if (first >= d->blend_count) {
    return;
  }
  for (uint32_t k = first; k < d->blend_count; ++k) {
    int j = d->blend_joints[k];
    versor out;
    lb_quat_nlerp(inst->local[j].r, sk->rest[j].r, weight, out);
    memcpy(inst->local[j].r, out, sizeof out);
  }
  lb_grip_refresh_joints(sk, inst, &d->blend_joints[first], d->blend_count - first);
}

/* One character's Reach step: what its stages share. */
typedef struct lb_interact_step {
  lb_world *w;
  uint32_t s;
  float dt;
  lb_env_interaction_c *c;
  lb_interact_inst *st;
  lb_rig_instance *inst;
  const lb_transform *root;
  float scale_y;   /* the root's vertical scale: model heights to world */
  float wstep;     /* weight change this step */
  float hand_step; /* target travel this step, metres */
  lb_entity found[LB_INTERACT_MAX_CANDIDATES];
  uint32_t count; /* colliders in the detection box */
  vec3 probe;     /* the root at shoulder height: where walls are measured from */
  vec3 shoulders[2];
  vec3 fwd;
  int arm;       /* lb_hand_side of the arm in use, -1 none */
  int wall_slot; /* the wall's slot, -1 none */
  bool wall_in_box;
  bool have_point;
  vec3 point, normal, ideal; /* the wall point, its normal, the hand's target on it */
} lb_interact_step;

/* Shoulder and hip heights and arm lengths, from the first pose seen. */
static void lb_interact_measure(lb_interact_inst *st, const lb_rig_instance *inst) {
  for (int side = 0; side < 2; ++side) {
    const lb_grip_hand_def *d = st->def[side];
    st->arm_length[side] = lb_v3_dist(inst->model[d->upper].t, inst->model[d->lower].t) +
                           lb_v3_dist(inst->model[d->lower].t, inst->model[d->info.hand].t);
  }
  st->shoulder_h =
      (inst->model[st->def[0]->upper].t[1] + inst->model[st->def[1]->upper].t[1]) * 0.5f;
  st->hip_h = inst->model[0].t[1];
  st->measured = true;
}

/* Detection box on the root (a CharacterController's capsule is the character's height) and
 * the colliders in it; then the probe, the shoulders and the facing in world space. */
static void lb_interact_box(lb_interact_step *p) {
  lb_world *w = p->w;
  lb_env_interaction_c *c = p->c;
  const lb_transform *root = p->root;
  float side_len = c->height;
  const lb_character_controller_c *cc = lb_component_try(w, p->s, LB_CHARACTER_CONTROLLER);
  if (cc) {
    side_len = cc->applied_height > 0.0f ? cc->applied_height : cc->height;
  }
  vec3 half = {side_len * 0.5f, side_len * 0.5f, side_len * 0.5f};
  if (c->box_size[0] > 0.0f && c->box_size[1] > 0.0f && c->box_size[2] > 0.0f) {
    half[0] = c->box_size[0] * 0.5f;
    half[1] = c->box_size[1] * 0.5f;
    half[2] = c->box_size[2] * 0.5f;
  }
  vec3 local_c = {0.0f, side_len * 0.5f + c->box_raise * side_len, c->box_forward * side_len};
  lb_quat_rotate(root->r, local_c, c->box_center);
  for (int i = 0; i < 3; ++i) {
    c->box_center[i] += root->t[i];
  }
  memcpy(c->box_half, half, sizeof half);
  p->count = 0;
  lb_collide_filter filter = lb_collide_default_filter();
  filter.layers = c->layers;
  filter.exclude = lb_entity_of_slot(w, p->s);
  if (c->layers == 0 || lb_world_overlap_box(w, c->box_center, root->r, half, &filter, p->found,
                                             LB_INTERACT_MAX_CANDIDATES, &p->count) != LB_OK) {
    p->count = 0;
  }
  if (p->count > LB_INTERACT_MAX_CANDIDATES) {
    p->count = LB_INTERACT_MAX_CANDIDATES;
  }
  const lb_interact_inst *st = p->st;
  vec3 probe = {root->t[0], root->t[1] + st->shoulder_h * p->scale_y, root->t[2]};
  memcpy(p->probe, probe, sizeof probe);
  lb_shoulder_world(root, p->inst, st->def[0], p->shoulders[0]);
  lb_shoulder_world(root, p->inst, st->def[1], p->shoulders[1]);
  vec3 fwd = {0.0f, 0.0f, 1.0f};
  lb_quat_rotate(root->r, fwd, fwd);
  memcpy(p->fwd, fwd, sizeof fwd);
}

/* The current wall's point, or Search's nearest candidate. */
static void lb_interact_candidates(lb_interact_step *p) {
  lb_world *w = p->w;
  const lb_env_interaction_c *c = p->c;
  p->arm = c->side == LB_INTERACT_SIDE_LEFT ? 1 : c->side == LB_INTERACT_SIDE_RIGHT ? 0 : -1;
  p->wall_in_box = false;
  p->wall_slot = c->wall != LB_NULL_ENTITY ? lb_slot_of(w, c->wall) : -1;
  for (uint32_t i = 0; i < p->count && p->wall_slot >= 0; ++i) {
    p->wall_in_box = p->wall_in_box || p->found[i] == c->wall;
  }
  memset(p->point, 0, sizeof p->point);
  memset(p->normal, 0, sizeof p->normal);
  memset(p->ideal, 0, sizeof p->ideal);
  p->have_point = false;
  if (c->state == LB_INTERACT_SEARCH) {
    float best = 3.0e38f;
    for (uint32_t i = 0; i < p->count; ++i) {
      int fs = lb_slot_of(w, p->found[i]);
      vec3 q, n;
      float d;
      if (fs < 0 || !lb_wall_closest(w, (uint32_t)fs, p->probe, q, n, &d) || !(d < best)) {
        continue;
      }
      best = d;
      p->wall_slot = fs;
      memcpy(p->point, q, sizeof q);
      memcpy(p->normal, n, sizeof n);
      p->have_point = true;
    }
  } else if (p->wall_slot >= 0 && p->arm >= 0) {
    vec3 t;
    p->have_point = lb_wall_target(w, (uint32_t)p->wall_slot, p->probe, p->shoulders[p->arm],
                                   c->hand_offset, p->point, p->normal, t);
    memcpy(p->ideal, t, sizeof t);
  }
}

/* Whether arm `side` may take wall `slot`: a free hand (wall touch never takes one a grip holds)
 * whose target on the wall is within engage reach; *q, *n, *t the wall point, its normal and
 * the hand's target. */
static bool lb_interact_arm_fits(const lb_interact_step *p, int side, int slot, float *q, float *n,
                                 float *t) {
  const lb_env_interaction_c *c = p->c;
  return slot >= 0 && !lb_hand_busy(p->w, p->s, side) &&
         lb_wall_target(p->w, (uint32_t)slot, p->probe, p->shoulders[side], c->hand_offset, q, n,
                        t) &&
         lb_v3_dist(t, p->shoulders[side]) <= c->engage_reach * p->st->arm_length[side];
}

/* The candidate wall whose point (nearest the probe) is nearest this side's shoulder, or -1. */
static int lb_interact_wall_for(const lb_interact_step *p, int side) {
  int best_slot = -1;
  float best = 3.0e38f;
  for (uint32_t i = 0; i < p->count; ++i) {
    int fs = lb_slot_of(p->w, p->found[i]);
    vec3 q, n;
    float d;
    if (fs < 0 || !lb_wall_closest(p->w, (uint32_t)fs, p->probe, q, n, &d)) {
      continue;
    }
    d = lb_v3_dist(q, p->shoulders[side]);
    if (d < best) {
      best = d;
      best_slot = fs;
    }
  }
  return best_slot;
}

/* Search's arm: the shoulder nearer the closest wall point on that wall; when that hand holds
 * something or that wall is out of its reach, the other hand on the wall nearest its own
 * shoulder (a rifle in the right hand and the right wall of a corridor a little nearer: the left
 * hand takes the left wall). -1 when neither fits; the chosen wall's point and normal replace
 * the step's. */
static int lb_interact_choose_arm(lb_interact_step *p, float *target) {
  int nearer =
      lb_v3_dist(p->point, p->shoulders[1]) < lb_v3_dist(p->point, p->shoulders[0]) ? 1 : 0;
  vec3 q, n;
  if (lb_interact_arm_fits(p, nearer, p->wall_slot, q, n, target)) {
    return nearer;
  }
  int other = 1 - nearer;
  int slot = lb_interact_wall_for(p, other);
  if (!lb_interact_arm_fits(p, other, slot, q, n, target)) {
    return -1;
  }
  p->wall_slot = slot;
  memcpy(p->point, q, sizeof q);
  memcpy(p->normal, n, sizeof n);
  memcpy(p->c->closest, q, sizeof q);
  memcpy(p->c->normal, n, sizeof n);
  return other;
}

/* Search engages a free arm on a wall within reach (lb_interact_choose_arm); the other states
 * release the wall when it leaves the box or reach, the hand gets busy or the component is
 * disabled. */
static void lb_interact_transitions(lb_interact_step *p) {
  lb_world *w = p->w;
  lb_env_interaction_c *c = p->c;
  lb_interact_inst *st = p->st;
  if (c->state == LB_INTERACT_SEARCH) {
    vec3 t;
    int arm = p->have_point && c->enabled && st->switch_wait >= c->min_switch_seconds
                  ? lb_interact_choose_arm(p, t)
                  : -1;
    if (arm >= 0) {
      p->arm = arm;
      c->side = arm ? LB_INTERACT_SIDE_LEFT : LB_INTERACT_SIDE_RIGHT;
      c->wall = lb_entity_of_slot(w, (uint32_t)p->wall_slot);
      memcpy(p->ideal, t, sizeof t);
      lb_enter(c, st, LB_INTERACT_APPROACH);
      /* The target starts at the palm as animated: the hand leaves from where it is. */
      lb_transform palm_m;
      lb_grip_hand hh = {.def = st->def[p->arm]};
      lb_grip_palm_model(&hh, p->inst, &palm_m);
      lb_transform_point(p->root, palm_m.t, c->target);
      st->target_valid = true;
    }
  } else if (c->state != LB_INTERACT_RESET) {
    int arm = p->arm;
    bool release = !c->enabled || !p->wall_in_box || !p->have_point || arm < 0 ||
                   lb_hand_busy(w, p->s, arm) ||
                   lb_v3_dist(p->ideal, p->shoulders[arm]) > c->release_reach * st->arm_length[arm];
    if (release) {
      lb_enter(c, st, LB_INTERACT_RESET);
    }
  }
}

/* Approach and Rise: the weight grows as the wall comes within reach, then the hand rises
 * from hip to shoulder height on the wall and plants (Touch). */
static void lb_interact_approach(lb_interact_step *p, float *weight, float *goal) {
  lb_env_interaction_c *c = p->c;
  lb_interact_inst *st = p->st;
  const int arm = p->arm;
  float d = lb_v3_dist(p->ideal, p->shoulders[arm]);
  float span = (c->release_reach - c->engage_reach) * st->arm_length[arm];
  float near = lb_clamp((c->release_reach * st->arm_length[arm] - d) / span, 0.0f, 1.0f);
  *weight = lb_f_step_toward(*weight, c->state == LB_INTERACT_RISE ? 1.0f : near, p->wstep);
  if (c->state == LB_INTERACT_RISE) {
    c->rise = lb_f_step_toward(c->rise, 1.0f, p->wstep);
  }
  /* The hand's height on the wall: hip (rise 0) to shoulder (rise 1). */
  float h = st->hip_h + (st->shoulder_h - st->hip_h) * lb_f_ease(c->rise);
  vec3 low_probe = {p->probe[0], p->root->t[1] + h * p->scale_y, p->probe[2]};
  vec3 q, n;
  if (p->wall_slot < 0 || !lb_wall_target(p->w, (uint32_t)p->wall_slot, low_probe,
                                          p->shoulders[arm], c->hand_offset, q, n, goal)) {
    memcpy(goal, p->ideal, sizeof(vec3));
  }
  if (c->state == LB_INTERACT_APPROACH && *weight >= 1.0f &&
      st->switch_wait >= c->min_switch_seconds) {
    lb_enter(c, st, LB_INTERACT_RISE);
  } else if (c->state == LB_INTERACT_RISE && c->rise >= 1.0f) {
    lb_enter(c, st, LB_INTERACT_TOUCH);
    memcpy(st->planted, p->ideal, sizeof(vec3));
    c->plants++;
  }
}

/* Touch: the planted hand slides toward the wall point; when the arm stretches too far or the
 * hand lags behind the walk, it re-plants ahead. */
static void lb_interact_touch(lb_interact_step *p, float *weight, float *goal) {
  lb_env_interaction_c *c = p->c;
  lb_interact_inst *st = p->st;
  const int arm = p->arm;
  *weight = lb_f_step_toward(*weight, 1.0f, p->wstep);
  c->rise = lb_f_step_toward(c->rise, 1.0f, p->wstep);
  if (st->replanting) {
    lb_v3_step_toward(st->planted, st->replant_goal, p->hand_step);
    st->replanting = lb_v3_dist(st->planted, st->replant_goal) > 0.0f;
  } else {
    lb_v3_step_toward(st->planted, p->ideal, c->slide_speed * p->dt);
    /* Stretch from the shoulder; lag = how far the hand is behind it along the walk. */
    vec3 back;
    lb_vec3_sub(p->shoulders[arm], st->planted, back);
    float lag = lb_vec3_dot(back, p->fwd);
    float stretch = lb_vec3_length(back);
    if (stretch > c->stretch_limit * st->arm_length[arm] || lag > c->lag_limit) {
      vec3 ahead = {p->probe[0] + p->fwd[0] * c->replant_ahead, p->probe[1],
                    p->probe[2] + p->fwd[2] * c->replant_ahead};
      vec3 q, n;
      if (lb_wall_target(p->w, (uint32_t)p->wall_slot, ahead, p->shoulders[arm], c->hand_offset, q,
                         n, st->replant_goal)) {
        st->replanting = true;
        c->plants++;
      }
    }
  }
  memcpy(goal, st->planted, sizeof(vec3));
}

/* The arm's weight and the hand's goal by state, then the target moves toward the goal.
 * False when Reset has finished (back to Search: nothing to solve this step). */
static bool lb_interact_weights(lb_interact_step *p, float *weight, const float *other) {
  lb_env_interaction_c *c = p->c;
  vec3 goal;
  memcpy(goal, c->target, sizeof goal);
  switch ((lb_interact_state)c->state) {
  case LB_INTERACT_APPROACH:
  case LB_INTERACT_RISE:
    lb_interact_approach(p, weight, goal);
    break;
  case LB_INTERACT_TOUCH:
    lb_interact_touch(p, weight, goal);
    break;
  case LB_INTERACT_RESET:
    *weight = lb_f_step_toward(*weight, 0.0f, p->wstep);
    c->rise = lb_f_step_toward(c->rise, 0.0f, p->wstep);
    if (*weight <= 0.0f && *other <= 0.0f && c->rise <= 0.0f) {
      c->side = LB_INTERACT_SIDE_NONE;
      c->wall = LB_NULL_ENTITY;
      lb_enter(c, p->st, LB_INTERACT_SEARCH);
      return false;
    }
    break;
  default:
    break;
  }
  lb_v3_step_toward(c->target, goal, p->hand_step);
  return true;
}

/* The arm: palm centre to the target, palm facing the wall, fingers up and forward (the
 * palm's distance to the wall is measured on the step's final pose, lb_interact_status). */
static void lb_interact_arm(lb_interact_step *p, float weight) {
  lb_world *w = p->w;
  lb_env_interaction_c *c = p->c;
  const lb_skeleton *sk = lb_skeleton_get(w, p->inst->asset);
  vec3 y = {-c->normal[0], -c->normal[1], -c->normal[2]};
  vec3 up = {0.0f, 1.0f, 0.0f}, z, x;
  vec3 along = {up[0] + p->fwd[0], up[1] + p->fwd[1], up[2] + p->fwd[2]};
  float k = lb_vec3_dot(along, y);
  for (int i = 0; i < 3; ++i) {
    z[i] = along[i] - y[i] * k;
  }
  if (lb_vec3_normalize_to(z, z) < 1e-6f) {
    lb_vec3_any_perpendicular(y, z);
  }
  lb_vec3_cross(y, z, x);
  lb_transform anchor_w, anchor_m;
  lb_transform_identity(&anchor_w);
  memcpy(anchor_w.t, c->target, sizeof(vec3));
  lb_quat_from_basis(x, y, z, anchor_w.r);
  lb_transform_inverse_mul(p->root, &anchor_w, &anchor_m);
  lb_grip_hand hand = {.def = p->st->def[p->arm], .arm_length = p->st->arm_length[p->arm]};
  lb_grip_arm_reach(sk, p->inst, &hand, &anchor_m, weight, 0.0f, false);
  if (!lb_slot_has(w, p->s, LB_GRIP_POSE)) {
    lb_open_fingers(sk, p->inst, &hand, weight);
  }
  p->st->solved_arm = p->wall_slot >= 0 ? p->arm : -1;
}

/* One character: box -> candidates -> transitions -> weights -> arm (the palm follows). */
static void lb_interact_one(lb_world *w, uint32_t s, float dt) {
  lb_interact_step p = {.w = w, .s = s, .dt = dt};
  p.c = lb_component_ptr(w, s, LB_ENV_INTERACTION);
  p.st = lb_component_state(w, s, LB_ENV_INTERACTION);
  p.inst = lb_rig_of_slot(w, s);
  lb_env_interaction_c *c = p.c;
  lb_interact_inst *st = p.st;
  c->palm_distance = 0.0f;
  st->solved_arm = -1;
  if (!p.inst || p.inst->asset != st->asset || !st->def[0] || !st->def[1]) {
    return; /* arms not found on this skeleton: idle */
  }
  p.root = &w->world_xf[s];
  if (!st->measured) {
    lb_interact_measure(st, p.inst);
  }
  c->state_time += dt;
  st->switch_wait += dt;
  p.scale_y = p.root->s[1];
  p.wstep = dt / c->blend_seconds;
  p.hand_step = c->max_hand_speed * dt;

  lb_interact_box(&p);
  lb_interact_candidates(&p);
  if (p.have_point) {
    memcpy(c->closest, p.point, sizeof p.point);
    memcpy(c->normal, p.normal, sizeof p.normal);
  }
  lb_interact_transitions(&p);
  if (p.arm < 0) {
    c->right_weight = lb_f_step_toward(c->right_weight, 0.0f, p.wstep);
    c->left_weight = lb_f_step_toward(c->left_weight, 0.0f, p.wstep);
    c->rise = lb_f_step_toward(c->rise, 0.0f, p.wstep);
    return;
  }
  float *weight = p.arm ? &c->left_weight : &c->right_weight;
  float *other = p.arm ? &c->right_weight : &c->left_weight;
  *other = lb_f_step_toward(*other, 0.0f, p.wstep);
  if (lb_interact_weights(&p, weight, other) && !(*weight <= 0.0f)) {
    lb_interact_arm(&p, *weight);
  }
}

static void lb_interact_one_task(lb_world *w, uint32_t s, uint32_t worker, void *context) {
  (void)worker;
  lb_interact_one(w, s, *(const float *)context);
}

/* 4 Reach: every EnvironmentInteraction, in parallel: each reads the colliders' tree as the
 * Model phase refit it and its own rig, grip and vault state, and writes its own component,
 * state and arm (the query results live on the stack). */
static void lb_system_interact(lb_world *w, float dt) {
  cl_sync(w, false); /* once, here: a query would do it lazily on whichever thread asked first */
  lb_parallel_each(w, LB_ENV_INTERACTION, lb_interact_one_task, &dt);
}

/* The touching palm's distance to the wall on the step's final pose: a later owner of the
 * hand (a vault plant) may have moved it since the arm was solved. */
static void lb_interact_status_one(lb_world *w, uint32_t s) {
  lb_env_interaction_c *c = lb_component_ptr(w, s, LB_ENV_INTERACTION);
  const lb_interact_inst *st = lb_component_state(w, s, LB_ENV_INTERACTION);
  const lb_rig_instance *inst = lb_rig_of_slot(w, s);
  int wall = c->wall != LB_NULL_ENTITY ? lb_slot_of(w, c->wall) : -1;
  if (st->solved_arm < 0 || !inst || wall < 0 || !st->def[st->solved_arm]) {
    return;
  }
  lb_grip_hand hand = {.def = st->def[st->solved_arm]};
  lb_transform palm_m;
  lb_grip_palm_model(&hand, inst, &palm_m);
  vec3 palm_w, q, n;
  float d;
  lb_transform_point(&w->world_xf[s], palm_m.t, palm_w);
  if (lb_wall_closest(w, (uint32_t)wall, palm_w, q, n, &d)) {
    c->palm_distance = d;
  }
}

/* 6 Output (order 50, before collide.refit_late moves held objects' colliders). */
static void lb_system_interact_status(lb_world *w, float dt) {
  (void)dt;
  uint32_t s;
  for (lb_each it = lb_each_begin(w, LB_ENV_INTERACTION); lb_each_next(&it, &s);) {
    lb_interact_status_one(w, s);
  }
}

static const lb_component_def lb_interact_components[] = {
    {.type = LB_ENV_INTERACTION,
     .info = &lb_env_interaction_info,
     .state_size = sizeof(lb_interact_inst),
     .stage = lb_interact_stage,
     .commit = lb_interact_commit},
};

static const lb_system_def lb_interact_systems[] = {
    {LB_PHASE_REACH, 10, "interact.reach", lb_system_interact},
    {LB_PHASE_OUTPUT, 50, "interact.status", lb_system_interact_status},
};

const lb_module_def lb_module_interact = {
    .name = "interact",
    .components = lb_interact_components,
    .component_count = 1,
    .systems = lb_interact_systems,
    .system_count = 2,
    .changed = lb_interact_changed,
};
