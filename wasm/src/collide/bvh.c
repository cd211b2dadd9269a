/* Bounding-volume hierarchy: a top-down median split on the longest centroid axis. A median
 * split keeps the tree balanced (depth <= log2(n / leaf size) + 1) whatever the input, so
 * traversal stacks have a fixed size; sorting with the item id as the tie-breaker makes the
 * tree (and the order a traversal meets items) the same on every platform. */
#include "collide_internal.h"

static bool cl_less(const float *cen, int axis, uint32_t a, uint32_t b) {
  float ka = cen[3u * a + (uint32_t)axis], kb = cen[3u * b + (uint32_t)axis];
  return ka < kb || (ka == kb && a < b);
}

/* In-place heapsort: no allocation, no recursion, O(n log n) in the worst case. */
static void cl_sort(uint32_t *v, uint32_t n, const float *cen, int axis) {
  if (n < 2) {
    return;
  }
  for (uint32_t start = n / 2; start-- > 0;) {
    for (uint32_t root = start;;) {
      uint32_t child = 2u * root + 1u;
      if (child >= n) {
        break;
      }
      if (child + 1u < n && cl_less(cen, axis, v[child], v[child + 1u])) {
        child++;
      }
      if (!cl_less(cen, axis, v[root], v[child])) {
        break;
      }
      uint32_t t = v[root];
      v[root] = v[child];
      v[child] = t;
      root = child;
    }
  }
  for (uint32_t end = n - 1u; end > 0; --end) {
    uint32_t t = v[0];
    v[0] = v[end];
    v[end] = t;
    for (uint32_t root = 0;;) {
      uint32_t child = 2u * root + 1u;
      if (child >= end) {
        break;
      }
      if (child + 1u < end && cl_less(cen, axis, v[child], v[child + 1u])) {
        child++;
      }
      if (!cl_less(cen, axis, v[root], v[child])) {
        break;
      }
      uint32_t t2 = v[root];
      v[root] = v[child];
      v[child] = t2;
      root = child;
    }
  }
}

static void cl_union_items(const cl_bvh *b, const float *lo, const float *hi, uint32_t begin,
                           uint32_t end, float *olo, float *ohi) {
  for (int k = 0; k < 3; ++k) {
    olo[k] = lo[3u * b->items[begin] + (uint32_t)k];
    ohi[k] = hi[3u * b->items[begin] + (uint32_t)k];
  }
  for (uint32_t i = begin + 1u; i < end; ++i) {
    uint32_t it = b->items[i];
    for (int k = 0; k < 3; ++k) {
      olo[k] = cl_minf(olo[k], lo[3u * it + (uint32_t)k]);
      ohi[k] = cl_maxf(ohi[k], hi[3u * it + (uint32_t)k]);
    }
  }
}

static int32_t cl_build_range(cl_bvh *b, const float *lo, const float *hi, const float *cen,
                              uint32_t begin, uint32_t end, int32_t parent) {
  int32_t idx = (int32_t)b->node_count++;
  cl_node *nd = &b->nodes[idx];
  nd->parent = parent;
  cl_union_items(b, lo, hi, begin, end, nd->lo, nd->hi);
  if (end - begin <= CL_LEAF_ITEMS) {
    nd->a = (int32_t)begin;
    nd->n = (int32_t)(end - begin);
    return idx;
  }
  float clo[3], chi[3];
  for (int k = 0; k < 3; ++k) {
    clo[k] = chi[k] = cen[3u * b->items[begin] + (uint32_t)k];
  }
  for (uint32_t i = begin + 1u; i < end; ++i) {
    for (int k = 0; k < 3; ++k) {
      float c = cen[3u * b->items[i] + (uint32_t)k];
      clo[k] = cl_minf(clo[k], c);
      chi[k] = cl_maxf(chi[k], c);
    }
  }
  int axis = 0;
  for (int k = 1; k < 3; ++k) {
    if (chi[k] - clo[k] > chi[axis] - clo[axis]) {
      axis = k;
    }
  }
  cl_sort(b->items + begin, end - begin, cen, axis);
  uint32_t mid = begin + (end - begin) / 2u;
  nd->n = 0;
  cl_build_range(b, lo, hi, cen, begin, mid, idx);
  int32_t right = cl_build_range(b, lo, hi, cen, mid, end, idx);
  nd->a = right; /* the node array is preallocated: nd stays valid */
  return idx;
}

void cl_bvh_build(cl_bvh *b, const float *lo, const float *hi, float *centroid, uint32_t count) {
  b->node_count = 0;
  b->item_count = count;
  if (count == 0) {
    return;
  }
  for (uint32_t i = 0; i < count; ++i) {
    b->items[i] = i;
    for (uint32_t k = 0; k < 3; ++k) {
      centroid[3u * i + k] = 0.5f * lo[3u * i + k] + 0.5f * hi[3u * i + k];
    }
  }
  cl_build_range(b, lo, hi, centroid, 0, count, -1);
}

void cl_bvh_refit_leaf(cl_bvh *b, int32_t leaf, const float *lo, const float *hi) {
  cl_node *nd = &b->nodes[leaf];
  cl_union_items(b, lo, hi, (uint32_t)nd->a, (uint32_t)(nd->a + nd->n), nd->lo, nd->hi);
  for (int32_t p = nd->parent; p >= 0; p = b->nodes[p].parent) {
    cl_node *pn = &b->nodes[p];
    const cl_node *l = &b->nodes[p + 1], *r = &b->nodes[pn->a];
    for (int k = 0; k < 3; ++k) {
      pn->lo[k] = cl_minf(l->lo[k], r->lo[k]);
      pn->hi[k] = cl_maxf(l->hi[k], r->hi[k]);
    }
  }
}

void cl_bvh_leaf_of(const cl_bvh *b, int32_t *out) {
  for (uint32_t i = 0; i < b->node_count; ++i) {
    const cl_node *nd = &b->nodes[i];
    for (int32_t k = 0; k < nd->n; ++k) {
      out[b->items[nd->a + k]] = (int32_t)i;
    }
  }
}

float cl_box_dist2(const float *p, const float *lo, const float *hi) {
  float d2 = 0.0f;
  for (int k = 0; k < 3; ++k) {
    float e = p[k] < lo[k] ? lo[k] - p[k] : (p[k] > hi[k] ? p[k] - hi[k] : 0.0f);
    d2 += e * e;
  }
  return d2;
}
