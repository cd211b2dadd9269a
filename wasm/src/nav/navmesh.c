/* Navmesh assets: checking a mesh (convex polygons, symmetric adjacency, finite vertices),
 * copying it into one allocation with its query scratch, and the JSON form. */
#include "../base/array.h"
#include "../base/json.h"
#include "nav_internal.h"
#include <string.h>

/* Detour's dtTriArea2D: > 0 when a, b, c turn the way Recast winds polygons. */
static float nav_tri_area_2d(const float *a, const float *b, const float *c) {
  float abx = b[0] - a[0], abz = b[2] - a[2];
  float acx = c[0] - a[0], acz = c[2] - a[2];
  return acx * abz - abx * acz;
}

lb_navmesh *lb_navmesh_get(const lb_world *w, uint32_t mesh) {
  const lb_nav_world *nw = nav_world_of(w);
  return mesh >= 1 && mesh <= nw->mesh_count ? nw->meshes[mesh - 1] : NULL;
}

lb_result lb_navmeshes_reserve(lb_world *w, uint32_t upto) {
  lb_nav_world *nw = nav_world_of(w);
  if (upto <= nw->mesh_count) {
    return LB_OK;
  }
  if (lb_array_reserve(&w->allocator, (void **)&nw->meshes, &nw->mesh_capacity, nw->mesh_count,
                       upto, sizeof(lb_navmesh *), 4u) != LB_OK) {
    return LB_ERR_OUT_OF_MEMORY;
  }
  for (uint32_t i = nw->mesh_count; i < upto; ++i) {
    nw->meshes[i] = NULL; /* lb_navmesh_get answers null */
  }
  nw->mesh_count = upto;
  return LB_OK;
}

void lb_navmeshes_release(lb_world *w, uint32_t keep) {
  lb_nav_world *nw = nav_world_of(w);
  while (nw->mesh_count > keep) {
    lb_navmesh *m = nw->meshes[--nw->mesh_count];
    if (m) { /* null: a place lb_navmeshes_reserve padded */
      lb_free(w, m->grid_start);
      lb_free(w, m);
    }
  }
  if (keep == 0) {
    lb_free(w, nw->meshes);
    nw->meshes = NULL;
    nw->mesh_capacity = 0;
  }
}

static bool nav_name_ok(const char *name) {
  size_t n = 0;
  while (name && n < LB_NAV_NAME_MAX && name[n]) {
    ++n;
  }
  return name && n > 0 && n < LB_NAV_NAME_MAX;
}

static lb_result nav_check_adjacency(lb_world *w, const char *name, const lb_navmesh_def *d,
                                     const uint32_t *first);

/* Every vertex coordinate finite and within LB_NAV_COORD_MAX. */
static lb_result nav_check_vertices(lb_world *w, const char *name, const lb_navmesh_def *d) {
  for (uint32_t i = 0; i < d->vertex_count * 3u; ++i) {
    float x = d->vertices[i];
    if (x != x || x - x != 0.0f) {
      return lb_fail(w, LB_ERR_NOT_FINITE, "navmesh '%s': vertex %u coordinate %u is not finite",
                     name, i / 3u, i % 3u);
    }
    if (x > LB_NAV_COORD_MAX || x < -LB_NAV_COORD_MAX) {
      return lb_fail(w, LB_ERR_OUT_OF_RANGE,
                     "navmesh '%s': vertex %u coordinate %u = %g is beyond %g m", name, i / 3u,
                     i % 3u, (double)x, (double)LB_NAV_COORD_MAX);
    }
  }
  return LB_OK;
}

/* Polygon p (its n vertex indices at ix): indices in range and distinct; convex, wound as
 * Recast winds: every vertex on the inner side of (or on) every edge, no zero-length edge,
 * positive area. */
