import { describe, expect, it } from 'vitest';
import { arrangeHead } from '../../../build/first-paint-head';

const PAGE = `<!doctype html>
<html lang="zh-Hans">
  <head>
    <script>(function () {})()</script>

    <script type="module" crossorigin src="./assets/early-a.js"></script>
    <link rel="icon" type="image/svg+xml" href="./favicon.svg" />
    <link rel="manifest" href="./manifest.webmanifest" />
    <script type="module" crossorigin src="./assets/index-b.js"></script>
    <link rel="modulepreload" crossorigin href="./assets/rolldown-runtime-c.js">
    <link rel="modulepreload" crossorigin href="./assets/start-d.js">
    <link rel="stylesheet" crossorigin href="./assets/index-e.css">
  </head>
  <body><div id="root"></div></body>
</html>
`;

const CSS = ':root{--adm-color-primary:#f90}body{margin:0}';
const bundle = { 'assets/index-e.css': { type: 'asset' as const, fileName: 'assets/index-e.css', source: CSS } };

describe('the page head for the first paint (decision 048)', () => {
  it('holds the style sheet inline and asks for the start file first of the files', () => {
    const page = arrangeHead(PAGE, bundle);
    expect(page).not.toContain('rel="stylesheet"');
    expect(page).toContain(`<style>${CSS}</style>`);
    // Right after the launch script, before the early file, the icons and the entry.
    const order = ['<script>(function', 'start-d.js', 'early-a.js', 'favicon.svg', 'index-b.js', 'rolldown-runtime-c.js'];
    const positions = order.map((text) => page.indexOf(text));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(page.match(/start-d\.js/g)).toHaveLength(1);
  });

  it('refuses a page it cannot arrange rather than ship one that paints late', () => {
    expect(() => arrangeHead(PAGE, {})).toThrow(/index-e\.css is not in the bundle/);
    expect(() => arrangeHead(PAGE.replace('start-d.js', 'other.js'), bundle)).toThrow(/no start file/);
    expect(() => arrangeHead(PAGE.replace('<script>(function () {})()</script>', ''), bundle)).toThrow(/no launch script/);
    const closing = { 'assets/index-e.css': { ...bundle['assets/index-e.css'], source: 'a::after{content:"</style>"}' } };
    expect(() => arrangeHead(PAGE, closing)).toThrow(/<\/style/);
  });
});
