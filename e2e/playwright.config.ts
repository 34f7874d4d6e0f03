import { defineConfig } from '@playwright/test';
import { E2E_BASE_URL } from './support/server';

/** Debian's Chromium, never a downloaded browser; flags for a closed network and a root user. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 2,
  retries: 0,
  forbidOnly: true,
  globalSetup: './support/global-setup.ts',
  reporter: [['list'], ['json', { outputFile: '../.tmp/playwright-results.json' }]],
  use: {
    baseURL: E2E_BASE_URL,
    browserName: 'chromium',
    viewport: { width: 390, height: 780 },
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'app', testIgnore: /(earn|team-income|otc-appeal|console-otc)\.spec\.ts/ },
    // The earn and team income tests move the server's clock forward (to advance the platform day),
    // which would upset every authenticator code and window the others rely on: they run last. So do
    // the OTC appeal tests (past an order's release window, so that an appeal may be made).
    { name: 'advancing-clock', testMatch: /(earn|team-income|otc-appeal|console-otc)\.spec\.ts/, dependencies: ['app'] },
  ],
});
