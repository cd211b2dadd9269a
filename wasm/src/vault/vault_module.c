/* Module "vault": the Vault component (limber/vault.h, part 2). The Move system takes
 * requests, runs the probe job (vault_probe.c), drives the Animator's trigger, shrinks and
 * restores the CharacterController and moves the character over; the Reach system plants a
 * hand on the top by the grip module's arm reach (as the interact module does), taking a
 * support hand from the grip by weight (the hand ownership rule, grip/grip_internal.h); the
 * Output system measures the planted palm on the step's final pose. */
#include "../anim/animator_internal.h"
#include "../base/bytes.h"
#include "../collide/collide_internal.h"
#include "../grip/grip_internal.h"
#include "../math/vec3_inline.h"
#include "../world/parallel.h"
#include "limber/collide.h"
#include "limber/vault.h"
#include <string.h>

#define LB_SCHEMA_STRUCT lb_vault_c
LB_COMPONENT_INFO(lb_vault_info, "Vault", LB_VAULT_FIELDS);
#undef LB_SCHEMA_STRUCT

#define VAULT_DEFAULT_SECONDS 1.2f /* no clip and vaultDuration 0 */
#define VAULT_LATEST_OVER 0.9f     /* normalised time by which Over is entered at the latest */

/* Private per-instance state. */
typedef struct vault_inst {
  /* the hands (found on insert and when the Rig changes skeleton), by lb_hand_side: `hand`
   * by handJoint, the other by name (busyHand may plant it) */
  uint32_t asset;
  const lb_grip_hand_def *defs[2]; /* null = no Rig or no such hand */
  float arm_length[2];
  bool measured[2];
  int side;    /* the hand the vault under way (or last) plants: lb_hand_side */
  bool solved; /* the arm was solved this step: the Output system measures the palm */
  /* the vault in progress */
  float orig_height;
  vec3 orig_center;
  float orig_snap; /* snapDistance, 0 during the vault */
  float over_height;
  vec3 over_center;
  float over_time;
  bool above;                /* the over cast has hit the obstacle */
  float travel;              /* scripted: metres along forward over the whole vault */
  float moved;               /* scripted: metres requested so far */
  lb_entity obstacle;        /* the obstacle vaulted: its frame carries the plant (the outputs
                                name what is ahead, probed again on landing) */
  lb_transform obstacle0;    /* the obstacle's world transform when the vault started */
  vec3 fwd_l, near_l, top_l; /* forward, near face point, top point: obstacle frame */
  bool planted;
  bool released;          /* the hand let go (passed over, or the target left the arm's reach) */
  vec3 plant_l, normal_l; /* hand target and top normal: obstacle frame */
  /* the last probe's casts, for drawing */
  uint32_t cast_count;
  lb_vault_cast casts[LB_VAULT_MAX_CASTS];
} vault_inst;

static float vault_v_dist(const float *a, const float *b) {
  vec3 d = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return lb_vec3_length(d);
}

/* ---- writes ---------------------------------------------------------------------------------- */

static bool vault_arm_found(const lb_grip_hand_def *d) {
  return d && d->found == LB_OK && d->upper >= 0 && d->lower >= 0;
}

/* `hand` by its joint path and the other hand by name: out[0], out[1] (null: not found). */
static void vault_find_hands(lb_world *w, const lb_vault_c *c, uint32_t asset,
                             const lb_grip_hand_def *out[2]) {
  int want = c->hand ? 1 : 0;
  const lb_grip_hand_def *d = lb_grip_hand_def_get(w, asset, (lb_hand_side)want, c->hand_joint, 0);
  const lb_grip_hand_def *o = lb_grip_hand_def_get(w, asset, (lb_hand_side)(1 - want), 0, 0);
  out[0] = vault_arm_found(d) ? d : NULL;
  out[1] = vault_arm_found(o) ? o : NULL;
}

static lb_result vault_stage(lb_write *wr) {
  lb_world *w = wr->world;
  const lb_vault_c *c = wr->value;
  if (!lb_slot_has(w, wr->slot, LB_CHARACTER_CONTROLLER)) {
    return lb_fail(w, LB_ERR_MISSING_COMPONENT,
                   "%s: the entity has no CharacterController (insert one first: the vault "
                   "shrinks and moves it)",
                   wr->where);
  }
  const lb_vault_c *cur = wr->current;
  if (wr->had && cur->state != LB_VAULT_IDLE &&
      (cur->hand != c->hand || cur->hand_joint != c->hand_joint)) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                   "%s: fields 'hand'/'handJoint' cannot change during a vault", wr->where);
  }
  /* prep: the hand defs, `hand` then the other (null: none). */
  const lb_grip_hand_def **prep = (const lb_grip_hand_def **)(void *)wr->prep;
  const lb_rig_instance *inst = lb_rig_of_slot(w, wr->slot);
  if (inst) {
    const lb_grip_hand_def *d =
        lb_grip_hand_def_get(w, inst->asset, (lb_hand_side)(c->hand ? 1 : 0), c->hand_joint, 0);
    if (!d) {
      return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "%s: out of memory", wr->where);
    }
    if (d->found != LB_OK || d->upper < 0 || d->lower < 0) {
      return lb_fail(w, LB_ERR_JOINT_NOT_FOUND,
                     "%s: field 'handJoint': no %s arm (upper arm, forearm, hand) found in the "
                     "rig%s%s",
                     wr->where, c->hand ? "left" : "right",
                     d->info.report && d->info.report[0] ? ": " : "",
                     d->info.report ? d->info.report : "");
    }
    prep[0] = d;
    const lb_grip_hand_def *o =
        lb_grip_hand_def_get(w, inst->asset, (lb_hand_side)(c->hand ? 0 : 1), 0, 0);
    if (!o) {
      return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "%s: out of memory", wr->where);
    }
    prep[1] = vault_arm_found(o) ? o : NULL; /* no other arm: busyHand cannot switch to it */
  }
  return LB_OK;
}

