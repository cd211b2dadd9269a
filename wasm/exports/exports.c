/* WebAssembly exports for the TypeScript bridge. Handles and pointers cross as
 * 32-bit integers; results as lb_result codes, with lb_world_last_error for text.
 * Thin wrappers only: every check lives in the core. */
#include "limber/limber.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "exports.h"

LBW_EXPORT(lbw_alloc) void *lbw_alloc(uint32_t size) {
  return calloc(1, size ? size : 1);
}
LBW_EXPORT(lbw_free) void lbw_free(void *p) {
  free(p);
}

LBW_EXPORT(lbw_result_name) const char *lbw_result_name(int r) {
  return lb_result_name((lb_result)r);
}

LBW_EXPORT(lbw_world_create) lb_world *lbw_world_create(void) {
  lb_world *w = NULL;
  return lb_world_create(NULL, &w) == LB_OK ? w : NULL;
}
/* A world whose step runs on `threads` (1..64; the bridge checks the range first): null when
 * the count is invalid or memory runs out. Only limber-mt.wasm runs more than one. */
LBW_EXPORT(lbw_world_create_threads) lb_world *lbw_world_create_threads(uint32_t threads) {
  lb_world_def def = lb_world_default_def();
  def.threads = threads;
  lb_world *w = NULL;
  return lb_world_create(&def, &w) == LB_OK ? w : NULL;
}
LBW_EXPORT(lbw_world_threads) uint32_t lbw_world_threads(lb_world *w) {
  return lb_world_threads(w);
}
LBW_EXPORT(lbw_world_destroy) void lbw_world_destroy(lb_world *w) {
  lb_world_destroy(w);
}
LBW_EXPORT(lbw_last_error) const char *lbw_last_error(lb_world *w) {
  return lb_world_last_error(w);
}

/* Writes the new handle to *out. */
LBW_EXPORT(lbw_spawn) int lbw_spawn(lb_world *w, lb_entity *out) {
  return lb_world_spawn(w, out);
}
LBW_EXPORT(lbw_despawn) int lbw_despawn(lb_world *w, lb_entity e) {
  return lb_world_despawn(w, e);
}
LBW_EXPORT(lbw_alive) int lbw_alive(lb_world *w, lb_entity e) {
  return lb_world_alive(w, e);
}
LBW_EXPORT(lbw_entity_count) uint32_t lbw_entity_count(lb_world *w) {
  return lb_world_entity_count(w);
}
LBW_EXPORT(lbw_generations_unused)
uint32_t lbw_generations_unused(lb_world *w, uint16_t *out, uint32_t cap) {
  return lb_world_generations_unused(w, out, cap);
}
LBW_EXPORT(lbw_asset_counts)
uint32_t lbw_asset_counts(lb_world *w, uint32_t *out, uint32_t cap) {
  return lb_world_asset_counts(w, out, cap);
}
LBW_EXPORT(lbw_asset_counts_reserve)
int lbw_asset_counts_reserve(lb_world *w, const uint32_t *counts, uint32_t n) {
  return lb_world_asset_counts_reserve(w, counts, n);
}
LBW_EXPORT(lbw_generations_reserve)
int lbw_generations_reserve(lb_world *w, const uint16_t *unused, uint32_t count) {
  return lb_world_generations_reserve(w, unused, count);
}

LBW_EXPORT(lbw_insert) int lbw_insert(lb_world *w, lb_entity e, uint32_t t, const void *d) {
  return lb_world_insert(w, e, t, d);
}
LBW_EXPORT(lbw_set) int lbw_set(lb_world *w, lb_entity e, uint32_t t, const void *d) {
  return lb_world_set(w, e, t, d);
}
LBW_EXPORT(lbw_get) int lbw_get(lb_world *w, lb_entity e, uint32_t t, void *out) {
  return lb_world_get(w, e, t, out);
}
LBW_EXPORT(lbw_remove) int lbw_remove(lb_world *w, lb_entity e, uint32_t t) {
  return lb_world_remove(w, e, t);
}
LBW_EXPORT(lbw_has) int lbw_has(lb_world *w, lb_entity e, uint32_t t) {
  return lb_world_has(w, e, t);
}
LBW_EXPORT(lbw_component_from_json)
int lbw_component_from_json(lb_world *w, lb_scene *sc, uint32_t t, const char *json, uint32_t len,
                            void *inout) {
  return lb_component_from_json(w, sc, t, json, len, inout);
}