static lb_result nav_check_polygon(lb_world *w, const char *name, const lb_navmesh_def *d,
                                   uint32_t p, const uint32_t *ix, uint32_t n) {
  for (uint32_t k = 0; k < n; ++k) {
    if (ix[k] >= d->vertex_count) {
      return lb_fail(w, LB_ERR_OUT_OF_RANGE,
                     "navmesh '%s': polygon %u vertex %u is index %u of %u vertices", name, p, k,
                     ix[k], d->vertex_count);
    }
    for (uint32_t j = 0; j < k; ++j) {
      if (ix[j] == ix[k]) {
        return lb_fail(w, LB_ERR_DEGENERATE, "navmesh '%s': polygon %u uses vertex %u twice", name,
                       p, ix[k]);
      }
    }
  }
  float area = 0.0f;
  for (uint32_t k = 0; k < n; ++k) {
    const float *a = d->vertices + 3u * ix[k], *b = d->vertices + 3u * ix[(k + 1) % n];
    if (a[0] == b[0] && a[2] == b[2]) {
      return lb_fail(w, LB_ERR_DEGENERATE, "navmesh '%s': polygon %u edge %u has zero length in XZ",
                     name, p, k);
    }
    for (uint32_t j = 0; j < n; ++j) {
      if (j != k && j != (k + 1) % n && nav_tri_area_2d(a, b, d->vertices + 3u * ix[j]) < 0.0f) {
        return lb_fail(w, LB_ERR_DEGENERATE,
                       "navmesh '%s': polygon %u is not convex or winds clockwise seen from "
                       "above (vertex %u is outside edge %u)",
                       name, p, j, k);
      }
    }
    if (k >= 1 && k + 1 < n) {
      area += nav_tri_area_2d(d->vertices + 3u * ix[0], a, b);
    }
  }
  if (!(area > 0.0f)) {
    return lb_fail(w, LB_ERR_DEGENERATE, "navmesh '%s': polygon %u has no area in XZ", name, p);
  }
  return LB_OK;
}

/* Everything the header promises to refuse, with the polygon and edge named. */
static lb_result nav_check(lb_world *w, const char *name, const lb_navmesh_def *d,
                           uint32_t *out_edges) {
  if (!d->vertices || !d->counts || !d->indices || !d->neighbours) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                   "navmesh '%s': null vertices, counts, indices or neighbours", name);
  }
  if (d->vertex_count < 3 || d->polygon_count == 0 || d->polygon_count > LB_NAV_MAX_POLYGONS ||
      d->vertex_count > LB_NAV_MAX_POLYGONS * LB_NAV_MAX_POLY_VERTS) {
    return lb_fail(
        w, LB_ERR_OUT_OF_RANGE,
        "navmesh '%s': %u vertices and %u polygons (needs >= 3 vertices and 1..%u polygons)", name,
        d->vertex_count, d->polygon_count, LB_NAV_MAX_POLYGONS);
  }
  lb_result r = nav_check_vertices(w, name, d);
  if (r != LB_OK) {
    return r;
  }
  uint32_t edges = 0;
  for (uint32_t p = 0; p < d->polygon_count; ++p) {
    uint32_t n = d->counts[p];
    if (n < 3 || n > LB_NAV_MAX_POLY_VERTS) {
      return lb_fail(w, LB_ERR_OUT_OF_RANGE, "navmesh '%s': polygon %u has %u vertices (3..%u)",
                     name, p, n, LB_NAV_MAX_POLY_VERTS);
    }
    r = nav_check_polygon(w, name, d, p, d->indices + edges, n);
    if (r != LB_OK) {
      return r;
    }
    edges += n;
  }
  /* Where each polygon's edges start, for the adjacency checks (freed below). */
  uint32_t *first = lb_alloc_array(w, d->polygon_count, sizeof(uint32_t));
  if (!first) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "navmesh '%s': out of memory", name);
  }
  for (uint32_t p = 0, e = 0; p < d->polygon_count; e += d->counts[p], ++p) {
    first[p] = e;
  }
  r = nav_check_adjacency(w, name, d, first);
  lb_free(w, first);
  if (r == LB_OK) {
    *out_edges = edges;
  }
  return r;
}

