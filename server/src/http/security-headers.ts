import { createHash, randomBytes } from 'node:crypto';
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isHashedAssetUrl } from './static-files.js';

/*
 * Every response carries browser security headers set by @fastify/helmet, with a policy chosen on
 * purpose for what the response is: the member app, the console, the API documentation or the API.
 * docs/decisions/014-browser-security-headers.md explains each source line by line.
 */

type Directives = Record<string, string[]>;

/** What no response needs: other origins framing it, plugins, a <base> rewriting URLs, form posts. */
const LOCKED: Directives = {
  'default-src': ["'none'"],
  'base-uri': ["'none'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'none'"],
};

/** The API answers JSON and uploaded images: nothing in it may run, load or be framed. */
export const API_POLICY: Directives = { ...LOCKED };

/** What both apps' pages load: their own bundles, style sheets and fonts, and this origin's API. */
const APP_POLICY: Directives = {
  ...LOCKED,
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
};

/**
 * The member app: its own bundles and style sheets only; images are its own files, QR codes
 * (data: URLs drawn by the qrcode package) and uploaded photos and avatars, fetched with the
 * member's credential and shown as blob: URLs. It talks only to this origin's API. It is an
 * installable web app: its own web manifest and its own service worker (decision 036).
 */
export const MEMBER_APP_POLICY: Directives = {
  ...APP_POLICY,
  'worker-src': ["'self'"],
  'manifest-src': ["'self'"],
};

/**
 * The console: as the member app without the manifest and the worker, and antd's CSS-in-JS writes
 * <style> elements at run time; those carry the page's nonce (ConfigProvider csp), added per
 * response by sendPageWithStyleNonce.
 */
export const CONSOLE_POLICY: Directives = { ...APP_POLICY };

/**
 * The one <style> element Swagger UI writes: inside its logo (an inline SVG), in @fastify/swagger-ui's
 * bundle; security-headers.test.ts recomputes it from the installed bundle.
 */
export const SWAGGER_LOGO_STYLE_HASH = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

/** Swagger UI: its own scripts and style sheets; its style sheet draws icons as data: images. */
export const API_DOCS_POLICY: Directives = {
  ...LOCKED,
  'script-src': ["'self'"],
  'style-src': ["'self'", SWAGGER_LOGO_STYLE_HASH],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
};

/**
 * Powerful features: only the camera (identity photos) and writing to the clipboard (copying a
 * deposit address or an authenticator key) in the member app; writing to the clipboard in the
 * console (copying hashes and addresses); nothing anywhere else.
 */
const DENIED_FEATURES = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
  'clipboard-read',
];

function permissionsPolicy(allowed: string[]): string {
  const features = [
    ...allowed.map((feature) => `${feature}=(self)`),
    ...['camera', 'clipboard-write', ...DENIED_FEATURES]
      .filter((feature) => !allowed.includes(feature))
      .map((feature) => `${feature}=()`),
  ];
  return features.join(', ');
}

export const PERMISSIONS = {
  api: permissionsPolicy([]),
  docs: permissionsPolicy([]),
  memberApp: permissionsPolicy(['camera', 'clipboard-write']),
  console: permissionsPolicy(['clipboard-write']),
} as const;

type Kind = keyof typeof PERMISSIONS;

/** What a route serves, by its path: the API documentation, the API, the console or the member app. */
function kindOf(url: string): Kind {
  if (url === '/api/docs' || url.startsWith('/api/docs/')) return 'docs';
  if (url.startsWith('/api/') || url === '/healthz') return 'api';
  if (url === '/admin' || url.startsWith('/admin/')) return 'console';
  return 'memberApp';
}

const POLICY_BY_KIND: Record<Kind, Directives> = {
  api: API_POLICY,
  docs: API_DOCS_POLICY,
  memberApp: MEMBER_APP_POLICY,
  console: CONSOLE_POLICY,
};

