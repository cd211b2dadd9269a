/* Allocation through the caller's hooks (base.h lb_allocator), for every layer that
 * allocates: the world, the parsers and the importer take an allocator, not a world. */
#ifndef LIMBER_BASE_ALLOC_H
#define LIMBER_BASE_ALLOC_H

#include "limber/base.h"

/* malloc/free, for callers that pass no hooks. */
lb_allocator lb_allocator_default(void);
/* Zeroed block of `size` bytes (at least 1), or null. */
void *lb_mem_alloc(const lb_allocator *a, size_t size);
/* `count` x `size` bytes, zeroed; null on overflow or failure. */
void *lb_mem_alloc_array(const lb_allocator *a, size_t count, size_t size);
/* Null is allowed. */
void lb_mem_free(const lb_allocator *a, void *p);

#endif
