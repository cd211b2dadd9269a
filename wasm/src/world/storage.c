/* Paged component stores (world_core.h lb_store). */
#include "world_core.h"
#include <string.h>

lb_result lb_store_reserve(lb_world *w, uint32_t type, uint32_t slot) {
  lb_store *st = &w->stores[type];
  uint32_t p = slot >> LB_STORE_PAGE_BITS;
  if (st->pages[p]) {
    return LB_OK;
  }
  st->pages[p] = lb_alloc_array(w, LB_STORE_PAGE_SLOTS, st->stride);
  return st->pages[p] ? LB_OK : LB_ERR_OUT_OF_MEMORY;
}

void *lb_store_attach(lb_world *w, uint32_t type, uint32_t slot) {
  lb_store *st = &w->stores[type];
  void *p = lb_component_ptr(w, slot, type);
  memset(p, 0, st->stride);
  st->present[slot >> LB_STORE_PAGE_BITS] |= 1ull << (slot & (LB_STORE_PAGE_SLOTS - 1u));
  st->count++;
  return p;
}

void lb_store_detach(lb_world *w, uint32_t type, uint32_t slot) {
  lb_store *st = &w->stores[type];
  if (!lb_slot_has(w, slot, type)) {
    return;
  }
  void *value = lb_component_ptr(w, slot, type);
  if (st->def->remove) {
    st->def->remove(w, slot, value, (uint8_t *)value + st->state_offset);
  }
  st->present[slot >> LB_STORE_PAGE_BITS] &= ~(1ull << (slot & (LB_STORE_PAGE_SLOTS - 1u)));
  st->count--;
  memset(value, 0, st->stride);
}
