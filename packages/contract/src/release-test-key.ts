// No imports: the member app's build configuration (web/build/release-key.ts) reads this file directly.

/**
 * The public half (base64 of the raw 32 bytes) of the committed release **test** key (decision 057).
 * Its private half is in server/test/support/release-test-key.ts, in the open: it proves nothing. Only the
 * browser test double of the update layer trusts it, and only in an app built without a real key;
 * the Android layer never does, a build refuses it as VITE_RELEASE_PUBLIC_KEY, and a production
 * server refuses its private half unless it is a test server.
 */
export const RELEASE_TEST_PUBLIC_KEY = '28DYrECZv+t0hejh0TpqOimtTQOa3OArK5JvHAFxLfo=';
