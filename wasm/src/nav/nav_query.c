/* Queries on a navmesh: nearest point, path (A* over polygons + string pulling), move along
 * the surface, raycast. The algorithms follow Detour's (findNearestPoly, findPath,
 * findStraightPath, moveAlongSurface, raycast) so answers can be compared with it; the code
 * is Limber's: float math from + - * / and sqrt only, fixed visiting order, ties to the lower
 * polygon index, and no allocation (the mesh carries its scratch). */
#include "nav_internal.h"
#include <string.h>

#define NAV_H_SCALE 0.999f /* Detour's heuristic scale: keeps A* from overestimating */
#define NAV_OPEN 1u
#define NAV_CLOSED 2u
#define NAV_FLT_MAX 3.402823466e+38f

/* ---- small vector helpers ------------------------------------------------------------------ */

static const float *nav_vert(const lb_navmesh *m, uint32_t p, uint32_t k) {
  return m->vertices + 3u * m->indices[m->first[p] + k];
}

static float nav_dist3(const float *a, const float *b) {
  float dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
  return lb_sqrt(dx * dx + dy * dy + dz * dz);
}

static float nav_tri_area_2d(const float *a, const float *b, const float *c) {
  float abx = b[0] - a[0], abz = b[2] - a[2];
  float acx = c[0] - a[0], acz = c[2] - a[2];
  return acx * abz - abx * acz;
}

static void nav_lerp3(const float *a, const float *b, float t, float *out) {
  out[0] = a[0] + (b[0] - a[0]) * t;
  out[1] = a[1] + (b[1] - a[1]) * t;
  out[2] = a[2] + (b[2] - a[2]) * t;
}

/* Squared XZ distance from p to segment a-b, and the segment parameter of the closest point. */
static float nav_dist_pt_seg_2d(const float *p, const float *a, const float *b, float *t_out) {
  float abx = b[0] - a[0], abz = b[2] - a[2];
  float dx = p[0] - a[0], dz = p[2] - a[2];
  float d = abx * abx + abz * abz;
  float t = abx * dx + abz * dz;
  if (d > 0.0f) {
    t /= d;
  }
  t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
  dx = a[0] + t * abx - p[0];
  dz = a[2] + t * abz - p[2];
  *t_out = t;
  return dx * dx + dz * dz;
}

/* p over the polygon in XZ (edges count as inside). Convexity and winding are checked on add. */
static bool nav_inside_2d(const lb_navmesh *m, uint32_t p, const float *pt) {
  const float *lo = m->poly_min + 2u * p, *hi = m->poly_max + 2u * p;
  if (pt[0] < lo[0] || pt[0] > hi[0] || pt[2] < lo[1] || pt[2] > hi[1]) {
    return false;
  }
  uint32_t n = m->counts[p];
  for (uint32_t k = 0; k < n; ++k) {
    if (nav_tri_area_2d(nav_vert(m, p, k), nav_vert(m, p, (k + 1) % n), pt) < 0.0f) {
      return false;
    }
  }
  return true;
}

/* Height of the polygon at pt (XZ inside or on it): the fan triangle from vertex 0 that holds
 * pt, barycentric. */
static float nav_height_on(const lb_navmesh *m, uint32_t p, const float *pt) {
  uint32_t n = m->counts[p];
  const float *a = nav_vert(m, p, 0);
  float best_y = a[1], best_out = NAV_FLT_MAX;
  for (uint32_t k = 1; k + 1 < n; ++k) {
    const float *b = nav_vert(m, p, k), *c = nav_vert(m, p, k + 1);
    float area = nav_tri_area_2d(a, b, c);
    if (!(area > 0.0f)) {
      continue;
    }
    /* barycentric weights from sub-areas; a weight below 0 means pt is outside that side */
    float wa = nav_tri_area_2d(b, c, pt) / area, wb = nav_tri_area_2d(c, a, pt) / area;
    float wc = 1.0f - wa - wb;
    float out = 0.0f;
    out -= wa < 0.0f ? wa : 0.0f;
    out -= wb < 0.0f ? wb : 0.0f;
    out -= wc < 0.0f ? wc : 0.0f;
    if (out < best_out) {
      best_out = out;
      float ca = wa < 0.0f ? 0.0f : wa, cb = wb < 0.0f ? 0.0f : wb, cc = wc < 0.0f ? 0.0f : wc;
      float s = ca + cb + cc;
      best_y = (ca * a[1] + cb * b[1] + cc * c[1]) / s;
      if (out == 0.0f) {
        break;
      }
    }
  }
  return best_y;
}