static lb_result nav_check_adjacency(lb_world *w, const char *name, const lb_navmesh_def *d,
                                     const uint32_t *first) {
  for (uint32_t p = 0; p < d->polygon_count; ++p) {
    uint32_t n = d->counts[p], e = first[p];
    for (uint32_t k = 0; k < n; ++k) {
      int32_t q = d->neighbours[e + k];
      if (q == LB_NAV_NO_NEIGHBOUR) {
        continue;
      }
      if (q < 0 || (uint32_t)q >= d->polygon_count) {
        return lb_fail(w, LB_ERR_OUT_OF_RANGE,
                       "navmesh '%s': polygon %u edge %u names neighbour %d of %u polygons", name,
                       p, k, q, d->polygon_count);
      }
      if ((uint32_t)q == p) {
        return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                       "navmesh '%s': polygon %u edge %u names the polygon itself as neighbour",
                       name, p, k);
      }
      uint32_t va = d->indices[e + k], vb = d->indices[e + (k + 1) % n];
      uint32_t qe = first[q];
      uint32_t qn = d->counts[q];
      bool shared = false, back = false;
      for (uint32_t j = 0; j < qn; ++j) {
        if (d->indices[qe + j] == vb && d->indices[qe + (j + 1) % qn] == va) {
          shared = true;
          back = d->neighbours[qe + j] == (int32_t)p;
        }
      }
      if (!shared) {
        return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                       "navmesh '%s': polygon %u edge %u (vertices %u-%u) names neighbour %d, "
                       "which has no edge %u-%u",
                       name, p, k, va, vb, q, vb, va);
      }
      if (!back) {
        return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                       "navmesh '%s': adjacency is not symmetric: polygon %u edge %u names %d, but "
                       "polygon %d's edge %u-%u does not name %u",
                       name, p, k, q, q, vb, va, p);
      }
    }
  }
  return LB_OK;
}

static uint32_t nav_grid_cell_of(float x, float origin, float cell, uint32_t n) {
  float f = (x - origin) / cell;
  if (!(f > 0.0f)) {
    return 0;
  }
  return f >= (float)n ? n - 1u : (uint32_t)f;
}

