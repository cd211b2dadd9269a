/* The world core, as modules see it: entities and generations, component storage (one
 * paged store per component type), the Transform hierarchy, names, module state and
 * the diagnostics channel. Knows no module by name. Not installed. */
#ifndef LIMBER_WORLD_CORE_H
#define LIMBER_WORLD_CORE_H

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../base/names.h"
#include "limber/components.h"
#include "limber/world.h"
#include "module.h"
#include <stdbool.h>

#define LB_STORE_PAGE_BITS 6u
#define LB_STORE_PAGE_SLOTS (1u << LB_STORE_PAGE_BITS) /* 64: one presence word a page */
#define LB_COMPONENT_TYPES_MAX 32                      /* public and module-internal */
#define LB_MODULES_MAX 16

/* One component type's instances: pages of 64 slots, allocated when the first of their
 * slots gets the component, so a type costs memory only where entities have it. An
 * instance keeps its address while it exists; iteration is in slot (entity) order. */
typedef struct lb_store {
  const lb_component_def *def;
  uint32_t state_offset; /* private state after the value, 16-aligned */
  uint32_t stride;       /* bytes per instance, 16-aligned */
  uint8_t **pages;       /* page_cap entries, null until used */
  uint64_t *present;     /* bit per slot */
  uint32_t count;        /* instances */
} lb_store;

typedef struct lb_system_entry {
  const lb_system_def *def;
  uint32_t module;
} lb_system_entry;

struct lb_world {
  lb_allocator allocator;
  lb_diag diag;
  lb_names names;
  uint32_t capacity;   /* slots allocated */
  uint32_t page_cap;   /* capacity / 64 */
  uint32_t high_water; /* slots ever used */
  uint16_t *generation;
  uint16_t *generation_floor; /* lowest generation a slot may take next (after a restore) */
  uint8_t *alive;
  uint32_t *free_slots;
  uint32_t free_count;
  /* Transform hierarchy: links of entities with a Transform whose parent is alive. */
  int32_t *parent, *first_child, *next_sibling, *prev_sibling;
  int16_t *attach_joint;  /* Transform.parentJoint resolved, -1 = none */
  lb_transform *world_xf; /* entity world transforms (Model-space phase) */
  uint8_t *xf_state;      /* 0 = not computed this step, 1 = done */
  uint32_t *xf_stack;     /* scratch for parent walks and subtree visits */
  lb_store stores[LB_COMPONENT_TYPES_MAX];
  uint32_t type_count;
  void *module_state[LB_MODULES_MAX];
  lb_system_entry systems[64];
  uint32_t system_count;
  uint64_t steps;
  /* Threads (world/parallel.h): the def's, clamped to 1 in builds without threads. */
  uint32_t threads;
  lb_enqueue_task_fn *enqueue_task;
  lb_finish_task_fn *finish_task;
  void *user_task_context;
  struct lb_task_pool *pool; /* the world's own threads, when threads > 1 without callbacks */
};

