import { describe, expect, it } from 'vitest';
import { isNativePlatform } from './native-platform';

describe('isNativePlatform', () => {
  it("answers as @capacitor/core's Capacitor.isNativePlatform does", () => {
    expect(isNativePlatform({})).toBe(false);
    expect(isNativePlatform({ androidBridge: {} })).toBe(true);
    expect(isNativePlatform({ webkit: { messageHandlers: { bridge: {} } } })).toBe(true);
    expect(isNativePlatform({ webkit: { messageHandlers: {} } })).toBe(false);
    expect(isNativePlatform({ CapacitorCustomPlatform: { name: 'electron' } })).toBe(true);
    expect(isNativePlatform({ CapacitorCustomPlatform: { name: 'web' }, androidBridge: {} })).toBe(false);
  });

  it('is false in a plain browser or test runner', () => {
    expect(isNativePlatform()).toBe(false);
  });
});
