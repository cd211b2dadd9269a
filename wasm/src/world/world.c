/* World lifetime, memory, messages, names and entity handles. */
#include "../base/format.h"
#include "parallel.h"
#include "world_core.h"
#include <string.h>

void *lb_alloc(lb_world *w, size_t size) {
  return lb_mem_alloc(&w->allocator, size);
}

void lb_free(lb_world *w, void *p) {
  lb_mem_free(&w->allocator, p);
}

void *lb_alloc_array(lb_world *w, size_t count, size_t size) {
  return lb_mem_alloc_array(&w->allocator, count, size);
}

lb_result lb_fail(lb_world *w, lb_result code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lb_diag_vset(&w->diag, code, fmt, ap);
  va_end(ap);
  return code;
}

const char *lb_entity_label(lb_entity e, char *buf, size_t n) {
  lb_snprintf(buf, n, "entity %uv%u", (unsigned)((e & LB_MAX_ENTITIES) - 1u),
              (unsigned)(e >> LB_ENTITY_INDEX_BITS));
  if (e == LB_NULL_ENTITY) {
    lb_snprintf(buf, n, "null entity");
  }
  return buf;
}

lb_world_def lb_world_default_def(void) {
  lb_world_def d;
  memset(&d, 0, sizeof d);
  d.entity_capacity = 64;
  d.threads = 1;
  return d;
}

lb_result lb_world_def_validate(const lb_world_def *d, char *msg, size_t n) {
  char none[1];
  if (!msg || n == 0) {
    msg = none;
    n = sizeof none;
  }
  msg[0] = 0;
  if (!d) {
    return LB_OK; /* the defaults */
  }
  if ((d->allocator.alloc == NULL) != (d->allocator.free == NULL)) {
    lb_snprintf(msg, n, "lb_world_def.allocator: alloc and free must be both set or both null");
    return LB_ERR_INVALID_ARGUMENT;
  }
  if (d->entity_capacity == 0 || d->entity_capacity > LB_MAX_ENTITIES) {
    lb_snprintf(msg, n, "lb_world_def.entity_capacity = %u: must be 1..%u",
                (unsigned)d->entity_capacity, (unsigned)LB_MAX_ENTITIES);
    return LB_ERR_OUT_OF_RANGE;
  }
  if (d->threads == 0 || d->threads > LB_MAX_THREADS) {
    lb_snprintf(msg, n,
                "lb_world_def.threads = %u: must be 1..%u (workers, the calling thread "
                "included)",
                (unsigned)d->threads, (unsigned)LB_MAX_THREADS);
    return LB_ERR_OUT_OF_RANGE;
  }
  if ((d->enqueue_task == NULL) != (d->finish_task == NULL)) {
    lb_snprintf(msg, n, "lb_world_def.enqueue_task and finish_task must be both set or both null");
    return LB_ERR_INVALID_ARGUMENT;
  }
  return LB_OK;
}

/* Every per-slot array, so growth and teardown walk one list. */
#define LB_SLOT_ARRAYS(X)                                                                          \
  X(generation, uint16_t)                                                                          \
  X(generation_floor, uint16_t)                                                                    \
  X(alive, uint8_t)                                                                                \
  X(free_slots, uint32_t)                                                                          \
  X(parent, int32_t)                                                                               \
  X(first_child, int32_t)                                                                          \
  X(next_sibling, int32_t)                                                                         \
  X(prev_sibling, int32_t)                                                                         \
  X(attach_joint, int16_t)                                                                         \
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
  uint32_t new_pages = (new_cap + LB_STORE_PAGE_SLOTS - 1u) >> LB_STORE_PAGE_BITS;
  struct {
#define LB_DECL_(field, type) type *field;
    LB_SLOT_ARRAYS(LB_DECL_)
#undef LB_DECL_
    uint8_t **pages[LB_COMPONENT_TYPES_MAX];
    uint64_t *present[LB_COMPONENT_TYPES_MAX];
  } n;
  memset(&n, 0, sizeof n);
  bool ok = true;
#define LB_ALLOC_(field, type)                                                                     \
  n.field = lb_alloc_array(w, new_cap, sizeof(type));                                              \
  ok = ok && n.field != NULL;
  LB_SLOT_ARRAYS(LB_ALLOC_)
