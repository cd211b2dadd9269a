/* World lifetime, memory, errors and entity handles. */
#include "world_internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *lb_default_alloc(size_t size, void *user) {
  (void)user;
  return malloc(size);
}
static void lb_default_free(void *p, void *user) {
  (void)user;
  free(p);
}

void *lb_alloc(lb_world *w, size_t size) {
  if (size == 0) {
    size = 1;
  }
  void *p = w->allocator.alloc(size, w->allocator.user);
  if (p) {
    memset(p, 0, size);
  }
  return p;
}

void lb_free(lb_world *w, void *p) {
  if (p) {
    w->allocator.free(p, w->allocator.user);
  }
}

void *lb_alloc_array(lb_world *w, size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size) {
    return NULL;
  }
  return lb_alloc(w, count * size);
}

lb_result lb_fail(lb_world *w, lb_result code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = snprintf(w->error, sizeof w->error, "%s: ", lb_result_name(code));
  if (n < 0 || (size_t)n >= sizeof w->error) {
    n = 0;
  }
  vsnprintf(w->error + n, sizeof w->error - (size_t)n, fmt, ap);
  va_end(ap);
  return code;
}

const char *lb_entity_label(lb_entity e, char *buf, size_t n) {
  snprintf(buf, n, "entity %uv%u", (unsigned)((e & LB_MAX_ENTITIES) - 1u),
           (unsigned)(e >> LB_ENTITY_INDEX_BITS));
  if (e == LB_NULL_ENTITY) {
    snprintf(buf, n, "null entity");
  }
  return buf;
}

lb_world_def lb_world_default_def(void) {
  lb_world_def d;
  memset(&d, 0, sizeof d);
  d.entity_capacity = 64;
  return d;
}

/* Every per-slot array, so growth and teardown walk one list. */
#define LB_SLOT_ARRAYS(X)                                                                          \
  X(generation, uint16_t)                                                                          \
  X(alive, uint8_t)                                                                                \
  X(free_slots, uint32_t)                                                                          \
  X(mask, uint32_t)                                                                                \
  X(rigs, lb_rig_instance)                                                                         \
  X(attach_joint, int16_t)                                                                         \
  X(ik_chains, lb_ik_chain)                                                                        \
  X(grip, lb_grip_slot *)                                                                          \
  X(animators, lb_animator_instance *)                                                             \
  X(world_xf, lb_transform)                                                                        \
  X(xf_state, uint8_t)                                                                             \
  X(xf_stack, uint32_t)

static lb_result lb_world_grow(lb_world *w, uint32_t new_cap) {
  if (new_cap > LB_MAX_ENTITIES) {
    new_cap = LB_MAX_ENTITIES;
  }
  if (new_cap <= w->capacity) {
    return lb_fail(w, LB_ERR_CAPACITY, "world: more than %u entities", (unsigned)LB_MAX_ENTITIES);
  }
  struct {
#define LB_DECL_(field, type) type *field;
    LB_SLOT_ARRAYS(LB_DECL_)
#undef LB_DECL_
    uint8_t *components[LB_COMPONENT_TYPE_COUNT];
  } n;
  memset(&n, 0, sizeof n);
  bool ok = true;
#define LB_ALLOC_(field, type)                                                                     \
  n.field = lb_alloc_array(w, new_cap, sizeof(type));                                              \
  ok = ok && n.field != NULL;
  LB_SLOT_ARRAYS(LB_ALLOC_)
#undef LB_ALLOC_
  for (uint32_t t = 0; t < LB_COMPONENT_TYPE_COUNT; ++t) {
    n.components[t] = lb_alloc_array(w, new_cap, lb_component_info_get(t)->size);
    ok = ok && n.components[t] != NULL;
  }
  if (!ok) {
#define LB_FREE_(field, type) lb_free(w, n.field);
    LB_SLOT_ARRAYS(LB_FREE_)
#undef LB_FREE_
    for (uint32_t t = 0; t < LB_COMPONENT_TYPE_COUNT; ++t) {
      lb_free(w, n.components[t]);
    }
    return lb_fail(w, LB_ERR_OUT_OF_MEMORY, "world: cannot grow to %u entities", (unsigned)new_cap);
  }
  uint32_t old = w->capacity;
#define LB_MOVE_(field, type)                                                                      \
  if (old) {                                                                                       \
    memcpy(n.field, w->field, (size_t)old * sizeof(type));                                         \
  }                                                                                                \
  lb_free(w, w->field);                                                                            \
  w->field = n.field;
  LB_SLOT_ARRAYS(LB_MOVE_)
#undef LB_MOVE_
  for (uint32_t t = 0; t < LB_COMPONENT_TYPE_COUNT; ++t) {
    if (old) {
      memcpy(n.components[t], w->components[t], (size_t)old * lb_component_info_get(t)->size);
    }
    lb_free(w, w->components[t]);
    w->components[t] = n.components[t];
  }
  for (uint32_t i = old; i < new_cap; ++i) {
    w->attach_joint[i] = -1;
  }
  w->capacity = new_cap;
  return LB_OK;
}

