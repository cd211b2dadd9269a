/* WebAssembly exports for glTF import and clip assets (web/bridge/gltf.ts). Thin wrappers:
 * every check lives in the core. The bridge imports into an lb_gltf_asset, reads the joints
 * and skin from it, adds it to the world, then frees it. */
#include "limber/limber.h"
#include <stddef.h>

#include "exports.h"

/* The bridge writes lb_gltf_buffer entries itself: pin the wasm32 layout. */
#if defined(__wasm32__)
_Static_assert(sizeof(lb_gltf_buffer) == 12 && offsetof(lb_gltf_buffer, bytes) == 4 &&
                   offsetof(lb_gltf_buffer, size) == 8,
               "lb_gltf_buffer layout changed: update web/bridge/gltf.ts");
#endif

/* *out receives the asset (0 on error); msg (LB_GLTF_MESSAGE_MAX bytes) the reason. */
LBW_EXPORT(lbw_gltf_import)
int lbw_gltf_import(const uint8_t *data, uint32_t size, const lb_gltf_buffer *buffers,
                    uint32_t buffer_count, int32_t skin, int32_t names, float cubic_tolerance,
                    float key_tolerance, float skin_distance, lb_gltf_asset **out, char *msg) {
  lb_gltf_def d = lb_gltf_default_def();
  d.data = data;
  d.size = size;
  d.buffers = buffers;
  d.buffer_count = buffer_count;
  d.skin = skin;
  d.names = (lb_gltf_names)names;
  d.cubic_tolerance = cubic_tolerance;
  d.key_tolerance = key_tolerance;
  d.skin_distance = skin_distance;
  return lb_gltf_import(&d, out, msg, LB_GLTF_MESSAGE_MAX);
}
LBW_EXPORT(lbw_gltf_free) void lbw_gltf_free(lb_gltf_asset *a) {
  lb_gltf_free(a);
}
/* out[0] = skeleton handle, out[1] = first clip handle, out[2] = clip count. */
LBW_EXPORT(lbw_gltf_add_asset)
int lbw_gltf_add_asset(lb_world *w, const lb_gltf_asset *a, uint32_t *out) {
  lb_gltf_added added = {0, 0, 0};
  lb_result r = lb_world_add_gltf_asset(w, a, &added);
  out[0] = added.skeleton;
  out[1] = added.first_clip;
  out[2] = added.clip_count;
  return r;
}

/* ---- reading an imported asset (joint index j in depth-first order) ------------------------- */
LBW_EXPORT(lbw_gltf_joint_count) uint32_t lbw_gltf_joint_count(const lb_gltf_asset *a) {
  return a ? a->skeleton.joint_count : 0;
}
LBW_EXPORT(lbw_gltf_joint_name)
const char *lbw_gltf_joint_name(const lb_gltf_asset *a, uint32_t j) {
  return a && j < a->skeleton.joint_count ? a->skeleton.names[j] : NULL;
}
LBW_EXPORT(lbw_gltf_joint_parent) int lbw_gltf_joint_parent(const lb_gltf_asset *a, uint32_t j) {
  return a && j < a->skeleton.joint_count ? a->skeleton.parents[j] : -1;
}
LBW_EXPORT(lbw_gltf_joint_node) int lbw_gltf_joint_node(const lb_gltf_asset *a, uint32_t j) {
  return a && j < a->skeleton.joint_count ? a->joint_nodes[j] : -1;
}
LBW_EXPORT(lbw_gltf_joint_rest)
const lb_transform *lbw_gltf_joint_rest(const lb_gltf_asset *a, uint32_t j) {
  return a && j < a->skeleton.joint_count ? &a->skeleton.rest[j] : NULL;
}
LBW_EXPORT(lbw_gltf_root_parent) const lb_transform *lbw_gltf_root_parent(const lb_gltf_asset *a) {
  return a ? &a->root_parent : NULL;
}
LBW_EXPORT(lbw_gltf_skin_index) int lbw_gltf_skin_index(const lb_gltf_asset *a) {
  return a ? a->skin_index : -1;
}
LBW_EXPORT(lbw_gltf_skin_joint_count) uint32_t lbw_gltf_skin_joint_count(const lb_gltf_asset *a) {
  return a ? a->skin_joint_count : 0;
}
LBW_EXPORT(lbw_gltf_skin_joint) int lbw_gltf_skin_joint(const lb_gltf_asset *a, uint32_t i) {
  return a && i < a->skin_joint_count ? a->skin_joints[i] : -1;
}
/* 16 floats, column-major. */
LBW_EXPORT(lbw_gltf_inverse_bind)
const float *lbw_gltf_inverse_bind(const lb_gltf_asset *a, uint32_t i) {
  return a && i < a->skin_joint_count ? &a->inverse_bind[i][0][0] : NULL;
}

/* ---- clip assets in a world ---------------------------------------------------------------- */
LBW_EXPORT(lbw_clip_count) uint32_t lbw_clip_count(lb_world *w) {
  return lb_world_clip_count(w);
}
LBW_EXPORT(lbw_clip_name) const char *lbw_clip_name(lb_world *w, uint32_t clip) {
  return lb_world_clip_name(w, clip);
}
LBW_EXPORT(lbw_clip_duration) float lbw_clip_duration(lb_world *w, uint32_t clip) {
  const lb_clip *c = lb_world_clip(w, clip);
  return c ? c->duration : 0.0f;
}
/* out[0] tracks with keys, out[1] constant tracks, out[2] metres, out[3] CUBICSPLINE tracks
 * resampled, out[4] their tolerance, out[5] their largest deviation
 * (lb_world_clip_reduction). */
LBW_EXPORT(lbw_clip_reduction) int lbw_clip_reduction(lb_world *w, uint32_t clip, float *out) {
  lb_clip_reduction r;
  if (lb_world_clip_reduction(w, clip, &r) != LB_OK || !out) {
    return 0;
  }
  out[0] = (float)r.track_count;
  out[1] = (float)r.constant_tracks;
  out[2] = r.error;
  out[3] = (float)r.cubic_tracks;
  out[4] = r.cubic_tolerance;
  out[5] = r.cubic_error;
  return 1;
}
LBW_EXPORT(lbw_clip_skeleton) uint32_t lbw_clip_skeleton(lb_world *w, uint32_t clip) {
  return lb_world_clip_skeleton(w, clip);
}
LBW_EXPORT(lbw_find_clip)
uint32_t lbw_find_clip(lb_world *w, uint32_t skeleton, const char *name) {
  return lb_world_find_clip(w, skeleton, name);
}
LBW_EXPORT(lbw_clip_sample)
int lbw_clip_sample(lb_world *w, uint32_t clip, float time, int loop, lb_transform *out,
                    uint32_t count) {
  return lb_world_sample_clip(w, clip, time, loop != 0, out, count);
}
LBW_EXPORT(lbw_skeleton_rest) const lb_transform *lbw_skeleton_rest(lb_world *w, uint32_t asset) {
  return lb_world_skeleton_rest(w, asset, NULL);
}