#undef LB_ALLOC_
  for (uint32_t t = 0; t < w->type_count; ++t) {
    n.pages[t] = lb_alloc_array(w, new_pages, sizeof(uint8_t *));
    n.present[t] = lb_alloc_array(w, new_pages, sizeof(uint64_t));
    ok = ok && n.pages[t] && n.present[t];
  }
  if (!ok) {
#define LB_FREE_(field, type) lb_free(w, n.field);
    LB_SLOT_ARRAYS(LB_FREE_)
#undef LB_FREE_
    for (uint32_t t = 0; t < w->type_count; ++t) {
      lb_free(w, n.pages[t]);
      lb_free(w, n.present[t]);
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
  for (uint32_t t = 0; t < w->type_count; ++t) {
    lb_store *st = &w->stores[t];
    if (w->page_cap) {
      memcpy(n.pages[t], st->pages, w->page_cap * sizeof(uint8_t *));
      memcpy(n.present[t], st->present, w->page_cap * sizeof(uint64_t));
    }
    lb_free(w, st->pages);
    lb_free(w, st->present);
    st->pages = n.pages[t];
    st->present = n.present[t];
  }
  for (uint32_t i = old; i < new_cap; ++i) {
    w->attach_joint[i] = -1;
    w->parent[i] = w->first_child[i] = w->next_sibling[i] = w->prev_sibling[i] = -1;
  }
  w->capacity = new_cap;
  w->page_cap = new_pages;
  return LB_OK;
}

/* Stores for every registered type; module states; systems in pipeline order. */
static lb_result lb_world_setup(lb_world *w) {
  w->type_count = lb_registry_type_count();
  for (uint32_t t = 0; t < w->type_count; ++t) {
    lb_store *st = &w->stores[t];
    st->def = lb_registry_component(t);
    uint32_t size = st->def->info->size;
    st->state_offset = (size + 15u) & ~15u;
    st->stride = (st->state_offset + st->def->state_size + 15u) & ~15u;
  }
  if (lb_registry_default_name_count() == UINT32_MAX) {
    return LB_ERR_CAPACITY; /* a default would get no fixed id: grow lb_registry.names */
  }
  for (uint32_t i = 0; i < lb_registry_default_name_count(); ++i) {
    const char *text = lb_registry_default_name(i);
    lb_name id;
    if (lb_names_intern(&w->names, text, strlen(text), &id) != LB_OK || id != i + 1u) {
      return LB_ERR_OUT_OF_MEMORY;
    }
  }
  uint32_t modules = lb_registry_module_count();
  for (uint32_t m = 0; m < modules; ++m) {
    const lb_module_def *md = lb_registry_module(m);
    if (md->state_size) {
      w->module_state[m] = lb_alloc(w, md->state_size);
      if (!w->module_state[m]) {
        return LB_ERR_OUT_OF_MEMORY;
      }
    }
    if (md->init && md->init(w, w->module_state[m]) != LB_OK) {
      return LB_ERR_OUT_OF_MEMORY;
    }
    for (uint32_t k = 0; k < md->system_count; ++k) {
      if (w->system_count == sizeof w->systems / sizeof w->systems[0]) {
        return LB_ERR_CAPACITY;
      }
      /* Insertion by (phase, order); equal keys keep module list order. */
      const lb_system_def *sd = &md->systems[k];
      uint32_t at = w->system_count;
      while (at > 0 && (w->systems[at - 1].def->phase > sd->phase ||
                        (w->systems[at - 1].def->phase == sd->phase &&
                         w->systems[at - 1].def->order > sd->order))) {
        w->systems[at] = w->systems[at - 1];
        --at;
      }
      w->systems[at].def = sd;
      w->systems[at].module = m;
      w->system_count++;
    }
  }
  return LB_OK;
}

lb_result lb_world_create(const lb_world_def *def, lb_world **out) {
  if (!out) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  *out = NULL;
  lb_world_def d = def ? *def : lb_world_default_def();
  lb_result bad = lb_world_def_validate(&d, NULL, 0);
  if (bad != LB_OK) {
    return bad;
  }
  if (!d.allocator.alloc) {
    d.allocator = lb_allocator_default();
  }
  lb_world *w = lb_mem_alloc(&d.allocator, sizeof *w);
  if (!w) {
    return LB_ERR_OUT_OF_MEMORY;
  }
  w->allocator = d.allocator;
  lb_diag_init(&w->diag, &w->allocator);
  lb_names_init(&w->names, &w->allocator);
  lb_result r = lb_world_setup(w);
  if (r == LB_OK) {
    r = lb_world_grow(w, d.entity_capacity);
  }
  if (r == LB_OK) {
    r = lb_parallel_init(w, &d);
  }
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
  lb_parallel_release(w);
  for (uint32_t s = 0; s < w->high_water; ++s) {
    if (w->alive[s]) {
      lb_world_despawn(w, lb_entity_of_slot(w, s));
    }
  }
  for (uint32_t m = lb_registry_module_count(); m-- > 0;) {
    const lb_module_def *md = lb_registry_module(m);
    if (md->release && (w->module_state[m] || !md->state_size)) {
      md->release(w, w->module_state[m]);
    }
    lb_free(w, w->module_state[m]);
  }
#define LB_FREE_(field, type) lb_free(w, w->field);
  LB_SLOT_ARRAYS(LB_FREE_)
#undef LB_FREE_
  for (uint32_t t = 0; t < w->type_count; ++t) {
    lb_store *st = &w->stores[t];
    for (uint32_t p = 0; st->pages && p < w->page_cap; ++p) {
      lb_free(w, st->pages[p]);
    }
    lb_free(w, st->pages);
    lb_free(w, st->present);
  }
  lb_names_release(&w->names);
  lb_diag_release(&w->diag);
  lb_allocator a = w->allocator;
  a.free(w, a.user);
}

const char *lb_world_last_error(const lb_world *w) {
  return w ? lb_diag_text(&w->diag) : "null world";
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

uint32_t lb_world_entity_count(const lb_world *w) {
  uint32_t n = 0;
  for (uint32_t i = 0; w && i < w->high_water; ++i) {
    n += w->alive[i] ? 1u : 0u;
  }
  return n;
}

lb_result lb_world_spawn(lb_world *w, lb_entity *out) {
  if (!w || !out) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  uint32_t slot;
  if (w->free_count > 0) {
    slot = w->free_slots[--w->free_count];
  } else {
    do { /* slots a restore retired (every generation handed out) are skipped */
      if (w->high_water == w->capacity) {
        lb_result r = lb_world_grow(w, w->capacity * 2u);
        if (r != LB_OK) {
          return r;
        }
      }
      slot = w->high_water++;
    } while (w->generation_floor[slot] > LB_ENTITY_GENERATION_MAX);
  }
  w->alive[slot] = 1;
  w->attach_joint[slot] = -1;
  w->parent[slot] = w->first_child[slot] = w->next_sibling[slot] = w->prev_sibling[slot] = -1;
  lb_transform_identity(&w->world_xf[slot]);
  *out = lb_entity_of_slot(w, slot);
  return LB_OK;
}

/* Every component goes; children become roots: their Transform's parent and parentJoint
 * are cleared (world.h), and modules hear of the change. */
static void lb_slot_clear(lb_world *w, uint32_t s) {
  for (uint32_t t = 0; t < w->type_count; ++t) {
    if (lb_slot_has(w, s, t)) {
      lb_store_detach(w, t, s);
    }
  }
  for (int32_t c = w->first_child[s]; c >= 0;) {
    int32_t next = w->next_sibling[c];
    w->parent[c] = w->next_sibling[c] = w->prev_sibling[c] = -1;
    w->attach_joint[c] = -1;
    w->first_child[s] = next;
    if (lb_slot_has(w, (uint32_t)c, LB_TRANSFORM)) {
      lb_transform_c *xf = lb_component_ptr(w, (uint32_t)c, LB_TRANSFORM);
      xf->parent = LB_NULL_ENTITY;
      xf->parent_joint = 0;
      lb_world_changed(w, LB_TRANSFORM, (uint32_t)c);
    }
    c = next;
  }
  w->first_child[s] = -1;
  w->alive[s] = 0;
}

void lb_world_entities_mark(const lb_world *w, lb_entity_mark *out) {
  out->high_water = w->high_water;
  out->free_count = w->free_count;
}

void lb_world_entities_rollback(lb_world *w, const lb_entity_mark *mark, const lb_entity *spawned,
                                uint32_t count) {
  for (uint32_t i = count; i-- > 0;) {
    int s = lb_slot_of(w, spawned[i]);
    if (s >= 0) {
      lb_slot_clear(w, (uint32_t)s);
    }
  }
  /* Spawning only popped the free list (its entries are still there) and raised the high
   * water mark; generations were not touched, so handles come out as before. */
  w->free_count = mark->free_count;
  w->high_water = mark->high_water;
}

lb_result lb_world_despawn(lb_world *w, lb_entity e) {
  if (!w) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  int s = lb_slot_checked(w, e, "despawn");
  if (s < 0) {
    return LB_ERR_STALE_ENTITY;
  }
  lb_slot_clear(w, (uint32_t)s);
  /* A slot whose generation would wrap is retired: it is never handed out again, so no
   * old handle of it can come back to life (base.h). The floor is what a restore
   * reserved (lb_world_generations_reserve). */
  uint32_t next = (uint32_t)w->generation[s] + 1u;
  if (next < w->generation_floor[s]) {
    next = w->generation_floor[s];
  }
  if (next > LB_ENTITY_GENERATION_MAX) {
    return LB_OK;
  }
  w->generation[s] = (uint16_t)next;
  w->free_slots[w->free_count++] = (uint32_t)s;
  return LB_OK;
}

uint32_t lb_world_generations_unused(const lb_world *w, uint16_t *out, uint32_t cap) {
  if (!w) {
    return 0;
  }
  for (uint32_t i = 0; out && i < w->high_water && i < cap; ++i) {
    /* A live slot has handed out its generation; a free one not yet (despawn moved it on). */
    uint32_t g = (uint32_t)w->generation[i] + (w->alive[i] ? 1u : 0u);
    if (g < w->generation_floor[i]) {
      g = w->generation_floor[i];
    }
    out[i] = (uint16_t)(g > LB_ENTITY_GENERATION_MAX ? LB_ENTITY_GENERATION_MAX + 1u : g);
  }
  return w->high_water;
}

/* Takes slot s off the free list (keeping the others' order, so spawns after a restore
 * come out in the same slots as they would have). */
static void lb_free_list_drop(lb_world *w, uint32_t s) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < w->free_count; ++i) {
    if (w->free_slots[i] != s) {
      w->free_slots[k++] = w->free_slots[i];
    }
  }
  w->free_count = k;
}

