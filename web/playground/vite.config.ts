/** Vite config for the playground: `npx vite --config web/playground/vite.config.ts`. */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const repo = fileURLToPath(new URL('../..', import.meta.url));

export default defineConfig({
  root: here,
  base: './',
  publicDir: false,
  clearScreen: false,
  // Own dependency cache, so another Vite app in the repo cannot swap it mid-run.
  cacheDir: fileURLToPath(new URL('../../node_modules/.vite/playground', import.meta.url)),
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: false,
    // The page imports ../bridge, ../three, ../../build (wasm) and ../../assets.
    fs: { allow: [repo] },
  },
  preview: { host: '127.0.0.1' },
  // Pre-bundle three up front so the dev server never reloads the page mid-test.
  optimizeDeps: {
    include: ['three', 'three/examples/jsm/controls/OrbitControls.js', 'three/examples/jsm/controls/TransformControls.js', 'three/examples/jsm/loaders/GLTFLoader.js'],
  },
  build: {
    outDir: fileURLToPath(new URL('../../dist/playground', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1024, // three.js alone is ~600 kB
  },
});
