import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from '../scripts/vite-precompress.mjs';
import { serviceWorker } from './build/service-worker-plugin';

// Relative base: the same build is served at / by the API server and from the Android package.
// The service worker and the compressed copies: decision 036.
export default defineConfig({
  base: './',
  plugins: [react(), serviceWorker(), precompress({ exclude: /^sw\.js$/ })],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
