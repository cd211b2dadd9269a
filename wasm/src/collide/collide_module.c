/* Module "collide": the Collider component (validation, proxies), mesh asset marks, and the
 * systems that keep the collider hierarchy current (after the Model phase, and again after
 * the Grip phase moved held objects). */
#include "../modules.h"
#include "collide_internal.h"

#include <string.h>

#define LB_SCHEMA_STRUCT lb_collider_c
LB_COMPONENT_INFO(cl_collider_info, "Collider", LB_COLLIDER_FIELDS);
#undef LB_SCHEMA_STRUCT

cl_world *cl_state(const lb_world *w) {
  return (cl_world *)lb_world_module_state(w, LB_MODULE_collide);
}

static lb_shape_def cl_def_of(const lb_collider_c *c) {
  lb_shape_def d = lb_shape_default_def();
  d.type = c->shape < LB_COLLIDER_MESH ? (lb_shape_type)c->shape : LB_SHAPE_BOX;
  d.direction = (lb_axis)c->direction;
  memcpy(d.center, c->center, sizeof d.center);
  d.radius = c->radius;
  d.height = c->height;
  memcpy(d.size, c->size, sizeof d.size);
  return d;
}

lb_result cl_reserve(lb_world *w, cl_world *cw, uint32_t n) {
  if (n <= cw->cap) {
    return LB_OK;
  }
  uint32_t cap = cw->cap ? cw->cap : 16u;
  while (cap < n) {
    cap *= 2u;
  }
  uint32_t *slots = lb_alloc_array(w, cap, sizeof(uint32_t));
  uint32_t *items = lb_alloc_array(w, cap, sizeof(uint32_t));
  float *lo = lb_alloc_array(w, 3u * (size_t)cap, sizeof(float));
  float *hi = lb_alloc_array(w, 3u * (size_t)cap, sizeof(float));
  float *cen = lb_alloc_array(w, 3u * (size_t)cap, sizeof(float));
  cl_node *nodes = lb_alloc_array(w, 2u * (size_t)cap, sizeof(cl_node));
  if (!slots || !items || !lo || !hi || !cen || !nodes) {
    lb_free(w, slots);
    lb_free(w, items);
    lb_free(w, lo);
    lb_free(w, hi);
    lb_free(w, cen);
    lb_free(w, nodes);
    return LB_ERR_OUT_OF_MEMORY;
  }
  lb_free(w, cw->slots);
  lb_free(w, cw->tree.items);
  lb_free(w, cw->lo);
  lb_free(w, cw->hi);
  lb_free(w, cw->centroid);
  lb_free(w, cw->tree.nodes);
  cw->slots = slots;
  cw->tree.items = items;
  cw->lo = lo;
  cw->hi = hi;
  cw->centroid = cen;
  cw->tree.nodes = nodes;
  cw->tree.node_count = cw->tree.item_count = 0;
  cw->cap = cap;
  cw->rebuild = true; /* the old tree went with its arrays */
  return LB_OK;
}

static lb_result cl_collider_stage(lb_write *wr) {
  lb_world *w = wr->world;
  const lb_collider_c *c = wr->value;
  cl_world *cw = cl_state(w);
  if (c->shape == LB_COLLIDER_MESH) {
    if (!cl_mesh_get(cw, c->mesh)) {
      return lb_fail(w, c->mesh ? LB_ERR_UNKNOWN_NAME : LB_ERR_INVALID_ARGUMENT,
                     "%s: field 'mesh' = %u is not a mesh asset of this world (shape Mesh needs "
                     "one from lb_world_add_mesh or a level)",
                     wr->where, c->mesh);
    }
  } else {
    lb_shape_def d = cl_def_of(c);
    const char *field = NULL;
    lb_result r = lb_shape_check(&d, &field);
    if (r != LB_OK) {
      const char *why = field && strcmp(field, "height") == 0 && d.type == LB_SHAPE_CAPSULE &&
                                d.height < 2.0f * d.radius
                            ? " (a capsule's height includes its caps: at least 2 * radius)"
                            : " (sizes must be finite and > 0)";
      return lb_fail(w, r, "%s: field '%s' is degenerate for a %s%s", wr->where,
                     field ? field : "shape",
                     d.type == LB_SHAPE_CAPSULE    ? "Capsule"
                     : d.type == LB_SHAPE_CYLINDER ? "Cylinder"
                     : d.type == LB_SHAPE_SPHERE   ? "Sphere"
                                                   : "Box",
                     why);
    }
  }
  if (!wr->had && cl_reserve(w, cw, cw->count + 1u) != LB_OK) {
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "%s: out of memory", wr->where);
  }
  return LB_OK;
}

