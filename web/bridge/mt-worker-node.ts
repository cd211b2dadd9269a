/** A Node worker thread of a world on limber-mt.wasm (threads.ts): started by the bridge's
 * Node entry with worker_threads, it runs the world's sections until the world is destroyed,
 * then closes its port, which ends the thread. */
import { parentPort } from 'node:worker_threads';
import { runWorker, type WorkerStart } from './threads.js';

const port = parentPort;
if (!port) throw new Error('mt-worker-node.js runs only as a worker thread of the Limber bridge');
port.once('message', (start: WorkerStart) => {
  try {
    port.postMessage({ done: runWorker(start, () => port.postMessage({ ready: true })) });
  } catch (err) {
    port.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
  port.close();
});
