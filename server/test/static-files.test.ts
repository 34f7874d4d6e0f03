import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app.js';

/*
 * The built apps' files: compressed copies chosen by Accept-Encoding, hashed files cached for a
 * year, everything else revalidated (docs/decisions/036-first-load-and-pwa.md). Driven through the
 * real app with a build laid out as web/vite.config.ts writes it (each compressible file beside
 * its .br and .gz copies).
 */

const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(400))};\n`;
const PAGE = `<!doctype html>\n<html>\n  <head>\n    <link rel="manifest" href="./manifest.webmanifest" />\n    <script type="module" crossorigin src="./assets/index-Ab12Cd34.js"></script>\n  </head>\n  <body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body>\n</html>\n`;
const WORKER = `self.addEventListener('fetch', () => undefined);\n${'// padding\n'.repeat(200)}`;
const MANIFEST = JSON.stringify({ name: 'Custos', start_url: './', display: 'standalone' });

/** Writes a file and, as the build does, its brotli and gzip copies. */
function writeCompressible(file: string, text: string): void {
  writeFileSync(file, text);
  writeFileSync(`${file}.br`, brotliCompressSync(text));
  writeFileSync(`${file}.gz`, gzipSync(text));
}

let t: TestApp;
let distRoot: string;
beforeAll(async () => {
  distRoot = mkdtempSync(path.join(tmpdir(), 'custos-static-'));
  for (const app of ['web', 'admin']) {
    mkdirSync(path.join(distRoot, app, 'assets'), { recursive: true });
    writeCompressible(path.join(distRoot, app, 'index.html'), PAGE);
    writeCompressible(path.join(distRoot, app, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
  }
  const web = path.join(distRoot, 'web');
  writeCompressible(path.join(web, 'sw.js'), WORKER);
  writeFileSync(path.join(web, 'manifest.webmanifest'), MANIFEST);
  mkdirSync(path.join(web, 'icons'));
  writeFileSync(path.join(web, 'icons', 'icon-192.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
  t = await createTestApp({ WEB_DIST_DIR: web, ADMIN_DIST_DIR: path.join(distRoot, 'admin') });
});
afterAll(async () => {
  await t.close();
  rmSync(distRoot, { recursive: true, force: true });
});

function get(url: string, acceptEncoding?: string) {
  return t.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });
}

/** The body as the browser sees it after undoing the Content-Encoding. */
function decoded(response: Awaited<ReturnType<typeof get>>): string {
  const raw = response.rawPayload;
  switch (response.headers['content-encoding']) {
    case 'br':
      return brotliDecompressSync(raw).toString('utf8');
    case 'gzip':
      return gunzipSync(raw).toString('utf8');
    case undefined:
      return raw.toString('utf8');
    default:
      throw new Error(`unexpected content-encoding ${String(response.headers['content-encoding'])}`);
  }
}

describe('compressed copies', () => {
  it('answers brotli when accepted, else gzip, else the file itself, always the same text', async () => {
    const cases: [string | undefined, string | undefined][] = [
      ['gzip, deflate, br, zstd', 'br'],
      ['br', 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', undefined],
      [undefined, undefined],
    ];
    for (const [acceptEncoding, expected] of cases) {
      const response = await get('/assets/index-Ab12Cd34.js', acceptEncoding);
      expect(response.statusCode, String(acceptEncoding)).toBe(200);
      expect(response.headers['content-encoding'], String(acceptEncoding)).toBe(expected);
      expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(response.headers.vary).toBe('accept-encoding');
      expect(decoded(response)).toBe(SCRIPT);
      if (expected) expect(response.rawPayload.length).toBeLessThan(Buffer.byteLength(SCRIPT) / 4);
    }
  });

  it('compresses the page at / and the console files too', async () => {
    const page = await get('/', 'gzip, br');
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(decoded(page)).toBe(PAGE);
    const consoleAsset = await get('/admin/assets/index-Ab12Cd34.js', 'gzip');
    expect(consoleAsset.headers['content-encoding']).toBe('gzip');
    expect(decoded(consoleAsset)).toBe(SCRIPT);
  });

  it('does not serve the compressed copies under their own names', async () => {
    for (const url of [
      '/assets/index-Ab12Cd34.js.br',
      '/assets/index-Ab12Cd34.js.gz',
      '/index.html.br',
      '/admin/index.html.gz',
    ]) {
      expect((await get(url, 'br')).statusCode, url).toBe(404);
    }
  });

  it('sends a file that has no compressed copy as it is, without Vary', async () => {
    const response = await get('/manifest.webmanifest', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toBeUndefined();
    expect(response.body).toBe(MANIFEST);
  });
});

describe('caching', () => {
  it('keeps hashed files a year without asking again, compressed or not', async () => {
    for (const [url, encoding] of [
      ['/assets/index-Ab12Cd34.js', 'br'],
      ['/assets/index-Ab12Cd34.js', 'gzip'],
      ['/assets/index-Ab12Cd34.js', 'identity'],
      ['/admin/assets/index-Ab12Cd34.js', 'br'],
    ] as const) {
      const response = await get(url, encoding);
      expect(response.headers['cache-control'], `${url} ${encoding}`).toBe('public, max-age=31536000, immutable');
    }
  });

  it('never keeps the page, the service worker, the manifest or the icons without asking', async () => {
    for (const url of ['/', '/index.html', '/sw.js', '/manifest.webmanifest', '/icons/icon-192.png']) {
      for (const encoding of ['br', 'identity']) {
        const response = await get(url, encoding);
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['cache-control'], `${url} ${encoding}`).toBe('no-cache');
        // Revalidation is cheap: the answer carries a validator.
        expect(response.headers.etag, url).toBeTruthy();
      }
    }
  });

  it('answers a revalidation of an unchanged page with 304', async () => {
    const first = await get('/', 'br');
    const again = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('gives the service worker a script type and the manifest its own type', async () => {
    expect((await get('/sw.js')).headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect((await get('/manifest.webmanifest')).headers['content-type']).toMatch(/^application\/manifest\+json/);
  });
});

describe('the policy of an installable member app', () => {
  function policyOf(headers: Record<string, string | string[] | number | undefined>): Map<string, string[]> {
    return new Map(
      String(headers['content-security-policy'] ?? '')
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .filter(([name]) => name)
        .map(([name = '', ...sources]) => [name, sources]),
    );
  }

  it('lets the member app register its own worker and read its own manifest, and nothing more', async () => {
    for (const url of ['/', '/sw.js', '/manifest.webmanifest']) {
      const policy = policyOf((await get(url, 'br')).headers);
      expect(policy.get('worker-src'), url).toEqual(["'self'"]);
      expect(policy.get('manifest-src'), url).toEqual(["'self'"]);
      expect(policy.get('default-src'), url).toEqual(["'none'"]);
      expect(policy.get('connect-src'), url).toEqual(["'self'"]);
      expect(policy.get('script-src'), url).toEqual(["'self'"]);
    }
  });

  it('gives the console and the API neither', async () => {
    for (const url of ['/admin/', '/admin/assets/index-Ab12Cd34.js', '/api/common/config']) {
      const policy = policyOf((await get(url)).headers);
      expect(policy.has('worker-src'), url).toBe(false);
      expect(policy.has('manifest-src'), url).toBe(false);
    }
  });
});
