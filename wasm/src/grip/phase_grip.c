/* 5 Grip, per character, one way (the held object never reads the support hand):
 *   animation pose (as it entered this phase)
 *   → main arm reaches the object (Object placement) or the object follows the main hand
 *     (Hand placement)
 *   → support anchor read from the object's current place → support arm
 *   → fingers of both hands (pose → wrap → weight)
 * with every covered joint eased from where it was when what drives the hand changed.
 * The object never reads the support hand. */
#include "../base/fnv.h"
#include "../world/parallel.h"
#include "grip_internal.h"
#include <string.h>

/* Identity of what drives a hand: a change starts a blend. Weights and triggers are
 * continuous inputs, not part of it. */
static uint64_t lb_plan_key(const lb_grip_plan *p, uint32_t placement) {
  if (p->kind == LB_GRIP_DRIVER_NONE) {
    return 0;
  }
  uint64_t h = LB_FNV_OFFSET;
  h = lb_fnv_u32(h, (uint32_t)p->kind);
  h = lb_fnv_u32(h, p->anchor);
  h = lb_fnv_u32(h, placement);
  return lb_fnv_u32(h, p->pose);
}

lb_grip_holding lb_grip_hand_holding(const lb_world *w, uint32_t slot, int side) {
  const lb_grip_holder_c *gh = lb_component_try(w, slot, LB_GRIP_HOLDER);
  if (!gh || gh->held == LB_NULL_ENTITY || lb_slot_of(w, gh->held) < 0) {
    return LB_GRIP_HOLDING_NONE;
  }
  if ((int)gh->main_hand == side) {
    return LB_GRIP_HOLDING_MAIN;
  }
  int os = lb_slot_of(w, gh->held);
  const lb_grip_profile_c *gp = lb_component_try(w, (uint32_t)os, LB_GRIP_PROFILE);
  return gp && gp->support_anchor != LB_NULL_ENTITY && gh->support_weight > 0.0f
             ? LB_GRIP_HOLDING_SUPPORT
             : LB_GRIP_HOLDING_NONE;
}

void lb_grip_release_support(lb_world *w, uint32_t slot, int side, float share) {
  if ((side != LB_HAND_RIGHT && side != LB_HAND_LEFT) || !lb_slot_has(w, slot, LB_GRIP_HANDS)) {
    return;
  }
  lb_grip_hands *gs = lb_component_state(w, slot, LB_GRIP_HANDS);
  gs->hands[side].released = lb_clamp(share, 0.0f, 1.0f);
}

