import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Relative base: the same build is served at / by the API server and from the Android package.
export default defineConfig({
  base: './',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
