/** createWorld for both entries (index.ts: Node, browser.ts: browsers): picks the module and
 * the threads, and starts the workers of a threaded world (threads.ts). */
import { instantiateThreaded, plannedThreads, type SpawnWorker, startWorkers, threadsAvailable, threadsOption } from './threads.js';
import { instantiateLimber, type WasmFetcher, type WasmSource } from './wasm.js';
import { type CreateWorldOptions, World } from './world.js';

/** What an entry knows of its host. */
export interface Host {
  read: WasmFetcher;
  /** The base of relative paths and URLs in options (Node: the working directory). */
  base?: string;
  cores: number;
  /** Whether the host may share memory with workers (Node; a page when crossOriginIsolated). */
  isolated: boolean;
  spawn: SpawnWorker;
  /** The shipped modules beside the entry. */
  wasm: WasmSource;
  threadsWasm: WasmSource;
}

/** A world on limber-mt.wasm with `threads` threads, its workers started. */
async function threadedWorld(src: WasmSource, threads: number, host: Host): Promise<World> {
  const { ex, module, memory } = await instantiateThreaded(src, host.read, host.base);
  const world = new World(ex, threads);
  try {
    world.attachWorkers(await world.native((ctx) => startWorkers(ctx.ex, ctx.w, module, memory, host.spawn)));
  } catch (err) {
    world.destroy();
    throw err;
  }
  return world;
}

/** Each world gets its own instance (and, threaded, its own memory and workers); compiled
 * modules are cached per URL. */
export async function createWorldOn(options: CreateWorldOptions, host: Host): Promise<World> {
  const asked = threadsOption(options.threads);
  const singleChosen = options.wasm !== undefined && options.threadsWasm === undefined;
  const threads = plannedThreads(asked, host.cores, threadsAvailable(host.isolated), singleChosen);
  if (threads > 1) {
    try {
      return await threadedWorld(options.threadsWasm ?? host.threadsWasm, threads, host);
    } catch (err) {
      // Asked for threads: say why there are none. By default: one thread, as where threads
      // cannot run (world.threads tells).
      if (asked !== undefined) throw err;
    }
  }
  return new World(await instantiateLimber(options.wasm ?? host.wasm, host.read, host.base));
}
