/**
 * The release **test** key's private half (decision 057), committed on purpose and so worthless as a
 * secret: the e2e server signs hot bundles with it, and the member app built without a real key
 * trusts its public half (`RELEASE_TEST_PUBLIC_KEY`) in the browser test double only. A production
 * server refuses it (unless it is a test server with TEST_CLOCK_CONTROL), and a build refuses its
 * public half as VITE_RELEASE_PUBLIC_KEY.
 */
export const RELEASE_TEST_SIGNING_KEY = `-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIPutNjpmrjsQlpszpbLHlTRzbajton3K7/KCdEqMe6H7
-----END PRIVATE KEY-----
`;