/* The nearest-polygon grid: about one cell per polygon, square cells over the XZ bounds. */
static bool nav_grid_build(lb_world *w, lb_navmesh *m) {
  float sx = m->bounds_max[0] - m->bounds_min[0], sz = m->bounds_max[2] - m->bounds_min[2];
  float side = sx > sz ? sx : sz;
  float cell = lb_sqrt((sx * sz) / (float)m->polygon_count);
  if (!(cell < side)) {
    cell = side > 0.0f ? side : 1.0f;
  }
  if (!(cell > side / 1024.0f)) {
    cell = side / 1024.0f; /* at most 1024 cells a side */
  }
  if (!(cell > 0.0f)) {
    cell = 1.0f;
  }
  m->grid_origin[0] = m->bounds_min[0];
  m->grid_origin[1] = m->bounds_min[2];
  size_t cells = 0, refs = 0;
  /* Coarser cells while big polygons over many small cells would make the lists much longer
   * than the mesh (a few large floor polygons among many small ones). */
  for (;;) {
    m->grid_cell = cell;
    m->grid_nx = (uint32_t)(sx / cell) + 1u;
    m->grid_nz = (uint32_t)(sz / cell) + 1u;
    cells = (size_t)m->grid_nx * m->grid_nz;
    refs = 0;
    for (uint32_t p = 0; p < m->polygon_count; ++p) {
      const float *lo = m->poly_min + 2u * p, *hi = m->poly_max + 2u * p;
      size_t nx = nav_grid_cell_of(hi[0], m->grid_origin[0], cell, m->grid_nx) -
                  nav_grid_cell_of(lo[0], m->grid_origin[0], cell, m->grid_nx) + 1u;
      size_t nz = nav_grid_cell_of(hi[1], m->grid_origin[1], cell, m->grid_nz) -
                  nav_grid_cell_of(lo[1], m->grid_origin[1], cell, m->grid_nz) + 1u;
      refs += nx * nz;
    }
    if (refs <= 8u * ((size_t)m->polygon_count + cells) || cells == 1u) {
      break;
    }
    cell *= 2.0f;
  }
  m->grid_start = lb_alloc_array(w, cells + 1u + refs, sizeof(uint32_t));
  if (!m->grid_start) {
    return false;
  }
  m->grid_items = m->grid_start + cells + 1u;
  /* count per cell, prefix sums, then fill in polygon order (each cell's list ascends) */
  for (int pass = 0; pass < 2; ++pass) {
    for (uint32_t p = 0; p < m->polygon_count; ++p) {
      const float *lo = m->poly_min + 2u * p, *hi = m->poly_max + 2u * p;
      uint32_t x0 = nav_grid_cell_of(lo[0], m->grid_origin[0], cell, m->grid_nx);
      uint32_t x1 = nav_grid_cell_of(hi[0], m->grid_origin[0], cell, m->grid_nx);
      uint32_t z0 = nav_grid_cell_of(lo[1], m->grid_origin[1], cell, m->grid_nz);
      uint32_t z1 = nav_grid_cell_of(hi[1], m->grid_origin[1], cell, m->grid_nz);
      for (uint32_t z = z0; z <= z1; ++z) {
        for (uint32_t x = x0; x <= x1; ++x) {
          size_t c = (size_t)z * m->grid_nx + x;
          if (pass == 0) {
            m->grid_start[c + 1u]++;
          } else {
            m->grid_items[m->grid_start[c]++] = p;
          }
        }
      }
    }
    if (pass == 0) {
      for (size_t c = 0; c < cells; ++c) {
        m->grid_start[c + 1u] += m->grid_start[c];
      }
    } else {
      /* filling advanced each start to the next cell's: shift back */
      for (size_t c = cells; c > 0; --c) {
        m->grid_start[c] = m->grid_start[c - 1u];
      }
      m->grid_start[0] = 0;
    }
  }
  return true;
}

/* Bytes of one part of the block, rounded to 16 so every array stays aligned. */
static size_t nav_part(size_t count, size_t size) {
  return (count * size + 15u) & ~(size_t)15u;
}

/* Bytes of one worker's query scratch for P polygons (lb_navmesh's node_*, heap, corridor,
 * seen arrays). */
static size_t nav_scratch_bytes(size_t P) {
  return nav_part(P, sizeof(uint32_t)) + nav_part(P, 1) + 2u * nav_part(P, sizeof(uint32_t)) +
         2u * nav_part(P, sizeof(float)) + nav_part(P * 3u, sizeof(float)) +
         3u * nav_part(P, sizeof(uint32_t));
}

/* The block holding a mesh of P polygons, V vertices and `edges` edges: the header, the
 * def's arrays, the polygons' boxes and the path search's scratch; then, for each worker past
 * the first, a header of its own and its scratch (lb_navmesh.workers). */
static size_t nav_block_bytes(size_t P, size_t V, size_t edges, size_t threads) {
  return nav_part(1, sizeof(lb_navmesh)) + nav_part(V * 3u, sizeof(float)) + nav_part(P, 1) +
         nav_part(P, sizeof(uint32_t)) + nav_part(edges, sizeof(uint32_t)) +
         nav_part(edges, sizeof(int32_t)) + 2u * nav_part(P * 2u, sizeof(float)) +
         nav_part(P, sizeof(uint32_t)) + nav_scratch_bytes(P) +
         (threads - 1u) * (nav_part(1, sizeof(lb_navmesh)) + nav_scratch_bytes(P));
}

