/* The Animator in the frame pipeline: 1 Animate (transitions, phases, sampling, blending,
 * root-motion extraction) and 2 Move (root motion applied to the Transform). Rules in
 * limber/animator.h. No allocation: every buffer belongs to the instance. */
#include "../world/parallel.h"
#include "animator_internal.h"
#include <string.h>

/* The clips a state plays now: up to two points and their weights, and the cycle length
 * (seconds at speed 1) they share. */
typedef struct selection {
  uint32_t count;
  uint32_t point[2];
  float weight[2];
  float cycle;
} selection;

static float lb_clip_duration(const lb_world *w, const lb_animator_controller *c, uint32_t point) {
  return lb_world_clip(w, c->points[point].clip)->duration;
}

static selection lb_select_clips(const lb_world *w, const lb_animator_controller *c,
                                 const lb_anim_state *st, const float *params) {
  selection s;
  memset(&s, 0, sizeof s);
  uint32_t first = st->first_point, last = st->first_point + st->point_count - 1u;
  uint32_t a = first;
  float t = 0.0f;
  if (st->param >= 0) {
    float x = params[st->param];
    if (x >= c->points[last].value) {
      a = last;
    } else if (x > c->points[first].value) {
      while (a + 1u < last && c->points[a + 1u].value <= x) {
        ++a;
      }
      float v0 = c->points[a].value, v1 = c->points[a + 1u].value;
      t = (x - v0) / (v1 - v0);
    }
  }
  float da = lb_clip_duration(w, c, a);
  if (t <= 0.0f) {
    s.count = 1;
    s.point[0] = a;
    s.weight[0] = 1.0f;
    s.cycle = da;
    return s;
  }
  float db = lb_clip_duration(w, c, a + 1u);
  s.cycle = da + (db - da) * t;
  if (t >= 1.0f) {
    s.count = 1;
    s.point[0] = a + 1u;
    s.weight[0] = 1.0f;
    return s;
  }
  s.count = 2;
  s.point[0] = a;
  s.point[1] = a + 1u;
  s.weight[0] = 1.0f - t;
  s.weight[1] = t;
  return s;
}

/* ---- transitions --------------------------------------------------------------------------- */

static float lb_normalized_time(const lb_anim_playback *pb) {
  return (float)pb->loops + pb->phase;
}

static bool lb_conditions_hold(const lb_animator_controller *c, const lb_animator_instance *inst,
                               const lb_anim_transition *t) {
  if (t->exit_time >= 0.0f && !(lb_normalized_time(&inst->cur) >= t->exit_time)) {
    return false;
  }
  for (uint32_t k = 0; k < t->cond_count; ++k) {
    const lb_anim_cond *cd = &c->conds[t->first_cond + k];
    float v = inst->damped[cd->param];
    bool ok = false;
    switch (cd->op) {
    case LB_ANIM_IF_GREATER:
      ok = v > cd->value;
      break;
    case LB_ANIM_IF_LESS:
      ok = v < cd->value;
      break;
    case LB_ANIM_IF_EQUALS:
      ok = (v != 0.0f) == (cd->value != 0.0f);
      break;
    default:
      ok = v != 0.0f;
      break;
    }
    if (!ok) {
      return false;
    }
  }
  return true;
}

static void lb_enter(lb_animator_instance *inst, int32_t to, float fade) {
  if (fade > 0.0f) {
    inst->prev = inst->cur;
    inst->fade = fade;
    inst->fade_elapsed = 0.0f;
  } else {
    inst->prev.state = -1;
  }
  memset(&inst->cur, 0, sizeof inst->cur);
  inst->cur.state = to;
}

/* Seconds left in a one-shot at the current blend (state speed applied; the Animator speed
 * scales fades and states alike). */
