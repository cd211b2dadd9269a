import { defineConfig } from 'vite';

// Cross-origin isolation: with these two headers the page may share memory with workers, so
// createWorld() runs limber-mt.wasm on one thread per core; without them, one thread.
const isolation = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

// createWorld() finds limber.wasm, limber-mt.wasm and its worker script in dev and in the
// build. In dev, limber is served as it is, not pre-bundled: a pre-bundled copy would look for
// its worker script beside the bundle.
export default defineConfig({
  server: { host: '127.0.0.1', headers: isolation },
  optimizeDeps: { exclude: ['limber'] },
  build: { chunkSizeWarningLimit: 2048 }, // three.js ~600 kB, Recast's inlined wasm ~1 MB
  preview: { host: '127.0.0.1', headers: isolation },
});