/* Closest point of polygon p to pt: pt itself (at the polygon's height) when over it, else
 * the closest point of its boundary (as Detour's closestPointOnPoly / ...Boundary). */
static void nav_closest_on_poly(const lb_navmesh *m, uint32_t p, const float *pt, float *out) {
  if (nav_inside_2d(m, p, pt)) {
    out[0] = pt[0];
    out[2] = pt[2];
    out[1] = nav_height_on(m, p, pt);
    return;
  }
  uint32_t n = m->counts[p];
  float best = NAV_FLT_MAX;
  for (uint32_t k = 0; k < n; ++k) {
    const float *a = nav_vert(m, p, k), *b = nav_vert(m, p, (k + 1) % n);
    float t = 0.0f;
    float d = nav_dist_pt_seg_2d(pt, a, b, &t);
    if (d < best) {
      best = d;
      nav_lerp3(a, b, t, out);
    }
  }
}

static bool nav_finite3(const float *p) {
  for (int c = 0; c < 3; ++c) {
    if (p[c] != p[c] || p[c] - p[c] != 0.0f) {
      return false;
    }
  }
  return true;
}

/* Within LB_NAV_QUERY_MAX: squared distances stay finite. */
static bool nav_in_range3(const float *p) {
  for (int c = 0; c < 3; ++c) {
    if (p[c] > LB_NAV_QUERY_MAX || p[c] < -LB_NAV_QUERY_MAX) {
      return false;
    }
  }
  return true;
}

/* Whether query points a (and b, when given) can be queried: finite and within range. */
static lb_result nav_points_code(const float *a, const float *b) {
  if ((a && !nav_finite3(a)) || (b && !nav_finite3(b))) {
    return LB_ERR_NOT_FINITE;
  }
  if ((a && !nav_in_range3(a)) || (b && !nav_in_range3(b))) {
    return LB_ERR_OUT_OF_RANGE;
  }
  return LB_OK;
}

static lb_result nav_query_args(lb_world *w, const char *fn, uint32_t mesh, const float *a,
                                const float *b, lb_navmesh **out) {
  *out = lb_navmesh_get(w, mesh);
  if (!*out) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "%s: navmesh %u does not exist", fn, mesh);
  }
  lb_result r = nav_points_code(a, b);
  if (r == LB_ERR_NOT_FINITE) {
    return lb_fail(w, r, "%s: a point is not finite", fn);
  }
  if (r != LB_OK) {
    return lb_fail(w, r, "%s: a point is beyond %g m", fn, (double)LB_NAV_QUERY_MAX);
  }
  return LB_OK;
}

/* Polygon q as a candidate for the nearest point to p (ties: lower polygon index). */
static void nav_nearest_try(const lb_navmesh *m, uint32_t q, const float *p, float *best,
                            lb_nav_point *out) {
  /* a polygon whose XZ box is farther than the best distance cannot be nearer */
  const float *lo = m->poly_min + 2u * q, *hi = m->poly_max + 2u * q;
  float dx = p[0] < lo[0] ? lo[0] - p[0] : p[0] > hi[0] ? p[0] - hi[0] : 0.0f;
  float dz = p[2] < lo[1] ? lo[1] - p[2] : p[2] > hi[1] ? p[2] - hi[1] : 0.0f;
  if (dx * dx + dz * dz > *best) {
    return;
  }
  float c[3];
  nav_closest_on_poly(m, q, p, c);
  float ex = c[0] - p[0], ey = c[1] - p[1], ez = c[2] - p[2];
  float d = ex * ex + ey * ey + ez * ez;
  if (d < *best || (d == *best && q < out->polygon)) {
    *best = d;
    memcpy(out->position, c, sizeof c);
    out->polygon = q;
  }
}