#define LB_NAV_TAKE_(ptr, count, type)                                                             \
  do {                                                                                             \
    (ptr) = (type *)(void *)*at;                                                                   \
    *at += nav_part((count), sizeof(type));                                                        \
  } while (0)

/* One worker's scratch arrays at *at, in nav_scratch_bytes' order. */
static void nav_place_scratch(lb_navmesh *m, uint8_t **at, size_t P) {
  LB_NAV_TAKE_(m->node_stamp, P, uint32_t);
  LB_NAV_TAKE_(m->node_flags, P, uint8_t);
  LB_NAV_TAKE_(m->node_parent, P, uint32_t);
  LB_NAV_TAKE_(m->node_heap, P, uint32_t);
  LB_NAV_TAKE_(m->node_g, P, float);
  LB_NAV_TAKE_(m->node_f, P, float);
  LB_NAV_TAKE_(m->node_pos, P * 3u, float);
  LB_NAV_TAKE_(m->heap, P, uint32_t);
  LB_NAV_TAKE_(m->corridor, P, uint32_t);
  LB_NAV_TAKE_(m->seen, P, uint32_t);
}

/* The mesh header at the block's start and its arrays after it, in nav_block_bytes' order
 * (the workers' headers are made by nav_place_workers once the mesh is complete). */
static lb_navmesh *nav_place(uint8_t *block, size_t P, size_t V, size_t edges) {
  lb_navmesh *m = (lb_navmesh *)block;
  uint8_t *cursor = block + nav_part(1, sizeof(lb_navmesh));
  uint8_t **at = &cursor;
  LB_NAV_TAKE_(m->vertices, V * 3u, float);
  LB_NAV_TAKE_(m->counts, P, uint8_t);
  LB_NAV_TAKE_(m->first, P, uint32_t);
  LB_NAV_TAKE_(m->indices, edges, uint32_t);
  LB_NAV_TAKE_(m->neighbours, edges, int32_t);
  LB_NAV_TAKE_(m->poly_min, P * 2u, float);
  LB_NAV_TAKE_(m->poly_max, P * 2u, float);
  nav_place_scratch(m, at, P);
  m->workers = (lb_navmesh *)(void *)cursor;
  return m;
}
#undef LB_NAV_TAKE_

/* Worker k >= 1 queries the mesh through a copy of its header (the geometry's pointers, the
 * same arrays) with scratch of its own, so agents on several threads search at once. */
static void nav_place_workers(lb_navmesh *m, size_t threads) {
  size_t P = m->polygon_count;
  uint8_t *cursor = (uint8_t *)m->workers + (threads - 1u) * nav_part(1, sizeof(lb_navmesh));
  for (size_t k = 0; k + 1u < threads; ++k) {
    lb_navmesh *v = &m->workers[k];
    *v = *m;
    v->workers = NULL;
    nav_place_scratch(v, &cursor, P);
  }
}

/* The mesh's bounds, and per polygon its first edge, XZ box and portals. */
static void nav_bounds(lb_navmesh *m) {
  for (int c = 0; c < 3; ++c) {
    m->bounds_min[c] = m->bounds_max[c] = m->vertices[c];
  }
  for (uint32_t v = 0; v < m->vertex_count; ++v) {
    for (int c = 0; c < 3; ++c) {
      float x = m->vertices[3u * v + (uint32_t)c];
      m->bounds_min[c] = x < m->bounds_min[c] ? x : m->bounds_min[c];
      m->bounds_max[c] = x > m->bounds_max[c] ? x : m->bounds_max[c];
    }
  }
  uint32_t e = 0;
  for (uint32_t p = 0; p < m->polygon_count; ++p) {
    m->first[p] = e;
    float *lo = m->poly_min + 2u * p, *hi = m->poly_max + 2u * p;
    for (uint32_t k = 0; k < m->counts[p]; ++k) {
      const float *v = m->vertices + 3u * m->indices[e + k];
      lo[0] = k == 0 || v[0] < lo[0] ? v[0] : lo[0];
      lo[1] = k == 0 || v[2] < lo[1] ? v[2] : lo[1];
      hi[0] = k == 0 || v[0] > hi[0] ? v[0] : hi[0];
      hi[1] = k == 0 || v[2] > hi[1] ? v[2] : hi[1];
      m->portal_count += m->neighbours[e + k] >= 0 ? 1u : 0u;
    }
    e += m->counts[p];
  }
}

