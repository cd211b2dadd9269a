/* The pool of limber-mt.wasm (task_pool.h, LB_HOST_THREADS): the same protocol as the pthreads
 * pool (task_pool.c: publish a section, bump `section`, every thread claims chunks from an
 * atomic counter, the caller waits until each worker has counted itself out of `busy`), but
 * the threads are the host's: Web Workers or Node worker_threads, each running the module on
 * its own instance over the one shared memory and calling lb_task_pool_work.
 *
 * Waiting: a worker spins LB_POOL_SPIN rounds for the next section, then sleeps in
 * memory.atomic.wait32 on `section` (woken by memory.atomic.notify). The caller never sleeps:
 * a browser's main thread may not wait (wait32 traps there), and the workers' part of a
 * section ends within microseconds of its own, so it spins until `busy` is 0.
 *
 * Everything the threads share sits in one block with the workers' stacks, so that the
 * bridge's restore of the whole memory can keep it (lb_task_pool_bytes): a restore must not
 * take `section` back under a value a worker has seen, nor write over a sleeping worker's
 * frames. */
#include "alloc.h"
#include "task_pool.h"

#if LB_HOST_THREADS

#include <stdatomic.h>
#include <stdint.h>

/* Rounds of an atomic load before a worker sleeps: a round is a nanosecond or two (wasm has no
 * pause instruction), so this is some hundreds of microseconds, as long as the pthreads pool's
 * 4,096 pauses; a step's serial parts between two sections take longer than a few
 * microseconds, and a wake-up from wait32 costs tens of them. */
#define LB_POOL_SPIN 131072u
#define LB_POOL_ALIGN 16u /* the stack pointer's alignment in wasm32 */

struct lb_task_pool {
  lb_allocator allocator;
  _Atomic uint32_t section; /* bumped (release) for each section, after its fields; wait32 */
  _Atomic uint32_t busy;    /* workers still in the current section */
  _Atomic uint32_t stop;
  _Atomic uint32_t entered; /* workers inside lb_task_pool_work */
  _Atomic uint32_t next;    /* the next chunk to claim */
  /* the current section, written before `section` is bumped */
  lb_task_fn *task;
  void *context;
  uint32_t count, chunk;
  uint32_t workers; /* the host's threads (threads - 1) */
  uint32_t bytes;   /* the whole block, stacks included */
  uintptr_t stacks; /* the first stack's lowest byte, LB_POOL_ALIGN-aligned */
};

static void lb_pool_claim(lb_task_pool *p, lb_task_fn *task, void *context, uint32_t count,
                          uint32_t chunk, uint32_t index) {
  for (;;) {
    uint32_t k = atomic_fetch_add_explicit(&p->next, 1u, memory_order_relaxed);
    uint64_t start = (uint64_t)k * chunk;
    if (start >= count) {
      return;
    }
    uint64_t end = start + chunk < count ? start + chunk : count;
    task((uint32_t)start, (uint32_t)end, index, context);
  }
}

/* The next section after `seen` (spinning, then asleep), or `seen` when stopping. */
static uint32_t lb_pool_next_section(lb_task_pool *p, uint32_t seen) {
  for (uint32_t i = 0;; ++i) {
    uint32_t now = atomic_load_explicit(&p->section, memory_order_acquire);
    if (now != seen || atomic_load_explicit(&p->stop, memory_order_acquire)) {
      return now;
    }
    if (i >= LB_POOL_SPIN) {
      /* returns at once when `section` is no longer `seen`, so no bump is missed */
      __builtin_wasm_memory_atomic_wait32((int32_t *)&p->section, (int32_t)seen, -1);
    }
  }
}

void lb_task_pool_work(lb_task_pool *p, uint32_t index) {
  atomic_fetch_add_explicit(&p->entered, 1u, memory_order_acq_rel);
  /* sections count from 0: one published before this worker arrived is still run by it */
  uint32_t seen = 0;
  for (;;) {
    seen = lb_pool_next_section(p, seen);
    if (atomic_load_explicit(&p->stop, memory_order_acquire)) {
      break;
    }
    lb_pool_claim(p, p->task, p->context, p->count, p->chunk, index);
    atomic_fetch_sub_explicit(&p->busy, 1u, memory_order_acq_rel);
  }
  atomic_fetch_sub_explicit(&p->entered, 1u, memory_order_acq_rel);
}

lb_task_pool *lb_task_pool_create(const lb_allocator *a, uint32_t threads) {
  if (threads < 2u) {
    return NULL;
  }
  size_t head = (sizeof(lb_task_pool) + LB_POOL_ALIGN - 1u) & ~(size_t)(LB_POOL_ALIGN - 1u);
  size_t bytes = head + LB_POOL_ALIGN + (size_t)(threads - 1u) * LB_POOL_STACK_BYTES;
  lb_task_pool *p = lb_mem_alloc(a, bytes);
  if (!p) {
    return NULL;
  }
  p->allocator = *a;
  atomic_init(&p->section, 0u);
  atomic_init(&p->busy, 0u);
  atomic_init(&p->stop, 0u);
  atomic_init(&p->entered, 0u);
  atomic_init(&p->next, 0u);
  p->task = NULL;
  p->context = NULL;
  p->count = p->chunk = 0;
  p->workers = threads - 1u;
  p->bytes = (uint32_t)bytes;
  p->stacks = ((uintptr_t)p + head + LB_POOL_ALIGN - 1u) & ~(uintptr_t)(LB_POOL_ALIGN - 1u);
  return p;
}

void lb_task_pool_destroy(lb_task_pool *p) {
  if (!p) {
    return;
  }
  atomic_store_explicit(&p->stop, 1u, memory_order_release);
  atomic_fetch_add_explicit(&p->section, 1u, memory_order_release);
  __builtin_wasm_memory_atomic_notify((int32_t *)&p->section, UINT32_MAX);
  /* the block holds the workers' stacks: free it only once every worker has left it */
  while (atomic_load_explicit(&p->entered, memory_order_acquire) != 0u) {
  }
  lb_allocator a = p->allocator;
  lb_mem_free(&a, p);
}

void lb_task_pool_run(lb_task_pool *p, lb_task_fn *task, uint32_t count, uint32_t chunk,
                      void *task_context) {
  chunk = chunk ? chunk : 1u;
  p->task = task;
  p->context = task_context;
  p->count = count;
  p->chunk = chunk;
  atomic_store_explicit(&p->next, 0u, memory_order_relaxed);
  atomic_store_explicit(&p->busy, p->workers, memory_order_relaxed);
  atomic_fetch_add_explicit(&p->section, 1u, memory_order_release);
  __builtin_wasm_memory_atomic_notify((int32_t *)&p->section, p->workers);
  lb_pool_claim(p, task, task_context, count, chunk, 0u);
  while (atomic_load_explicit(&p->busy, memory_order_acquire) != 0u) {
  }
}

void *lb_task_pool_stack_top(lb_task_pool *p, uint32_t index) {
  if (!p || index == 0u || index > p->workers) {
    return NULL;
  }
  return (void *)(p->stacks + (uintptr_t)index * LB_POOL_STACK_BYTES);
}

uint32_t lb_task_pool_entered(lb_task_pool *p) {
  return p ? atomic_load_explicit(&p->entered, memory_order_acquire) : 0u;
}

uint32_t lb_task_pool_bytes(const lb_task_pool *p) {
  return p ? p->bytes : 0u;
}

#endif