static bool lb_one_shot_done(const lb_world *w, const lb_animator_controller *c,
                             const lb_animator_instance *inst, const lb_anim_state *st) {
  if (inst->cur.phase >= 1.0f) {
    return true;
  }
  if (!(st->speed > 0.0f)) {
    return false;
  }
  selection sel = lb_select_clips(w, c, st, inst->damped);
  float remaining = (1.0f - inst->cur.phase) * sel.cycle / st->speed;
  return remaining <= st->next_fade;
}

static void lb_run_transitions(const lb_world *w, const lb_animator_controller *c,
                               lb_animator_instance *inst) {
  int32_t cur = inst->cur.state;
  for (uint32_t i = 0; i < c->transition_count; ++i) {
    const lb_anim_transition *t = &c->transitions[i];
    bool source = t->from < 0 ? t->to != cur : t->from == cur;
    if (!source || !lb_conditions_hold(c, inst, t)) {
      continue;
    }
    for (uint32_t k = 0; k < t->cond_count; ++k) {
      const lb_anim_cond *cd = &c->conds[t->first_cond + k];
      if (cd->op == LB_ANIM_IF_TRIGGER) {
        inst->params[cd->param] = inst->damped[cd->param] = 0.0f;
      }
    }
    lb_enter(inst, t->to, t->fade);
    return;
  }
  const lb_anim_state *st = &c->states[cur];
  if (st->next >= 0 && !st->loop && lb_one_shot_done(w, c, inst, st)) {
    lb_enter(inst, st->next, st->next_fade);
  }
}

/* ---- sampling and root motion -------------------------------------------------------------- */

/* The root's motion frame as lb_root_motion_job reads it (channels the clip animates only),
 * removed from a sampled pose: root = M^-1 * root. */
static void lb_remove_root_motion(const lb_clip *clip, uint32_t root, bool vertical, bool bake_yaw,
                                  lb_transform *x) {
  const lb_joint_tracks *jt = &clip->joints[root];
  float p[3] = {0.0f, 0.0f, 0.0f};
  float yaw = 0.0f;
  if (jt->translation.count > 0) {
    p[0] = x->t[0];
    p[1] = vertical ? x->t[1] : 0.0f;
    p[2] = x->t[2];
  }
  if (jt->rotation.count > 0 && !bake_yaw) {
    vec3 z = {0.0f, 0.0f, 1.0f}, f;
    lb_quat_rotate(x->r, z, f);
    yaw = lb_atan2(f[0], f[2]);
  }
  float s, c;
  lb_sincos(yaw, &s, &c);
  float dx = x->t[0] - p[0], dy = x->t[1] - p[1], dz = x->t[2] - p[2];
  /* R_y(-yaw) maps (x, z) to (c x - s z, s x + c z). */
  x->t[0] = c * dx - s * dz;
  x->t[1] = dy;
  x->t[2] = s * dx + c * dz;
  if (yaw != 0.0f) {
    vec3 up = {0.0f, 1.0f, 0.0f};
    versor q, r;
    lb_quat_from_axis_angle(up, -yaw, q);
    lb_quat_mul(q, x->r, r);
    lb_quat_normalize(r);
    memcpy(x->r, r, sizeof(versor));
  }
}

typedef struct frame_ctx {
  lb_world *w;
  const lb_animator_controller *c;
  lb_animator_instance *inst;
  const lb_skeleton *sk;
  const lb_animator_c *comp;
  float dt; /* Animator.speed applied */
  /* the layers, sampled and blended together once both states have played */
  lb_sample_job samples[LB_ANIM_MAX_LAYERS];
  lb_sample_cursor cursors[LB_ANIM_MAX_LAYERS];
  float weights[LB_ANIM_MAX_LAYERS];
  const lb_anim_point *points[LB_ANIM_MAX_LAYERS];
  uint32_t layer_count;
} frame_ctx;

_Static_assert(LB_ANIM_MAX_LAYERS <= LB_SAMPLE_BLEND_MAX_LAYERS, "one sample-blend job");

