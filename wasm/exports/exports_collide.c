/* Collide exports: mesh assets and queries. Vectors come in one float array per call (the
 * bridge's scratch block); a hit goes out as lb_collide_hit (36 bytes: entity, distance,
 * point, normal, triangle). */
#include "limber/limber.h"
#include <string.h>

#include "exports.h"

_Static_assert(sizeof(lb_collide_hit) == 36, "the bridge reads lb_collide_hit as 9 words");

static lb_collide_filter lbw_filter(uint32_t layers, lb_entity exclude) {
  lb_collide_filter f = lb_collide_default_filter();
  f.layers = layers;
  f.exclude = exclude;
  return f;
}

LBW_EXPORT(lbw_add_mesh)
int lbw_add_mesh(lb_world *w, const float *positions, uint32_t vertex_count,
                 const uint32_t *indices, uint32_t index_count, uint32_t *out) {
  lb_mesh_def d = lb_mesh_default_def();
  d.positions = positions;
  d.vertex_count = vertex_count;
  d.indices = indices;
  d.index_count = index_count;
  return lb_world_add_mesh(w, &d, out);
}

/* out: positions pointer, vertex count, indices pointer, index count (4 words). */
LBW_EXPORT(lbw_mesh_data)
int lbw_mesh_data(lb_world *w, uint32_t mesh, uint32_t *out) {
  lb_mesh_def d;
  lb_result r = lb_world_mesh_data(w, mesh, &d);
  if (r == LB_OK) {
    out[0] = (uint32_t)(uintptr_t)d.positions;
    out[1] = d.vertex_count;
    out[2] = (uint32_t)(uintptr_t)d.indices;
    out[3] = d.index_count;
  }
  return r;
}

LBW_EXPORT(lbw_mesh_triangle_count)
uint32_t lbw_mesh_triangle_count(lb_world *w, uint32_t mesh) {
  return lb_world_mesh_triangle_count(w, mesh);
}

/* in: point[3]. */
LBW_EXPORT(lbw_closest_point)
int lbw_closest_point(lb_world *w, const float *in, float max_distance, uint32_t layers,
                      lb_entity exclude, lb_collide_hit *out) {
  lb_collide_filter f = lbw_filter(layers, exclude);
  return lb_world_closest_point(w, in, max_distance, &f, out);
}

/* in: origin[3], dir[3]. */
LBW_EXPORT(lbw_raycast)
int lbw_raycast(lb_world *w, const float *in, float max_distance, uint32_t layers,
                lb_entity exclude, lb_collide_hit *out) {
  lb_collide_filter f = lbw_filter(layers, exclude);
  return lb_world_raycast(w, in, in + 3, max_distance, &f, out);
}

/* in: center[3], dir[3]. */
LBW_EXPORT(lbw_sphere_cast)
int lbw_sphere_cast(lb_world *w, const float *in, float radius, float max_distance, uint32_t layers,
                    lb_entity exclude, lb_collide_hit *out) {
  lb_collide_filter f = lbw_filter(layers, exclude);
  return lb_world_sphere_cast(w, in, radius, in + 3, max_distance, &f, out);
}

/* in: a[3], b[3], dir[3]. */
LBW_EXPORT(lbw_capsule_cast)
int lbw_capsule_cast(lb_world *w, const float *in, float radius, float max_distance,
                     uint32_t layers, lb_entity exclude, lb_collide_hit *out) {
  lb_collide_filter f = lbw_filter(layers, exclude);
  return lb_world_capsule_cast(w, in, in + 3, radius, in + 6, max_distance, &f, out);
}

/* kind 0 sphere (in: center[3], radius), 1 capsule (a[3], b[3], radius), 2 box (center[3],
 * rotation[4], half extents[3]). */
LBW_EXPORT(lbw_overlap)
int lbw_overlap(lb_world *w, int kind, const float *in, uint32_t layers, lb_entity exclude,
                lb_entity *out, uint32_t cap, uint32_t *count) {
  lb_collide_filter f = lbw_filter(layers, exclude);
  if (kind == 0) {
    return lb_world_overlap_sphere(w, in, in[3], &f, out, cap, count);
  }
  if (kind == 1) {
    return lb_world_overlap_capsule(w, in, in + 3, in[6], &f, out, cap, count);
  }
  return lb_world_overlap_box(w, in, in + 3, in + 7, &f, out, cap, count);
}
