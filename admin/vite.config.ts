import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from '../scripts/vite-precompress.mjs';

// Served by the API server under /admin/; a relative base keeps asset URLs right there.
export default defineConfig({
  base: './',
  // Brotli and gzip copies of the files, sent as they are by the server (decision 036).
  plugins: [react(), precompress()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { proxy: { '/api': 'http://localhost:8080', '/healthz': 'http://localhost:8080' } },
});
