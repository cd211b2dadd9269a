/* The pool of limber-mt.wasm (task_pool.h, LB_HOST_THREADS): the threads are the host's (Web
 * Workers or Node worker_threads, each running the module on its own instance over the one
 * shared memory and calling lb_task_pool_work), never started here.
 *
 * A section: the caller writes its fields, then the claim ticket (the section's number in the
 * high 32 bits, the next chunk in the low ones), then bumps `section` and wakes the workers.
 * Every thread, the caller included, claims chunks by compare-and-swap on the ticket, so a
 * claim can only succeed in the section whose fields it read; the caller waits until `done`
 * counts every chunk, not for the workers: a worker that wakes late (descheduled on a busy
 * machine, or asleep) finds nothing left and costs the section nothing. Which thread runs a
 * chunk varies from run to run; what a chunk computes does not (no reduction across chunks).
 *
 * Waiting: a worker spins LB_POOL_SPIN rounds for the next section, then sleeps in
 * memory.atomic.wait32 on `section` (woken by memory.atomic.notify). The caller never sleeps:
 * a browser's main thread may not wait (wait32 traps there); it spins only while chunks it did
 * not take are still running.
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
  _Atomic uint64_t ticket;  /* (section << 32) | next chunk; stored (release) after the fields */
  _Atomic uint32_t section; /* bumped for each section and at stop; the workers' wait32 word */
  _Atomic uint32_t done;    /* chunks of the current section finished */
  _Atomic uint32_t stop;
  _Atomic uint32_t entered; /* workers inside lb_task_pool_work */
  /* the current section, written before its ticket; atomics (relaxed) because a late worker
   * may read them while the caller writes the next section's: its claim then fails */
  _Atomic(lb_task_fn *) task;
  _Atomic(void *) context;
  _Atomic uint32_t count, chunk, chunks;
  uint32_t workers; /* the host's threads (threads - 1) */
  uint32_t bytes;   /* the whole block, stacks included */
  uintptr_t stacks; /* the first stack's lowest byte, LB_POOL_ALIGN-aligned */
};

/* Claims and runs chunks of the section in the ticket until none is left. */
static void lb_pool_claim(lb_task_pool *p, uint32_t index) {
  uint64_t t = atomic_load_explicit(&p->ticket, memory_order_acquire);
  for (;;) {
    lb_task_fn *task = atomic_load_explicit(&p->task, memory_order_relaxed);
    void *context = atomic_load_explicit(&p->context, memory_order_relaxed);
    uint32_t count = atomic_load_explicit(&p->count, memory_order_relaxed);
    uint32_t chunk = atomic_load_explicit(&p->chunk, memory_order_relaxed);
    uint32_t k = (uint32_t)t;
    if (k >= atomic_load_explicit(&p->chunks, memory_order_relaxed)) {
      return;
    }
    /* succeeds only while the ticket is still this section's: the fields read are its own */
    if (!atomic_compare_exchange_weak_explicit(&p->ticket, &t, t + 1u, memory_order_acq_rel,
                                               memory_order_acquire)) {
      continue;
    }
    uint64_t start = (uint64_t)k * chunk;
    uint64_t end = start + chunk < count ? start + chunk : count;
    task((uint32_t)start, (uint32_t)end, index, context);
    atomic_fetch_add_explicit(&p->done, 1u, memory_order_release);
    t = atomic_load_explicit(&p->ticket, memory_order_acquire);
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
  uint32_t seen = 0;
  for (;;) {
    seen = lb_pool_next_section(p, seen);
    if (atomic_load_explicit(&p->stop, memory_order_acquire)) {
      break;
    }
    lb_pool_claim(p, index);
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
  atomic_init(&p->ticket, 0u);
  atomic_init(&p->section, 0u);
  atomic_init(&p->done, 0u);
  atomic_init(&p->stop, 0u);
  atomic_init(&p->entered, 0u);
  atomic_init(&p->task, NULL);
  atomic_init(&p->context, NULL);
  atomic_init(&p->count, 0u);
  atomic_init(&p->chunk, 0u);
  atomic_init(&p->chunks, 0u); /* ticket 0, chunks 0: nothing to claim before the first section */
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
  uint32_t chunks = (uint32_t)(((uint64_t)count + chunk - 1u) / chunk);
  /* every chunk of the last section is done (its caller waited), so no thread writes these */
  atomic_store_explicit(&p->task, task, memory_order_relaxed);
  atomic_store_explicit(&p->context, task_context, memory_order_relaxed);
  atomic_store_explicit(&p->count, count, memory_order_relaxed);
  atomic_store_explicit(&p->chunk, chunk, memory_order_relaxed);
  atomic_store_explicit(&p->chunks, chunks, memory_order_relaxed);
  atomic_store_explicit(&p->done, 0u, memory_order_relaxed);
  uint32_t section = atomic_load_explicit(&p->section, memory_order_relaxed) + 1u;
  atomic_store_explicit(&p->ticket, (uint64_t)section << 32, memory_order_release);
  atomic_store_explicit(&p->section, section, memory_order_release);
  __builtin_wasm_memory_atomic_notify((int32_t *)&p->section, p->workers);
  lb_pool_claim(p, 0u);
  while (atomic_load_explicit(&p->done, memory_order_acquire) != chunks) {
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
