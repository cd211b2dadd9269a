/* The world's own threads for the step's parallel sections (lb_world_def.threads > 1 without
 * the game's task callbacks): threads-1 pthreads started at creation, joined at destroy, asleep
 * on a condition variable between sections. A section allocates nothing. Builds without
 * pthreads (WebAssembly without -pthread) have no pool: LB_HAVE_THREADS is 0 there and the
 * world runs with one thread. */
#ifndef LIMBER_BASE_TASK_POOL_H
#define LIMBER_BASE_TASK_POOL_H

#include "limber/world.h"

/* LB_HOST_THREADS (limber-mt.wasm, built with LIMBER_WASM_MT): no pthreads (Emscripten 3.1.6
 * links no standalone module with -pthread) but shared memory and wasm atomics; the host (the
 * bridge's Web Workers or worker_threads, web/bridge/threads.ts) runs the pool's workers, each
 * on its own instance of the module over the same memory, calling lb_task_pool_work. */
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#if defined(LIMBER_WASM_MT) && defined(__wasm_atomics__)
#define LB_HAVE_THREADS 1
#define LB_HOST_THREADS 1
#else
#define LB_HAVE_THREADS 0
#define LB_HOST_THREADS 0
#endif
#else
#define LB_HAVE_THREADS 1
#define LB_HOST_THREADS 0
#endif

typedef struct lb_task_pool lb_task_pool;

/* threads >= 2 (the caller is worker 0, the pool's threads 1..threads-1). Null on failure
 * (out of memory, or a thread could not be started: the ones started are joined). */
lb_task_pool *lb_task_pool_create(const lb_allocator *a, uint32_t threads);
void lb_task_pool_destroy(lb_task_pool *pool); /* null is allowed */
/* Runs task over [0, count) in chunks of `chunk` items (chunk k = [k*chunk, (k+1)*chunk)),
 * each chunk once, on the caller and the pool's threads; returns when all have run. The
 * chunks depend on count and chunk only, never on the thread count. */
void lb_task_pool_run(lb_task_pool *pool, lb_task_fn *task, uint32_t count, uint32_t chunk,
                      void *task_context);

#if LB_HOST_THREADS
/* Bytes of a worker's stack (it holds a section's frames only: scratch is per entity or the
 * worker's navmesh header, never a large local). */
#define LB_POOL_STACK_BYTES (512u * 1024u)
/* The host's worker `index` (1 .. threads-1) on its own instance of the module: waits for
 * sections and runs their chunks until the pool is destroyed, then returns. Each worker calls
 * it once, with its stack pointer set to lb_task_pool_stack_top(pool, index). */
void lb_task_pool_work(lb_task_pool *pool, uint32_t index);
/* The top (highest address, 16-byte aligned) of worker `index`'s stack, inside the pool's
 * block; null for an index out of range. */
void *lb_task_pool_stack_top(lb_task_pool *pool, uint32_t index);
/* Workers that have entered lb_task_pool_work and not yet left it. */
uint32_t lb_task_pool_entered(lb_task_pool *pool);
/* The pool's one block (the state the workers synchronise on and their stacks): a restore of
 * the whole memory (World.restore) must leave it as it is. */
uint32_t lb_task_pool_bytes(const lb_task_pool *pool);
#endif

#endif
