import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from '../scripts/vite-precompress.mjs';
import { codeSplitting } from './build/chunks';
import { compactIcons } from './build/compact-icons';
import { earlyStart } from './build/early-start';
import { launchScriptPlugin } from './build/launch-script';
import { firstPaintHead } from './build/first-paint-head';
import { firstTabGraph } from './build/first-tab-graph';
import { localeTexts } from './build/locale-texts';
import { releaseKey } from './build/release-key';
import { serviceWorker } from './build/service-worker-plugin';
import { uiKitRender } from './build/ui-kit-render';

// Relative base: the same build is served at / by the API server and from the Android package.
// The service worker and the compressed copies: decision 036; the chunks: decision 039; the
// texts' parts: decision 041.
export default defineConfig({
  base: './',
  plugins: [
    // First: a build with an unusable release key stops before anything is written (decision 057).
    releaseKey(),
    react(),
    compactIcons(),
    uiKitRender(),
    firstTabGraph(),
    localeTexts(),
    earlyStart(),
    // After earlyStart: its script goes first in the page (decision 047).
    launchScriptPlugin(),
    // After both: the head arranged for the first paint (decision 048).
    firstPaintHead(),
    serviceWorker(),
    precompress({ exclude: /^sw\.js$/ }),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // Every browser the app supports knows modulepreload; the polyfill was dead weight in the entry.
    modulePreload: { polyfill: false },
    // Fewer, larger files for the first screen (web/build/chunks.ts, decision 039).
    rolldownOptions: { output: { codeSplitting } },
  },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