lb_result lb_world_add_navmesh(lb_world *w, const char *name, const lb_navmesh_def *def,
                               uint32_t *out_mesh) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!def || !out_mesh) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "add_navmesh: null def or out_mesh");
  }
  if (!nav_name_ok(name)) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "add_navmesh: name must be 1..%d bytes",
                   LB_NAV_NAME_MAX - 1);
  }
  uint32_t edges = 0;
  lb_result r = nav_check(w, name, def, &edges);
  if (r != LB_OK) {
    return r;
  }
  lb_nav_world *nw = nav_world_of(w);
  if (lb_array_reserve(&w->allocator, (void **)&nw->meshes, &nw->mesh_capacity, nw->mesh_count,
                       nw->mesh_count + 1u, sizeof(lb_navmesh *), 4u) != LB_OK) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "add_navmesh '%s': out of memory", name);
  }
  size_t P = def->polygon_count, V = def->vertex_count;
  size_t threads = w->threads;
  size_t bytes = nav_block_bytes(P, V, edges, threads);
  uint8_t *block = lb_alloc(w, bytes);
  if (!block) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "add_navmesh '%s': out of memory (%zu bytes)", name,
                   bytes);
  }
  lb_navmesh *m = nav_place(block, P, V, edges);
  memcpy(m->name, name, strlen(name) + 1u);
  m->goal_count = m->goal_next = 0;
  m->vertex_count = (uint32_t)V;
  m->polygon_count = (uint32_t)P;
  m->edge_count = edges;
  memcpy(m->vertices, def->vertices, V * 3u * sizeof(float));
  memcpy(m->counts, def->counts, P);
  memcpy(m->indices, def->indices, edges * sizeof(uint32_t));
  memcpy(m->neighbours, def->neighbours, edges * sizeof(int32_t));
  nav_bounds(m);
  if (!nav_grid_build(w, m)) {
    lb_free(w, block);
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "add_navmesh '%s': out of memory (search grid)", name);
  }
  nav_place_workers(m, threads);
  nw->meshes[nw->mesh_count++] = m;
  *out_mesh = nw->mesh_count;
  return LB_OK;
}

uint32_t lb_world_navmesh_find(const lb_world *w, const char *name) {
  if (!w || !name) {
    return 0;
  }
  const lb_nav_world *nw = nav_world_of(w);
  for (uint32_t i = 0; i < nw->mesh_count; ++i) {
    if (nw->meshes[i] && strcmp(nw->meshes[i]->name, name) == 0) {
      return i + 1u;
    }
  }
  return 0;
}

lb_result lb_world_navmesh_info(const lb_world *w, uint32_t mesh, lb_navmesh_info *out) {
  if (!w || !out) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  const lb_navmesh *m = lb_navmesh_get(w, mesh);
  if (!m) {
    return lb_fail((lb_world *)w, LB_ERR_INVALID_ARGUMENT,
                   "navmesh_info: navmesh %u does not exist", mesh);
  }
  out->vertex_count = m->vertex_count;
  out->polygon_count = m->polygon_count;
  out->edge_count = m->edge_count;
  out->portal_count = m->portal_count;
  memcpy(out->bounds_min, m->bounds_min, sizeof out->bounds_min);
  memcpy(out->bounds_max, m->bounds_max, sizeof out->bounds_max);
  return LB_OK;
}

