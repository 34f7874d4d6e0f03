// Writes server/data/contract-ticks.csv: ten minutes of bid/ask ticks for EUR/USD, GBP/USD, USD/JPY and
// XAU/USD, a seeded random walk around mid-November-2026 levels with spreads typical of each market
// (decision 034). The file is committed; the demo and the tests replay it (server/src/modules/contracts/replay.ts).
// Run again only to change the recording: `node scripts/record-contract-ticks.mjs`.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let seed = 20261127;
function random() {
  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
function gaussian() {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

// Prices are kept as integers of the feed's own precision (one place more than the product shows).
const markets = [
  { symbol: 'EUR/USD', places: 6, mid: 1_085_000, stepSigma: 30, spread: [80, 140] },
  { symbol: 'GBP/USD', places: 6, mid: 1_265_000, stepSigma: 40, spread: [100, 180] },
  { symbol: 'USD/JPY', places: 4, mid: 1_501_200, stepSigma: 45, spread: [80, 160] },
  { symbol: 'XAU/USD', places: 3, mid: 2_671_200, stepSigma: 180, spread: [200, 400] },
];
const durationMs = 10 * 60 * 1000;
const rows = [];
for (const market of markets) {
  let at = Math.floor(random() * 200);
  let mid = market.mid;
  while (at < durationMs) {
    mid += Math.round(gaussian() * market.stepSigma);
    const spread = market.spread[0] + Math.floor(random() * (market.spread[1] - market.spread[0]));
    const bid = mid - Math.floor(spread / 2);
    const ask = bid + spread;
    const format = (units) => (units / 10 ** market.places).toFixed(market.places);
    rows.push({ at, line: `${at},${market.symbol},${format(bid)},${format(ask)}` });
    at += 200 + Math.floor(random() * 600);
  }
}
rows.sort((a, b) => a.at - b.at);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const file = path.join(root, 'server', 'data', 'contract-ticks.csv');
writeFileSync(file, `offset_ms,symbol,bid,ask\n${rows.map((row) => row.line).join('\n')}\n`);
process.stdout.write(`${rows.length} ticks written to ${path.relative(root, file)}\n`);
