/** Vite config for the playground: `npx vite --config web/playground/vite.config.ts`. It also
 * serves the third-person example game (web/examples/third-person) at /game/, the page
 * `npm start` opens first (`--open /game/`), with the playground's scenes one click away. */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
// @ts-expect-error plain JS module of the example (no types): the files the game fetches
import { GAME_FILES } from '../examples/third-person/files.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('../..', import.meta.url));

/** Cross-origin isolation: with these two headers a page may share memory with workers, so
 * createWorld() runs limber-mt.wasm on one thread per core (the HUD shows how many). */
const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

const TYPES: Record<string, string> = { '.json': 'application/json', '.glb': 'model/gltf-binary' };

/** The game at /game/: its assets/... requests answered from the repository's assets/ (dev),
 * the files it reads copied into the build, and both URLs printed at start. */
function thirdPersonGame(): Plugin {
  return {
    name: 'limber-third-person-game',
    configureServer(server) {
      server.middlewares.use('/game/assets/', (req, res, next) => {
        const path = normalize(decodeURIComponent((req.url ?? '').split('?')[0]!)).replace(/^[/\\]+/, '');
        const file = join(repo, 'assets', path);
        if (path.startsWith('..') || !existsSync(file) || !statSync(file).isFile()) return next();
        res.setHeader('Content-Type', TYPES[extname(file)] ?? 'application/octet-stream');
        createReadStream(file).pipe(res);
      });
      const print = server.printUrls.bind(server);
      server.printUrls = () => {
        print();
        const base = server.resolvedUrls?.local[0];
        if (base) server.config.logger.info(`  ➜  Game:       ${base}game/\n  ➜  Playground: ${base}  (scenes: the picker, or ?scene=<file>)`);
      };
    },
    generateBundle() {
      for (const path of GAME_FILES as string[]) this.emitFile({ type: 'asset', fileName: `game/${path}`, source: readFileSync(join(repo, path)) });
    },
  };
}

export default defineConfig({
  root: here,
  base: './',
  publicDir: false,
  clearScreen: false,
  // Own dependency cache, so another Vite app in the repo cannot swap it mid-run.
  cacheDir: fileURLToPath(new URL('../../node_modules/.vite/playground', import.meta.url)),
  plugins: [thirdPersonGame()],
  // The game imports the package by name, as an app that installed it does: here that is this
  // checkout's build (dist/, made by `node scripts/build.mjs ts`), which finds its own limber.wasm.
  resolve: {
    alias: [
      { find: /^limber$/, replacement: join(repo, 'dist/web/bridge/browser.js') },
      { find: /^limber\/three$/, replacement: join(repo, 'dist/web/three/index.js') },
    ],
  },
  server: {
    headers: ISOLATION,
    host: '127.0.0.1',
    port: 5173,
    strictPort: false,
    // The pages import ../bridge, ../three, ../../build (wasm), ../../assets, ../../dist and
    // ../examples/third-person.
    fs: { allow: [repo] },
  },
  preview: { host: '127.0.0.1', headers: ISOLATION },
  // Pre-bundle three (and the game's Recast) up front so the dev server never reloads the page mid-test.
  optimizeDeps: {
    include: [
      'three',
      'three/examples/jsm/controls/OrbitControls.js',
      'three/examples/jsm/controls/TransformControls.js',
      'three/examples/jsm/loaders/GLTFLoader.js',
      'three/examples/jsm/utils/SkeletonUtils.js',
      '@recast-navigation/core',
      '@recast-navigation/generators',
    ],
  },
  build: {
    outDir: fileURLToPath(new URL('../../dist/playground', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2048, // three.js ~600 kB; the game's Recast (wasm inlined) ~1 MB
    rollupOptions: { input: { playground: join(here, 'index.html'), game: join(here, 'game/index.html') } },
  },
});
