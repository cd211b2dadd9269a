/** A browser's worker thread of a world on limber-mt.wasm (threads.ts): started by the
 * bridge with `new Worker(new URL('./mt-worker.js', import.meta.url), { type: 'module' })`,
 * it runs the world's sections until the world is destroyed, then closes. */
import { runWorker, type WorkerStart } from './threads.js';

const scope = globalThis as unknown as {
  onmessage: ((e: { data: unknown }) => void) | null;
  postMessage(message: unknown): void;
  close(): void;
};

scope.onmessage = (e) => {
  scope.onmessage = null;
  try {
    scope.postMessage({ done: runWorker(e.data as WorkerStart, () => scope.postMessage({ ready: true })) });
  } catch (err) {
    scope.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
  scope.close();
};
