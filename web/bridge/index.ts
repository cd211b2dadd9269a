/** Limber for Node (the package's `node` export): deterministic procedural character
 * animation over the WebAssembly core. `createWorld()` reads limber.wasm from beside this
 * file; `options.wasm` may be a path (relative to the working directory), a `file:` or
 * `http(s):` URL, bytes, a Response or a compiled module. */
import { readFile } from 'node:fs/promises';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { setSourceReader } from './level.js';
import { fetchWasm, instantiateLimber, type WasmFetcher } from './wasm.js';
import { type CreateWorldOptions, World } from './world.js';
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

/** Creates a world on a fresh instance of the core. Everything registered in it (grip
 * poses, finger poses, controllers, rigs) belongs to this world alone. */
export async function createWorld(options: CreateWorldOptions = {}): Promise<World> {
  const src = options.wasm ?? new URL('./limber.wasm', import.meta.url);
  // Each world gets its own instance; the compiled module is cached per URL.
  return new World(await instantiateLimber(src, readNode, pathToFileURL(`${process.cwd()}/`).href));
}