/* The defs by side from `hand`-first order; a def that changed is measured again. */
static void vault_set_hands(vault_inst *st, const lb_vault_c *c, const lb_grip_hand_def *d[2]) {
  int want = c->hand ? 1 : 0;
  const lb_grip_hand_def *by_side[2] = {want ? d[1] : d[0], want ? d[0] : d[1]};
  for (int side = 0; side < 2; ++side) {
    if (st->defs[side] != by_side[side]) {
      st->defs[side] = by_side[side];
      st->measured[side] = false;
    }
  }
}

static void vault_commit(lb_write *wr, void *state) {
  vault_inst *st = state;
  const lb_grip_hand_def **d = (const lb_grip_hand_def **)(void *)wr->prep;
  const lb_rig_instance *inst = lb_rig_of_slot(wr->world, wr->slot);
  vault_set_hands(st, wr->value, d);
  st->asset = inst ? inst->asset : 0;
}

/* A Rig that came, went or changed skeleton: find the hand again. */
static void vault_changed(lb_world *w, uint32_t type, uint32_t slot) {
  if (type != LB_RIG || !lb_slot_has(w, slot, LB_VAULT)) {
    return;
  }
  vault_inst *st = lb_component_state(w, slot, LB_VAULT);
  const lb_vault_c *c = lb_component_ptr(w, slot, LB_VAULT);
  const lb_rig_instance *inst = lb_rig_of_slot(w, slot);
  uint32_t asset = inst ? inst->asset : 0;
  if (st->asset == asset && (st->defs[c->hand ? 1 : 0] || !inst)) {
    return;
  }
  st->asset = asset;
  st->measured[0] = st->measured[1] = false;
  const lb_grip_hand_def *d[2] = {NULL, NULL};
  if (inst) {
    vault_find_hands(w, c, asset, d);
  }
  vault_set_hands(st, c, d);
}

/* ---- frames ---------------------------------------------------------------------------------- */

/* The obstacle's world transform now (its start transform once it is gone). */
static void vault_obstacle_now(const lb_world *w, const lb_vault_c *c, const vault_inst *st,
                               lb_transform *out) {
  (void)c;
  int os = st->obstacle != LB_NULL_ENTITY ? lb_slot_of(w, st->obstacle) : -1;
  *out = os >= 0 ? w->world_xf[os] : st->obstacle0;
}
static void vault_to_obstacle(const lb_transform *o, const float *p, float *out) {
  lb_transform pw, pl;
  lb_transform_identity(&pw);
  memcpy(pw.t, p, sizeof(vec3));
  lb_transform_inverse_mul(o, &pw, &pl);
  memcpy(out, pl.t, sizeof(vec3));
}
static void vault_dir_to_obstacle(const lb_transform *o, const float *d, float *out) {
  versor inv = {-o->r[0], -o->r[1], -o->r[2], o->r[3]};
  lb_quat_rotate(inv, d, out);
}

/* ---- the Move system --------------------------------------------------------------------------
 */

static void vault_refuse(lb_vault_c *c, lb_vault_refusal why) {
  c->refusal = (uint32_t)why;
  c->refusals++;
}

/* The Animator's vault state: duration (seconds, all speeds applied) and whether its root
 * motion moves the character. False when there is no usable state. */
static bool vault_animator_vault(const lb_world *w, uint32_t s, const lb_vault_c *c, float *seconds,
                                 bool *root_motion) {
  const lb_animator_c *a = lb_component_try(w, s, LB_ANIMATOR);
  const lb_animator_instance *ai = lb_animator_of_slot(w, s);
  if (!a || !ai || c->anim_state == 0) {
    return false;
  }
  const lb_animator_controller *ctl = lb_controller_get(w, ai->controller);
  if (!ctl) {
    return false;
  }
  for (uint32_t i = 0; i < ctl->state_count; ++i) {
    const lb_anim_state *as = &ctl->states[i];
    if (as->name_id != c->anim_state || as->point_count == 0) {
      continue;
    }
    float speed = as->speed * a->speed;
    if (!(speed > 0.0f)) {
      return false;
    }
    const lb_clip *clip = lb_world_clip(w, ctl->points[as->first_point].clip);
    if (!clip || !(clip->duration > 0.0f)) {
      return false;
    }
    *seconds = clip->duration / speed;
    *root_motion = a->apply_root_motion != 0;
    return true;
  }
  return false;
}

