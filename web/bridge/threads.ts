/** The host side of limber-mt.wasm's threads. Emscripten 3.1.6 links no standalone module
 * with -pthread, so the core's pool (wasm/src/base/task_pool_host.c) starts no thread: its
 * threads-1 workers are the host's (Web Workers in a browser, worker_threads in Node). Each
 * worker instantiates the same compiled module over the world's one shared memory, sets its
 * own stack pointer to its stack inside the pool's block, and calls lbw_pool_work(pool, i),
 * which waits for sections in memory.atomic.wait32 and returns when the world is destroyed.
 * The thread that steps (a browser's main thread too) takes chunks, then spins until the
 * section's chunks are done: it never waits, which a browser's main thread may not. This file imports nothing
 * from Node: the entries (index.ts, browser.ts) pass how to start a worker. */
import { LimberError } from './errors.js';
import { compileLimber, instantiateModule, limberImports, type LimberExports, type WasmFetcher, type WasmSource } from './wasm.js';

/** Threads a world may run on (lb_world_def.threads: 1..LB_MAX_THREADS). */
export const MAX_THREADS = 64;

/** What the bridge posts to a worker (the worker scripts: mt-worker.ts, mt-worker-node.ts). */
export interface WorkerStart {
  module: WebAssembly.Module;
  memory: WebAssembly.Memory;
  pool: number;
  index: number;
  stackTop: number;
}

/** A started worker as the bridge needs it, whatever the host's kind. */
export interface HostWorker {
  post(message: WorkerStart): void;
  /** fn(null) when the worker is in lbw_pool_work's reach (posted 'ready'), fn(error) on any
   * failure before that. */
  onReady(fn: (error: Error | null) => void): void;
  /** Lets the process exit while the worker lives (Node); nothing in a browser. */
  unref(): void;
  terminate(): void;
}

/** How an entry starts a worker (one call per worker). */
export type SpawnWorker = () => HostWorker;

/** The threads a createWorld call asked for: a whole number 1..64, or the default. */
export function threadsOption(threads: unknown): number | undefined {
  if (threads === undefined) return undefined;
  if (typeof threads !== 'number' || !Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) {
    throw new LimberError('LB_ERR_OUT_OF_RANGE', `LB_ERR_OUT_OF_RANGE: createWorld: options.threads = ${typeof threads === 'number' ? threads : JSON.stringify(threads) ?? String(threads)}: must be a whole number 1..${MAX_THREADS} (1: limber.wasm on the calling thread)`, { field: 'threads' });
  }
  return threads;
}

/** Whether this host can run limber-mt.wasm: shared memory exists (a browser page only when
 * cross-origin isolated, i.e. served with COOP/COEP headers) and workers can be started. */
export function threadsAvailable(isolated: boolean): boolean {
  if (!isolated || typeof SharedArrayBuffer === 'undefined' || typeof Atomics === 'undefined') return false;
  try {
    return new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true }).buffer instanceof SharedArrayBuffer;
  } catch {
    return false;
  }
}

/** The threads a world gets: `asked` (validated) or, by default, the host's cores when it can
 * run threads and no single-threaded `wasm` was chosen; 1 when it cannot. */
export function plannedThreads(asked: number | undefined, cores: number, available: boolean, wasmChosen: boolean): number {
  if (!available) return 1;
  if (asked !== undefined) return asked;
  if (wasmChosen) return 1;
  return Math.max(1, Math.min(MAX_THREADS, Math.floor(cores) || 1));
}

/** A main instance of limber-mt.wasm on a fresh shared memory. */
export async function instantiateThreaded(src: WasmSource, read?: WasmFetcher, base?: string): Promise<{ ex: LimberExports; module: WebAssembly.Module; memory: WebAssembly.Memory }> {
  const module = await compileLimber(src, read, base);
  const { ex, memory } = await instantiateModule(module);
  if (!(memory.buffer instanceof SharedArrayBuffer)) throw new LimberError('LB_ERR_WASM_LOAD', 'LB_ERR_WASM_LOAD: createWorld: options.threadsWasm is not limber-mt.wasm (its memory is not shared)');
  return { ex, module, memory };
}