static void cl_collider_commit(lb_write *wr, void *state) {
  cl_world *cw = cl_state(wr->world);
  const lb_collider_c *c = wr->value;
  cl_proxy *p = state;
  if (!wr->had) {
    memset(p, 0, sizeof *p);
    p->leaf = -1;
    cw->count++;
    cw->rebuild = true;
  }
  p->def = cl_def_of(c);
  p->kind = c->shape;
  p->mesh = c->shape == LB_COLLIDER_MESH ? c->mesh : 0;
  p->layer = c->layer;
  p->dirty = 1;
  cw->pending = true;
}

static void cl_collider_remove(lb_world *w, uint32_t slot, void *value, void *state) {
  (void)slot;
  (void)value;
  (void)state;
  cl_world *cw = cl_state(w);
  cw->count--;
  cw->rebuild = true;
}

/* A Transform written (or its parent despawned): every collider below it moves. */
static void cl_changed(lb_world *w, uint32_t type, uint32_t slot) {
  cl_world *cw = cl_state(w);
  if (type != LB_TRANSFORM || cw->count == 0) {
    return;
  }
  uint32_t n = lb_world_subtree(w, slot, w->xf_stack, w->capacity);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t s = w->xf_stack[i];
    if (lb_slot_has(w, s, LB_COLLIDER)) {
      cl_proxy_of(w, s)->dirty = 1;
      cw->pending = true;
    }
  }
}

/* After the Model phase: world transforms are current for every slot. */
static void cl_system_refit(lb_world *w, float dt) {
  (void)dt;
  cl_sync(w, true);
}

static void cl_asset_mark(const lb_world *w, const void *state, lb_asset_mark *out) {
  (void)w;
  out->count[0] = ((const cl_world *)state)->mesh_count;
}

static void cl_asset_rollback(lb_world *w, void *state, const lb_asset_mark *mark) {
  cl_meshes_release(w, state, mark->count[0]);
}

static lb_result cl_asset_reserve(lb_world *w, void *state, const lb_asset_mark *upto) {
  return cl_meshes_reserve(w, state, upto->count[0]);
}

static bool cl_asset_in_use(const lb_world *w, const void *state, const lb_asset_mark *mark) {
  (void)state;
  uint32_t s;
  for (lb_each it = lb_each_begin(w, LB_COLLIDER); lb_each_next(&it, &s);) {
    if (cl_proxy_of(w, s)->mesh > mark->count[0]) {
      return true;
    }
  }
  return false;
}

static void cl_release(lb_world *w, void *state) {
  cl_world *cw = state;
  cl_meshes_release(w, cw, 0);
  lb_free(w, cw->meshes);
  lb_free(w, cw->slots);
  lb_free(w, cw->tree.items);
  lb_free(w, cw->tree.nodes);
  lb_free(w, cw->lo);
  lb_free(w, cw->hi);
  lb_free(w, cw->centroid);
  memset(cw, 0, sizeof *cw);
}

static const lb_component_def cl_components[] = {
    {.type = LB_COLLIDER,
     .info = &cl_collider_info,
     .state_size = sizeof(cl_proxy),
     .stage = cl_collider_stage,
     .commit = cl_collider_commit,
     .remove = cl_collider_remove},
};

static const lb_system_def cl_systems[] = {
    {LB_PHASE_MODEL, 200, "collide.refit", cl_system_refit},
    /* Held objects are placed in the Grip phase: their colliders follow before the step
     * ends, so queries between steps see where everything was drawn. */
    {LB_PHASE_OUTPUT, 100, "collide.refit_late", cl_system_refit},
};

const lb_module_def lb_module_collide = {
    .name = "collide",
    .state_size = sizeof(cl_world),
    .release = cl_release,
    .components = cl_components,
    .component_count = 1,
    .systems = cl_systems,
    .system_count = 2,
    .asset_mark = cl_asset_mark,
    .asset_rollback = cl_asset_rollback,
    .asset_reserve = cl_asset_reserve,
    .asset_in_use = cl_asset_in_use,
    .changed = cl_changed,
};