static void vault_trigger(lb_world *w, uint32_t s, const lb_vault_c *c) {
  lb_animator_instance *ai = lb_animator_of_slot(w, s);
  if (!ai || c->trigger == 0) {
    return;
  }
  const lb_animator_controller *ctl = lb_controller_get(w, ai->controller);
  if (!ctl) {
    return;
  }
  int p = lb_controller_find_param(ctl, lb_name_text(w, c->trigger));
  if (p >= 0 && ctl->params[p].type != LB_ANIM_PARAM_FLOAT) {
    ai->params[p] = 1.0f;
  }
}

static bool vault_probe(lb_world *w, uint32_t s, lb_vault_c *c, vault_inst *st,
                        const lb_character_controller_c *cc, lb_vault_probe_job *job) {
  const lb_transform_c *t = lb_component_ptr(w, s, LB_TRANSFORM);
  /* Every input the default job has is set here; the job is not cleared first (1.3 KB, most
   * of it the record of casts, which the run restarts and fills with what it makes). */
  job->filter = lb_collide_default_filter();
  lb_transform_identity(&job->character);
  job->world = w;
  job->filter.layers = c->layer_mask;
  job->filter.exclude = lb_entity_of_slot(w, s);
  memcpy(job->character.t, t->position, sizeof(vec3));
  memcpy(job->character.r, t->rotation, sizeof(versor));
  memcpy(job->hand_origin, c->hand_origin, sizeof(vec3));
  job->hand_radius = c->hand_radius;
  job->max_distance = c->max_distance;
  job->cast_down_limit = c->cast_down_limit;
  job->cast_forward_limit = c->cast_forward_limit;
  job->landing_distance = c->landing_distance;
  job->drop_limit = c->drop_limit;
  job->capsule_radius = cc->radius <= 2.0f ? cc->radius : 0.0f;
  job->capsule_height = cc->height;
  if (lb_vault_probe_job_run(job) != LB_OK) {
    return false; /* e.g. a character facing straight up: nothing is found */
  }
  c->obstacle_class = (uint32_t)job->verdict;
  c->obstacle = job->obstacle;
  memcpy(c->top, job->top, sizeof(vec3));
  c->height = job->height;
  c->depth = job->depth;
  c->distance = job->distance;
  st->cast_count = job->cast_count < LB_VAULT_MAX_CASTS ? job->cast_count : LB_VAULT_MAX_CASTS;
  memcpy(st->casts, job->casts, sizeof(lb_vault_cast) * st->cast_count);
  return true;
}

static void vault_start(lb_world *w, uint32_t s, lb_vault_c *c, vault_inst *st,
                        lb_character_controller_c *cc, const lb_vault_probe_job *job) {
  c->state = LB_VAULT_VAULTING;
  c->refusal = LB_VAULT_ACCEPTED;
  c->vaults++;
  c->time = 0.0f;
  c->hand_weight = 0.0f;
  st->above = false;
  st->planted = false;
  st->released = false;
  st->moved = 0.0f;
  float seconds = VAULT_DEFAULT_SECONDS;
  bool root_motion = false;
  bool clip = vault_animator_vault(w, s, c, &seconds, &root_motion);
  if (c->vault_duration > 0.0f) {
    seconds = c->vault_duration;
  }
  /* a clip played extremely slowly or fast still ends: 1 ms .. 60 s (vaultDuration's range) */
  seconds = lb_clamp(seconds, 0.001f, 60.0f);
  c->duration = seconds;
  c->root_motion = clip && root_motion ? 1u : 0u;
  st->travel = job->distance + job->depth + c->landing_distance;
  vault_trigger(w, s, c);
  /* the obstacle's frame */
  st->obstacle = c->obstacle;
  vault_obstacle_now(w, c, st, &st->obstacle0);
  int os = lb_slot_of(w, st->obstacle);
  if (os < 0) {
    lb_transform_identity(&st->obstacle0);
  }
  vault_dir_to_obstacle(&st->obstacle0, job->forward, st->fwd_l);
  vault_to_obstacle(&st->obstacle0, job->near_point, st->near_l);
  vault_to_obstacle(&st->obstacle0, job->top, st->top_l);
  /* shrink by heightDelta, so the capsule's bottom clears the top while the feet swing over */
  st->orig_height = cc->height;
  memcpy(st->orig_center, cc->center, sizeof(vec3));
  c->height_delta = job->height + 2.0f * c->hand_radius + c->clearance;
  float h = st->orig_height - c->height_delta;
  float least = 2.0f * cc->radius > cc->step_offset ? 2.0f * cc->radius : cc->step_offset;
  cc->height = h > least ? h : least;
  cc->center[1] = st->orig_center[1] + c->height_delta * 0.5f;
  /* no ground snap while shrunk: the raised capsule bottom would pull the feet down */
  st->orig_snap = cc->snap_distance;
  cc->snap_distance = 0.0f;
}