/** The exports only limber-mt.wasm has. */
interface ThreadedExports {
  lbw_world_pool(w: number): number;
  lbw_pool_stack_top(pool: number, index: number): number;
  lbw_pool_entered(pool: number): number;
  lbw_pool_bytes(pool: number): number;
}

/** A world's running workers. */
export interface Workers {
  /** The pool's block (its shared state and the workers' stacks): World.restore keeps it. */
  pool: number;
  bytes: number;
  terminate(): void;
}

/** How long a worker may take to load its script and instantiate the module. */
const READY_MS = 30_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startError(why: string): LimberError {
  return new LimberError('LB_ERR_WASM_LOAD', `LB_ERR_WASM_LOAD: createWorld: the worker threads of limber-mt.wasm did not start (${why})`);
}

/** Starts the threads-1 workers of world `w` and resolves once every one is inside
 * lbw_pool_work (the pool frees its block, their stacks, only after each has left it, so none
 * may arrive late). Rejects with a LimberError, every worker stopped, when one fails. */
export async function startWorkers(exports: LimberExports, w: number, module: WebAssembly.Module, memory: WebAssembly.Memory, spawn: SpawnWorker): Promise<Workers> {
  const ex = exports as unknown as ThreadedExports;
  if (typeof ex.lbw_world_pool !== 'function') throw startError('the module is not limber-mt.wasm: it has no lbw_world_pool');
  const pool = ex.lbw_world_pool(w) >>> 0;
  const started: HostWorker[] = [];
  const terminate = () => {
    for (const wk of started) wk.terminate();
    started.length = 0;
  };
  if (!pool) return { pool: 0, bytes: 0, terminate };
  try {
    const ready: Promise<void>[] = [];
    for (let index = 1; ; index++) {
      const stackTop = ex.lbw_pool_stack_top(pool, index) >>> 0;
      if (!stackTop) break;
      const wk = spawn();
      started.push(wk);
      ready.push(new Promise((resolve, reject) => wk.onReady((e) => (e ? reject(e) : resolve()))));
      wk.post({ module, memory, pool, index, stackTop });
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no worker ready after ${READY_MS / 1000} s`)), READY_MS);
    });
    try {
      await Promise.race([Promise.all(ready), late]);
    } finally {
      clearTimeout(timer);
    }
    // 'ready' is posted just before the call: wait the few microseconds until all are in.
    for (let i = 0; ex.lbw_pool_entered(pool) !== started.length; i++) {
      if (i > 10000) throw new Error(`${ex.lbw_pool_entered(pool)} of ${started.length} entered the pool`);
      await sleep(1);
    }
  } catch (err) {
    terminate();
    throw err instanceof LimberError ? err : startError(err instanceof Error ? err.message : String(err));
  }
  // Node: a world left undisposed must not keep the process alive.
  for (const wk of started) wk.unref();
  return { pool, bytes: ex.lbw_pool_bytes(pool) >>> 0, terminate };
}

/** The worker's side, shared by both worker scripts: instantiate, take its stack, say ready,
 * run the pool until the world is destroyed. Returns lbw_pool_work's result. */
export function runWorker(start: WorkerStart, ready: () => void): number {
  const instance = new WebAssembly.Instance(start.module, limberImports(start.module, start.memory));
  // No _initialize: the main instance ran the constructors, and the data segments are
  // initialised once per memory (wasm-ld's __wasm_init_memory for shared memory).
  const ex = instance.exports as unknown as { stackRestore(p: number): void; lbw_pool_work(pool: number, index: number): number };
  ex.stackRestore(start.stackTop);
  ready();
  return ex.lbw_pool_work(start.pool, start.index);
}
