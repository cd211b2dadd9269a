/* The world's own thread pool (task_pool.h). One section at a time: the caller publishes it
 * under the mutex and wakes the workers; every thread, the caller included, claims chunks
 * from an atomic counter until none is left; the caller waits until each worker has reported
 * back under the mutex, which also publishes the workers' writes to it. Which thread runs a
 * chunk varies from run to run; what a chunk computes does not (no reduction across chunks). */
#include "task_pool.h"
#include "alloc.h"

#if LB_HAVE_THREADS

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

typedef struct lb_pool_worker {
  lb_task_pool *pool;
  pthread_t thread;
  uint32_t index;
} lb_pool_worker;

struct lb_task_pool {
  lb_allocator allocator;
  pthread_mutex_t mutex;
  pthread_cond_t wake, done;
  uint64_t section; /* bumped for each section; workers wait for a new value */
  uint32_t busy;    /* workers still in the current section */
  bool stop;
  /* the current section, written under the mutex before `section` is bumped */
  lb_task_fn *task;
  void *context;
  uint32_t count, chunk;
  atomic_uint next; /* the next chunk to claim */
  uint32_t workers; /* threads started (threads - 1) */
  lb_pool_worker *worker;
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

static void *lb_pool_main(void *arg) {
  lb_pool_worker *me = arg;
  lb_task_pool *p = me->pool;
  uint64_t seen = 0;
  pthread_mutex_lock(&p->mutex);
  for (;;) {
    while (p->section == seen && !p->stop) {
      pthread_cond_wait(&p->wake, &p->mutex);
    }
    if (p->stop) {
      break;
    }
    seen = p->section;
    lb_task_fn *task = p->task;
    void *context = p->context;
    uint32_t count = p->count, chunk = p->chunk;
    pthread_mutex_unlock(&p->mutex);
    lb_pool_claim(p, task, context, count, chunk, me->index);
    pthread_mutex_lock(&p->mutex);
    if (--p->busy == 0) {
      pthread_cond_signal(&p->done);
    }
  }
  pthread_mutex_unlock(&p->mutex);
  return NULL;
}

static void lb_pool_stop(lb_task_pool *p) {
  pthread_mutex_lock(&p->mutex);
  p->stop = true;
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
  atomic_init(&p->next, 0u);
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
  pthread_mutex_lock(&p->mutex);
  p->task = task;
  p->context = task_context;
  p->count = count;
  p->chunk = chunk;
  atomic_store_explicit(&p->next, 0u, memory_order_relaxed);
  p->busy = p->workers;
  p->section++;
  pthread_cond_broadcast(&p->wake);
  pthread_mutex_unlock(&p->mutex);
  lb_pool_claim(p, task, task_context, count, chunk, 0u);
  pthread_mutex_lock(&p->mutex);
  while (p->busy > 0) {
    pthread_cond_wait(&p->done, &p->mutex);
  }
  pthread_mutex_unlock(&p->mutex);
}

#else /* no threads: the world never creates a pool (threads is clamped to 1) */

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

#endif
