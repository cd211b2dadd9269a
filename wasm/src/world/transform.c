/* The world core's module: the Transform component, the hierarchy links it keeps
 * (parent, children) and the Model-space system that resolves world transforms. */
#include "core_module.h"
#include "world_core.h"
#include <string.h>

#define LB_SCHEMA_STRUCT lb_transform_c
LB_COMPONENT_INFO(lb_transform_info, "Transform", LB_TRANSFORM_FIELDS);
#undef LB_SCHEMA_STRUCT

/* The module that knows the entity's joints (the rig), if any. */
static const lb_module_def *lb_joint_source(void) {
  for (uint32_t m = 0; m < lb_registry_module_count(); ++m) {
    const lb_module_def *md = lb_registry_module(m);
    if (md->joint_find && md->joint_model) {
      return md;
    }
  }
  return NULL;
}

/* World scale limits: every entity's scale multiplied along its parents stays within the
 * scale field's own range, so no chain of allowed scales leaves the float range. */
#define LB_WORLD_SCALE_MIN ((double)1e-6f) /* the field limits, as floats */
#define LB_WORLD_SCALE_MAX ((double)1e4f)

/* Scale of `slot` relative to `top` (product of the scales from slot up to, not including,
 * top; 1 per axis when slot == top). */
static void lb_relative_scale(const lb_world *w, uint32_t slot, uint32_t top, double out[3]) {
  out[0] = out[1] = out[2] = 1.0;
  for (int32_t s = (int32_t)slot; s >= 0 && (uint32_t)s != top; s = w->parent[s]) {
    if (lb_slot_has(w, (uint32_t)s, LB_TRANSFORM)) {
      const lb_transform_c *c = lb_component_ptr(w, (uint32_t)s, LB_TRANSFORM);
      for (int k = 0; k < 3; ++k) {
        out[k] *= (double)c->scale[k];
      }
    }
  }
}

/* The write's scale under its new parent, and the world scales of everything below it. */
static lb_result lb_check_world_scale(lb_world *w, const lb_write *wr, int parent_slot) {
  const lb_transform_c *c = wr->value;
  double above[3] = {1.0, 1.0, 1.0};
  if (parent_slot >= 0) {
    lb_relative_scale(w, (uint32_t)parent_slot, UINT32_MAX, above);
  }
  uint32_t n = lb_world_subtree(w, wr->slot, w->xf_stack, w->capacity);
  for (uint32_t i = 0; i < n; ++i) {
    double rel[3] = {1.0, 1.0, 1.0};
    if (i > 0) {
      lb_relative_scale(w, w->xf_stack[i], wr->slot, rel);
    }
    for (int k = 0; k < 3; ++k) {
      double ws = above[k] * (double)c->scale[k] * rel[k];
      if (!(ws >= LB_WORLD_SCALE_MIN && ws <= LB_WORLD_SCALE_MAX)) {
        char lbl[48];
        return lb_fail(w, LB_ERR_OUT_OF_RANGE,
                       "%s: field 'scale': the world scale of %s would be %g on axis %d, outside "
                       "[%g, %g] (scales multiply along the parents)",
                       wr->where,
                       i == 0
                           ? "this entity"
                           : lb_entity_label(lb_entity_of_slot(w, w->xf_stack[i]), lbl, sizeof lbl),
                       ws, k, LB_WORLD_SCALE_MIN, LB_WORLD_SCALE_MAX);
      }
    }
  }
  return LB_OK;
}

typedef struct lb_transform_prep {
  int32_t parent_slot;
  int16_t attach_joint;
} lb_transform_prep;