static void lb_plan_hands(const lb_world *w, uint32_t s, lb_grip_plan plan[2],
                          uint32_t *placement) {
  const lb_grip_pose_c *gp =
      lb_slot_has(w, s, LB_GRIP_POSE) ? lb_component_ptr(w, s, LB_GRIP_POSE) : NULL;
  const lb_grip_holder_c *gh =
      lb_slot_has(w, s, LB_GRIP_HOLDER) ? lb_component_ptr(w, s, LB_GRIP_HOLDER) : NULL;
  memset(plan, 0, 2 * sizeof *plan);
  *placement = gh ? gh->placement : 0;
  for (int side = 0; side < 2; ++side) {
    plan[side].object = -1;
    plan[side].pose = 0;
    if (gp && (side == LB_HAND_RIGHT ? gp->right_pose : gp->left_pose)) {
      plan[side].kind = LB_GRIP_DRIVER_POSE;
      plan[side].pose = side == LB_HAND_RIGHT ? gp->right_pose : gp->left_pose;
      plan[side].weight = side == LB_HAND_RIGHT ? gp->right_weight : gp->left_weight;
      plan[side].trigger = side == LB_HAND_RIGHT ? gp->right_trigger : gp->left_trigger;
    }
    plan[side].seconds = gp ? gp->blend_seconds : 0.0f;
  }
  int obj = gh ? lb_slot_of(w, gh->held) : -1;
  if (obj < 0 || !lb_slot_has(w, (uint32_t)obj, LB_GRIP_PROFILE)) {
    if (gh) { /* letting go eases back with the holder's time */
      for (int side = 0; side < 2; ++side) {
        if (plan[side].kind == LB_GRIP_DRIVER_NONE) {
          plan[side].seconds = gh->blend_seconds;
        }
      }
    }
    return;
  }
  const lb_grip_profile_c *prof = lb_component_ptr(w, (uint32_t)obj, LB_GRIP_PROFILE);
  uint32_t main = gh->main_hand, support = 1u - main;
  /* A held pistol's trigger is still the character's GripPose trigger for that hand. */
  float trig[2] = {gp ? gp->right_trigger : 0.0f, gp ? gp->left_trigger : 0.0f};
  plan[main] =
      (lb_grip_plan){LB_GRIP_DRIVER_MAIN, prof->main_pose,   gh->weight, gh->weight,
                     trig[main],          gh->blend_seconds, obj,        prof->main_anchor};
  if (lb_slot_of(w, prof->support_anchor) >= 0) {
    float sw = gh->weight * gh->support_weight, arm = sw;
    /* A higher owner (the vault's plant) that took the hand has the arm whole and the fingers
     * by its share; the driver stays, so no blend restarts. */
    const lb_grip_hands *gs = lb_component_state(w, s, LB_GRIP_HANDS);
    float taken = gs->hands[support].released;
    if (taken > 0.0f) {
      sw *= 1.0f - taken;
      arm = 0.0f;
    }
    plan[support] =
        (lb_grip_plan){LB_GRIP_DRIVER_SUPPORT, prof->support_pose, sw,  arm,
                       trig[support],          gh->blend_seconds,  obj, prof->support_anchor};
  } else if (plan[support].kind == LB_GRIP_DRIVER_NONE) {
    plan[support].seconds = gh->blend_seconds;
  }
}

/* The arm's length as the pose of the first grip has it. */
static void lb_first_grip(lb_grip_hand *h, const lb_rig_instance *inst) {
  if (h->params_ready) {
    return;
  }
  if (h->def->upper >= 0 && h->def->lower >= 0) {
    const float *a = inst->model[h->def->upper].t, *b = inst->model[h->def->lower].t,
                *c = inst->model[h->def->info.hand].t;
    vec3 u = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, l = {c[0] - b[0], c[1] - b[1], c[2] - b[2]};
    h->arm_length = lb_vec3_length(u) + lb_vec3_length(l);
  }
  h->params_ready = true;
}

/* An anchor's transform in the rig's model space, mirrored when the hand that holds is
 * not the one the anchors were placed for. */
static void lb_anchor_model_of(const lb_world *w, uint32_t rig_slot, uint32_t object,
                               lb_entity anchor, lb_transform *world_out, lb_transform *model_out) {
  const lb_grip_profile_c *prof = lb_component_ptr(w, object, LB_GRIP_PROFILE);
  const lb_grip_holder_c *gh = lb_component_ptr(w, rig_slot, LB_GRIP_HOLDER);
  lb_grip_anchor_world(w, object, anchor, prof->hand != gh->main_hand, prof->mirror, world_out);
  lb_transform_inverse_mul(&w->world_xf[rig_slot], world_out, model_out);
  model_out->s[0] = model_out->s[1] = model_out->s[2] = 1.0f;
}
static void lb_anchor_model(const lb_world *w, uint32_t rig_slot, const lb_grip_plan *p,
                            lb_transform *world_out, lb_transform *model_out) {
  lb_anchor_model_of(w, rig_slot, (uint32_t)p->object, p->anchor, world_out, model_out);
}

bool lb_grip_support_anchor(const lb_world *w, uint32_t slot, lb_transform *model_out,
                            float *weight) {
  const lb_grip_holder_c *gh = lb_component_try(w, slot, LB_GRIP_HOLDER);
  int obj = gh ? lb_slot_of(w, gh->held) : -1;
  if (obj < 0 || !lb_slot_has(w, (uint32_t)obj, LB_GRIP_PROFILE)) {
    return false;
  }
  const lb_grip_profile_c *prof = lb_component_ptr(w, (uint32_t)obj, LB_GRIP_PROFILE);
  if (lb_slot_of(w, prof->support_anchor) < 0) {
    return false;
  }
  lb_transform world;
  lb_anchor_model_of(w, slot, (uint32_t)obj, prof->support_anchor, &world, model_out);
  *weight = gh->weight * gh->support_weight;
  return true;
}