static uint32_t nav_cell_of(float x, float origin, float cell, uint32_t n) {
  float f = (x - origin) / cell;
  if (!(f > 0.0f)) {
    return 0;
  }
  return f >= (float)n ? n - 1u : (uint32_t)f;
}

/* The same answer as trying every polygon: rings of grid cells around p's (clamped) cell until
 * the ring is farther than the best distance. A cell in ring r is at least (r - 1) cells from
 * p in XZ (also when p is outside the grid: projecting onto a convex set only shortens). */
static void nav_nearest_poly(lb_navmesh *m, const float *p, lb_nav_point *out) {
  float best = NAV_FLT_MAX;
  if (++m->seen_stamp == 0) {
    memset(m->seen, 0, m->polygon_count * sizeof(uint32_t));
    m->seen_stamp = 1;
  }
  const uint32_t stamp = m->seen_stamp;
  out->polygon = LB_NAV_NO_POLYGON;
  int64_t cx = nav_cell_of(p[0], m->grid_origin[0], m->grid_cell, m->grid_nx);
  int64_t cz = nav_cell_of(p[2], m->grid_origin[1], m->grid_cell, m->grid_nz);
  int64_t nx = m->grid_nx, nz = m->grid_nz;
  int64_t rmax = nx > nz ? nx : nz;
  for (int64_t r = 0; r <= rmax; ++r) {
    if (r >= 2) {
      float reach = (float)(r - 1) * m->grid_cell;
      if (reach * reach > best) {
        break;
      }
    }
    for (int64_t z = cz - r; z <= cz + r; ++z) {
      if (z < 0 || z >= nz) {
        continue;
      }
      bool edge_row = z == cz - r || z == cz + r;
      for (int64_t x = cx - r; x <= cx + r; x += edge_row || r == 0 ? 1 : 2 * r) {
        if (x < 0 || x >= nx) {
          continue;
        }
        size_t c = (size_t)z * (size_t)nx + (size_t)x;
        for (uint32_t k = m->grid_start[c]; k < m->grid_start[c + 1u]; ++k) {
          /* tried already: its answer stands (best only shrinks) */
          uint32_t q = m->grid_items[k];
          if (m->seen[q] != stamp) {
            m->seen[q] = stamp;
            nav_nearest_try(m, q, p, &best, out);
          }
        }
      }
    }
  }
}

/* nav_nearest_poly through the mesh's goal cache (lb_navmesh.goal_bits). */
static void nav_nearest_goal(lb_navmesh *m, const float *p, lb_nav_point *out) {
  uint32_t bits[3];
  memcpy(bits, p, sizeof bits);
  for (uint32_t i = 0; i < m->goal_count; ++i) {
    const uint32_t *k = m->goal_bits[i];
    if (k[0] == bits[0] && k[1] == bits[1] && k[2] == bits[2]) {
      *out = m->goal_on[i];
      return;
    }
  }
  nav_nearest_poly(m, p, out);
  uint32_t at = m->goal_next;
  memcpy(m->goal_bits[at], bits, sizeof bits);
  m->goal_on[at] = *out;
  m->goal_next = (at + 1u) % NAV_GOAL_CACHE;
  m->goal_count += m->goal_count < NAV_GOAL_CACHE ? 1u : 0u;
}

void lb_nav_nearest_scan(const lb_navmesh *m, const float *p, lb_nav_point *out) {
  float best = NAV_FLT_MAX;
  out->polygon = LB_NAV_NO_POLYGON;
  for (uint32_t q = 0; q < m->polygon_count; ++q) {
    nav_nearest_try(m, q, p, &best, out);
  }
}

lb_result lb_nav_nearest(lb_world *w, uint32_t mesh, const float p[3], lb_nav_point *out) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!p || !out) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "nav_nearest: null point or out");
  }
  lb_navmesh *m;
  lb_result r = nav_query_args(w, "nav_nearest", mesh, p, NULL, &m);
  if (r != LB_OK) {
    return r;
  }
  nav_nearest_poly(m, p, out);
  return LB_OK;
}

lb_result lb_nav_mesh_nearest(lb_navmesh *m, const float p[3], lb_nav_point *out) {
  lb_result r = m ? nav_points_code(p, NULL) : LB_ERR_INVALID_ARGUMENT;
  if (r == LB_OK) {
    nav_nearest_poly(m, p, out);
  }
  return r;
}

