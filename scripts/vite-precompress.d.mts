import type { Plugin } from 'vite';

/** Writes brotli and gzip copies beside every compressible file of the build (decision 036). */
export function precompress(options?: { exclude?: RegExp }): Plugin;
