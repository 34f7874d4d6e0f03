import { describe, expect, it } from 'vitest';
import { RELEASE_TEST_PUBLIC_KEY } from '@custos/contract';
import { releaseKeyProblem } from '../../../build/release-key';

// Decision 057: what a build accepts as the release key's public half.
describe('the build’s release key', () => {
  const real = btoa(String.fromCharCode(...new Uint8Array(32).map((_, index) => index * 7 + 1)));

  it('takes a real key in every mode, and none outside an Android package', () => {
    expect(releaseKeyProblem(real, 'production')).toBeNull();
    expect(releaseKeyProblem(` ${real}\n`, 'android')).toBeNull();
    expect(releaseKeyProblem(undefined, 'production')).toBeNull();
    expect(releaseKeyProblem('', 'development')).toBeNull();
  });

  it('refuses an Android package without a key, the committed test key, and anything not 32 bytes of base64', () => {
    expect(releaseKeyProblem(undefined, 'android')).toMatch(/Android package needs VITE_RELEASE_PUBLIC_KEY/);
    expect(releaseKeyProblem('  ', 'android')).toMatch(/Android package needs/);
    for (const mode of ['production', 'android', 'development']) {
      expect(releaseKeyProblem(RELEASE_TEST_PUBLIC_KEY, mode)).toMatch(/committed test key/);
    }
    expect(releaseKeyProblem(real.slice(4), 'production')).toMatch(/not base64 of 32 bytes/);
    expect(releaseKeyProblem(btoa('x'.repeat(33)), 'production')).toMatch(/not base64 of 32 bytes/);
    expect(releaseKeyProblem('-----BEGIN PUBLIC KEY-----', 'production')).toMatch(/not base64 of 32 bytes/);
  });
});