static float lb_palm_gap(const lb_world *w, uint32_t s, const lb_grip_hand *h,
                         const lb_transform *anchor_world) {
  lb_transform palm, palm_world;
  lb_grip_palm_model(h, lb_rig_of_slot(w, s), &palm);
  lb_transform_mul(&w->world_xf[s], &palm, &palm_world);
  vec3 d = {palm_world.t[0] - anchor_world->t[0], palm_world.t[1] - anchor_world->t[1],
            palm_world.t[2] - anchor_world->t[2]};
  return lb_vec3_length(d);
}

/* Hand placement: the object goes where its main anchor meets the main palm. */
static void lb_place_object(lb_world *w, uint32_t s, const lb_grip_hand *h, const lb_grip_plan *p,
                            uint32_t *walk) {
  lb_transform anchor_world, anchor_model, palm, palm_world, rel;
  lb_anchor_model(w, s, p, &anchor_world, &anchor_model);
  lb_transform *obj = &w->world_xf[p->object];
  lb_transform_inverse_mul(obj, &anchor_world, &rel); /* anchor in object units */
  lb_grip_palm_model(h, lb_rig_of_slot(w, s), &palm);
  lb_transform_mul(&w->world_xf[s], &palm, &palm_world);
  /* obj = palm * rel^-1, keeping the object's scale. */
  versor inv;
  lb_quat_conj(rel.r, inv);
  lb_quat_mul(palm_world.r, inv, obj->r);
  lb_quat_normalize(obj->r);
  vec3 off = {obj->s[0] * rel.t[0], obj->s[1] * rel.t[1], obj->s[2] * rel.t[2]}, rot;
  lb_quat_rotate(obj->r, off, rot);
  for (int i = 0; i < 3; ++i) {
    obj->t[i] = palm_world.t[i] - rot[i];
  }
  lb_world_refresh_below(w, (uint32_t)p->object, walk);
}

void lb_grip_arms(lb_world *w, uint32_t s, lb_grip_step *step) {
  lb_grip_hands *gs = lb_component_state(w, s, LB_GRIP_HANDS);
  lb_rig_instance *inst = lb_rig_of_slot(w, s);
  const lb_skeleton *sk = lb_skeleton_get(w, inst->asset);
  lb_grip_holder_c *gh =
      lb_slot_has(w, s, LB_GRIP_HOLDER) ? lb_component_ptr(w, s, LB_GRIP_HOLDER) : NULL;
  lb_grip_plan *plan = step->plan;
  lb_plan_hands(w, s, plan, &step->placement);
  uint32_t placement = step->placement;
  for (int side = 0; side < 2; ++side) {
    lb_grip_hand *h = &gs->hands[side];
    /* Hands are resolved on write (lb_grip_hands_refresh); a skeleton they do not belong
     * to leaves them idle. */
    step->active[side] = lb_grip_hand_ready(h, inst->asset);
    if (!step->active[side]) {
      continue;
    }
    h->driver = plan[side].kind;
    lb_grip_blend_begin(h, lb_plan_key(&plan[side], placement), plan[side].seconds);
    step->active[side] = plan[side].kind != LB_GRIP_DRIVER_NONE || h->blend_t < 1.0f;
    if (step->active[side]) {
      lb_first_grip(h, inst);
      lb_grip_blend_snapshot(h, inst, step->anim[side]);
    }
  }
  int main = -1, support = -1;
  for (int side = 0; side < 2; ++side) {
    main = plan[side].kind == LB_GRIP_DRIVER_MAIN ? side : main;
    support = plan[side].kind == LB_GRIP_DRIVER_SUPPORT ? side : support;
  }
  step->main = main;
  step->support = support;
  lb_transform anchor_model;
  /* Arms: main first (Object placement), then the object, then the support arm, each
   * eased before anything reads it. */
  int order[2] = {main >= 0 ? main : 0, main >= 0 ? 1 - main : 1};
  for (int k = 0; k < 2; ++k) {
    int side = order[k];
    lb_grip_hand *h = &gs->hands[side];
    if (!step->active[side]) {
      continue;
    }
    const lb_grip_plan *p = &plan[side];
    bool reach = (side == main && placement == LB_GRIP_PLACEMENT_OBJECT) || side == support;
    if (p->object >= 0) {
      lb_anchor_model(w, s, p, &step->anchor_world[side], &anchor_model);
      if (reach) {
        lb_grip_arm_reach_held(sk, inst, h, &anchor_model, p->arm_weight, gh->shoulder_assist,
                               side == main);
      }
    }
    lb_grip_blend_apply(h, sk, inst, step->anim[side], 0, lb_grip_blend_arm_count(h));
    if (side == main && placement == LB_GRIP_PLACEMENT_HAND) {
      lb_place_object(w, s, h, p, step->walk);
      lb_anchor_model(w, s, p, &step->anchor_world[side], &anchor_model);
    }
  }
}