static void vault_restore(lb_character_controller_c *cc, const vault_inst *st) {
  cc->height = st->orig_height;
  memcpy(cc->center, st->orig_center, sizeof(vec3));
  cc->snap_distance = st->orig_snap;
}

/* The hand to plant by busyHand and the ownership rule (the grip's main hand is never
 * planted; the support hand may be, the grip taking it back after), or -1: HandBusy. */
static int vault_choose_hand(const lb_world *w, uint32_t s, const lb_vault_c *c,
                             const vault_inst *st) {
  int want = c->hand ? 1 : 0, other = 1 - want;
  lb_grip_holding held[2] = {lb_grip_hand_holding(w, s, LB_HAND_RIGHT),
                             lb_grip_hand_holding(w, s, LB_HAND_LEFT)};
  bool regrip = c->busy_hand == LB_VAULT_BUSY_RELEASE_AND_REGRIP;
  if (held[want] == LB_GRIP_HOLDING_NONE || (regrip && held[want] == LB_GRIP_HOLDING_SUPPORT)) {
    return want;
  }
  if (c->busy_hand == LB_VAULT_BUSY_REFUSE || !st->defs[other]) {
    return -1;
  }
  /* `hand` holds the main grip (never planted), or FreeHand: the other hand */
  if (held[other] == LB_GRIP_HOLDING_NONE || (regrip && held[other] == LB_GRIP_HOLDING_SUPPORT)) {
    return other;
  }
  return -1;
}

/* An Idle vaulter's request (or the every-step probe): probe, then refuse or start. A request
 * on a vault under way is refused as busy. */
static void vault_handle_request(lb_world *w, uint32_t s, lb_vault_c *c, vault_inst *st,
                                 lb_character_controller_c *cc) {
  if (c->state != LB_VAULT_IDLE) {
    if (c->request) {
      c->request = 0;
      vault_refuse(c, LB_VAULT_BUSY);
    }
    return;
  }
  if (!c->request && !c->probe_every_step) {
    return;
  }
  bool asked = c->request != 0;
  c->request = 0;
  lb_vault_probe_job job;
  bool ok = vault_probe(w, s, c, st, cc, &job);
  if (!asked) {
    return;
  }
  if (!ok) {
    vault_refuse(c, LB_VAULT_NOT_VAULTABLE);
    return;
  }
  if (job.verdict != LB_VAULT_CLASS_VAULT || job.refusal != LB_VAULT_ACCEPTED) {
    vault_refuse(c, job.verdict != LB_VAULT_CLASS_VAULT ? LB_VAULT_NOT_VAULTABLE : job.refusal);
    return;
  }
  int side = vault_choose_hand(w, s, c, st);
  if (side < 0) {
    vault_refuse(c, LB_VAULT_HAND_BUSY);
    return;
  }
  st->side = side;
  vault_start(w, s, c, st, cc, &job);
}

/* The vault's clock, the scripted travel along the obstacle's forward (unless root motion
 * moves the character, and not once landing) and the top point in world space. */
static void vault_travel(lb_world *w, lb_vault_c *c, vault_inst *st, lb_character_controller_c *cc,
                         float dt) {
  c->time = c->time + dt / c->duration;
  if (c->time > 1.0f) {
    c->time = 1.0f;
  }
  memset(cc->move, 0, sizeof cc->move);
  lb_transform o;
  vault_obstacle_now(w, c, st, &o);
  vec3 fwd;
  lb_quat_rotate(o.r, st->fwd_l, fwd);
  if (!c->root_motion && c->state != LB_VAULT_LANDING) {
    float want = st->travel * c->time;
    float step = want - st->moved;
    st->moved = want;
    for (int k = 0; k < 3; ++k) {
      cc->move[k] = fwd[k] * step;
    }
  }
  lb_transform_point(&o, st->top_l, c->top);
}

/* Over yet? A sphere cast down, heightDelta long, from above the shrunk capsule: once it has
 * found the obstacle and then finds nothing, the character has passed it (or the clip has run
 * to VAULT_LATEST_OVER). */
static void vault_test_over(lb_world *w, uint32_t s, lb_vault_c *c, vault_inst *st,
                            const lb_character_controller_c *cc) {
  const lb_transform_c *t = lb_component_ptr(w, s, LB_TRANSFORM);
  float up = c->height_delta + 2.0f * c->hand_radius + cc->radius;
  vec3 origin = {t->position[0], t->position[1] + up, t->position[2]};
  static const vec3 down = {0.0f, -1.0f, 0.0f};
  lb_collide_filter f = lb_collide_default_filter();
  f.layers = c->layer_mask;
  f.exclude = lb_entity_of_slot(w, s);
  lb_collide_hit h;
  bool hit = lb_world_sphere_cast(w, origin, cc->radius, down, c->height_delta, &f, &h) == LB_OK &&
             h.entity != LB_NULL_ENTITY;
  if (hit) {
    st->above = true;
  }
  if ((st->above && !hit) || c->time >= VAULT_LATEST_OVER) {
    c->state = LB_VAULT_OVER;
    st->over_time = c->time;
    st->over_height = cc->height;
    memcpy(st->over_center, cc->center, sizeof(vec3));
  }
}

