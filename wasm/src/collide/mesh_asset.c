/* Triangle mesh assets: a copy of the caller's positions and indices and a static hierarchy
 * over the triangles, built once at creation (asset creation may allocate; queries not). */
#include "collide_internal.h"

#include <string.h>

lb_mesh_def lb_mesh_default_def(void) {
  lb_mesh_def d;
  memset(&d, 0, sizeof d);
  return d;
}

static void cl_mesh_free(lb_world *w, cl_mesh *m) {
  lb_free(w, m->positions);
  lb_free(w, m->indices);
  lb_free(w, m->bvh.nodes);
  lb_free(w, m->bvh.items);
  memset(m, 0, sizeof *m);
}

lb_result cl_meshes_reserve(lb_world *w, cl_world *cw, uint32_t upto) {
  if (upto <= cw->mesh_count) {
    return LB_OK;
  }
  if (upto > cw->mesh_cap) {
    cl_mesh *grown = lb_alloc_array(w, upto, sizeof(cl_mesh));
    if (!grown) {
      return LB_ERR_OUT_OF_MEMORY;
    }
    if (cw->mesh_count) {
      memcpy(grown, cw->meshes, cw->mesh_count * sizeof(cl_mesh));
    }
    lb_free(w, cw->meshes);
    cw->meshes = grown;
    cw->mesh_cap = upto;
  }
  memset(&cw->meshes[cw->mesh_count], 0, (size_t)(upto - cw->mesh_count) * sizeof(cl_mesh));
  cw->mesh_count = upto;
  return LB_OK;
}

void cl_meshes_release(lb_world *w, cl_world *cw, uint32_t keep) {
  while (cw->mesh_count > keep) {
    cl_mesh_free(w, &cw->meshes[--cw->mesh_count]);
  }
}

static lb_result cl_mesh_check(lb_world *w, const lb_mesh_def *def) {
  if (!def || !def->positions || !def->indices) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "add mesh: null %s",
                   !def ? "def" : (!def->positions ? "positions" : "indices"));
  }
  if (def->index_count == 0 || def->index_count % 3u != 0) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                   "add mesh: field 'indices': %u indices, need a positive multiple of 3 (zero "
                   "triangles is not a mesh)",
                   def->index_count);
  }
  if (def->index_count / 3u > LB_MESH_MAX_TRIANGLES) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE, "add mesh: field 'indices': %u triangles, at most %u",
                   def->index_count / 3u, LB_MESH_MAX_TRIANGLES);
  }
  if (def->vertex_count < 3u || def->vertex_count > 3u * LB_MESH_MAX_TRIANGLES) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                   "add mesh: field 'positions': %u vertices, need 3 to %u", def->vertex_count,
                   3u * LB_MESH_MAX_TRIANGLES);
  }
  for (uint32_t i = 0; i < 3u * def->vertex_count; ++i) {
    float x = def->positions[i];
    if (!lb_is_finite(x)) {
      return lb_fail(w, LB_ERR_NOT_FINITE, "add mesh: field 'positions': vertex %u is not finite",
                     i / 3u);
    }
    if (cl_absf(x) > LB_COLLIDE_MAX_EXTENT) {
      return lb_fail(w, LB_ERR_OUT_OF_RANGE,
                     "add mesh: field 'positions': vertex %u has a coordinate %g beyond %g m",
                     i / 3u, (double)x, (double)LB_COLLIDE_MAX_EXTENT);
    }
  }
  for (uint32_t i = 0; i < def->index_count; ++i) {
    if (def->indices[i] >= def->vertex_count) {
      return lb_fail(w, LB_ERR_INVALID_ARGUMENT,
                     "add mesh: field 'indices': index %u (triangle %u) = %u is out of range (%u "
                     "vertices)",
                     i, i / 3u, def->indices[i], def->vertex_count);
    }
  }
  return LB_OK;
}

lb_result lb_world_add_mesh(lb_world *w, const lb_mesh_def *def, uint32_t *out) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!out) {
    return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "add mesh: null out");
  }
  lb_result r = cl_mesh_check(w, def);
  if (r != LB_OK) {
    return r;
  }
  cl_world *cw = cl_state(w);
  if (cw->mesh_count == cw->mesh_cap) {
    uint32_t cap = cw->mesh_cap ? 2u * cw->mesh_cap : 8u;
    cl_mesh *grown = lb_alloc_array(w, cap, sizeof(cl_mesh));
    if (!grown) {
      return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "add mesh: out of memory");
    }
    if (cw->mesh_count) {
      memcpy(grown, cw->meshes, cw->mesh_count * sizeof(cl_mesh));
    }
    lb_free(w, cw->meshes);
    cw->meshes = grown;
    cw->mesh_cap = cap;
  }
  uint32_t nt = def->index_count / 3u;
  cl_mesh m;
  memset(&m, 0, sizeof m);
  m.vertex_count = def->vertex_count;
  m.triangle_count = nt;
  m.positions = lb_alloc_array(w, 3u * (size_t)def->vertex_count, sizeof(float));
  m.indices = lb_alloc_array(w, def->index_count, sizeof(uint32_t));
  m.bvh.nodes = lb_alloc_array(w, 2u * (size_t)nt, sizeof(cl_node));
  m.bvh.items = lb_alloc_array(w, nt, sizeof(uint32_t));
  float *tmp = lb_alloc_array(w, 9u * (size_t)nt, sizeof(float)); /* lo, hi, centroid */
  if (!m.positions || !m.indices || !m.bvh.nodes || !m.bvh.items || !tmp) {
    lb_free(w, tmp);
    cl_mesh_free(w, &m);
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "add mesh: out of memory (%u triangles)", nt);
  }
  memcpy(m.positions, def->positions, 3u * (size_t)def->vertex_count * sizeof(float));
  memcpy(m.indices, def->indices, def->index_count * sizeof(uint32_t));
  float *lo = tmp, *hi = tmp + 3u * (size_t)nt, *cen = tmp + 6u * (size_t)nt;
  for (uint32_t t = 0; t < nt; ++t) {
    for (uint32_t k = 0; k < 3; ++k) {
      float a = m.positions[3u * m.indices[3u * t] + k];
      float b = m.positions[3u * m.indices[3u * t + 1u] + k];
      float c = m.positions[3u * m.indices[3u * t + 2u] + k];
      lo[3u * t + k] = cl_minf(a, cl_minf(b, c));
      hi[3u * t + k] = cl_maxf(a, cl_maxf(b, c));
    }
  }
  cl_bvh_build(&m.bvh, lo, hi, cen, nt);
  for (int k = 0; k < 3; ++k) {
    m.lo[k] = m.bvh.nodes[0].lo[k];
    m.hi[k] = m.bvh.nodes[0].hi[k];
  }
  lb_free(w, tmp);
  cw->meshes[cw->mesh_count++] = m;
  *out = cw->mesh_count;
  return LB_OK;
}

uint32_t lb_world_mesh_triangle_count(const lb_world *w, uint32_t mesh) {
  const cl_mesh *m = w ? cl_mesh_get(cl_state(w), mesh) : NULL;
  return m ? m->triangle_count : 0;
}

lb_result lb_world_mesh_data(const lb_world *w, uint32_t mesh, lb_mesh_def *out) {
  const cl_mesh *m = w && out ? cl_mesh_get(cl_state(w), mesh) : NULL;
  if (!m) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  *out = lb_mesh_default_def();
  out->positions = m->positions;
  out->vertex_count = m->vertex_count;
  out->indices = m->indices;
  out->index_count = 3u * m->triangle_count;
  return LB_OK;
}
