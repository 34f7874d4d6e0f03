import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { compactIconSource } from '../../../build/compact-icons';

const require = createRequire(import.meta.url);
const source = readFileSync(require.resolve('antd-mobile-icons/es/PayCircleOutline.js'), 'utf8');

function paths(code: string): number[][] {
  return [...code.matchAll(/\bd: "([^"]*)"/g)].map(([, path]) => (path ?? '').match(/-?\d*\.?\d+/g)?.map(Number) ?? []);
}

describe('compact icons', () => {
  const compact = compactIconSource(source);

  it('keeps every coordinate within a two-hundredth of a unit of the original', () => {
    const before = paths(source);
    const after = paths(compact);
    expect(after.length).toBe(before.length);
    expect(after.length).toBeGreaterThan(0);
    after.forEach((numbers, index) => {
      expect(numbers.length).toBe(before[index]?.length);
      numbers.forEach((value, at) => expect(Math.abs(value - (before[index]?.[at] ?? NaN))).toBeLessThanOrEqual(0.005));
    });
  });

  it('drops the ids and keeps the rest of the module', () => {
    expect(compact).not.toMatch(/\bid: "/);
    expect(compact).toContain('export default PayCircleOutline');
    expect(compact.length).toBeLessThan(source.length * 0.8);
  });

  it('leaves a module that references an id alone', () => {
    const referencing = 'createElement("use", { xlinkHref: "#a", id: "b", d: "M1.23456,2" })';
    expect(compactIconSource(referencing)).toBe(referencing);
  });
});