/* GripHolder's outputs: the palms' gaps to their anchors; a released support hand reads 0
 * and not reached, with the share released in supportRelease. */
static void lb_grip_holder_status(lb_grip_holder_c *gh, const lb_grip_hands *gs,
                                  const lb_grip_step *step) {
  int main = step->main, support = step->support;
  bool on_main = main >= 0 && step->active[main],
       on_support = support >= 0 && step->active[support];
  gh->main_distance = on_main ? gs->hands[main].palm_distance : 0.0f;
  gh->support_distance = on_support ? gs->hands[support].palm_distance : 0.0f;
  gh->support_release = on_support ? gs->hands[support].released : 0.0f;
  /* A hand without a palm frame (fingers not found) reached only its hand joint: the
   * real palm is somewhere else, so it is not reported reached. */
  gh->main_reached = on_main && gs->hands[main].def->rig.valid && gh->main_distance <= 5e-4f;
  gh->support_reached = on_support && gs->hands[support].def->rig.valid &&
                        !(gh->support_release > 0.0f) && gh->support_distance <= 5e-4f;
}

void lb_grip_fingers(lb_world *w, uint32_t s, const lb_grip_step *step, float dt) {
  lb_grip_hands *gs = lb_component_state(w, s, LB_GRIP_HANDS);
  lb_rig_instance *inst = lb_rig_of_slot(w, s);
  const lb_skeleton *sk = lb_skeleton_get(w, inst->asset);
  lb_grip_holder_c *gh =
      lb_slot_has(w, s, LB_GRIP_HOLDER) ? lb_component_ptr(w, s, LB_GRIP_HOLDER) : NULL;
  const lb_grip_plan *plan = step->plan;
  int support = step->support;
  lb_grip_shapes shapes;
  shapes.object = -1;
  for (int side = 0; side < 2; ++side) {
    lb_grip_hand *h = &gs->hands[side];
    if (!step->active[side]) {
      continue;
    }
    lb_grip_hand_fingers(w, s, h, plan[side].kind, plan[side].pose, plan[side].weight,
                         plan[side].trigger, plan[side].object, &shapes);
    lb_grip_blend_apply(h, sk, inst, step->anim[side], lb_grip_blend_arm_count(h),
                        h->def->blend_count);
    int hand = h->def->info.hand;
    lb_rig_local_to_model(sk, inst, (uint32_t)hand, sk->subtree_end[hand]);
    lb_grip_blend_advance(h, dt);
    h->palm_distance =
        plan[side].object >= 0 ? lb_palm_gap(w, s, h, &step->anchor_world[side]) : 0.0f;
    if (side == support && h->released > 0.0f) {
      /* another owner has (part of) the hand: released, not a gap to the anchor */
      h->driver = LB_GRIP_DRIVER_RELEASED;
      h->palm_distance = 0.0f;
    }
  }
  if (gh) {
    lb_grip_holder_status(gh, gs, step);
  }
  gs->hands[0].released = 0.0f; /* a share lasts one step: its owner takes it again */
  gs->hands[1].released = 0.0f;
}