/* Over: the controller's size eases back from the shrunk one to the original by the end of
 * the clip, then Landing. */
static void vault_ease_size(lb_vault_c *c, const vault_inst *st, lb_character_controller_c *cc) {
  if (c->time >= 1.0f) {
    vault_restore(cc, st);
    c->state = LB_VAULT_LANDING;
    return;
  }
  float span = 1.0f - st->over_time;
  float k = span > 0.0f ? (c->time - st->over_time) / span : 1.0f;
  k = lb_clamp(k, 0.0f, 1.0f);
  cc->height = st->over_height + (st->orig_height - st->over_height) * k;
  for (int i = 0; i < 3; ++i) {
    cc->center[i] = st->over_center[i] + (st->orig_center[i] - st->over_center[i]) * k;
  }
}

/* One vaulter's Move step: request -> travel -> over test -> size -> landed. */
static void vault_move_one(lb_world *w, uint32_t s, float dt) {
  lb_vault_c *c = lb_component_ptr(w, s, LB_VAULT);
  vault_inst *st = lb_component_state(w, s, LB_VAULT);
  lb_character_controller_c *cc = lb_component_try(w, s, LB_CHARACTER_CONTROLLER);
  if (!cc || !lb_slot_has(w, s, LB_TRANSFORM)) {
    c->state = LB_VAULT_IDLE; /* the controller left: nothing to drive */
    c->request = 0;
    return;
  }
  vault_handle_request(w, s, c, st, cc);
  if (c->state == LB_VAULT_IDLE) {
    return;
  }
  vault_travel(w, c, st, cc, dt);
  if (c->state == LB_VAULT_VAULTING) {
    vault_test_over(w, s, c, st, cc);
  }
  if (c->state == LB_VAULT_OVER) {
    vault_ease_size(c, st, cc);
  }
  if (c->state == LB_VAULT_LANDING && cc->applied_height == st->orig_height &&
      lb_same_bytes(cc->applied_center, st->orig_center, sizeof(vec3))) {
    c->state = LB_VAULT_IDLE;
    /* The outputs name what is ahead now, not the obstacle behind (a game's auto-vault reads
     * them: the crate just cleared was reported ahead and its request refused). */
    lb_vault_probe_job job;
    vault_probe(w, s, c, st, cc, &job);
  }
}

static void vault_move_task(lb_world *w, uint32_t s, uint32_t worker, void *context) {
  (void)worker;
  vault_move_one(w, s, *(const float *)context);
}

/* 2 Move (order 20): every Vault, in parallel: a vaulter probes the colliders' tree as the
 * Model phase refit it, reads the obstacle's world transform of the last step, and writes only
 * its own Vault, controller size and request, Animator trigger and grip hand-over. */
static void vault_system_move(lb_world *w, float dt) {
  cl_sync(w, false); /* once, here: a query would do it lazily on whichever thread asked first */
  lb_parallel_each(w, LB_VAULT, vault_move_task, &dt);
}

/* ---- the Reach system ---------------------------------------------------------------------- */

/* The plant: a sphere cast down from above the palm, kept within the top along forward. */
static bool vault_plant(lb_world *w, uint32_t s, lb_vault_c *c, vault_inst *st,
                        const lb_transform *o, const float *palm) {
  vec3 fwd, near;
  lb_quat_rotate(o->r, st->fwd_l, fwd);
  lb_transform_point(o, st->near_l, near);
  float r = c->hand_radius;
  vec3 rel = {palm[0] - near[0], palm[1] - near[1], palm[2] - near[2]};
  float along = lb_vec3_dot(rel, fwd);
  float lo = r, hi = c->depth - 2.0f * r;
  if (hi < lo) {
    lo = hi = (c->depth - r) * 0.5f;
  }
  float want = lb_clamp(along, lo, hi);
  vec3 origin;
  for (int k = 0; k < 3; ++k) {
    origin[k] = palm[k] + fwd[k] * (want - along);
  }
  float above = c->top[1] + 2.0f * r;
  if (origin[1] < above) {
    origin[1] = above;
  }
  static const vec3 down = {0.0f, -1.0f, 0.0f};
  lb_collide_filter f = lb_collide_default_filter();
  f.layers = c->layer_mask;
  f.exclude = lb_entity_of_slot(w, s);
  lb_collide_hit h;
  if (lb_world_sphere_cast(w, origin, r, down, origin[1] - c->top[1] + r, &f, &h) != LB_OK ||
      h.entity == LB_NULL_ENTITY || h.entity != st->obstacle) {
    return false;
  }
  vec3 target;
  for (int k = 0; k < 3; ++k) {
    target[k] = h.point[k] + fwd[k] * r;
  }
  vault_to_obstacle(o, target, st->plant_l);
  vault_dir_to_obstacle(o, h.normal, st->normal_l);
  st->planted = true;
  return true;
}