lb_result lb_world_create(const lb_world_def *def, lb_world **out) {
  if (!out) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  *out = NULL;
  lb_world_def d = def ? *def : lb_world_default_def();
  if ((d.allocator.alloc == NULL) != (d.allocator.free == NULL)) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (!d.allocator.alloc) {
    d.allocator.alloc = lb_default_alloc;
    d.allocator.free = lb_default_free;
  }
  if (d.entity_capacity == 0 || d.entity_capacity > LB_MAX_ENTITIES) {
    return LB_ERR_OUT_OF_RANGE;
  }
  lb_world *w = d.allocator.alloc(sizeof *w, d.allocator.user);
  if (!w) {
    return LB_ERR_OUT_OF_MEMORY;
  }
  memset(w, 0, sizeof *w);
  w->allocator = d.allocator;
  lb_result r = lb_world_grow(w, d.entity_capacity);
  if (r != LB_OK) {
    lb_world_destroy(w);
    return r;
  }
  *out = w;
  return LB_OK;
}

void lb_world_destroy(lb_world *w) {
  if (!w) {
    return;
  }
  for (uint32_t i = 0; i < w->high_water; ++i) {
    lb_rig_instance_release(w, &w->rigs[i]);
    lb_free(w, w->grip[i]);
    if (w->animators[i]) {
      lb_animator_remove(w, i);
    }
  }
#define LB_FREE_(field, type) lb_free(w, w->field);
  LB_SLOT_ARRAYS(LB_FREE_)
#undef LB_FREE_
  for (uint32_t t = 0; t < LB_COMPONENT_TYPE_COUNT; ++t) {
    lb_free(w, w->components[t]);
  }
  for (uint32_t i = 0; i < w->skeleton_count; ++i) {
    lb_skeleton *s = &w->skeletons[i];
    lb_free(w, s->names);
    lb_free(w, s->parents);
    lb_free(w, s->subtree_end);
    lb_free(w, s->rest);
  }
  lb_free(w, w->skeletons);
  lb_free(w, w->grip_poses);
  for (uint32_t i = 0; i < w->finger_pose_count; ++i) {
    lb_free(w, w->finger_poses[i]);
  }
  lb_clip_assets_release(w);
  lb_controllers_release(w);
  lb_allocator a = w->allocator;
  a.free(w, a.user);
}

const char *lb_world_last_error(const lb_world *w) {
  return w ? w->error : "null world";
}

int lb_slot_of(const lb_world *w, lb_entity e) {
  uint32_t idx = e & LB_MAX_ENTITIES;
  if (!w || idx == 0 || idx > w->high_water) {
    return -1;
  }
  uint32_t slot = idx - 1u;
  if (!w->alive[slot] || w->generation[slot] != (e >> LB_ENTITY_INDEX_BITS)) {
    return -1;
  }
  return (int)slot;
}

int lb_slot_checked(lb_world *w, lb_entity e, const char *what) {
  int s = lb_slot_of(w, e);
  if (s < 0) {
    char lbl[48];
    lb_fail(w, LB_ERR_STALE_ENTITY, "%s: %s is %s", what, lb_entity_label(e, lbl, sizeof lbl),
            e == LB_NULL_ENTITY ? "null" : "not alive (stale handle)");
  }
  return s;
}

lb_entity lb_entity_of_slot(const lb_world *w, uint32_t slot) {
  return ((lb_entity)w->generation[slot] << LB_ENTITY_INDEX_BITS) | (slot + 1u);
}

bool lb_world_alive(const lb_world *w, lb_entity e) {
  return lb_slot_of(w, e) >= 0;
}

lb_result lb_world_spawn(lb_world *w, lb_entity *out) {
  if (!w || !out) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  uint32_t slot;
  if (w->free_count > 0) {
    slot = w->free_slots[--w->free_count];
  } else {
    if (w->high_water == w->capacity) {
      lb_result r = lb_world_grow(w, w->capacity * 2u);
      if (r != LB_OK) {
        return r;
      }
    }
    slot = w->high_water++;
  }
  w->alive[slot] = 1;
  w->mask[slot] = 0;
  w->attach_joint[slot] = -1;
  lb_transform_identity(&w->world_xf[slot]);
  *out = lb_entity_of_slot(w, slot);
  return LB_OK;
}

lb_result lb_world_despawn(lb_world *w, lb_entity e) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  int s = lb_slot_checked(w, e, "despawn");
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  for (uint32_t t = 0; t < LB_COMPONENT_TYPE_COUNT; ++t) {
    if (lb_slot_has(w, (uint32_t)s, t)) {
      lb_world_remove(w, e, t);
    }
  }
  w->alive[s] = 0;
  /* Generations wrap within the handle's 12 bits; 0 stays valid because the
   * index part of a live handle is never 0. */
  w->generation[s] = (uint16_t)((w->generation[s] + 1u) & 0xFFFu);
  w->free_slots[w->free_count++] = (uint32_t)s;
  return LB_OK;
}

uint64_t lb_world_step_count(const lb_world *w) {
  return w ? w->steps : 0;
}