/* The object a holder's hands grip (its GripHolder's, with a GripProfile), or -1. */
static int lb_grip_object_of(const lb_world *w, uint32_t s) {
  const lb_grip_holder_c *gh = lb_component_try(w, s, LB_GRIP_HOLDER);
  int o = gh ? lb_slot_of(w, gh->held) : -1;
  return o >= 0 && lb_slot_has(w, (uint32_t)o, LB_GRIP_PROFILE) ? o : -1;
}

/* Whether `anchor` (none counts) is the object or below it. */
static bool lb_grip_anchor_within(const lb_world *w, lb_entity anchor, uint32_t object) {
  int a = lb_slot_of(w, anchor);
  return a < 0 || (uint32_t)a == object || lb_world_is_below(w, (uint32_t)a, object);
}

/* Holder s alone writes its object's subtree and reads nothing outside its rig and that
 * subtree: both roots, the object no holder itself, small enough for a worker's walk, its
 * anchors within it. */
static bool lb_grip_holder_alone(const lb_world *w, uint32_t s, int o) {
  if (w->parent[s] >= 0) {
    return false;
  }
  if (o < 0) {
    return true;
  }
  uint32_t tree[LB_GRIP_SUBTREE_MAX];
  const lb_grip_profile_c *prof = lb_component_ptr(w, (uint32_t)o, LB_GRIP_PROFILE);
  return w->parent[o] < 0 && !lb_slot_has(w, (uint32_t)o, LB_GRIP_HANDS) &&
         lb_world_subtree(w, (uint32_t)o, tree, LB_GRIP_SUBTREE_MAX) < LB_GRIP_SUBTREE_MAX &&
         lb_grip_anchor_within(w, prof->main_anchor, (uint32_t)o) &&
         lb_grip_anchor_within(w, prof->support_anchor, (uint32_t)o);
}

/* Whether the holders can run in parallel: each alone (lb_grip_holder_alone) and no object
 * held by two. The objects are marked in the world's xf_stack (one entry per slot, free
 * between walks): first cleared, then claimed by their holder. */
static bool lb_grip_independent(lb_world *w) {
  uint32_t s;
  for (lb_each it = lb_each_begin(w, LB_GRIP_HANDS); lb_each_next(&it, &s);) {
    int o = lb_grip_object_of(w, s);
    if (o >= 0) {
      w->xf_stack[o] = UINT32_MAX;
    }
  }
  for (lb_each it = lb_each_begin(w, LB_GRIP_HANDS); lb_each_next(&it, &s);) {
    int o = lb_grip_object_of(w, s);
    if (!lb_slot_has(w, s, LB_RIG)) {
      continue;
    }
    if (!lb_grip_holder_alone(w, s, o) || (o >= 0 && w->xf_stack[o] != UINT32_MAX)) {
      return false;
    }
    if (o >= 0) {
      w->xf_stack[o] = s;
    }
  }
  return true;
}

static void lb_grip_one(lb_world *w, uint32_t s, float dt, uint32_t *walk) {
  if (lb_slot_has(w, s, LB_RIG)) {
    lb_grip_step step;
    step.walk = walk;
    lb_grip_arms(w, s, &step);
    lb_grip_fingers(w, s, &step, dt);
  }
}

static void lb_grip_one_task(lb_world *w, uint32_t s, uint32_t worker, void *context) {
  (void)worker;
  uint32_t walk[LB_GRIP_SUBTREE_MAX];
  lb_grip_one(w, s, *(const float *)context, walk);
}

/* 5 Grip: every character with GripPose or GripHolder. In parallel when each holder writes only
 * its rig and its own object's subtree (lb_grip_independent), else in entity order (two hold
 * one object, an object held inside another's, ...). */
void lb_system_grip(lb_world *w, float dt) {
  if (w->threads > 1u && lb_grip_independent(w)) {
    lb_parallel_each(w, LB_GRIP_HANDS, lb_grip_one_task, &dt);
    return;
  }
  uint32_t s;
  for (lb_each it = lb_each_begin(w, LB_GRIP_HANDS); lb_each_next(&it, &s);) {
    lb_grip_one(w, s, dt, w->xf_stack);
  }
}
