#include "alloc.h"
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

lb_allocator lb_allocator_default(void) {
  lb_allocator a = {lb_default_alloc, lb_default_free, NULL};
  return a;
}

void *lb_mem_alloc(const lb_allocator *a, size_t size) {
  if (size == 0) {
    size = 1;
  }
  void *p = a->alloc(size, a->user);
  if (p) {
    memset(p, 0, size);
  }
  return p;
}

void *lb_mem_alloc_array(const lb_allocator *a, size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size) {
    return NULL;
  }
  return lb_mem_alloc(a, count * size);
}

void lb_mem_free(const lb_allocator *a, void *p) {
  if (p) {
    a->free(p, a->user);
  }
}
