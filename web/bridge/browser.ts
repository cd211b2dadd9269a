/** Limber for browsers and bundlers (the package's default export): deterministic procedural
 * character animation over the WebAssembly core. Imports no Node module.
 *
 * `createWorld()` fetches limber.wasm from beside this file. The URL is written as
 * `new URL('./limber.wasm', import.meta.url)` on purpose: Vite (build and dev, including
 * its dependency pre-bundling), Rollup, webpack 5 and esbuild's file loader recognise the
 * pattern and emit or serve the file. Elsewhere pass `options.wasm` (a URL, bytes, a
 * Response or a compiled module), e.g. `import wasm from 'limber/limber.wasm?url'`. */
import { createWorldOn } from './create.js';
import type { SpawnWorker } from './threads.js';
import { fetchWasm } from './wasm.js';
import type { CreateWorldOptions, World } from './world.js';

export * from './api.js';

/** A worker thread of a world on limber-mt.wasm (threads.ts, mt-worker.ts), written as
 * `new Worker(new URL('./mt-worker.js', import.meta.url), { type: 'module' })` for bundlers. */
const spawnBrowser: SpawnWorker = () => {
  const w = new Worker(new URL('./mt-worker.js', import.meta.url), { type: 'module' });
  return {
    post: (message) => w.postMessage(message),
    onReady: (fn) => {
      w.addEventListener('message', (e: MessageEvent<{ ready?: boolean; error?: string }>) => fn(e.data?.ready ? null : new Error(e.data?.error ?? 'no ready message')), { once: true });
      w.addEventListener('error', (e) => fn(new Error(e.message || 'the worker script failed to load')), { once: true });
      w.addEventListener('messageerror', () => fn(new Error('the worker could not receive the module')), { once: true });
    },
    unref: () => {},
    terminate: () => w.terminate(),
  };
};

/** Creates a world on a fresh instance of the core. Everything registered in it (grip
 * poses, finger poses, controllers, rigs) belongs to this world alone. In a cross-origin
 * isolated page (COOP/COEP headers) the world gets navigator.hardwareConcurrency threads by
 * default (limber-mt.wasm, fetched from beside this file like limber.wasm); elsewhere one. */
export async function createWorld(options: CreateWorldOptions = {}): Promise<World> {
  return createWorldOn(options ?? {}, {
    read: fetchWasm,
    cores: typeof navigator !== 'undefined' ? navigator.hardwareConcurrency ?? 1 : 1,
    isolated: typeof crossOriginIsolated !== 'undefined' && crossOriginIsolated === true,
    spawn: spawnBrowser,
    wasm: new URL('./limber.wasm', import.meta.url),
    threadsWasm: new URL('./limber-mt.wasm', import.meta.url),
  });
}