/**
 * Headers that only mean something for a document (a page the browser shows), off on the apps'
 * hashed script and style files (decision 039): who may frame it, its opener, its agent cluster,
 * DNS prefetching and old browsers' download and XSS-filter switches; Permissions-Policy likewise
 * (added in onRequest below). The rest stays on every response: nosniff, CORP, Referrer-Policy
 * (it governs what a style sheet itself requests), HSTS, and the CSP, which is what governs a
 * worker started from one of these files (the PDF viewer's).
 */
const DOCUMENT_ONLY_OFF = {
  xFrameOptions: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
} as const;

/** One year; sent only on HTTPS (browsers ignore it on HTTP, and a mistaken HTTP answer must not set it). */
const HSTS = 'max-age=31536000; includeSubDomains';

/** A page's inline code as CSP sources (`'sha256-…'`): its policy allows these and nothing else inline. */
export interface InlineSources {
  scripts: string[];
  styles: string[];
}

const cspHash = (body: string) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`;

/**
 * The CSP sources of a page's inline scripts and style sheets: the member app's launch script,
 * which runs while the page is parsed (decision 047), and its style sheet, which comes with the
 * page (decision 048). Only a `<script>` or `<style>` without attributes is inline.
 */
export function inlineSources(html: string): InlineSources {
  return {
    scripts: [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, body = '']) => cspHash(body)),
    styles: [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(([, body = '']) => cspHash(body)),
  };
}

/**
 * Registers the headers; call before any route is added, so each route gets the policy of its kind.
 * Responses no route answers (404) get the API's, the strictest. `memberAppInline` is the member
 * app page's inline code (`inlineSources`), which the policy of its page (and of its
 * other files that are not hashed assets) then allows, and only they.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: { memberAppInline?: InlineSources } = {},
): Promise<void> {
  const policies: Record<Kind, Directives> = {
    ...POLICY_BY_KIND,
    memberApp: {
      ...MEMBER_APP_POLICY,
      'script-src': [...(MEMBER_APP_POLICY['script-src'] ?? []), ...(options.memberAppInline?.scripts ?? [])],
      'style-src': [...(MEMBER_APP_POLICY['style-src'] ?? []), ...(options.memberAppInline?.styles ?? [])],
    },
  };
  app.addHook('onRoute', (route) => {
    const url = route.url ?? '';
    const kind = kindOf(url);
    const hashedAsset = kind !== 'api' && kind !== 'docs' && isHashedAssetUrl(url);
    route.config = Object.assign(route.config ?? {}, {
      securityKind: kind,
      hashedAsset,
      helmet: {
        // The inline code's hashes only where a page is answered, not on the hashed files.
        contentSecurityPolicy: { useDefaults: false, directives: hashedAsset ? POLICY_BY_KIND[kind] : policies[kind] },
        ...(hashedAsset ? DOCUMENT_ONLY_OFF : {}),
      },
    });
  });
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: API_POLICY },
    // The console and the member app open nothing in other windows they need to reach.
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // Set below, only when the request came over HTTPS.
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config as { securityKind?: Kind; hashedAsset?: boolean } | undefined;
    if (!config?.hashedAsset) void reply.header('permissions-policy', PERMISSIONS[config?.securityKind ?? 'api']);
    if (cameOverHttps(request)) void reply.header('strict-transport-security', HSTS);
  });
}

/**
 * HTTPS at this server, or at a trusted proxy that said so (Fastify reads X-Forwarded-Proto only
 * when the socket's peer is a trusted proxy, see TRUST_PROXY; a client's own header is ignored).
 */
function cameOverHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

/**
 * Answers a page (an app's index.html) with a fresh nonce for the <style> elements its scripts
 * write: the CSP of this response allows exactly that nonce, and the page carries it in
 * `<meta property="csp-nonce" nonce="…">`, where the app (and Vite's preload helper) read it.
 * Never cached, since every answer has its own nonce.
 */
export function sendPageWithStyleNonce(reply: FastifyReply, html: string, policy: Directives): FastifyReply {
  const nonce = randomBytes(16).toString('base64');
  reply.helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { ...policy, 'style-src': [...(policy['style-src'] ?? []), `'nonce-${nonce}'`] },
    },
  });
  const page = html.replace(/<head>/i, `<head>\n    <meta property="csp-nonce" nonce="${nonce}" />`);
  return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page);
}