/* ---- A* ------------------------------------------------------------------------------------- */

/* Heap order: lower total cost first, then lower polygon index (a fixed tie-break). */
static bool nav_heap_less(const lb_navmesh *m, uint32_t a, uint32_t b) {
  return m->node_f[a] < m->node_f[b] || (m->node_f[a] == m->node_f[b] && a < b);
}

static void nav_heap_up(lb_navmesh *m, uint32_t i, uint32_t node) {
  while (i > 0) {
    uint32_t parent = (i - 1u) / 2u;
    if (!nav_heap_less(m, node, m->heap[parent])) {
      break;
    }
    m->heap[i] = m->heap[parent];
    m->node_heap[m->heap[i]] = i;
    i = parent;
  }
  m->heap[i] = node;
  m->node_heap[node] = i;
}

static void nav_heap_down(lb_navmesh *m, uint32_t i, uint32_t node) {
  for (;;) {
    uint32_t child = 2u * i + 1u;
    if (child >= m->heap_count) {
      break;
    }
    if (child + 1u < m->heap_count && nav_heap_less(m, m->heap[child + 1u], m->heap[child])) {
      ++child;
    }
    if (!nav_heap_less(m, m->heap[child], node)) {
      break;
    }
    m->heap[i] = m->heap[child];
    m->node_heap[m->heap[i]] = i;
    i = child;
  }
  m->heap[i] = node;
  m->node_heap[node] = i;
}

static uint32_t nav_heap_pop(lb_navmesh *m) {
  uint32_t top = m->heap[0];
  if (--m->heap_count > 0) {
    nav_heap_down(m, 0, m->heap[m->heap_count]);
  }
  return top;
}

/* A new query: every node reads as unvisited (stamps; a full clear only on wrap-around). */
static void nav_nodes_reset(lb_navmesh *m) {
  if (++m->stamp == 0) {
    memset(m->node_stamp, 0, m->polygon_count * sizeof(uint32_t));
    m->stamp = 1;
  }
  m->heap_count = 0;
}

static bool nav_node_seen(const lb_navmesh *m, uint32_t p) {
  return m->node_stamp[p] == m->stamp;
}

static void nav_node_touch(lb_navmesh *m, uint32_t p) {
  m->node_stamp[p] = m->stamp;
  m->node_flags[p] = 0;
  m->node_parent[p] = LB_NAV_NO_POLYGON;
}

/* Polygon `from`'s edge toward `to`: its two vertices (Detour's portal left, right). */
static bool nav_portal(const lb_navmesh *m, uint32_t from, uint32_t to, float *left, float *right) {
  uint32_t n = m->counts[from];
  for (uint32_t k = 0; k < n; ++k) {
    if (m->neighbours[m->first[from] + k] == (int32_t)to) {
      memcpy(left, nav_vert(m, from, k), 3 * sizeof(float));
      memcpy(right, nav_vert(m, from, (k + 1) % n), 3 * sizeof(float));
      return true;
    }
  }
  return false;
}

/* The corridor from start_poly toward end_poly into m->corridor; returns its length and
 * whether it reaches end_poly (else it ends at the polygon whose node was nearest the goal). */
