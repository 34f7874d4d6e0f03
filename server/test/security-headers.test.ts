import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SWAGGER_LOGO_STYLE_HASH } from '../src/http/security-headers.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/*
 * Every kind of response the server gives a browser carries the security headers, with the policy
 * of its kind (docs/decisions/014-browser-security-headers.md). Driven through the real app, with
 * stand-ins for the two built apps (the same file layout Vite writes).
 */

type Headers = Record<string, string | string[] | number | undefined>;

/** The Content-Security-Policy as directive → sources. */
function policyOf(headers: Headers): Map<string, string[]> {
  const header = String(headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

/** What every response carries, whatever it is. */
function expectBaseline(headers: Headers): void {
  const policy = policyOf(headers);
  expect(policy.get('default-src')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'none'"]);
  expect(policy.get('form-action')).toEqual(["'none'"]);
  for (const sources of policy.values()) {
    expect(sources).not.toContain("'unsafe-eval'");
    expect(sources).not.toContain("'unsafe-inline'");
  }
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(headers['strict-transport-security']).toBeUndefined();
}

function permissions(headers: Headers): Map<string, string> {
  return new Map(
    String(headers['permissions-policy'] ?? '')
      .split(',')
      .map((entry) => entry.trim().split('=') as [string, string]),
  );
}

/** A stand-in for the member app's inline launch script. */
const LAUNCH_SCRIPT = '(function (map) { document.title = map.name; })({"name":"launch"})';
const LAUNCH_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(LAUNCH_SCRIPT, 'utf8').digest('base64')}'`;
/** A stand-in for its inline style sheet (decision 048). */
const STYLE_SHEET = 'body{margin:0}.assets-summary-total{font-size:2rem}';
const STYLE_SHEET_SOURCE = `'sha256-${createHash('sha256').update(STYLE_SHEET, 'utf8').digest('base64')}'`;

let t: TestApp;
let distRoot: string;
beforeAll(async () => {
  distRoot = mkdtempSync(path.join(tmpdir(), 'custos-headers-'));
  for (const app of ['web', 'admin']) {
    mkdirSync(path.join(distRoot, app, 'assets'), { recursive: true });
    // The member app's page starts with its inline launch script (decision 047) and holds its
    // style sheet (decision 048).
    const inline = app === 'web' ? `<script>${LAUNCH_SCRIPT}</script><style>${STYLE_SHEET}</style>` : '';
    writeFileSync(
      path.join(distRoot, app, 'index.html'),
      `<!doctype html>\n<html>\n  <head>\n    ${inline}<title>${app}</title>\n    <script type="module" crossorigin src="./assets/index.js"></script>\n  </head>\n  <body><div id="root"></div></body>\n</html>\n`,
    );
    writeFileSync(path.join(distRoot, app, 'assets', 'index.js'), 'export {};\n');
    writeFileSync(path.join(distRoot, app, 'assets', 'index.css'), 'body { margin: 0; }\n');
  }
  writeFileSync(path.join(distRoot, 'web', 'sw.js'), "self.addEventListener('fetch', () => undefined);\n");
  t = await createTestApp({
    WEB_DIST_DIR: path.join(distRoot, 'web'),
    ADMIN_DIST_DIR: path.join(distRoot, 'admin'),
    TRUST_PROXY: 'loopback',
  });
});
afterAll(async () => {
  await t.close();
  rmSync(distRoot, { recursive: true, force: true });
});

describe('the member app (/)', () => {
  it('allows its own scripts, styles and API, and images from itself, QR data: URLs and blob: photos', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      for (const url of ['/', '/index.html', '/sw.js']) {
        const response = await t.app.inject({ method, url });
        expect(response.statusCode).toBe(200);
        expectBaseline(response.headers);
        const policy = policyOf(response.headers);
        // Its own files, and by their hashes exactly the inline script and style sheet its page holds.
        expect(policy.get('script-src')).toEqual(["'self'", LAUNCH_SCRIPT_SOURCE]);
        expect(policy.get('style-src')).toEqual(["'self'", STYLE_SHEET_SOURCE]);
        expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
        expect(policy.get('font-src')).toEqual(["'self'"]);
        expect(policy.get('connect-src')).toEqual(["'self'"]);
        const features = permissions(response.headers);
        expect(features.get('camera')).toBe('(self)');
        expect(features.get('clipboard-write')).toBe('(self)');
        expect(features.get('microphone')).toBe('()');
        expect(features.get('geolocation')).toBe('()');
        expect(features.get('clipboard-read')).toBe('()');
      }
    }
  });
});

describe("the apps' hashed script and style files", () => {
  it('carry the policy, nosniff, CORP and the referrer rule, and none of the document-only headers', async () => {
    for (const [url, kind] of [
      ['/assets/index.js', 'member'],
      ['/assets/index.css', 'member'],
      ['/admin/assets/index.js', 'console'],
    ] as const) {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await t.app.inject({ method, url });
        expect(response.statusCode, url).toBe(200);
        const policy = policyOf(response.headers);
        // The policy stays: it is what governs a worker started from such a file (the PDF viewer's).
        expect(policy.get('default-src')).toEqual(["'none'"]);
        expect(policy.get('script-src')).toEqual(["'self'"]);
        expect(policy.has('worker-src'), url).toBe(kind === 'member');
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
        expect(response.headers['referrer-policy']).toBe('no-referrer');
        for (const header of [
          'permissions-policy',
          'x-frame-options',
          'cross-origin-opener-policy',
          'origin-agent-cluster',
          'x-dns-prefetch-control',
          'x-download-options',
          'x-permitted-cross-domain-policies',
          'x-xss-protection',
        ]) {
          expect(response.headers[header], `${url} ${header}`).toBeUndefined();
        }
      }
    }
  });
});

