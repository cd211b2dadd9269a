/* Growable arrays: the one way the core grows a table (assets, names, per-name refs). */
#ifndef LIMBER_BASE_ARRAY_H
#define LIMBER_BASE_ARRAY_H

#include "limber/base.h"

/* Makes room for `need` elements of `size` bytes in *data (capacity *cap, the first `used`
 * in use and kept): the capacity doubles from `first` until it fits; new room is zeroed.
 * LB_ERR_OUT_OF_MEMORY or LB_ERR_CAPACITY leave everything as it was. */
lb_result lb_array_reserve(const lb_allocator *a, void **data, uint32_t *cap, uint32_t used,
                           uint32_t need, size_t size, uint32_t first);

#endif