static uint32_t nav_find_corridor(lb_navmesh *m, uint32_t sp, const float *spos, uint32_t ep,
                                  const float *epos, bool *complete) {
  nav_nodes_reset(m);
  nav_node_touch(m, sp);
  memcpy(m->node_pos + 3u * sp, spos, 3 * sizeof(float));
  m->node_g[sp] = 0.0f;
  m->node_f[sp] = nav_dist3(spos, epos) * NAV_H_SCALE;
  m->node_flags[sp] = NAV_OPEN;
  m->heap_count = 1;
  m->heap[0] = sp;
  m->node_heap[sp] = 0;
  uint32_t last_best = sp;
  float last_best_h = m->node_f[sp];
  while (m->heap_count > 0) {
    uint32_t best = nav_heap_pop(m);
    m->node_flags[best] = NAV_CLOSED;
    if (best == ep) {
      last_best = best;
      break;
    }
    uint32_t n = m->counts[best];
    const float *bpos = m->node_pos + 3u * best;
    for (uint32_t k = 0; k < n; ++k) {
      int32_t nb = m->neighbours[m->first[best] + k];
      if (nb < 0 || (uint32_t)nb == m->node_parent[best]) {
        continue;
      }
      uint32_t q = (uint32_t)nb;
      float *qpos = m->node_pos + 3u * q;
      if (!nav_node_seen(m, q)) {
        nav_node_touch(m, q);
        /* a node sits where the path first enters its polygon: the portal's midpoint */
        const float *a = nav_vert(m, best, k), *b = nav_vert(m, best, (k + 1) % n);
        qpos[0] = (a[0] + b[0]) * 0.5f;
        qpos[1] = (a[1] + b[1]) * 0.5f;
        qpos[2] = (a[2] + b[2]) * 0.5f;
      }
      float cost, h;
      if (q == ep) {
        cost = m->node_g[best] + nav_dist3(bpos, qpos) + nav_dist3(qpos, epos);
        h = 0.0f;
      } else {
        cost = m->node_g[best] + nav_dist3(bpos, qpos);
        h = nav_dist3(qpos, epos) * NAV_H_SCALE;
      }
      float total = cost + h;
      if ((m->node_flags[q] & (NAV_OPEN | NAV_CLOSED)) && total >= m->node_f[q]) {
        continue;
      }
      m->node_parent[q] = best;
      m->node_g[q] = cost;
      m->node_f[q] = total;
      if (m->node_flags[q] & NAV_OPEN) {
        nav_heap_up(m, m->node_heap[q], q);
      } else {
        m->node_flags[q] = NAV_OPEN;
        nav_heap_up(m, m->heap_count++, q);
      }
      if (h < last_best_h) {
        last_best_h = h;
        last_best = q;
      }
    }
  }
  *complete = last_best == ep;
  uint32_t count = 0;
  for (uint32_t p = last_best; p != LB_NAV_NO_POLYGON; p = m->node_parent[p]) {
    ++count;
  }
  uint32_t i = count;
  for (uint32_t p = last_best; p != LB_NAV_NO_POLYGON; p = m->node_parent[p]) {
    m->corridor[--i] = p;
  }
  return count;
}

/* ---- string pulling ------------------------------------------------------------------------- */

typedef struct nav_corners {
  lb_nav_path *path;
  float last[3];
  uint32_t count;
  float length;
} nav_corners;

static void nav_corner_add(nav_corners *c, const float *p) {
  if (c->count > 0) {
    float dx = p[0] - c->last[0], dy = p[1] - c->last[1], dz = p[2] - c->last[2];
    if (dx * dx + dy * dy + dz * dz < 1e-12f) {
      return; /* the same point again (Detour's dtVequal) */
    }
    c->length += lb_sqrt(dx * dx + dy * dy + dz * dz);
  }
  memcpy(c->last, p, sizeof c->last);
  if (c->path->points && c->count < c->path->point_capacity) {
    memcpy(c->path->points + 3u * c->count, p, 3 * sizeof(float));
  }
  ++c->count;
}

static bool nav_same_2d(const float *a, const float *b) {
  float dx = b[0] - a[0], dz = b[2] - a[2];
  return dx * dx + dz * dz < (1.0f / 16384.0f) * (1.0f / 16384.0f);
}