/* The hand's weight: while vaulting, the plant is cast again every step (the target follows
 * the animated hand across the top, in the obstacle's frame) and the weight rises over
 * plantTime until the body has moved out of reach; otherwise it falls over releaseSeconds. */
static void vault_hand_weight(lb_world *w, uint32_t s, lb_vault_c *c, vault_inst *st,
                              const lb_rig_instance *inst, const lb_grip_hand *hand,
                              const lb_transform *o, bool regrip, float dt) {
  const lb_transform *root = &w->world_xf[s];
  if (c->state == LB_VAULT_VAULTING && !st->released) {
    {
      lb_transform palm_m;
      vec3 palm;
      lb_grip_palm_model(hand, inst, &palm_m);
      lb_transform_point(root, palm_m.t, palm);
      vault_plant(w, s, c, st, o, palm);
    }
    float wt = c->time / c->plant_time;
    c->hand_weight = st->planted ? (wt < 1.0f ? wt : 1.0f) : 0.0f;
    if (st->planted && c->hand_weight >= 1.0f) {
      /* out of reach once the body has moved on: let go */
      vec3 target, shoulder;
      lb_transform_point(o, st->plant_l, target);
      lb_transform_point(root, inst->model[hand->def->upper].t, shoulder);
      st->released =
          vault_v_dist(target, shoulder) > hand->arm_length + c->body_shift + c->hand_radius;
    }
  } else {
    /* A support hand goes back to the grip at the grip's own pace (its blendSeconds). */
    const lb_grip_holder_c *gh = regrip ? lb_component_try(w, s, LB_GRIP_HOLDER) : NULL;
    float seconds = gh ? gh->blend_seconds : c->release_seconds;
    float fall = seconds > 0.0f ? dt / seconds : (dt > 0.0f ? 1.0f : 0.0f);
    /* what n equal steps leave of 1 is rounding (1 - 15 x (1/60 / 0.25) = 6e-8), not a share */
    float snap = regrip ? 1e-5f : 0.0f;
    c->hand_weight = c->hand_weight - fall > snap ? c->hand_weight - fall : 0.0f;
  }
}

/* The planted hand's target and normal in world space, and its frame: palm against the
 * surface (+Y out of the palm = -normal), fingers forward. */
static void vault_hand_frame(lb_vault_c *c, const vault_inst *st, const lb_transform *o, vec3 n,
                             vec3 x, vec3 y, vec3 z) {
  vec3 fwd;
  lb_transform_point(o, st->plant_l, c->hand_target);
  lb_quat_rotate(o->r, st->normal_l, n);
  lb_quat_rotate(o->r, st->fwd_l, fwd);
  memcpy(c->hand_normal, n, sizeof(vec3));
  y[0] = -n[0];
  y[1] = -n[1];
  y[2] = -n[2];
  float k = lb_vec3_dot(fwd, y);
  for (int i = 0; i < 3; ++i) {
    z[i] = fwd[i] - y[i] * k;
  }
  if (lb_vec3_normalize_to(z, z) < 1e-6f) {
    lb_vec3_any_perpendicular(y, z);
  }
  lb_vec3_cross(y, z, x);
}

/* A plant beyond the arm's reach pulls the whole pose toward it (at most bodyShift). */
static void vault_pull_pose(lb_vault_c *c, float arm_length, const lb_skeleton *sk,
                            lb_rig_instance *inst, const lb_transform *root, int upper) {
  vec3 shoulder, gap;
  lb_transform_point(root, inst->model[upper].t, shoulder);
  for (int i = 0; i < 3; ++i) {
    gap[i] = c->hand_target[i] - shoulder[i];
  }
  float reach = lb_vec3_length(gap);
  float over = reach - arm_length * 0.98f;
  c->body_offset = 0.0f;
  if (!(over > 0.0f && c->body_shift > 0.0f && reach > 0.0f)) {
    return;
  }
  float move = (over < c->body_shift ? over : c->body_shift) * c->hand_weight;
  c->body_offset = move;
  vec3 shift_w = {gap[0] / reach * move, gap[1] / reach * move, gap[2] / reach * move};
  vec3 shift_m;
  versor inv = {-root->r[0], -root->r[1], -root->r[2], root->r[3]};
  lb_quat_rotate(inv, shift_w, shift_m);
  for (int i = 0; i < 3; ++i) {
    shift_m[i] /= root->s[i];
  }
  for (uint32_t j = 0; j < inst->joint_count; ++j) {
    for (int i = 0; i < 3; ++i) {
      inst->model[j].t[i] += shift_m[i];
    }
    if (sk->parents[j] < 0) {
      lb_transform_inverse_mul(&sk->root_parent, &inst->model[j], &inst->local[j]);
    }
  }
  lb_rig_mark_edited(inst, 0, inst->joint_count);
}

/* The arm reaches the planted hand's frame by the hand weight (the palm is measured on the
 * step's final pose, vault_status_one). Handed over from the grip (`from`: its support anchor
 * held at `from_weight`), the palm's goal travels from that anchor to the plant instead, and
 * the arm's weight from the grip's to 1: at weight 0 the arm is where the grip would put it,
 * so neither end pops, and the animated arm never shows in between. */
