import { defineConfig } from 'vite';

// Nothing Limber-specific: createWorld() finds limber.wasm in dev and in the build.
export default defineConfig({
  server: { host: '127.0.0.1' },
  build: { chunkSizeWarningLimit: 1024 }, // three.js alone is ~600 kB
  preview: { host: '127.0.0.1' },
});
