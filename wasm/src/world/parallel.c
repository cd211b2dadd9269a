/* The parallel-for of the step's sections (parallel.h). No allocation: the items are blocks of
 * the component stores' presence bits, the pool and its threads exist from creation. */
#include "parallel.h"
#include "../base/task_pool.h"

lb_result lb_parallel_init(lb_world *w, const lb_world_def *def) {
  w->threads = LB_HAVE_THREADS ? def->threads : 1u;
  w->enqueue_task = def->enqueue_task;
  w->finish_task = def->finish_task;
  w->user_task_context = def->user_task_context;
  if (w->threads > 1u && !w->enqueue_task) {
    w->pool = lb_task_pool_create(&w->allocator, w->threads);
    if (!w->pool) {
      return LB_ERR_OUT_OF_MEMORY;
    }
  }
  return LB_OK;
}

void lb_parallel_release(lb_world *w) {
  lb_task_pool_destroy(w->pool);
  w->pool = NULL;
}

void lb_parallel_for(lb_world *w, uint32_t count, lb_task_fn *task, void *task_context) {
  if (count == 0) {
    return;
  }
  if (w->threads <= 1u || count <= LB_PARALLEL_CHUNK) {
    task(0u, count, 0u, task_context);
  } else if (w->enqueue_task) {
    void *t = w->enqueue_task(task, count, LB_PARALLEL_CHUNK, task_context, w->user_task_context);
    if (t) {
      w->finish_task(t, w->user_task_context);
    }
  } else {
    lb_task_pool_run(w->pool, task, count, LB_PARALLEL_CHUNK, task_context);
  }
}

typedef struct lb_each_task {
  lb_world *w;
  uint32_t type;
  lb_parallel_entity_fn *fn;
  void *context;
} lb_each_task;

static void lb_parallel_each_range(uint32_t start, uint32_t end, uint32_t worker, void *ctx) {
  const lb_each_task *t = ctx;
  const uint64_t *present = t->w->stores[t->type].present;
  _Static_assert(LB_STORE_PAGE_SLOTS % LB_PARALLEL_BLOCK == 0, "blocks split pages evenly");
  for (uint32_t b = start; b < end; ++b) {
    uint32_t first = b * LB_PARALLEL_BLOCK;
    uint32_t shift = first & (LB_STORE_PAGE_SLOTS - 1u);
    uint64_t bits =
        (present[first >> LB_STORE_PAGE_BITS] >> shift) & ((UINT64_C(1) << LB_PARALLEL_BLOCK) - 1u);
    while (bits) {
      t->fn(t->w, first + (uint32_t)__builtin_ctzll(bits), worker, t->context);
      bits &= bits - 1u;
    }
  }
}

void lb_parallel_each(lb_world *w, uint32_t type, lb_parallel_entity_fn *fn, void *context) {
  if (w->stores[type].count == 0) {
    return;
  }
  uint32_t blocks = (w->high_water + LB_PARALLEL_BLOCK - 1u) / LB_PARALLEL_BLOCK;
  lb_each_task t = {w, type, fn, context};
  lb_parallel_for(w, blocks, lb_parallel_each_range, &t);
}