static void vault_hand_solve(const lb_vault_c *c, const lb_skeleton *sk, lb_rig_instance *inst,
                             const lb_transform *root, const lb_grip_hand *hand, const vec3 x,
                             const vec3 y, const vec3 z, const lb_transform *from,
                             float from_weight) {
  lb_transform anchor_w, anchor_m;
  lb_transform_identity(&anchor_w);
  memcpy(anchor_w.t, c->hand_target, sizeof(vec3));
  lb_quat_from_basis(x, y, z, anchor_w.r);
  lb_transform_inverse_mul(root, &anchor_w, &anchor_m);
  float weight = c->hand_weight;
  if (from) {
    float k = c->hand_weight;
    versor r;
    lb_quat_slerp(from->r, anchor_m.r, k, r);
    memcpy(anchor_m.r, r, sizeof r);
    for (int i = 0; i < 3; ++i) {
      anchor_m.t[i] = from->t[i] + (anchor_m.t[i] - from->t[i]) * k;
    }
    weight = from_weight + (1.0f - from_weight) * k;
  }
  lb_grip_arm_reach(sk, inst, hand, &anchor_m, weight, 0.0f, false);
}

/* The grip's support hand handed to the plant: the grip leaves the arm to the vault and eases
 * the fingers by the hand weight; `from` gets the grip's hold (support anchor, model space)
 * and its weight. False when the grip holds no support anchor (nothing to hand over). */
static bool vault_take_support(lb_world *w, uint32_t s, const lb_grip_hand *hand, float weight,
                               lb_transform *from, float *from_weight) {
  lb_grip_release_support(w, s, hand->def->side, weight);
  return lb_grip_support_anchor(w, s, from, from_weight);
}

/* One vaulter's planted hand: weight -> frame -> pull the pose -> the grip's share -> the
 * arm. A planted support hand is taken from the grip by the hand weight, every step it is
 * held (the vault outranks the support hand: lb_grip_release_support). */
static void vault_reach_one(lb_world *w, uint32_t s, float dt) {
  lb_vault_c *c = lb_component_ptr(w, s, LB_VAULT);
  vault_inst *st = lb_component_state(w, s, LB_VAULT);
  st->solved = false;
  if (c->state == LB_VAULT_IDLE && c->hand_weight <= 0.0f) {
    return;
  }
  c->palm_gap = 0.0f;
  c->palm_error = 0.0f;
  c->hand_reached = 0;
  c->planted_hand = 0;
  lb_rig_instance *inst = lb_rig_of_slot(w, s);
  const int side = st->side;
  const lb_grip_hand_def *d = st->defs[side];
  if (!inst || inst->asset != st->asset || !d) {
    c->hand_weight = 0.0f;
    return;
  }
  const lb_skeleton *sk = lb_skeleton_get(w, inst->asset);
  const lb_transform *root = &w->world_xf[s];
  if (!st->measured[side]) {
    st->arm_length[side] = vault_v_dist(inst->model[d->upper].t, inst->model[d->lower].t) +
                           vault_v_dist(inst->model[d->lower].t, inst->model[d->info.hand].t);
    st->measured[side] = true;
  }
  lb_grip_hand hand = {.def = d, .arm_length = st->arm_length[side]};
  lb_transform o;
  vault_obstacle_now(w, c, st, &o);
  bool regrip = lb_grip_hand_holding(w, s, side) == LB_GRIP_HOLDING_SUPPORT;
  vault_hand_weight(w, s, c, st, inst, &hand, &o, regrip, dt);
  if (!st->planted || c->hand_weight <= 0.0f) {
    return;
  }
  c->planted_hand = (uint32_t)side + 1u;
  vec3 n, x, y, z;
  vault_hand_frame(c, st, &o, n, x, y, z);
  vault_pull_pose(c, hand.arm_length, sk, inst, root, d->upper);
  lb_transform from;
  float from_weight = 0.0f;
  bool handover = regrip && vault_take_support(w, s, &hand, c->hand_weight, &from, &from_weight);
  vault_hand_solve(c, sk, inst, root, &hand, x, y, z, handover ? &from : NULL, from_weight);
  st->solved = true;
}

/* 4 Reach (order 20, after interact): every Vault in entity order. */
static void vault_system_reach(lb_world *w, float dt) {
  uint32_t s;
  for (lb_each it = lb_each_begin(w, LB_VAULT); lb_each_next(&it, &s);) {
    vault_reach_one(w, s, dt);
  }
}

/* ---- the Output system ------------------------------------------------------------------- */

/* The planted palm on the step's final pose (after the Grip phase, the last to move a hand):
 * its gap along the top's normal and its distance to the target, as drawn. */