/* ---- memory and messages ---------------------------------------------------------- */
void *lb_alloc(lb_world *w, size_t size); /* zeroed; null on failure */
void lb_free(lb_world *w, void *p);
void *lb_alloc_array(lb_world *w, size_t count, size_t size);
/* Records the message for lb_world_last_error and returns `code`. Never cut short. */
lb_result lb_fail(lb_world *w, lb_result code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* "entity 3v1" into buf. */
const char *lb_entity_label(lb_entity e, char *buf, size_t n);

/* ---- entities ------------------------------------------------------------------- */
/* Slot of an alive entity, or -1 (with an error recorded naming `what`). */
int lb_slot_checked(lb_world *w, lb_entity e, const char *what);
int lb_slot_of(const lb_world *w, lb_entity e); /* -1 if stale, no error */
lb_entity lb_entity_of_slot(const lb_world *w, uint32_t slot);

/* ---- components ------------------------------------------------------------------ */
static inline bool lb_slot_has(const lb_world *w, uint32_t slot, uint32_t type) {
  const lb_store *st = &w->stores[type];
  return (st->present[slot >> LB_STORE_PAGE_BITS] >> (slot & (LB_STORE_PAGE_SLOTS - 1u))) & 1u;
}
static inline void *lb_component_ptr(const lb_world *w, uint32_t slot, uint32_t type) {
  const lb_store *st = &w->stores[type];
  return st->pages[slot >> LB_STORE_PAGE_BITS] +
         (size_t)(slot & (LB_STORE_PAGE_SLOTS - 1u)) * st->stride;
}
/* The instance's private state (lb_component_def.state_size bytes). */
static inline void *lb_component_state(const lb_world *w, uint32_t slot, uint32_t type) {
  return (uint8_t *)lb_component_ptr(w, slot, type) + w->stores[type].state_offset;
}
/* Value if the entity has it, else null. */
static inline void *lb_component_try(const lb_world *w, uint32_t slot, uint32_t type) {
  return lb_slot_has(w, slot, type) ? lb_component_ptr(w, slot, type) : NULL;
}

/* Slots having a component, ascending: for (lb_each it = lb_each_begin(w, T); lb_each_next(&it,
 * &s);). Visits only pages that hold the component's bits. */
typedef struct lb_each {
  const uint64_t *present;
  uint32_t pages, page;
  uint64_t bits;
} lb_each;
static inline lb_each lb_each_begin(const lb_world *w, uint32_t type) {
  lb_each it;
  it.present = w->stores[type].present;
  it.pages = (w->high_water + LB_STORE_PAGE_SLOTS - 1u) >> LB_STORE_PAGE_BITS;
  it.page = 0;
  it.bits = it.pages ? it.present[0] : 0;
  return it;
}
static inline bool lb_each_next(lb_each *it, uint32_t *slot) {
  while (!it->bits) {
    if (++it->page >= it->pages) {
      return false;
    }
    it->bits = it->present[it->page];
  }
  *slot = (it->page << LB_STORE_PAGE_BITS) + (uint32_t)__builtin_ctzll(it->bits);
  it->bits &= it->bits - 1u;
  return true;
}

/* The schema checks of a write (finite, in range, enum, live entities, valid name ids) on
 * the fields of `data` selected by `field_mask` (bit per schema field; outputs skipped),
 * without writing: for values prepared ahead (scene timelines, checked at load). */
lb_result lb_world_check_fields(lb_world *w, uint32_t type, const void *data, uint32_t field_mask,
                                const char *where);

/* Module-internal component types (no schema fields, not visible to the API) are
 * attached by their module: reserve in a stage hook (may fail), attach in commit. */
lb_result lb_store_reserve(lb_world *w, uint32_t type, uint32_t slot);
void *lb_store_attach(lb_world *w, uint32_t type, uint32_t slot); /* after reserve; zeroed */
void lb_store_detach(lb_world *w, uint32_t type, uint32_t slot);  /* runs the remove hook */
/* A movement request (world-space metres) for `slot` in the Move phase: offered to the
 * modules' `move` hooks in list order; returns true when one took it, false when the caller
 * moves the Transform itself. */
bool lb_world_move_request(lb_world *w, uint32_t slot, const float delta[3]);

/* Whether a module owns the game input of `slot` now (its `owner` hook, in list order); *out
 * names it. */
bool lb_world_input_owned(const lb_world *w, uint32_t slot, lb_input input, const char *param,
                          lb_input_owner *out);
/* LB_OK when the game may write the input; else LB_ERR_BUSY with the message "<where>: <what>
 * is owned by its <component> (<state>) until <until>" (`where` names the entity). Changes
 * nothing. */
lb_result lb_world_input_check(lb_world *w, uint32_t slot, lb_input input, const char *param,
                               const char *where, const char *what);

/* Tells every module's `changed` hook that `type` was written or removed on `slot`. */
void lb_world_changed(lb_world *w, uint32_t type, uint32_t slot);

/* ---- entities: all-or-nothing loading ------------------------------------------------ */
typedef struct lb_entity_mark {
  uint32_t high_water, free_count;
} lb_entity_mark;
void lb_world_entities_mark(const lb_world *w, lb_entity_mark *out);
/* Undoes the spawns since the mark (`spawned`, every entity spawned since, in order):
 * their components go and slots, free list and generations are as they were, so the next
 * spawns give the same handles. Valid only if nothing was despawned since the mark. */
void lb_world_entities_rollback(lb_world *w, const lb_entity_mark *mark, const lb_entity *spawned,
                                uint32_t count);

/* ---- assets: all-or-nothing loading ------------------------------------------------- */
typedef struct lb_world_mark {
  lb_asset_mark modules[LB_MODULES_MAX];
} lb_world_mark;
/* Remembers how many assets every module has. */
void lb_world_assets_mark(const lb_world *w, lb_world_mark *out);
/* Frees the assets added since the mark (nothing may use them any more). */
void lb_world_assets_rollback(lb_world *w, const lb_world_mark *mark);
/* Frees the assets added between `from` and `to` when they are the newest (the world's
 * marks equal `to`) and no live component uses them; returns whether it did. */
bool lb_world_assets_release(lb_world *w, const lb_world_mark *from, const lb_world_mark *to);

/* ---- names ------------------------------------------------------------------------ */
/* Text of a name id ("" for 0); the pointer is valid until the next intern. */
static inline const char *lb_name_text(const lb_world *w, lb_name id) {
  const char *t = lb_names_text(&w->names, id);
  return t ? t : "";
}

/* ---- hierarchy --------------------------------------------------------------------- */
/* True when `slot`'s Transform parent chain reaches `ancestor`. */
bool lb_world_is_below(const lb_world *w, uint32_t slot, uint32_t ancestor);
/* Recomputes the world transforms of everything below `slot` (after a system moved it);
 * touches only that subtree. `stack` holds at least as many entries as the subtree has
 * entities: the world's xf_stack, or the caller's own in a parallel section. */
void lb_world_refresh_below(lb_world *w, uint32_t slot, uint32_t *stack);
/* Slots of `root`'s subtree (root first, then depth-first), at most `cap`; returns the
 * number written. */
uint32_t lb_world_subtree(const lb_world *w, uint32_t root, uint32_t *out, uint32_t cap);
/* Re-resolves the parentJoint of `slot`'s children (its skeleton changed). */
void lb_world_reattach_children(lb_world *w, uint32_t slot);

/* ---- modules ------------------------------------------------------------------------ */
/* Runs one phase's systems (tools and benches that time a phase alone). */
void lb_world_run_phase(lb_world *w, lb_phase phase, float dt);

static inline void *lb_world_module_state(const lb_world *w, uint32_t module) {
  return w->module_state[module];
}

/* The registry (world/registry.c): component defs by type id, modules by index. */
const lb_component_def *lb_registry_component(uint32_t type);
uint32_t lb_registry_type_count(void); /* public + internal */
uint32_t lb_registry_module_count(void);
const lb_module_def *lb_registry_module(uint32_t index);
/* Distinct default texts of the schema's name fields, in schema order: every world
 * interns them first, so their ids are the same everywhere (lb_component_defaults).
 * UINT32_MAX when they outgrow the registry (worlds then refuse to start). */
uint32_t lb_registry_default_name_count(void);
const char *lb_registry_default_name(uint32_t index);

#endif
