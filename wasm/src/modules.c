/* The module table the world core runs (world/registry.c reads it by symbol). */
#include "modules.h"
#include "world/core_module.h"

const lb_module_def *const lb_module_table[LB_MODULE_COUNT] = {&lb_module_core,
#define LB_MODULE_ENTRY_(name) &lb_module_##name,
                                                               LB_MODULE_LIST(LB_MODULE_ENTRY_)
#undef LB_MODULE_ENTRY_
};
const uint32_t lb_module_table_count = LB_MODULE_COUNT;