static void vault_status_one(lb_world *w, uint32_t s) {
  vault_inst *st = lb_component_state(w, s, LB_VAULT);
  const lb_rig_instance *inst = lb_rig_of_slot(w, s);
  if (!st->solved || !inst || !st->defs[st->side]) {
    return;
  }
  lb_vault_c *c = lb_component_ptr(w, s, LB_VAULT);
  lb_grip_hand hand = {.def = st->defs[st->side]};
  lb_transform palm_m;
  vec3 palm, rel;
  lb_grip_palm_model(&hand, inst, &palm_m);
  lb_transform_point(&w->world_xf[s], palm_m.t, palm);
  for (int i = 0; i < 3; ++i) {
    rel[i] = palm[i] - c->hand_target[i];
  }
  c->palm_gap = lb_vec3_dot(rel, c->hand_normal);
  c->palm_error = lb_vec3_length(rel);
  c->hand_reached = c->hand_weight >= 1.0f && c->palm_error <= 5e-3f ? 1u : 0u;
}

/* 6 Output (order 50, before collide.refit_late): every Vault in entity order. */
static void vault_system_status(lb_world *w, float dt) {
  (void)dt;
  uint32_t s;
  for (lb_each it = lb_each_begin(w, LB_VAULT); lb_each_next(&it, &s);) {
    vault_status_one(w, s);
  }
}

/* ---- public entries ---------------------------------------------------------------------- */

static int vault_slot(lb_world *w, lb_entity e, const char *fn) {
  int s = lb_slot_checked(w, e, fn);
  if (s < 0) {
    return -1;
  }
  if (!lb_slot_has(w, (uint32_t)s, LB_VAULT)) {
    char lbl[48];
    lb_fail(w, LB_ERR_MISSING_COMPONENT, "%s: %s has no Vault", fn,
            lb_entity_label(e, lbl, sizeof lbl));
    return -2;
  }
  return s;
}

lb_result lb_world_vault_request(lb_world *w, lb_entity e) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  int s = vault_slot(w, e, "vault_request");
  if (s < 0) {
    return s == -1 ? LB_ERR_STALE_ENTITY : LB_ERR_MISSING_COMPONENT;
  }
  lb_vault_c *c = lb_component_ptr(w, (uint32_t)s, LB_VAULT);
  c->request = 1;
  return LB_OK;
}

lb_result lb_world_vault_casts(lb_world *w, lb_entity e, lb_vault_cast *out, uint32_t cap,
                               uint32_t *count) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!count || (cap > 0 && !out)) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "vault_casts: null %s", count ? "out" : "count");
  }
  int s = vault_slot(w, e, "vault_casts");
  if (s < 0) {
    return s == -1 ? LB_ERR_STALE_ENTITY : LB_ERR_MISSING_COMPONENT;
  }
  const vault_inst *st = lb_component_state(w, (uint32_t)s, LB_VAULT);
  uint32_t n = st->cast_count < cap ? st->cast_count : cap;
  if (n > 0) {
    memcpy(out, st->casts, sizeof(lb_vault_cast) * n);
  }
  *count = st->cast_count;
  return LB_OK;
}

/* The Vault leaves mid-vault: the controller gets its own size and snap back. */
static void vault_remove(lb_world *w, uint32_t slot, void *value, void *state) {
  const lb_vault_c *c = value;
  const vault_inst *st = state;
  lb_character_controller_c *cc = lb_component_try(w, slot, LB_CHARACTER_CONTROLLER);
  if (cc && (c->state == LB_VAULT_VAULTING || c->state == LB_VAULT_OVER)) {
    vault_restore(cc, st);
  }
}

/* A vault under way owns the character's movement requests: each step of it sets the
 * controller's request itself (the scripted travel, or nothing beside the clip's root motion),
 * so a game move would be dropped; it is refused instead, naming the vault. */
static bool vault_owner(const lb_world *w, uint32_t slot, lb_input input, const char *param,
                        lb_input_owner *out) {
  (void)param;
  if (input != LB_INPUT_MOVE || !lb_slot_has(w, slot, LB_VAULT)) {
    return false;
  }
  const lb_vault_c *c = lb_component_ptr(w, slot, LB_VAULT);
  if (c->state == LB_VAULT_IDLE) {
    return false;
  }
  out->component = "Vault";
  out->state = c->state == LB_VAULT_LANDING ? "state Landing: the controller's size is restored"
                                            : "vaulting: it moves the character over the obstacle";
  out->until = "it has landed (state Idle)";
  return true;
}

_Static_assert(sizeof(lb_vault_c) <= LB_COMPONENT_MAX_SIZE, "Vault fits the write staging");

static const lb_component_def vault_components[] = {
    {.type = LB_VAULT,
     .info = &lb_vault_info,
     .state_size = sizeof(vault_inst),
     .stage = vault_stage,
     .commit = vault_commit,
     .remove = vault_remove},
};

static const lb_system_def vault_systems[] = {
    {LB_PHASE_MOVE, 20, "vault.move", vault_system_move},
    {LB_PHASE_REACH, 20, "vault.reach", vault_system_reach},
    {LB_PHASE_OUTPUT, 50, "vault.status", vault_system_status},
};

const lb_module_def lb_module_vault = {
    .name = "vault",
    .components = vault_components,
    .component_count = 1,
    .systems = vault_systems,
    .system_count = 3,
    .changed = vault_changed,
    .owner = vault_owner,
};
