/* The step's parallel sections: a parallel-for over items split into fixed ranges of
 * LB_PARALLEL_CHUNK items (by item count, never by thread count), run on the calling thread
 * alone (threads = 1), on the game's task system (lb_world_def.enqueue_task / finish_task) or on
 * the world's own pool (base/task_pool.h). A section's items must be independent: each writes
 * only its own entity's state and reads other entities' values from earlier phases only. Shared
 * writes (events, BVH refits, the hash) stay serial, in entity order, after the section. See
 * docs/architecture.md ("Threads"). */
#ifndef LIMBER_WORLD_PARALLEL_H
#define LIMBER_WORLD_PARALLEL_H

#include "world_core.h"

#define LB_PARALLEL_CHUNK 1u  /* items per range handed to a thread */
#define LB_PARALLEL_BLOCK 16u /* lb_parallel_each: slots per item (a quarter of a store page) */

/* Sets up the world's threads from its (validated) def: the pool when threads > 1 and no
 * callbacks are given. LB_ERR_OUT_OF_MEMORY when the pool cannot be started. */
lb_result lb_parallel_init(lb_world *w, const lb_world_def *def);
void lb_parallel_release(lb_world *w);

/* task over [0, count) in LB_PARALLEL_CHUNK ranges; returns when every range has run. */
void lb_parallel_for(lb_world *w, uint32_t count, lb_task_fn *task, void *task_context);

/* One entity of a section: `slot`, on worker `worker` (0 .. threads-1). */
typedef void lb_parallel_entity_fn(lb_world *w, uint32_t slot, uint32_t worker, void *context);
/* fn for every slot having component `type`. The items are the blocks of LB_PARALLEL_BLOCK
 * slots (item i = slots [16 i, 16 i + 16)), so no list is made; within a block the slots run in
 * ascending order. */
void lb_parallel_each(lb_world *w, uint32_t type, lb_parallel_entity_fn *fn, void *context);

#endif
