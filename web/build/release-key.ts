import { loadEnv, type Plugin } from 'vite';
import { RELEASE_TEST_PUBLIC_KEY } from '../../packages/contract/src/release-test-key';

/*
 * The release key's public half built into the member app (decisions 053, 057). A build without
 * one applies no hot bundle at all; an Android package must have one (`npm run android:sync` builds
 * in the `android` mode); and the committed test key, whose private half anyone can read, is never
 * accepted as a build's key.
 */

const ED25519_PUBLIC_KEY_BASE64 = /^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/;

/** What is wrong with a build's VITE_RELEASE_PUBLIC_KEY in `mode`, or null. */
export function releaseKeyProblem(value: string | undefined, mode: string): string | null {
  const key = value?.trim() ?? '';
  if (key === '') {
    return mode === 'android'
      ? 'an Android package needs VITE_RELEASE_PUBLIC_KEY (base64 of the release key’s 32-byte public half); without it the app takes no hot update'
      : null;
  }
  if (key === RELEASE_TEST_PUBLIC_KEY) {
    return 'VITE_RELEASE_PUBLIC_KEY is the committed test key, whose private half is public: give the real release key’s public half';
  }
  if (!ED25519_PUBLIC_KEY_BASE64.test(key)) return 'VITE_RELEASE_PUBLIC_KEY is not base64 of 32 bytes (an Ed25519 public key)';
  return null;
}

/** Stops the build on a missing (Android) or unusable release key. */
export function releaseKey(): Plugin {
  return {
    name: 'custos-release-key',
    config(config, { mode }) {
      const env = loadEnv(mode, config.envDir || config.root || process.cwd(), 'VITE_');
      const problem = releaseKeyProblem(env.VITE_RELEASE_PUBLIC_KEY, mode);
      if (problem) throw new Error(`release key: ${problem}`);
    },
  };
}