describe('the console (/admin/)', () => {
  it('gives each page a fresh style nonce, in the policy and in the page, and never caches it', async () => {
    const nonces = [];
    for (const url of ['/admin/', '/admin/', '/admin/index.html']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expectBaseline(response.headers);
      const policy = policyOf(response.headers);
      expect(policy.get('script-src')).toEqual(["'self'"]);
      const [self, nonceSource, ...more] = policy.get('style-src') ?? [];
      expect(self).toBe("'self'");
      expect(more).toEqual([]);
      const nonce = /^'nonce-([A-Za-z0-9+/=]{24})'$/.exec(nonceSource ?? '')?.[1];
      expect(nonce).toBeDefined();
      expect(response.body).toContain(`<meta property="csp-nonce" nonce="${nonce}" />`);
      expect(response.body).toContain('<script type="module" crossorigin src="./assets/index.js">');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
      expect(policy.get('connect-src')).toEqual(["'self'"]);
      const features = permissions(response.headers);
      expect(features.get('camera')).toBe('()');
      expect(features.get('clipboard-write')).toBe('(self)');
      nonces.push(nonce);
    }
    expect(new Set(nonces).size).toBe(3);
  });

  it('sends /admin to /admin/, where the relative asset paths resolve', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/admin' });
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('/admin/');
    expectBaseline(response.headers);
  });

  it('serves its assets with the console policy and no nonce', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/admin/assets/index.js' });
    expect(response.statusCode).toBe(200);
    expect(policyOf(response.headers).get('default-src')).toEqual(["'none'"]);
    expect(policyOf(response.headers).get('style-src')).toEqual(["'self'"]);
  });
});

describe('the API documentation (/api/docs)', () => {
  it('allows Swagger UI its own files, data: icons and the one <style> of its logo', async () => {
    for (const url of ['/api/docs', '/api/docs/static/swagger-initializer.js', '/api/docs/json']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expectBaseline(response.headers);
      const policy = policyOf(response.headers);
      expect(policy.get('script-src')).toEqual(["'self'"]);
      expect(policy.get('style-src')).toEqual(["'self'", SWAGGER_LOGO_STYLE_HASH]);
      expect(policy.get('img-src')).toEqual(["'self'", 'data:']);
      expect(policy.get('connect-src')).toEqual(["'self'"]);
      expect(permissions(response.headers).get('camera')).toBe('()');
    }
  });

  it('allows by hash exactly the <style> elements the installed Swagger UI writes', () => {
    const require = createRequire(import.meta.url);
    const preset = readFileSync(
      path.join(path.dirname(require.resolve('@fastify/swagger-ui/package.json')), 'static', 'swagger-ui-standalone-preset.js'),
      'utf8',
    );
    const styles = [...preset.matchAll(/createElement\("style",null,"([^"]*)"\)/g)].map((match) => match[1] ?? '');
    expect(styles).toHaveLength(1);
    const hashes = styles.map((style) => `'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    expect(hashes).toEqual([SWAGGER_LOGO_STYLE_HASH]);
  });
});

describe('the API', () => {
  it('lets nothing run, load or frame in an answer, a refusal or a 404', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: '/api/common/config' }),
      await t.app.inject({ method: 'GET', url: '/healthz' }),
      await t.app.inject({ method: 'GET', url: '/api/user/info' }),
      await t.app.inject({ method: 'GET', url: '/api/admin/auth/me' }),
      await t.app.inject({ method: 'GET', url: '/api/no-such-call' }),
      await t.app.inject({ method: 'GET', url: '/no-such-page' }),
      await t.app.inject({ method: 'GET', url: '/admin/no-such-file.js' }),
    ];
    expect(answers.map((response) => response.statusCode)).toEqual([200, 200, 401, 401, 404, 404, 404]);
    for (const response of answers) {
      expectBaseline(response.headers);
      expect([...policyOf(response.headers).keys()].sort()).toEqual(
        ['base-uri', 'default-src', 'form-action', 'frame-ancestors', 'object-src'].sort(),
      );
      expect(permissions(response.headers).get('camera')).toBe('()');
      expect(permissions(response.headers).get('clipboard-write')).toBe('()');
    }
  });
});

describe('Strict-Transport-Security', () => {
  const HSTS = 'max-age=31536000; includeSubDomains';

  it('is sent when the trusted proxy says the request came over HTTPS', async () => {
    for (const url of ['/', '/assets/index.js', '/admin/', '/api/docs', '/api/common/config', '/api/no-such-call']) {
      const response = await t.app.inject({
        method: 'GET',
        url,
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' },
      });
      expect(response.headers['strict-transport-security']).toBe(HSTS);
    }
  });

  it('is not sent over plain HTTP, nor when a client that is not the proxy claims HTTPS', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/', remoteAddress: '127.0.0.1' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const forwardedHttp = await t.app.inject({
      method: 'GET',
      url: '/',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-proto': 'http' },
    });
    expect(forwardedHttp.headers['strict-transport-security']).toBeUndefined();
    const claimed = await t.app.inject({
      method: 'GET',
      url: '/',
      remoteAddress: '198.51.100.4',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
  });
});
