/** Limber for Node (the package's `node` export): deterministic procedural character
 * animation over the WebAssembly core. `createWorld()` reads limber.wasm from beside this
 * file; `options.wasm` may be a path (relative to the working directory), a `file:` or
 * `http(s):` URL, bytes, a Response or a compiled module. */
import { readFile } from 'node:fs/promises';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { setSourceReader } from './level.js';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { createWorldOn } from './create.js';
import type { SpawnWorker } from './threads.js';
import { fetchWasm, type WasmFetcher } from './wasm.js';
import type { CreateWorldOptions, World } from './world.js';
import { LimberError } from './errors.js';
import { setRecastLoader } from './nav.js';

export * from './api.js';

// Navmesh baking (bakeNavMesh): the optional peer packages, imported on the first bake.
setRecastLoader(async () => ({ core: await import('@recast-navigation/core'), generators: await import('@recast-navigation/generators') }));

// world.loadLevel / loadProp: paths and file: URLs from disk (relative to the working
// directory), other URLs fetched.
setSourceReader(
  async (url) => (url.protocol === 'file:' ? new Uint8Array(await readFile(fileURLToPath(url))) : new Uint8Array(await (await fetchOk(url)).arrayBuffer())),
  () => pathToFileURL(`${process.cwd()}/`).href,
);

async function fetchOk(url: URL): Promise<Response> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`status ${res.status}`);
  return res;
}

const readNode: WasmFetcher = async (url) => {
  if (url.protocol !== 'file:') return fetchWasm(url);
  const path = fileURLToPath(url);
  try {
    return await readFile(path);
  } catch (err) {
    const code = (err as { code?: string }).code ?? String(err);
    throw new LimberError('LB_ERR_WASM_LOAD', `limber.wasm not found at ${path} (${code})`);
  }
};

/** A worker thread of a world on limber-mt.wasm (threads.ts, mt-worker-node.ts). */
const spawnNode: SpawnWorker = () => {
  // No execArgv of the parent's: e.g. `node --input-type=module -e` would make the worker fail.
  const w = new Worker(new URL('./mt-worker-node.js', import.meta.url), { execArgv: [] });
  return {
    post: (message) => w.postMessage(message),
    onReady: (fn) => {
      w.once('message', (m: { ready?: boolean; error?: string }) => fn(m?.ready ? null : new Error(m?.error ?? 'no ready message')));
      w.once('error', (e: unknown) => fn(e instanceof Error ? e : new Error(String(e))));
      w.once('exit', (code) => fn(new Error(`the worker exited (code ${code})`)));
    },
    unref: () => w.unref(),
    terminate: () => void w.terminate(),
  };
};

/** Creates a world on a fresh instance of the core. Everything registered in it (grip
 * poses, finger poses, controllers, rigs) belongs to this world alone. Node always runs
 * threads: by default the world gets os.availableParallelism() of them (options.threads). */
export async function createWorld(options: CreateWorldOptions = {}): Promise<World> {
  return createWorldOn(options ?? {}, {
    read: readNode,
    base: pathToFileURL(`${process.cwd()}/`).href,
    cores: availableParallelism(),
    isolated: true,
    spawn: spawnNode,
    wasm: new URL('./limber.wasm', import.meta.url),
    threadsWasm: new URL('./limber-mt.wasm', import.meta.url),
  });
}
