/* limber-mt.wasm only: the entry points of the host's workers (web/bridge/threads.ts). A world
 * made with lbw_world_create_threads(n > 1) owns a pool (base/task_pool_host.c) whose n-1
 * workers the bridge starts: each instantiates this module over the world's shared memory,
 * sets its stack pointer to lbw_pool_stack_top(pool, i) and calls lbw_pool_work(pool, i), which
 * returns when the world is destroyed. Not in limber.wasm and limber-scalar.wasm (the CMake
 * glob of the exports folder does not reach this folder): they have no pool to expose. */
#include "../../src/base/task_pool.h"
#include "../../src/world/world_core.h"
#include "../exports.h"

#if !LB_HOST_THREADS
#error "exports_mt.c belongs to the limber-mt.wasm build (LIMBER_WASM_MT, -matomics)"
#endif

/* The world's pool, or 0 when it runs on one thread. */
LBW_EXPORT(lbw_world_pool) lb_task_pool *lbw_world_pool(lb_world *w) {
  return w ? w->pool : NULL;
}

/* Worker `index` (1 .. threads-1) of the pool: runs sections until the pool is destroyed,
 * then returns LB_OK. LB_ERR_INVALID_ARGUMENT at once for a null pool or an index out of range
 * (a worker must never run with another's index: the navmesh headers are per index). */
LBW_EXPORT(lbw_pool_work) int lbw_pool_work(lb_task_pool *pool, uint32_t index) {
  if (!lb_task_pool_stack_top(pool, index)) {
    return LB_ERR_INVALID_ARGUMENT;
  }
  lb_task_pool_work(pool, index);
  return LB_OK;
}

/* The top of worker `index`'s stack (0 for a null pool or an index out of range). */
LBW_EXPORT(lbw_pool_stack_top) void *lbw_pool_stack_top(lb_task_pool *pool, uint32_t index) {
  return lb_task_pool_stack_top(pool, index);
}

/* Workers inside lbw_pool_work now. */
LBW_EXPORT(lbw_pool_entered) uint32_t lbw_pool_entered(lb_task_pool *pool) {
  return lb_task_pool_entered(pool);
}

/* The bytes from `pool` on that World.restore keeps as they are. */
LBW_EXPORT(lbw_pool_bytes) uint32_t lbw_pool_bytes(lb_task_pool *pool) {
  return lb_task_pool_bytes(pool);
}
