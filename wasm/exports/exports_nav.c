/* Navmesh exports: adding meshes (data or JSON) and the queries. Points cross as 3 floats;
 * an lb_nav_point as 4 words (x, y, z as f32, polygon as u32). */
#include "limber/limber.h"
#include <string.h>

#include "exports.h"

static void put_point(uint32_t *out, const lb_nav_point *p) {
  memcpy(out, p->position, 3 * sizeof(float));
  out[3] = p->polygon;
}

static void get_point(const uint32_t *in, lb_nav_point *p) {
  memcpy(p->position, in, 3 * sizeof(float));
  p->polygon = in[3];
}

LBW_EXPORT(lbw_add_navmesh)
int lbw_add_navmesh(lb_world *w, const char *name, const float *vertices, uint32_t vertex_count,
                    const uint8_t *counts, const uint32_t *indices, const int32_t *neighbours,
                    uint32_t polygon_count, uint32_t *out) {
  lb_navmesh_def d;
  memset(&d, 0, sizeof d);
  d.vertices = vertices;
  d.vertex_count = vertex_count;
  d.counts = counts;
  d.indices = indices;
  d.neighbours = neighbours;
  d.polygon_count = polygon_count;
  return lb_world_add_navmesh(w, name, &d, out);
}

LBW_EXPORT(lbw_add_navmesh_json)
int lbw_add_navmesh_json(lb_world *w, const char *name, const char *json, uint32_t len,
                         uint32_t *out) {
  return lb_world_add_navmesh_json(w, name, json, len, out);
}

LBW_EXPORT(lbw_navmesh_find) uint32_t lbw_navmesh_find(lb_world *w, const char *name) {
  return lb_world_navmesh_find(w, name);
}

/* out: vertex_count, polygon_count, edge_count, portal_count (u32), bounds min, max (f32). */
LBW_EXPORT(lbw_navmesh_info) int lbw_navmesh_info(lb_world *w, uint32_t mesh, uint32_t *out) {
  lb_navmesh_info info;
  memset(&info, 0, sizeof info);
  lb_result r = lb_world_navmesh_info(w, mesh, &info);
  out[0] = info.vertex_count;
  out[1] = info.polygon_count;
  out[2] = info.edge_count;
  out[3] = info.portal_count;
  memcpy(&out[4], info.bounds_min, 3 * sizeof(float));
  memcpy(&out[7], info.bounds_max, 3 * sizeof(float));
  return r;
}

LBW_EXPORT(lbw_nav_nearest)
int lbw_nav_nearest(lb_world *w, uint32_t mesh, const float *p, uint32_t *out) {
  lb_nav_point q;
  memset(&q, 0, sizeof q);
  lb_result r = lb_nav_nearest(w, mesh, p, &q);
  put_point(out, &q);
  return r;
}

/* out: point_count, corner_count, polygon_count, status (u32), length (f32), start (4),
 * end (4): 13 words. */
LBW_EXPORT(lbw_nav_find_path)
int lbw_nav_find_path(lb_world *w, uint32_t mesh, const float *start, const float *goal,
                      float *points, uint32_t capacity, uint32_t *out) {
  lb_nav_path path;
  memset(&path, 0, sizeof path);
  path.points = points;
  path.point_capacity = capacity;
  lb_result r = lb_nav_find_path(w, mesh, start, goal, &path);
  out[0] = path.point_count;
  out[1] = path.corner_count;
  out[2] = path.polygon_count;
  out[3] = (uint32_t)path.status;
  memcpy(&out[4], &path.length, 4);
  put_point(&out[5], &path.start);
  put_point(&out[9], &path.end);
  return r;
}

LBW_EXPORT(lbw_nav_move_along_surface)
int lbw_nav_move_along_surface(lb_world *w, uint32_t mesh, const uint32_t *from, const float *to,
                               uint32_t *out) {
  lb_nav_point a, b;
  get_point(from, &a);
  memset(&b, 0, sizeof b);
  lb_result r = lb_nav_move_along_surface(w, mesh, &a, to, &b);
  put_point(out, &b);
  return r;
}

/* out: hit (u32), t (f32), position (3 f32), normal (3 f32), polygon (u32): 9 words. */
LBW_EXPORT(lbw_nav_raycast)
int lbw_nav_raycast(lb_world *w, uint32_t mesh, const uint32_t *from, const float *to,
                    uint32_t *out) {
  lb_nav_point a;
  get_point(from, &a);
  lb_nav_hit h;
  memset(&h, 0, sizeof h);
  lb_result r = lb_nav_raycast(w, mesh, &a, to, &h);
  out[0] = h.hit ? 1u : 0u;
  memcpy(&out[1], &h.t, 4);
  memcpy(&out[2], h.position, 3 * sizeof(float));
  memcpy(&out[5], h.normal, 3 * sizeof(float));
  out[8] = h.polygon;
  return r;
}

/* out: neighbour count (u32), the neighbours' entities (LB_NAV_AVOID_NEIGHBOURS u32), the path's
 * velocity before avoidance (3 f32): 14 words. */
LBW_EXPORT(lbw_nav_avoidance)
int lbw_nav_avoidance(lb_world *w, lb_entity e, uint32_t *out) {
  lb_nav_agent_avoidance a;
  memset(&a, 0, sizeof a);
  lb_result r = lb_world_nav_avoidance(w, e, &a);
  out[0] = a.neighbour_count;
  memcpy(&out[1], a.neighbours, sizeof a.neighbours);
  memcpy(&out[1 + LB_NAV_AVOID_NEIGHBOURS], a.preferred_velocity, 3 * sizeof(float));
  return r;
}