lb_result lb_world_generations_reserve(lb_world *w, const uint16_t *unused, uint32_t count) {
  if (!w || (!unused && count)) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "generations_reserve: null array")
             : LB_ERR_INVALID_ARGUMENT;
  }
  if (count > LB_MAX_ENTITIES) {
    return lb_fail(w, LB_ERR_OUT_OF_RANGE, "generations_reserve: %u slots (at most %u)",
                   (unsigned)count, (unsigned)LB_MAX_ENTITIES);
  }
  for (uint32_t i = 0; i < count; ++i) {
    if (unused[i] > LB_ENTITY_GENERATION_MAX + 1u) {
      return lb_fail(w, LB_ERR_OUT_OF_RANGE, "generations_reserve: slot %u: generation %u > %u",
                     (unsigned)i, (unsigned)unused[i], (unsigned)LB_ENTITY_GENERATION_MAX + 1u);
    }
  }
  uint32_t cap = w->capacity;
  while (cap < count) {
    cap *= 2u;
  }
  if (cap > w->capacity) {
    lb_result r = lb_world_grow(w, cap);
    if (r != LB_OK) {
      return r;
    }
  }
  for (uint32_t i = 0; i < count; ++i) {
    if (unused[i] > w->generation_floor[i]) {
      w->generation_floor[i] = unused[i];
    }
    if (w->alive[i] || w->generation[i] >= w->generation_floor[i]) {
      continue; /* a live slot moves past the floor when it is despawned */
    }
    if (w->generation_floor[i] > LB_ENTITY_GENERATION_MAX) {
      /* Every generation of this slot was handed out: retire it, as despawn does. */
      w->generation[i] = LB_ENTITY_GENERATION_MAX;
      if (i < w->high_water) {
        lb_free_list_drop(w, i);
      } /* above the high water mark, spawn skips it */
    } else {
      w->generation[i] = w->generation_floor[i];
    }
  }
  return LB_OK;
}

uint64_t lb_world_step_count(const lb_world *w) {
  return w ? w->steps : 0;
}

uint32_t lb_world_threads(const lb_world *w) {
  return w ? w->threads : 0u;
}

lb_result lb_world_intern(lb_world *w, const char *text, lb_name *out) {
  if (!w || !text || !out) {
    return w ? lb_fail(w, LB_ERR_INVALID_ARGUMENT, "intern: null text or out")
             : LB_ERR_INVALID_ARGUMENT;
  }
  lb_result r = lb_names_intern(&w->names, text, strlen(text), out);
  if (r == LB_ERR_OUT_OF_RANGE) {
    return lb_fail(w, r, "intern: the name %s (%zu bytes)", lb_names_refusal(text, strlen(text)),
                   strlen(text));
  }
  return r == LB_OK ? LB_OK : lb_fail(w, r, "intern: out of memory for the name table");
}

lb_name lb_world_name(lb_world *w, const char *text) {
  lb_name id = LB_NAME_INVALID;
  return lb_world_intern(w, text, &id) == LB_OK ? id : LB_NAME_INVALID;
}

const char *lb_world_name_text(const lb_world *w, lb_name id) {
  return w ? lb_names_text(&w->names, id) : NULL;
}