static lb_result lb_transform_stage(lb_write *wr) {
  lb_world *w = wr->world;
  const lb_transform_c *c = wr->value;
  lb_transform_prep *prep = (lb_transform_prep *)wr->prep;
  prep->parent_slot = -1;
  prep->attach_joint = -1;
  const char *joint = lb_name_text(w, c->parent_joint);
  if (c->parent == LB_NULL_ENTITY) {
    if (joint[0]) {
      return lb_fail(w, LB_ERR_INVALID_ARGUMENT, "%s: field 'parentJoint' = '%s' needs a parent",
                     wr->where, joint);
    }
    return lb_check_world_scale(w, wr, -1);
  }
  int ps = lb_slot_of(w, c->parent);
  /* Walk up from the new parent; meeting this entity would close a loop. */
  for (int32_t s = ps; s >= 0; s = w->parent[s]) {
    if ((uint32_t)s == wr->slot) {
      return lb_fail(w, LB_ERR_CYCLE, "%s: field 'parent' would make a parent cycle", wr->where);
    }
  }
  lb_result r = lb_check_world_scale(w, wr, ps);
  if (r != LB_OK) {
    return r;
  }
  prep->parent_slot = ps;
  if (joint[0]) {
    const lb_module_def *src = lb_joint_source();
    int j = src ? src->joint_find(w, (uint32_t)ps, joint) : -2;
    if (j == -2) {
      return lb_fail(w, LB_ERR_MISSING_COMPONENT,
                     "%s: field 'parentJoint' = '%s' but the parent has no Rig", wr->where, joint);
    }
    if (j < 0) {
      return lb_fail(w, LB_ERR_JOINT_NOT_FOUND,
                     "%s: field 'parentJoint': joint '%s' not found in the parent's rig", wr->where,
                     joint);
    }
    prep->attach_joint = (int16_t)j;
  }
  return LB_OK;
}

static void lb_unlink(lb_world *w, uint32_t slot) {
  int32_t p = w->parent[slot];
  if (p < 0) {
    return;
  }
  int32_t prev = w->prev_sibling[slot], next = w->next_sibling[slot];
  if (prev >= 0) {
    w->next_sibling[prev] = next;
  } else {
    w->first_child[p] = next;
  }
  if (next >= 0) {
    w->prev_sibling[next] = prev;
  }
  w->parent[slot] = w->prev_sibling[slot] = w->next_sibling[slot] = -1;
}

static void lb_link(lb_world *w, uint32_t slot, int32_t parent) {
  if (parent < 0) {
    return;
  }
  int32_t head = w->first_child[parent];
  w->parent[slot] = parent;
  w->prev_sibling[slot] = -1;
  w->next_sibling[slot] = head;
  if (head >= 0) {
    w->prev_sibling[head] = (int32_t)slot;
  }
  w->first_child[parent] = (int32_t)slot;
}

static void lb_transform_commit(lb_write *wr, void *state) {
  (void)state;
  lb_world *w = wr->world;
  const lb_transform_prep *prep = (const lb_transform_prep *)wr->prep;
  if (w->parent[wr->slot] != prep->parent_slot) {
    lb_unlink(w, wr->slot);
    lb_link(w, wr->slot, prep->parent_slot);
  }
  w->attach_joint[wr->slot] = prep->attach_joint;
}

static void lb_transform_remove(lb_world *w, uint32_t slot, void *value, void *state) {
  (void)value;
  (void)state;
  lb_unlink(w, slot);
  w->attach_joint[slot] = -1;
}

/* World transform of one slot whose parent (if any) is already done. */
static void lb_resolve_slot(lb_world *w, uint32_t s, const lb_module_def *joints) {
  if (!lb_slot_has(w, s, LB_TRANSFORM)) {
    lb_transform_identity(&w->world_xf[s]);
    return;
  }
  const lb_transform_c *c = lb_component_ptr(w, s, LB_TRANSFORM);
  lb_transform local;
  memcpy(local.t, c->position, sizeof(vec3));
  memcpy(local.r, c->rotation, sizeof(versor));
  memcpy(local.s, c->scale, sizeof(vec3));
  int32_t p = w->parent[s];
  if (p < 0) {
    w->world_xf[s] = local;
    return;
  }
  lb_transform parent = w->world_xf[p];
  int j = w->attach_joint[s];
  const lb_transform *jm = j >= 0 && joints ? joints->joint_model(w, (uint32_t)p, j) : NULL;
  if (jm) {
    lb_transform_mul(&w->world_xf[p], jm, &parent);
  }
  lb_transform_mul(&parent, &local, &w->world_xf[s]);
}