/* Name fields: the id of a string (interned), and the text of an id (null when unknown). */
LBW_EXPORT(lbw_intern) int lbw_intern(lb_world *w, const char *text, uint32_t *out) {
  return lb_world_intern(w, text, out);
}
LBW_EXPORT(lbw_name_text) const char *lbw_name_text(lb_world *w, uint32_t id) {
  return lb_world_name_text(w, id);
}

/* *out = the owning component's name (a static string) or 0 (the game's); input: lb_input;
 * param: an Animator parameter's name for LB_INPUT_ANIMATOR_PARAM. */
LBW_EXPORT(lbw_input_owner)
int lbw_input_owner(lb_world *w, lb_entity e, int input, const char *param, const char **out) {
  return lb_world_input_owner(w, e, (lb_input)input, param, out);
}

LBW_EXPORT(lbw_step) int lbw_step(lb_world *w, float dt) {
  return lb_world_step(w, dt);
}
LBW_EXPORT(lbw_step_count) double lbw_step_count(lb_world *w) {
  return (double)lb_world_step_count(w);
}
/* The hash as two 32-bit halves in out[0] (low) and out[1] (high). */
LBW_EXPORT(lbw_hash) void lbw_hash(lb_world *w, uint32_t *out) {
  uint64_t h = lb_world_hash(w);
  out[0] = (uint32_t)h;
  out[1] = (uint32_t)(h >> 32);
}
LBW_EXPORT(lbw_entity_transform) int lbw_entity_transform(lb_world *w, lb_entity e, float *out) {
  lb_transform x;
  lb_result r = lb_world_entity_transform(w, e, &x);
  if (r == LB_OK) {
    memcpy(out, &x, sizeof x);
  }
  return r;
}

/* ---- schema -------------------------------------------------------------- */
LBW_EXPORT(lbw_component_count) uint32_t lbw_component_count(void) {
  return lb_component_count();
}
LBW_EXPORT(lbw_component_name) const char *lbw_component_name(uint32_t t) {
  const lb_component_info *i = lb_component_info_get(t);
  return i ? i->name : NULL;
}
LBW_EXPORT(lbw_component_size) uint32_t lbw_component_size(uint32_t t) {
  const lb_component_info *i = lb_component_info_get(t);
  return i ? i->size : 0;
}
LBW_EXPORT(lbw_component_defaults) void lbw_component_defaults(uint32_t t, void *out) {
  lb_component_defaults(t, out);
}
LBW_EXPORT(lbw_field_count) uint32_t lbw_field_count(uint32_t t) {
  const lb_component_info *i = lb_component_info_get(t);
  return i ? i->field_count : 0;
}
/* The field descriptor itself; the bridge reads its wasm32 layout. */
LBW_EXPORT(lbw_field) const lb_field *lbw_field(uint32_t t, uint32_t f) {
  const lb_component_info *i = lb_component_info_get(t);
  return i && f < i->field_count ? &i->fields[f] : NULL;
}

/* ---- skeletons and rigs ---------------------------------------------------- */
/* naming: lb_humanoid_naming (0 Mixamo, 1 Unreal, 2 Blender, 3 Digits). */
LBW_EXPORT(lbw_add_humanoid)
int lbw_add_humanoid(lb_world *w, float height, int naming, uint32_t *out) {
  lb_humanoid_def d = lb_humanoid_default_def();
  d.height = height;
  d.naming = (lb_humanoid_naming)naming;
  return lb_world_add_humanoid(w, &d, out);
}
LBW_EXPORT(lbw_joint_count) uint32_t lbw_joint_count(lb_world *w, uint32_t asset) {
  return lb_skeleton_joint_count(w, asset);
}
LBW_EXPORT(lbw_joint_name) const char *lbw_joint_name(lb_world *w, uint32_t asset, uint32_t j) {
  return lb_skeleton_joint_name(w, asset, j);
}
LBW_EXPORT(lbw_joint_parent) int lbw_joint_parent(lb_world *w, uint32_t asset, uint32_t j) {
  return lb_skeleton_joint_parent(w, asset, j);
}
LBW_EXPORT(lbw_skeleton_root_parent)
int lbw_skeleton_root_parent(lb_world *w, uint32_t asset, lb_transform *out) {
  return lb_skeleton_root_parent(w, asset, out);
}
/* Joint index of skin joint i (skin order), -1 past the end. */
LBW_EXPORT(lbw_skeleton_skin_joint)
int lbw_skeleton_skin_joint(lb_world *w, uint32_t asset, uint32_t i) {
  uint32_t n = 0;
  const uint16_t *sj = lb_skeleton_skin_joints(w, asset, &n);
  return i < n ? (int)sj[i] : -1;
}
LBW_EXPORT(lbw_skeleton_skin_joint_count)
uint32_t lbw_skeleton_skin_joint_count(lb_world *w, uint32_t asset) {
  uint32_t n = 0;
  lb_skeleton_skin_joints(w, asset, &n);
  return n;
}
/* out: x y z of where joint j's skinned mesh ends; returns 1 when known, 0 when not, -1 for a
 * bad asset or joint. */