/* Detour's findStraightPath funnel over the corridor's portals. */
static void nav_string_pull(const lb_navmesh *m, const uint32_t *polys, uint32_t count,
                            const float *start, const float *end, nav_corners *out) {
  float apex[3], left[3], right[3];
  memcpy(apex, start, sizeof apex);
  memcpy(left, start, sizeof left);
  memcpy(right, start, sizeof right);
  uint32_t apex_i = 0, left_i = 0, right_i = 0;
  nav_corner_add(out, start);
  for (uint32_t i = 0; i < count; ++i) {
    float l[3], r[3];
    if (i + 1 < count) {
      nav_portal(m, polys[i], polys[i + 1], l, r);
      if (i == 0) {
        /* the start on the first portal: skip it (Detour's check) */
        float t = 0.0f;
        if (nav_dist_pt_seg_2d(apex, l, r, &t) < 0.001f * 0.001f) {
          continue;
        }
      }
    } else {
      memcpy(l, end, sizeof l);
      memcpy(r, end, sizeof r);
    }
    /* right side: tighten, or the right crosses the left and the left becomes a corner */
    if (nav_tri_area_2d(apex, right, r) <= 0.0f) {
      if (nav_same_2d(apex, right) || nav_tri_area_2d(apex, left, r) > 0.0f) {
        memcpy(right, r, sizeof right);
        right_i = i;
      } else {
        memcpy(apex, left, sizeof apex);
        apex_i = left_i;
        nav_corner_add(out, apex);
        memcpy(left, apex, sizeof left);
        memcpy(right, apex, sizeof right);
        left_i = right_i = apex_i;
        i = apex_i;
        continue;
      }
    }
    if (nav_tri_area_2d(apex, left, l) >= 0.0f) {
      if (nav_same_2d(apex, left) || nav_tri_area_2d(apex, right, l) < 0.0f) {
        memcpy(left, l, sizeof left);
        left_i = i;
      } else {
        memcpy(apex, right, sizeof apex);
        apex_i = right_i;
        nav_corner_add(out, apex);
        memcpy(left, apex, sizeof left);
        memcpy(right, apex, sizeof right);
        left_i = right_i = apex_i;
        i = apex_i;
        continue;
      }
    }
  }
  nav_corner_add(out, end);
}

/* The path search on a valid mesh with valid points (lb_nav_find_path has the contract). */
static void nav_find_path_run(lb_navmesh *m, const float *start, const float *goal,
                              lb_nav_path *path) {
  nav_nearest_poly(m, start, &path->start);
  lb_nav_point goal_on;
  nav_nearest_goal(m, goal, &goal_on);
  bool complete = false;
  uint32_t count = nav_find_corridor(m, path->start.polygon, path->start.position, goal_on.polygon,
                                     goal_on.position, &complete);
  /* A partial path ends at its last polygon's point nearest the goal (Detour clamps there). */
  path->end.polygon = m->corridor[count - 1u];
  if (complete) {
    memcpy(path->end.position, goal_on.position, sizeof goal_on.position);
  } else {
    nav_closest_on_poly(m, path->end.polygon, goal_on.position, path->end.position);
  }
  nav_corners c = {.path = path};
  nav_string_pull(m, m->corridor, count, path->start.position, path->end.position, &c);
  path->corner_count = c.count;
  path->point_count = c.count < path->point_capacity ? c.count : path->point_capacity;
  path->polygon_count = count;
  path->length = c.length;
  path->status = complete ? LB_NAV_PATH_COMPLETE : LB_NAV_PATH_PARTIAL;
}

lb_result lb_nav_find_path(lb_world *w, uint32_t mesh, const float start[3], const float goal[3],
                           lb_nav_path *path) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!start || !goal || !path || (!path->points && path->point_capacity > 0)) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "nav_find_path: null start, goal, path or points");
  }
  lb_navmesh *m;
  lb_result r = nav_query_args(w, "nav_find_path", mesh, start, goal, &m);
  if (r == LB_OK) {
    nav_find_path_run(m, start, goal, path);
  }
  return r;
}

lb_result lb_nav_mesh_find_path(lb_navmesh *m, const float start[3], const float goal[3],
                                lb_nav_path *path) {
  lb_result r = m ? nav_points_code(start, goal) : LB_ERR_INVALID_ARGUMENT;
  if (r == LB_OK) {
    nav_find_path_run(m, start, goal, path);
  }
  return r;
}

void lb_nav_mesh_pull(const lb_navmesh *m, const uint32_t *polys, uint32_t count,
                      const lb_nav_point *start, const lb_nav_point *end, lb_nav_path *path) {
  path->start = *start;
  path->end = *end;
  nav_corners c = {.path = path};
  nav_string_pull(m, polys, count, start->position, end->position, &c);
  path->corner_count = c.count;
  path->point_count = c.count < path->point_capacity ? c.count : path->point_capacity;
  path->polygon_count = count;
  path->length = c.length;
  path->status = LB_NAV_PATH_COMPLETE;
}

