import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the API server under /admin/; a relative base keeps asset URLs right there.
export default defineConfig({
  base: './',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { proxy: { '/api': 'http://localhost:8080', '/healthz': 'http://localhost:8080' } },
});
