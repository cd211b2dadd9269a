/* The world's own thread pool (task_pool.h). One section at a time: the caller publishes it
 * and bumps `section`; every thread, the caller included, claims chunks from an atomic counter
 * until none is left; the caller waits until each worker has counted itself out of `busy`.
 * Which thread runs a chunk varies from run to run; what a chunk computes does not (no
 * reduction across chunks).
 *
 * Waiting spins first, then sleeps: a step's sections follow each other within microseconds,
 * and a condition variable's wake-up costs tens of them (measured on world.npc.1000 at two
 * threads: 1.46x with sleeping only). A worker spins LB_POOL_SPIN rounds for the next section,
 * the caller as long for the workers' end; past that both sleep (between steps, a game's frame
 * later), woken under the mutex, so no wake-up is missed. */
#include "task_pool.h"
#include "alloc.h"

#if LB_HAVE_THREADS && !LB_HOST_THREADS

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#define LB_POOL_SPIN 4096u /* rounds of a pause instruction: some tens of microseconds */

typedef struct lb_pool_worker {
  lb_task_pool *pool;
  pthread_t thread;
  uint32_t index;
} lb_pool_worker;

struct lb_task_pool {
  lb_allocator allocator;
  pthread_mutex_t mutex;
  pthread_cond_t wake, done;
  atomic_uint_fast64_t section; /* bumped (release) for each section, after its fields */
  atomic_uint busy;             /* workers still in the current section */
  atomic_bool stop;
  /* the current section, written before `section` is bumped */
  lb_task_fn *task;
  void *context;
  uint32_t count, chunk;
  atomic_uint next; /* the next chunk to claim */
  uint32_t workers; /* threads started (threads - 1) */
  lb_pool_worker *worker;
};

static inline void lb_pool_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ volatile("yield");
#endif
}

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
static uint64_t lb_pool_next_section(lb_task_pool *p, uint64_t seen) {
  for (uint32_t i = 0; i < LB_POOL_SPIN; ++i) {
    uint64_t now = atomic_load_explicit(&p->section, memory_order_acquire);
    if (now != seen || atomic_load_explicit(&p->stop, memory_order_acquire)) {
      return now;
    }
    lb_pool_pause();
  }
  pthread_mutex_lock(&p->mutex);
  uint64_t now;
  while ((now = atomic_load_explicit(&p->section, memory_order_acquire)) == seen &&
         !atomic_load_explicit(&p->stop, memory_order_acquire)) {
    pthread_cond_wait(&p->wake, &p->mutex);
  }
  pthread_mutex_unlock(&p->mutex);
  return now;
}

static void *lb_pool_main(void *arg) {
  lb_pool_worker *me = arg;
  lb_task_pool *p = me->pool;
  uint64_t seen = 0;
  for (;;) {
    seen = lb_pool_next_section(p, seen);
    if (atomic_load_explicit(&p->stop, memory_order_acquire)) {
      break;
    }
    lb_pool_claim(p, p->task, p->context, p->count, p->chunk, me->index);
    if (atomic_fetch_sub_explicit(&p->busy, 1u, memory_order_acq_rel) == 1u) {
      pthread_mutex_lock(&p->mutex); /* the caller may be asleep: wake it under the mutex */
      pthread_cond_signal(&p->done);
      pthread_mutex_unlock(&p->mutex);
    }
  }
  return NULL;
}

static void lb_pool_stop(lb_task_pool *p) {
  pthread_mutex_lock(&p->mutex);
  atomic_store_explicit(&p->stop, true, memory_order_release);
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mutex);
  for (uint32_t i = 0; i < p->workers; ++i) {
    pthread_join(p->worker[i].thread, NULL);
  }
  pthread_cond_destroy(&p->wake);
  pthread_cond_destroy(&p->done);
  pthread_mutex_destroy(&p->mutex);
}

lb_task_pool *lb_task_pool_create(const lb_allocator *a, uint32_t threads) {
  if (threads < 2u) {
    return NULL;
  }
  lb_task_pool *p = lb_mem_alloc(a, sizeof *p);
  lb_pool_worker *wk = lb_mem_alloc_array(a, threads - 1u, sizeof *wk);
  if (!p || !wk) {
    lb_mem_free(a, p);
    lb_mem_free(a, wk);
    return NULL;
  }
  p->allocator = *a;
  p->worker = wk;
  p->workers = 0;
  atomic_init(&p->next, 0u);
  atomic_init(&p->section, 0u);
  atomic_init(&p->busy, 0u);
  atomic_init(&p->stop, false);
  pthread_mutex_init(&p->mutex, NULL);
  pthread_cond_init(&p->wake, NULL);
  pthread_cond_init(&p->done, NULL);
  for (uint32_t i = 0; i + 1u < threads; ++i) {
    wk[i].pool = p;
    wk[i].index = i + 1u;
    if (pthread_create(&wk[i].thread, NULL, lb_pool_main, &wk[i]) != 0) {
      lb_task_pool_destroy(p);
      return NULL;
    }
    p->workers++;
  }
  return p;
}

void lb_task_pool_destroy(lb_task_pool *p) {
  if (!p) {
    return;
  }
  lb_pool_stop(p);
  lb_allocator a = p->allocator;
  lb_mem_free(&a, p->worker);
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
  pthread_mutex_lock(&p->mutex); /* a sleeping worker checks `section` under the mutex */
  atomic_fetch_add_explicit(&p->section, 1u, memory_order_release);
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mutex);
  lb_pool_claim(p, task, task_context, count, chunk, 0u);
  for (uint32_t i = 0; i < LB_POOL_SPIN; ++i) {
    if (atomic_load_explicit(&p->busy, memory_order_acquire) == 0u) {
      return;
    }
    lb_pool_pause();
  }
  pthread_mutex_lock(&p->mutex);
  while (atomic_load_explicit(&p->busy, memory_order_acquire) != 0u) {
    pthread_cond_wait(&p->done, &p->mutex);
  }
  pthread_mutex_unlock(&p->mutex);
}

#elif !LB_HOST_THREADS /* no threads: the world never creates a pool (threads is clamped to 1) */

lb_task_pool *lb_task_pool_create(const lb_allocator *a, uint32_t threads) {
  (void)a;
  (void)threads;
  return NULL;
}

void lb_task_pool_destroy(lb_task_pool *pool) {
  (void)pool;
}

void lb_task_pool_run(lb_task_pool *pool, lb_task_fn *task, uint32_t count, uint32_t chunk,
                      void *task_context) {
  (void)pool;
  if (count) {
    task(0u, count, 0u, task_context);
  }
  (void)chunk;
}

#endif /* LB_HOST_THREADS: task_pool_host.c */