/* ---- move along the surface ---------------------------------------------------------------- */

/* Whether `from` can start a walk on m: its polygon on m, its point finite and in range. */
static lb_result nav_point_code(const lb_navmesh *m, const lb_nav_point *from) {
  if (from->polygon >= m->polygon_count) {
    return LB_ERR_OUT_OF_RANGE;
  }
  return nav_points_code(from->position, NULL);
}

static lb_result nav_point_arg(lb_world *w, const char *fn, const lb_navmesh *m,
                               const lb_nav_point *from) {
  lb_result r = nav_point_code(m, from);
  if (r == LB_OK) {
    return r;
  }
  if (from->polygon >= m->polygon_count) {
    return lb_fail(w, r, "%s: the start polygon %u is not on navmesh '%s' (%u polygons)", fn,
                   from->polygon, m->name, m->polygon_count);
  }
  if (r == LB_ERR_NOT_FINITE) {
    return lb_fail(w, r, "%s: the start point is not finite", fn);
  }
  return lb_fail(w, r, "%s: the start point is beyond %g m", fn, (double)LB_NAV_QUERY_MAX);
}

/* The walk on a valid mesh from a valid start (lb_nav_move_along_surface has the contract). */
static void nav_move_run(lb_navmesh *m, const lb_nav_point *from, const float *to,
                         lb_nav_point *out) {
  const float *s = from->position;
  float best_pos[3];
  memcpy(best_pos, s, sizeof best_pos);
  float best_d = NAV_FLT_MAX;
  uint32_t best_poly = from->polygon;
  /* only polygons touching the circle through start and end are searched */
  float mid[3] = {(s[0] + to[0]) * 0.5f, (s[1] + to[1]) * 0.5f, (s[2] + to[2]) * 0.5f};
  float rad = nav_dist3(s, to) * 0.5f + 0.001f;
  float rad2 = rad * rad;
  nav_nodes_reset(m);
  nav_node_touch(m, from->polygon);
  uint32_t head = 0, tail = 0;
  m->heap[tail++] = from->polygon; /* the heap array serves as the search queue */
  while (head < tail) {
    uint32_t cur = m->heap[head++];
    if (nav_inside_2d(m, cur, to)) {
      best_poly = cur;
      memcpy(best_pos, to, sizeof best_pos);
      break;
    }
    uint32_t n = m->counts[cur];
    for (uint32_t k = 0; k < n; ++k) {
      const float *a = nav_vert(m, cur, k), *b = nav_vert(m, cur, (k + 1) % n);
      int32_t nb = m->neighbours[m->first[cur] + k];
      float t = 0.0f;
      if (nb < 0) {
        float d = nav_dist_pt_seg_2d(to, a, b, &t);
        if (d < best_d) {
          best_d = d;
          nav_lerp3(a, b, t, best_pos);
          best_poly = cur;
        }
        continue;
      }
      if (nav_node_seen(m, (uint32_t)nb) || nav_dist_pt_seg_2d(mid, a, b, &t) > rad2) {
        continue;
      }
      nav_node_touch(m, (uint32_t)nb);
      m->heap[tail++] = (uint32_t)nb;
    }
  }
  out->polygon = best_poly;
  out->position[0] = best_pos[0];
  out->position[2] = best_pos[2];
  out->position[1] = nav_height_on(m, best_poly, best_pos);
}

lb_result lb_nav_move_along_surface(lb_world *w, uint32_t mesh, const lb_nav_point *from,
                                    const float to[3], lb_nav_point *out) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!from || !to || !out) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "nav_move_along_surface: null from, to or out");
  }
  lb_navmesh *m;
  lb_result r = nav_query_args(w, "nav_move_along_surface", mesh, to, NULL, &m);
  if (r == LB_OK) {
    r = nav_point_arg(w, "nav_move_along_surface", m, from);
  }
  if (r == LB_OK) {
    nav_move_run(m, from, to, out);
  }
  return r;
}

