/* lb_bench_start_threads (bench.h): the host's workers of a threaded world in bench-mt.js
 * (limber-mt's core: the pool starts no thread, base/task_pool_host.c). Each worker is the
 * bridge's own worker script (dist/web/bridge/mt-worker-node.js) on this module's shared
 * memory, so the wasm-mt rows time what a threaded world in Node runs. */
#include "../../wasm/src/base/task_pool.h"
#include "../../wasm/src/world/world_core.h"
#include "bench.h"

#if LB_HOST_THREADS
#include <emscripten.h>

/* clang-format off */
EM_JS(int, lb_bench_host_workers, (void *pool, uint32_t workers), {
  const { Worker } = require('worker_threads');
  const path = require('path');
  const asm = Module['asm'];
  if (!Module['lbThreads']) {
    Module['lbThreads'] = {
      module: new WebAssembly.Module(require('fs').readFileSync(path.join(__dirname, 'bench-mt.wasm'))),
      script: path.join(__dirname, '..', '..', 'dist', 'web', 'bridge', 'mt-worker-node.js'),
    };
  }
  const t = Module['lbThreads'];
  for (let i = 1; i <= workers; i++) {
    const w = new Worker(t.script);
    w.unref();
    w.postMessage({ module: t.module, memory: wasmMemory, pool: pool, index: i, stackTop: asm['lbw_pool_stack_top'](pool, i) });
  }
  // Node's main thread may wait: until every worker is inside the pool (30 s at most).
  const nap = new Int32Array(new SharedArrayBuffer(4));
  for (let n = 0; asm['lbw_pool_entered'](pool) !== workers; n++) {
    if (n > 30000) return 0;
    Atomics.wait(nap, 0, 0, 1);
  }
  return 1;
});
/* clang-format on */

int lb_bench_start_threads(lb_world *w) {
  return w->pool ? lb_bench_host_workers(w->pool, w->threads - 1u) : 1;
}
#else
int lb_bench_start_threads(lb_world *w) {
  (void)w;
  return 1; /* native: the world's own pool started with it */
}
#endif
