// Draws the Android launcher icons and splash screens from the app's logo (public/favicon.svg's
// mark) with the machine's Chromium, at the sizes the Capacitor template uses. Run after
// `cap add android` or when the logo changes: `node scripts/android-assets.mjs` (from web/).
import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const RES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'android', 'app', 'src', 'main', 'res');
const BACKGROUND = '#111111';
const MARK = '<path d="M44 22a16 16 0 1 0 0 20" fill="none" stroke="#ff8a00" stroke-width="7" stroke-linecap="round"/>';
const DENSITY = { mdpi: 1, hdpi: 1.5, xhdpi: 2, xxhdpi: 3, xxxhdpi: 4 };
const SPLASH_DP = { port: [320, 480], land: [480, 320] };

/** The mark on a canvas of `width`×`height`: `markShare` of the shorter side, on `background` (or none). */
function page(width, height, { markShare, background, shape }) {
  const side = Math.round(Math.min(width, height) * markShare);
  const radius = shape === 'round' ? '50%' : shape === 'rounded' ? '22%' : '0';
  return `<!doctype html><html><body style="margin:0;width:${width}px;height:${height}px;display:flex;align-items:center;justify-content:center;background:transparent">
<div style="width:${width}px;height:${height}px;border-radius:${radius};background:${background ?? 'transparent'};display:flex;align-items:center;justify-content:center">
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="${side}" height="${side}">${MARK}</svg></div></body></html>`;
}

async function draw(browser, file, width, height, options) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
  const tab = await context.newPage();
  await tab.setContent(page(width, height, options));
  await tab.screenshot({ path: file, omitBackground: true });
  await context.close();
}

if (!existsSync(RES)) throw new Error(`no Android project at ${RES}: run npx cap add android first`);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  for (const [density, scale] of Object.entries(DENSITY)) {
    const icon = Math.round(48 * scale);
    const foreground = Math.round(108 * scale);
    const mipmap = path.join(RES, `mipmap-${density}`);
    await draw(browser, path.join(mipmap, 'ic_launcher.png'), icon, icon, {
      markShare: 0.8,
      background: BACKGROUND,
      shape: 'rounded',
    });
    await draw(browser, path.join(mipmap, 'ic_launcher_round.png'), icon, icon, {
      markShare: 0.8,
      background: BACKGROUND,
      shape: 'round',
    });
    // Adaptive icons: the mark inside the 66 dp safe zone of the 108 dp layer; the background is a colour.
    await draw(browser, path.join(mipmap, 'ic_launcher_foreground.png'), foreground, foreground, { markShare: 0.6 });
    for (const [orientation, [widthDp, heightDp]] of Object.entries(SPLASH_DP)) {
      const directory = path.join(RES, `drawable-${orientation}-${density}`);
      if (!readdirSync(directory).includes('splash.png')) continue;
      await draw(browser, path.join(directory, 'splash.png'), Math.round(widthDp * scale), Math.round(heightDp * scale), {
        markShare: 0.3,
        background: BACKGROUND,
      });
    }
  }
  await draw(browser, path.join(RES, 'drawable', 'splash.png'), 480, 320, { markShare: 0.3, background: BACKGROUND });
} finally {
  await browser.close();
}
console.log('Android icons and splash screens drawn in', RES);
