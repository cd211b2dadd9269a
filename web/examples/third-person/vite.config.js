import { defineConfig } from 'vite';

// Nothing Limber-specific: createWorld() finds limber.wasm in dev and in the build.
export default defineConfig({
  server: { host: '127.0.0.1' },
  build: { chunkSizeWarningLimit: 2048 }, // three.js ~600 kB, Recast's inlined wasm ~1 MB
  preview: { host: '127.0.0.1' },
});