/* World transforms of every slot not yet done this step, parents before children via an
 * explicit walk (no recursion in wasm). */
static void lb_resolve_pending(lb_world *w) {
  const lb_module_def *joints = lb_joint_source();
  for (uint32_t s = 0; s < w->high_water; ++s) {
    if (!w->alive[s] || w->xf_state[s]) {
      continue;
    }
    uint32_t depth = 0, cur = s;
    for (;;) {
      w->xf_stack[depth++] = cur;
      int32_t p = w->parent[cur];
      /* Cycles are refused on write, so the walk ends; the depth guard is for safety. */
      if (p < 0 || w->xf_state[p] || depth >= w->high_water) {
        break;
      }
      cur = (uint32_t)p;
    }
    while (depth > 0) {
      uint32_t t = w->xf_stack[--depth];
      lb_resolve_slot(w, t, joints);
      w->xf_state[t] = 1;
    }
  }
}

bool lb_world_is_below(const lb_world *w, uint32_t slot, uint32_t ancestor) {
  for (int32_t p = w->parent[slot]; p >= 0; p = w->parent[p]) {
    if ((uint32_t)p == ancestor) {
      return true;
    }
  }
  return false;
}

void lb_world_refresh_below(lb_world *w, uint32_t slot, uint32_t *stack) {
  const lb_module_def *joints = lb_joint_source();
  uint32_t depth = 0;
  for (int32_t c = w->first_child[slot]; c >= 0; c = w->next_sibling[c]) {
    stack[depth++] = (uint32_t)c;
  }
  /* Each child is resolved when popped, before its own children are pushed. */
  while (depth > 0) {
    uint32_t t = stack[--depth];
    lb_resolve_slot(w, t, joints);
    w->xf_state[t] = 1;
    for (int32_t c = w->first_child[t]; c >= 0; c = w->next_sibling[c]) {
      stack[depth++] = (uint32_t)c;
    }
  }
}

uint32_t lb_world_subtree(const lb_world *w, uint32_t root, uint32_t *out, uint32_t cap) {
  if (cap == 0) {
    return 0;
  }
  uint32_t n = 0;
  out[n++] = root;
  for (uint32_t i = 0; i < n; ++i) {
    for (int32_t c = w->first_child[out[i]]; c >= 0 && n < cap; c = w->next_sibling[c]) {
      out[n++] = (uint32_t)c;
    }
  }
  return n;
}

void lb_world_reattach_children(lb_world *w, uint32_t slot) {
  const lb_module_def *src = lb_joint_source();
  for (int32_t c = w->first_child[slot]; c >= 0; c = w->next_sibling[c]) {
    const lb_transform_c *t = lb_component_ptr(w, (uint32_t)c, LB_TRANSFORM);
    const char *joint = lb_name_text(w, t->parent_joint);
    int j = joint[0] && src ? src->joint_find(w, slot, joint) : -1;
    w->attach_joint[c] = (int16_t)(j >= 0 ? j : -1);
  }
}

/* 3 Model space, after the rigs' local->model (attachments read them). */
static void lb_system_transforms(lb_world *w, float dt) {
  (void)dt;
  memset(w->xf_state, 0, w->high_water);
  lb_resolve_pending(w);
}

lb_result lb_world_entity_transform(const lb_world *w, lb_entity e, lb_transform *out) {
  int s = lb_slot_of(w, e);
  if (!w || !out) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  *out = w->world_xf[s];
  return LB_OK;
}

static const lb_component_def lb_core_components[] = {
    {.type = LB_TRANSFORM,
     .info = &lb_transform_info,
     .stage = lb_transform_stage,
     .commit = lb_transform_commit,
     .remove = lb_transform_remove},
};

static const lb_system_def lb_core_systems[] = {
    {LB_PHASE_MODEL, 100, "transforms", lb_system_transforms},
};

const lb_module_def lb_module_core = {
    .name = "core",
    .components = lb_core_components,
    .component_count = 1,
    .systems = lb_core_systems,
    .system_count = 1,
};