lb_result lb_nav_mesh_move_along_surface(lb_navmesh *m, const lb_nav_point *from, const float to[3],
                                         lb_nav_point *out) {
  lb_result r = m ? nav_points_code(to, NULL) : LB_ERR_INVALID_ARGUMENT;
  if (r == LB_OK) {
    r = nav_point_code(m, from);
  }
  if (r == LB_OK) {
    nav_move_run(m, from, to, out);
  }
  return r;
}

/* ---- raycast ------------------------------------------------------------------------------- */

/* Detour's dtIntersectSegmentPoly2D: the segment's entry/exit parameters in a convex polygon
 * and the edges crossed there (-1: none). False when the segment misses it. */
static bool nav_seg_poly_2d(const lb_navmesh *m, uint32_t p, const float *p0, const float *p1,
                            float *tmin, float *tmax, int *seg_min, int *seg_max) {
  const float eps = 0.000001f;
  *tmin = 0.0f;
  *tmax = 1.0f;
  *seg_min = *seg_max = -1;
  float dx = p1[0] - p0[0], dz = p1[2] - p0[2];
  uint32_t n = m->counts[p];
  for (uint32_t i = 0, j = n - 1u; i < n; j = i++) {
    const float *vi = nav_vert(m, p, i), *vj = nav_vert(m, p, j);
    float ex = vi[0] - vj[0], ez = vi[2] - vj[2];
    float fx = p0[0] - vj[0], fz = p0[2] - vj[2];
    float num = ez * fx - ex * fz; /* perp(edge, diff) */
    float den = dz * ex - dx * ez; /* perp(dir, edge) */
    if ((den < 0.0f ? -den : den) < eps) {
      if (num < 0.0f) {
        return false;
      }
      continue;
    }
    float t = num / den;
    if (den < 0.0f) {
      if (t > *tmin) {
        *tmin = t;
        *seg_min = (int)j;
        if (*tmin > *tmax) {
          return false;
        }
      }
    } else if (t < *tmax) {
      *tmax = t;
      *seg_max = (int)j;
      if (*tmax < *tmin) {
        return false;
      }
    }
  }
  return true;
}

lb_result lb_nav_raycast(lb_world *w, uint32_t mesh, const lb_nav_point *from, const float to[3],
                         lb_nav_hit *out) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!from || !to || !out) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "nav_raycast: null from, to or out");
  }
  lb_navmesh *m;
  lb_result r = nav_query_args(w, "nav_raycast", mesh, to, NULL, &m);
  if (r == LB_OK) {
    r = nav_point_arg(w, "nav_raycast", m, from);
  }
  if (r != LB_OK) {
    return r;
  }
  memset(out, 0, sizeof *out);
  const float *s = from->position;
  uint32_t cur = from->polygon;
  float t_reached = 0.0f;
  /* each polygon is entered at most once along a straight line through convex polygons */
  for (uint32_t steps = 0; steps <= m->polygon_count; ++steps) {
    float tmin, tmax;
    int smin, smax;
    if (!nav_seg_poly_2d(m, cur, s, to, &tmin, &tmax, &smin, &smax)) {
      break; /* the start is outside its polygon: stops where it is */
    }
    t_reached = tmax > t_reached ? tmax : t_reached;
    if (smax < 0) {
      /* the end is inside this polygon */
      out->hit = false;
      out->t = 1.0f;
      out->polygon = cur;
      memcpy(out->position, to, 3 * sizeof(float));
      out->position[1] = nav_height_on(m, cur, to);
      return LB_OK;
    }
    int32_t nb = m->neighbours[m->first[cur] + (uint32_t)smax];
    if (nb < 0) {
      const float *a = nav_vert(m, cur, (uint32_t)smax);
      const float *b = nav_vert(m, cur, ((uint32_t)smax + 1u) % m->counts[cur]);
      float ex = b[0] - a[0], ez = b[2] - a[2];
      float len = lb_sqrt(ex * ex + ez * ez);
      out->hit = true;
      /* inward normal: the polygon lies on the left of the edge seen from above */
      out->normal[0] = ez / len;
      out->normal[2] = -ex / len;
      break;
    }
    cur = (uint32_t)nb;
  }
  out->t = t_reached;
  out->polygon = cur;
  nav_lerp3(s, to, t_reached, out->position);
  out->position[1] = nav_height_on(m, cur, out->position);
  return LB_OK;
}