/* lb_sample_blend_job's adjust: the layer's root motion leaves its root joint. */
static void lb_adjust_root(void *user, uint32_t layer, lb_transform *local) {
  const frame_ctx *fx = user;
  lb_remove_root_motion(fx->samples[layer].clip, fx->c->root_joint,
                        fx->comp->root_motion_vertical != 0, fx->points[layer]->bake_yaw, local);
}

/* Advances one playing state and adds its clips as layers with `weight` (the cross-fade
 * share); a share of 0 advances the state without sampling it. */
static void lb_play(frame_ctx *fx, lb_anim_playback *pb, float weight) {
  const lb_animator_controller *c = fx->c;
  const lb_anim_state *st = &c->states[pb->state];
  selection sel = lb_select_clips(fx->w, c, st, fx->inst->damped);
  float d = sel.cycle > 0.0f ? fx->dt * st->speed / sel.cycle : 0.0f;
  float p0 = pb->phase;
  float p1 = p0 + d; /* unwrapped: root motion counts whole loops */
  pb->time += fx->dt;
  if (st->loop) {
    /* p1 >= 0; beyond 2^24 cycles in one step the phase restarts (the root motion job then
     * refuses the span and the step adds no motion). */
    float k = p1 < 16777216.0f ? (float)(uint32_t)p1 : p1;
    pb->phase = p1 - k;
    uint64_t loops = (uint64_t)pb->loops + (uint64_t)k;
    pb->loops = loops > UINT32_MAX ? UINT32_MAX : (uint32_t)loops;
  } else {
    p1 = p1 > 1.0f ? 1.0f : p1;
    pb->phase = p1;
  }
  if (!(weight > 0.0f)) {
    return;
  }
  lb_animator_instance *inst = fx->inst;
  bool vertical = fx->comp->root_motion_vertical != 0;
  for (uint32_t i = 0; i < sel.count && fx->layer_count < LB_ANIM_MAX_LAYERS; ++i) {
    const lb_anim_point *pt = &c->points[sel.point[i]];
    const lb_clip *clip = lb_world_clip(fx->w, pt->clip);
    float w = weight * sel.weight[i];
    uint32_t k = fx->layer_count++;
    fx->cursors[k] = (lb_sample_cursor){inst->keys + pt->cursor, lb_clip_track_count(clip)};
    lb_sample_job *job = &fx->samples[k];
    memset(job, 0, sizeof *job);
    job->clip = clip;
    job->frames = lb_world_clip_frames(fx->w, pt->clip);
    job->time = pb->phase * clip->duration;
    job->loop = st->loop != 0;
    job->cursor = &fx->cursors[k];
    job->rest = fx->sk->rest;
    job->joint_count = inst->joint_count;
    job->output = inst->poses + (size_t)k * inst->joint_count; /* scratch */
    lb_root_motion_job rm;
    memset(&rm, 0, sizeof rm);
    rm.clip = clip;
    rm.root_joint = c->root_joint;
    rm.t0 = p0 * clip->duration;
    rm.t1 = p1 * clip->duration;
    rm.loop = st->loop != 0;
    rm.vertical = vertical;
    rm.bake_yaw = pt->bake_yaw;
    rm.cursor = &fx->cursors[k]; /* the layer's: its root keys near p1 are sampled next */
    if (lb_root_motion_job_run(&rm) == LB_OK) {
      for (int a = 0; a < 3; ++a) {
        inst->motion.translation[a] += w * rm.translation[a];
      }
      inst->motion.yaw += w * rm.yaw;
    }
    fx->weights[k] = w;
    fx->points[k] = pt;
    inst->status.layer_clip[k] = pt->clip;
    inst->status.layer_weight[k] = w;
    inst->status.layer_time[k] = job->time;
  }
}

/* One step of a critically damped spring from x toward target over `damp` seconds (the
 * smoothing of Game Programming Gems 4, 1.10, which Unity's SmoothDamp uses: exp(-w dt) by
 * its rational approximation, so + - * / only). Never passes the target; lands on it. */
