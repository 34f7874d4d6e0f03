/**
 * Headers for a member's private image (identity photos, feedback images): never kept in a
 * browser's or proxy's cache, never sniffed into something that runs, and nothing inside it loads.
 */
export const PRIVATE_IMAGE_HEADERS = {
  'cache-control': 'private, no-store',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'",
} as const;
