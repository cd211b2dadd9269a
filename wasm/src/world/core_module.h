/* The world core's own module: the Transform component and the hierarchy system. */
#ifndef LIMBER_WORLD_CORE_MODULE_H
#define LIMBER_WORLD_CORE_MODULE_H

#include "module.h"

extern const lb_module_def lb_module_core;

/* The module table (wasm/src/modules.c), index 0 = lb_module_core. */
extern const lb_module_def *const lb_module_table[];
extern const uint32_t lb_module_table_count;

#endif
