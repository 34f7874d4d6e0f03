import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyStaticOptions } from '@fastify/static';

/*
 * How the built apps' files are served (docs/decisions/036-first-load-and-pwa.md): the build writes
 * a brotli and a gzip copy next to every compressible file (`x.js.br`, `x.js.gz`), and the server
 * answers with the best one the browser accepts (`Content-Encoding`, `Vary: Accept-Encoding`).
 * Vite's hashed files (`assets/…`) never change under their name, so browsers keep them for a year
 * without asking again; every other file (the page, the service worker, the manifest, the icons)
 * is revalidated on every use, so a new deployment is seen at once.
 */

/** A hashed file: kept a year, never revalidated. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Any other file: may be stored, but is checked with the server (ETag) before each use. */
export const REVALIDATE_CACHE = 'no-cache';

const COMPRESSED_SUFFIXES = ['.br', '.gz'] as const;

/** The served name of a file sent from `root` (a compressed copy answers for its original). */
function servedName(root: string, filePath: string): string {
  const relative = path.relative(root, filePath).split(path.sep).join('/');
  const suffix = COMPRESSED_SUFFIXES.find((ending) => relative.endsWith(ending));
  return suffix ? relative.slice(0, -suffix.length) : relative;
}

/** Vite writes its hashed output under assets/ and nothing else there. */
export function isHashedAsset(name: string): boolean {
  return name.startsWith('assets/');
}

/**
 * A route of one of the apps' hashed files (`/assets/…`, `/admin/assets/…`), whose answers carry
 * no document-only security headers (security-headers.ts, decision 039).
 */
export function isHashedAssetUrl(url: string): boolean {
  return /^\/(admin\/)?assets\/[^/]/.test(url);
}

/**
 * @fastify/static options for one built app at `root` under `prefix`: compressed copies chosen by
 * Accept-Encoding (they are not routes of their own), and the caching rule above.
 */
export function builtAppStaticOptions(root: string, prefix: string): FastifyStaticOptions & { globIgnore: string[] } {
  return {
    root,
    prefix,
    wildcard: false,
    preCompressed: true,
    // The default `public, max-age=0` is replaced by setHeaders.
    cacheControl: false,
    globIgnore: COMPRESSED_SUFFIXES.map((suffix) => `**/*${suffix}`),
    setHeaders: (response, filePath) => {
      const name = servedName(root, filePath);
      response.setHeader('cache-control', isHashedAsset(name) ? IMMUTABLE_CACHE : REVALIDATE_CACHE);
      // Whether or not this answer is compressed, another Accept-Encoding may get another body.
      const original = path.join(root, name);
      if (filePath !== original || COMPRESSED_SUFFIXES.some((suffix) => existsSync(original + suffix))) {
        response.setHeader('vary', 'accept-encoding');
      }
    },
  };
}