LBW_EXPORT(lbw_skeleton_joint_end)
int lbw_skeleton_joint_end(lb_world *w, uint32_t asset, uint32_t j, float *out) {
  lb_joint_end e;
  if (lb_skeleton_joint_end(w, asset, j, &e) != LB_OK) {
    return -1;
  }
  out[0] = e.point[0];
  out[1] = e.point[1];
  out[2] = e.point[2];
  return e.known ? 1 : 0;
}
LBW_EXPORT(lbw_find_joint) int lbw_find_joint(lb_world *w, uint32_t asset, const char *path) {
  return lb_skeleton_find_joint(w, asset, path);
}
LBW_EXPORT(lbw_rig_model_pose) const lb_transform *lbw_rig_model_pose(lb_world *w, lb_entity e) {
  return lb_rig_model_pose(w, e, NULL);
}
LBW_EXPORT(lbw_rig_local_pose) const lb_transform *lbw_rig_local_pose(lb_world *w, lb_entity e) {
  return lb_rig_local_pose(w, e, NULL);
}
LBW_EXPORT(lbw_rig_model_matrices) const float *lbw_rig_model_matrices(lb_world *w, lb_entity e) {
  return lb_rig_model_matrices(w, e, NULL);
}
LBW_EXPORT(lbw_rig_set_animation_pose)
int lbw_rig_set_animation_pose(lb_world *w, lb_entity e, const lb_transform *p, uint32_t n) {
  return lb_rig_set_animation_pose(w, e, p, n);
}

/* ---- scenes ---------------------------------------------------------------- */
LBW_EXPORT(lbw_scene_load) lb_scene *lbw_scene_load(lb_world *w, const char *json, uint32_t len) {
  lb_scene *s = NULL;
  return lb_scene_load(w, json, len, &s) == LB_OK ? s : NULL;
}
LBW_EXPORT(lbw_scene_destroy) void lbw_scene_destroy(lb_world *w, lb_scene *s) {
  lb_scene_destroy(w, s);
}
LBW_EXPORT(lbw_scene_unload) void lbw_scene_unload(lb_world *w, lb_scene *s) {
  lb_scene_unload(w, s);
}
LBW_EXPORT(lbw_scene_step) int lbw_scene_step(lb_world *w, lb_scene *s, float dt) {
  return lb_scene_step(w, s, dt);
}
LBW_EXPORT(lbw_scene_entity_count) uint32_t lbw_scene_entity_count(lb_scene *s) {
  return lb_scene_entity_count(s);
}
LBW_EXPORT(lbw_scene_entity_name) const char *lbw_scene_entity_name(lb_scene *s, uint32_t i) {
  return lb_scene_entity_name(s, i);
}
LBW_EXPORT(lbw_scene_entity_at) lb_entity lbw_scene_entity_at(lb_scene *s, uint32_t i) {
  return lb_scene_entity_at(s, i);
}

/* lb_transform layout for the bridge: [size, offset t, offset r, offset s]. */
LBW_EXPORT(lbw_transform_layout) void lbw_transform_layout(uint32_t *out) {
  out[0] = sizeof(lb_transform);
  out[1] = offsetof(lb_transform, t);
  out[2] = offsetof(lb_transform, r);
  out[3] = offsetof(lb_transform, s);
}

/* The bridge reads lb_field directly (web/bridge/schema.ts); pin its layout. */
#if defined(__wasm32__)
_Static_assert(offsetof(lb_field, type) == 4 && offsetof(lb_field, offset) == 8 &&
                   offsetof(lb_field, size) == 12 && offsetof(lb_field, def) == 16 &&
                   offsetof(lb_field, min) == 32 && offsetof(lb_field, max) == 36 &&
                   offsetof(lb_field, enum_names) == 40 && offsetof(lb_field, def_string) == 44 &&
                   offsetof(lb_field, flags) == 48 && offsetof(lb_field, doc) == 52,
               "lb_field layout changed: update web/bridge/schema.ts");
#endif