/* ---- JSON ------------------------------------------------------------------------------------ */

typedef struct nav_json {
  float *vertices;
  uint8_t *counts;
  uint32_t *indices;
  int32_t *neighbours;
} nav_json;

static bool nav_json_int(const cJSON *v, double lo, double hi, int64_t *out) {
  if (!cJSON_IsNumber(v)) {
    return false;
  }
  double d = v->valuedouble;
  if (!(d >= lo && d <= hi) || (double)(int64_t)d != d) {
    return false;
  }
  *out = (int64_t)d;
  return true;
}

/* The vertices array: nv entries of [x, y, z] numbers. */
static lb_result nav_json_vertices(lb_world *w, const char *name, const cJSON *verts,
                                   nav_json *buf) {
  int i = 0;
  for (const cJSON *v = verts->child; v; v = v->next, ++i) {
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 3) {
      return lb_fail(w, LB_ERR_PARSE, "navmesh '%s': vertices[%d] must be [x, y, z]", name, i);
    }
    int c = 0;
    for (const cJSON *x = v->child; x; x = x->next, ++c) {
      if (!cJSON_IsNumber(x)) {
        return lb_fail(w, LB_ERR_PARSE, "navmesh '%s': vertices[%d][%d] must be a number", name, i,
                       c);
      }
      buf->vertices[3 * i + c] = (float)x->valuedouble;
    }
  }
  return LB_OK;
}

/* The polygons and their neighbour lists, side by side: 3..LB_NAV_MAX_POLY_VERTS vertex
 * indices each, one neighbour (a polygon index or -1) per edge. */
static lb_result nav_json_polygons(lb_world *w, const char *name, const cJSON *polys,
                                   const cJSON *neis, nav_json *buf) {
  uint32_t e = 0;
  int i = 0;
  for (const cJSON *p = polys->child, *q = neis->child; p && q; p = p->next, q = q->next, ++i) {
    int n = cJSON_IsArray(p) ? cJSON_GetArraySize(p) : -1;
    if (n < 3 || n > (int)LB_NAV_MAX_POLY_VERTS) {
      return lb_fail(w, LB_ERR_PARSE,
                     "navmesh '%s': polygons[%d] must be an array of 3..%u vertex indices", name, i,
                     LB_NAV_MAX_POLY_VERTS);
    }
    if (!cJSON_IsArray(q) || cJSON_GetArraySize(q) != n) {
      return lb_fail(w, LB_ERR_PARSE,
                     "navmesh '%s': neighbours[%d] must hold one entry per edge (%d)", name, i, n);
    }
    buf->counts[i] = (uint8_t)n;
    int k = 0;
    for (const cJSON *a = p->child, *b = q->child; a && b; a = a->next, b = b->next, ++k) {
      int64_t vi = 0, ni = 0;
      if (!nav_json_int(a, 0, 4294967294.0, &vi)) {
        return lb_fail(w, LB_ERR_PARSE, "navmesh '%s': polygons[%d][%d] must be a vertex index",
                       name, i, k);
      }
      if (!nav_json_int(b, -1, 2147483647.0, &ni)) {
        return lb_fail(w, LB_ERR_PARSE,
                       "navmesh '%s': neighbours[%d][%d] must be a polygon index or -1", name, i,
                       k);
      }
      buf->indices[e + (uint32_t)k] = (uint32_t)vi;
      buf->neighbours[e + (uint32_t)k] = (int32_t)ni;
    }
    e += (uint32_t)n;
  }
  return LB_OK;
}