static float lb_damp_toward(float x, float target, float *rate, float damp, float dt) {
  if (damp <= 0.0f) {
    *rate = 0.0f;
    return target;
  }
  float omega = 2.0f / damp;
  float k = omega * dt;
  float e = 1.0f / (1.0f + k + 0.48f * k * k + 0.235f * k * k * k);
  float change = x - target;
  float temp = (*rate + omega * change) * dt;
  *rate = (*rate - omega * temp) * e;
  float out = target + (change + temp) * e;
  float near = 1e-5f * (target < 0.0f ? -target : target) + 1e-6f;
  float left = out - target;
  /* Arrived: at the target, past it, or within float dust of it (the spring alone would
   * creep toward it for ever, one float step at a time). */
  if ((target - x > 0.0f) == (out > target) || (left < near && left > -near)) {
    *rate = 0.0f;
    return target;
  }
  return out;
}

/* The parameters the step plays: damped floats follow the values set through their springs
 * (which hold still while paused, dt 0); the others are taken as set. */
static void lb_damp_params(const lb_animator_controller *c, lb_animator_instance *inst, float dt) {
  for (uint32_t i = 0; i < c->param_count; ++i) {
    if (c->params[i].type != LB_ANIM_PARAM_FLOAT || inst->damp[i] <= 0.0f) {
      inst->damped[i] = inst->params[i];
      inst->rate[i] = 0.0f;
    } else if (inst->damped[i] != inst->params[i] && dt > 0.0f) {
      inst->damped[i] =
          lb_damp_toward(inst->damped[i], inst->params[i], &inst->rate[i], inst->damp[i], dt);
    }
  }
}

static void lb_animate(lb_world *w, uint32_t slot, lb_animator_instance *inst,
                       const lb_animator_controller *c, float dt) {
  lb_animator_c *comp = lb_component_ptr(w, slot, LB_ANIMATOR);
  lb_rig_instance *rig = lb_rig_of_slot(w, slot);
  frame_ctx fx;
  memset(&fx, 0, sizeof fx);
  fx.w = w;
  fx.c = c;
  fx.inst = inst;
  fx.sk = lb_skeleton_get(w, inst->skeleton);
  fx.comp = comp;
  fx.dt = dt * comp->speed;
  lb_damp_params(c, inst, dt);
  if (inst->prev.state < 0) {
    lb_run_transitions(w, c, inst);
  }
  float f = 1.0f;
  if (inst->prev.state >= 0) {
    inst->fade_elapsed += fx.dt;
    f = inst->fade_elapsed >= inst->fade ? 1.0f : inst->fade_elapsed / inst->fade;
  }
  memset(&inst->motion, 0, sizeof inst->motion);
  memset(&inst->status, 0, sizeof inst->status);
  inst->status.previous = inst->prev.state;
  inst->status.previous_phase = 0.0f;
  if (inst->prev.state >= 0) {
    lb_play(&fx, &inst->prev, 1.0f - f);
    inst->status.previous_phase = inst->prev.phase;
  }
  lb_play(&fx, &inst->cur, f);
  if (fx.layer_count > 0) {
    lb_sample_blend_job job = lb_sample_blend_default_job();
    job.samples = fx.samples;
    job.weights = fx.weights;
    job.layer_count = fx.layer_count;
    job.rest = fx.sk->rest;
    job.joint_count = inst->joint_count;
    job.output = rig->local;
    if (comp->apply_root_motion != 0) {
      job.adjust = lb_adjust_root;
      job.adjust_user = &fx;
      job.adjust_joint = c->root_joint;
    }
    lb_sample_blend_job_run(&job); /* each sample validated when the controller was built */
  } else {
    memcpy(rig->local, fx.sk->rest, (size_t)inst->joint_count * sizeof(lb_transform));
  }
  if (f >= 1.0f) {
    inst->prev.state = -1; /* the fade is over: this step already played it at weight 0 */
    inst->status.previous = -1;
  }
  const lb_anim_state *st = &c->states[inst->cur.state];
  inst->status.state = inst->cur.state;
  inst->status.weight = f;
  inst->status.state_time = inst->cur.time;
  inst->status.normalized_time = lb_normalized_time(&inst->cur);
  inst->status.phase = inst->cur.phase;
  inst->status.layer_count = fx.layer_count;
  inst->status.idle = false;
  comp->state = st->name_id;
  comp->state_time = inst->cur.time;
  comp->blend = f;
}

