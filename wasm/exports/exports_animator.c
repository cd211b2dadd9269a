/* Animator exports: controllers, parameters, root motion, status, and scenes with files. */
#include "limber/limber.h"
#include <stdlib.h>
#include <string.h>

#include "exports.h"

LBW_EXPORT(lbw_add_controller_json)
int lbw_add_controller_json(lb_world *w, uint32_t skeleton, const char *name, const char *json,
                            uint32_t len, uint32_t *out) {
  return lb_world_add_controller_json(w, skeleton, name, json, len, out);
}

/* kind: 0 float, 1 bool, 2 trigger (value != 0 sets it). */
LBW_EXPORT(lbw_set_animator_param)
int lbw_set_animator_param(lb_world *w, lb_entity e, const char *name, int kind, float value) {
  if (kind == 0) {
    return lb_world_set_animator_float(w, e, name, value);
  }
  if (kind == 1) {
    return lb_world_set_animator_bool(w, e, name, value != 0.0f);
  }
  return lb_world_set_animator_trigger(w, e, name, value != 0.0f);
}

LBW_EXPORT(lbw_set_animator_float_damped)
int lbw_set_animator_float_damped(lb_world *w, lb_entity e, const char *name, float value,
                                  float damp) {
  return lb_world_set_animator_float_damped(w, e, name, value, damp);
}

/* *out = the damped value the last Animate phase played. */
LBW_EXPORT(lbw_get_animator_damped)
int lbw_get_animator_damped(lb_world *w, lb_entity e, const char *name, float *out) {
  return lb_world_get_animator_damped(w, e, name, out);
}

/* out[0] = value (f32), out[1] = type (u32). */
LBW_EXPORT(lbw_get_animator_param)
int lbw_get_animator_param(lb_world *w, lb_entity e, const char *name, uint32_t *out) {
  float v = 0.0f;
  lb_anim_param_type t = LB_ANIM_PARAM_FLOAT;
  lb_result r = lb_world_get_animator_param(w, e, name, &v, &t);
  memcpy(&out[0], &v, 4);
  out[1] = (uint32_t)t;
  return r;
}

/* out: translation x y z, yaw (f32). */
LBW_EXPORT(lbw_root_motion) int lbw_root_motion(lb_world *w, lb_entity e, float *out) {
  lb_root_motion m;
  memset(&m, 0, sizeof m);
  lb_result r = lb_world_root_motion(w, e, &m);
  out[0] = m.translation[0];
  out[1] = m.translation[1];
  out[2] = m.translation[2];
  out[3] = m.yaw;
  return r;
}

/* out (u32 / f32 words): state, previous, weight, state_time, normalized_time, phase,
 * previous_phase, layer_count, idle, then per layer (4): clip, weight, time. 21 words. */
LBW_EXPORT(lbw_animator_status) int lbw_animator_status(lb_world *w, lb_entity e, uint32_t *out) {
  lb_animator_status s;
  memset(&s, 0, sizeof s);
  lb_result r = lb_world_animator_status(w, e, &s);
  out[0] = (uint32_t)s.state;
  out[1] = (uint32_t)s.previous;
  memcpy(&out[2], &s.weight, 4);
  memcpy(&out[3], &s.state_time, 4);
  memcpy(&out[4], &s.normalized_time, 4);
  memcpy(&out[5], &s.phase, 4);
  memcpy(&out[6], &s.previous_phase, 4);
  out[7] = s.layer_count;
  out[8] = s.idle;
  for (int k = 0; k < LB_ANIM_MAX_LAYERS; ++k) {
    out[9 + 3 * k] = s.layer_clip[k];
    memcpy(&out[10 + 3 * k], &s.layer_weight[k], 4);
    memcpy(&out[11 + 3 * k], &s.layer_time[k], 4);
  }
  return r;
}

LBW_EXPORT(lbw_controller_param_count)
uint32_t lbw_controller_param_count(lb_world *w, uint32_t c) {
  return lb_controller_param_count(w, c);
}
LBW_EXPORT(lbw_controller_param_name)
const char *lbw_controller_param_name(lb_world *w, uint32_t c, uint32_t i) {
  return lb_controller_param_name(w, c, i);
}
LBW_EXPORT(lbw_controller_param_type)
int lbw_controller_param_type(lb_world *w, uint32_t c, uint32_t i) {
  return lb_controller_param_type(w, c, i);
}
LBW_EXPORT(lbw_controller_param_default)
float lbw_controller_param_default(lb_world *w, uint32_t c, uint32_t i) {
  return lb_controller_param_default(w, c, i);
}
LBW_EXPORT(lbw_controller_state_count)
uint32_t lbw_controller_state_count(lb_world *w, uint32_t c) {
  return lb_controller_state_count(w, c);
}
LBW_EXPORT(lbw_controller_state_name)
const char *lbw_controller_state_name(lb_world *w, uint32_t c, uint32_t i) {
  return lb_controller_state_name(w, c, i);
}
/* Blend parameter index (-1 single clip); out: point count (u32), min, max (f32). */
LBW_EXPORT(lbw_controller_state_blend)
int lbw_controller_state_blend(lb_world *w, uint32_t c, uint32_t i, uint32_t *out) {
  uint32_t n = 0;
  float lo = 0.0f, hi = 0.0f;
  int p = lb_controller_state_blend(w, c, i, &n, &lo, &hi);
  out[0] = n;
  memcpy(&out[1], &lo, 4);
  memcpy(&out[2], &hi, 4);
  return p;
}
LBW_EXPORT(lbw_controller_name) const char *lbw_controller_name(lb_world *w, uint32_t c) {
  return lb_controller_name(w, c);
}
/* Scene with files: `files` holds count records of 3 words (path ptr, bytes ptr, size). */
LBW_EXPORT(lbw_scene_load_files)
lb_scene *lbw_scene_load_files(lb_world *w, const char *json, uint32_t len, const uint32_t *files,
                               uint32_t count) {
  lb_scene_file *table = calloc(count ? count : 1u, sizeof *table);
  if (!table) {
    return NULL;
  }
  for (uint32_t i = 0; i < count; ++i) {
    table[i].path = (const char *)(uintptr_t)files[3 * i];
    table[i].bytes = (const uint8_t *)(uintptr_t)files[3 * i + 1];
    table[i].size = files[3 * i + 2];
  }
  lb_scene *s = NULL;
  lb_result r = lb_scene_load_files(w, json, len, table, count, &s);
  free(table);
  return r == LB_OK ? s : NULL;
}

/* Returns the bytes needed (list written when cap suffices) or -(result code). */
LBW_EXPORT(lbw_scene_files)
int lbw_scene_files(const char *json, uint32_t len, char *buf, uint32_t cap) {
  size_t needed = 0;
  lb_result r = lb_scene_files(json, len, buf, cap, &needed);
  return r == LB_OK || r == LB_ERR_CAPACITY ? (int)needed : -(int)r;
}