static lb_result nav_from_json(lb_world *w, const char *name, const cJSON *root, nav_json *buf,
                               lb_navmesh_def *def) {
  if (!cJSON_IsObject(root)) {
    return lb_fail(w, LB_ERR_PARSE, "navmesh '%s': the JSON must be an object", name);
  }
  const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
  const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "version");
  if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, "limber-navmesh") != 0 ||
      !cJSON_IsNumber(ver) || ver->valuedouble != 1.0) {
    return lb_fail(w, LB_ERR_PARSE,
                   "navmesh '%s': needs \"format\": \"limber-navmesh\" and \"version\": 1", name);
  }
  const cJSON *verts = cJSON_GetObjectItemCaseSensitive(root, "vertices");
  const cJSON *polys = cJSON_GetObjectItemCaseSensitive(root, "polygons");
  const cJSON *neis = cJSON_GetObjectItemCaseSensitive(root, "neighbours");
  if (!cJSON_IsArray(verts) || !cJSON_IsArray(polys) || !cJSON_IsArray(neis)) {
    return lb_fail(w, LB_ERR_PARSE,
                   "navmesh '%s': 'vertices', 'polygons' and 'neighbours' must be arrays", name);
  }
  int nv = cJSON_GetArraySize(verts), np = cJSON_GetArraySize(polys);
  if (cJSON_GetArraySize(neis) != np) {
    return lb_fail(w, LB_ERR_PARSE, "navmesh '%s': %d polygons but %d neighbour lists", name, np,
                   cJSON_GetArraySize(neis));
  }
  if (nv < 3 || np < 1 || (uint32_t)np > LB_NAV_MAX_POLYGONS ||
      (uint32_t)nv > LB_NAV_MAX_POLYGONS * LB_NAV_MAX_POLY_VERTS) {
    return lb_fail(
        w, LB_ERR_OUT_OF_RANGE,
        "navmesh '%s': %d vertices and %d polygons (needs >= 3 vertices and 1..%u polygons)", name,
        nv, np, LB_NAV_MAX_POLYGONS);
  }
  buf->vertices = lb_alloc_array(w, (size_t)nv * 3u, sizeof(float));
  buf->counts = lb_alloc_array(w, (size_t)np, 1);
  buf->indices = lb_alloc_array(w, (size_t)np * LB_NAV_MAX_POLY_VERTS, sizeof(uint32_t));
  buf->neighbours = lb_alloc_array(w, (size_t)np * LB_NAV_MAX_POLY_VERTS, sizeof(int32_t));
  if (!buf->vertices || !buf->counts || !buf->indices || !buf->neighbours) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "navmesh '%s': out of memory", name);
  }
  lb_result r = nav_json_vertices(w, name, verts, buf);
  if (r == LB_OK) {
    r = nav_json_polygons(w, name, polys, neis, buf);
  }
  if (r != LB_OK) {
    return r;
  }
  memset(def, 0, sizeof *def);
  def->vertices = buf->vertices;
  def->vertex_count = (uint32_t)nv;
  def->counts = buf->counts;
  def->indices = buf->indices;
  def->neighbours = buf->neighbours;
  def->polygon_count = (uint32_t)np;
  return LB_OK;
}

lb_result lb_world_add_navmesh_json(lb_world *w, const char *name, const char *json, size_t len,
                                    uint32_t *out_mesh) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!json || !out_mesh) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "add_navmesh_json: null json or out_mesh");
  }
  if (!nav_name_ok(name)) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "add_navmesh_json: name must be 1..%d bytes",
                   LB_NAV_NAME_MAX - 1);
  }
  lb_json_error jerr;
  cJSON *root = lb_json_parse(json, len, &jerr);
  if (!root) {
    return lb_fail(w, LB_ERR_PARSE, "navmesh '%s': %s", name, jerr.what);
  }
  nav_json buf;
  memset(&buf, 0, sizeof buf);
  lb_navmesh_def def;
  lb_result r = nav_from_json(w, name, root, &buf, &def);
  cJSON_Delete(root);
  if (r == LB_OK) {
    r = lb_world_add_navmesh(w, name, &def, out_mesh);
  }
  lb_free(w, buf.vertices);
  lb_free(w, buf.counts);
  lb_free(w, buf.indices);
  lb_free(w, buf.neighbours);
  return r;
}
