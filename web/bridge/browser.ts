/** Limber for browsers and bundlers (the package's default export): deterministic procedural
 * character animation over the WebAssembly core. Imports no Node module.
 *
 * `createWorld()` fetches limber.wasm from beside this file. The URL is written as
 * `new URL('./limber.wasm', import.meta.url)` on purpose: Vite (build and dev, including
 * its dependency pre-bundling), Rollup, webpack 5 and esbuild's file loader recognise the
 * pattern and emit or serve the file. Elsewhere pass `options.wasm` (a URL, bytes, a
 * Response or a compiled module), e.g. `import wasm from 'limber/limber.wasm?url'`. */
import { fetchWasm, instantiateLimber } from './wasm.js';
import { type CreateWorldOptions, World } from './world.js';

export * from './api.js';

/** Creates a world on a fresh instance of the core. Everything registered in it (grip
 * poses, finger poses, controllers, rigs) belongs to this world alone. */
export async function createWorld(options: CreateWorldOptions = {}): Promise<World> {
  const src = options.wasm ?? new URL('./limber.wasm', import.meta.url);
  // Each world gets its own instance; the compiled module is cached per URL.
  return new World(await instantiateLimber(src, fetchWasm));
}