void lb_animator_release_rig(lb_rig_instance *rig) {
  if (rig && rig->driven) {
    /* rig.start_pose skipped this rig, trusting the Animator to write it */
    memcpy(rig->local, rig->anim, rig->joint_count * sizeof(lb_transform));
    rig->driven = false;
  }
}

/* One Animator: writes only its own instance, Animator and Rig (assets are read-only in a
 * step), so the entities run in parallel. */
static void lb_animator_one(lb_world *w, uint32_t s, uint32_t worker, void *context) {
  (void)worker;
  float dt = *(const float *)context;
  lb_animator_instance *inst = lb_animator_of_slot(w, s);
  lb_rig_instance *rig = lb_rig_of_slot(w, s);
  const lb_animator_controller *c = inst ? lb_controller_get(w, inst->controller) : NULL;
  if (!inst || !rig || rig->asset != inst->skeleton || !c) {
    if (inst) {
      memset(&inst->motion, 0, sizeof inst->motion);
      inst->status.idle = true;
    }
    lb_animator_release_rig(rig);
    return; /* the rig went away or changed skeleton: the external pose stands */
  }
  lb_animate(w, s, inst, c, dt);
  rig->driven = true;
  lb_rig_pose_final(lb_skeleton_get(w, rig->asset), rig);
}

void lb_system_animator(lb_world *w, float dt) {
  lb_parallel_each(w, LB_ANIMATOR, lb_animator_one, &dt);
}

/* ---- 2 Move -------------------------------------------------------------------------------- */

/* Root motion keeps the Transform inside its schema range (the supported world extent), so
 * every later write of the field is accepted. */
static float lb_clamp_position(float v) {
  return lb_clamp(v, -LB_WORLD_EXTENT, LB_WORLD_EXTENT);
}

/* One Animator's root motion of this step: into its entity's movement request (a controller
 * or an agent takes it) or onto its own Transform. Writes only its own entity's state. */
static void lb_root_motion_one(lb_world *w, uint32_t s, uint32_t worker, void *context) {
  (void)worker;
  (void)context;
  const lb_animator_instance *inst = lb_animator_of_slot(w, s);
  if (!inst || inst->status.idle || !lb_slot_has(w, s, LB_TRANSFORM)) {
    return;
  }
  const lb_animator_c *comp = lb_component_ptr(w, s, LB_ANIMATOR);
  if (!comp->apply_root_motion) {
    return;
  }
  lb_transform_c *t = lb_component_ptr(w, s, LB_TRANSFORM);
  vec3 local = {inst->motion.translation[0] * t->scale[0],
                inst->motion.translation[1] * t->scale[1],
                inst->motion.translation[2] * t->scale[2]};
  vec3 moved;
  lb_quat_rotate(t->rotation, local, moved);
  /* A character controller (or another mover) takes the request when the entity has one. */
  if (!lb_world_move_request(w, s, moved)) {
    for (int a = 0; a < 3; ++a) {
      t->position[a] = lb_clamp_position(t->position[a] + moved[a]);
    }
  }
  if (inst->motion.yaw != 0.0f) {
    vec3 up = {0.0f, 1.0f, 0.0f};
    versor q, r;
    lb_quat_from_axis_angle(up, inst->motion.yaw, q);
    lb_quat_mul(t->rotation, q, r);
    lb_quat_normalize(r);
    memcpy(t->rotation, r, sizeof(versor));
  }
}

void lb_system_root_motion(lb_world *w, float dt) {
  (void)dt;
  lb_parallel_each(w, LB_ANIMATOR, lb_root_motion_one, NULL);
}
