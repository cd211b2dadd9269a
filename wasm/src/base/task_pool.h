/* The world's own threads for the step's parallel sections (lb_world_def.threads > 1 without
 * the game's task callbacks): threads-1 pthreads started at creation, joined at destroy, asleep
 * on a condition variable between sections. A section allocates nothing. Builds without
 * pthreads (WebAssembly without -pthread) have no pool: LB_HAVE_THREADS is 0 there and the
 * world runs with one thread. */
#ifndef LIMBER_BASE_TASK_POOL_H
#define LIMBER_BASE_TASK_POOL_H

#include "limber/world.h"

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define LB_HAVE_THREADS 0
#else
#define LB_HAVE_THREADS 1
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

#endif
