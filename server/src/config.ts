import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_PLATFORM_TIME_ZONE, RELEASE_TEST_PUBLIC_KEY } from '@custos/contract';
import { DEFAULT_QUOTE_FEED_HOSTS } from './modules/quotes/binance-ticker.js';
import { trustedProxyEntryProblem, type TrustedProxies } from './http/trusted-proxy.js';

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  /** A PostgreSQL URL; when absent the embedded PGlite in DATA_DIR is used. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PLATFORM_TIME_ZONE: z.string().refine(isTimeZone, 'is not an IANA time zone').default(DEFAULT_PLATFORM_TIME_ZONE),
  /**
   * Behind a load balancer: how many proxies (a hop count) or which proxies (addresses, CIDR ranges,
   * comma-separated) to believe about the client's address and scheme; see parseTrustProxy.
   */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, context) => {
      const parsed = parseTrustProxy(value);
      if (typeof parsed === 'string') {
        context.addIssue({ code: 'custom', message: parsed });
        return z.NEVER;
      }
      return parsed;
    }),
  /** Where the built member app and console are; empty serves the API only. */
  WEB_DIST_DIR: z.string().optional(),
  ADMIN_DIST_DIR: z.string().optional(),
  /** Seconds to finish in-flight requests on SIGTERM before closing anyway. */
  SHUTDOWN_GRACE_S: z.coerce.number().int().min(0).max(600).default(10),
  OPERATOR_SESSION_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(12),
  /** smtp:// or smtps:// URL of the mail relay; without it mail is only logged and kept in the outbox. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Custos <no-reply@custos.local>'),
  MEMBER_SESSION_IDLE_DAYS: z.coerce.number().int().min(1).max(90).default(7),
  MEMBER_SESSION_ABSOLUTE_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  // USDT on BSC (BEP20): any EVM JSON-RPC, the token contract, and the account-level extended public
  // key (m/44'/60'/0') deposit addresses are derived from. The network is off until all three are set.
  BSC_RPC_URL: z.url().optional(),
  BSC_USDT_CONTRACT: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'is not a contract address')
    .optional(),
  BSC_DEPOSIT_XPUB: z
    .string()
    .regex(/^xpub[1-9A-HJ-NP-Za-km-z]{100,112}$/, 'is not an extended public key (xpub…)')
    .optional(),
  BSC_CONFIRMATIONS: z.coerce.number().int().min(1).max(1000).default(3),
  /** First block the watcher scans when it has no cursor yet (default: the head at first start). */
  BSC_START_BLOCK: z.coerce.number().int().min(0).optional(),
  BSC_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(3000),
  BSC_MAX_BLOCK_RANGE: z.coerce.number().int().min(1).max(50_000).default(500),
  /** The hot wallet that pays approved BEP20 withdrawals (0x + 64 hex); without it they are paid by hand. */
  BSC_HOT_WALLET_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'is not a private key (0x and 64 hex digits)')
    .optional(),
  BSC_PAYOUT_CONFIRMATIONS: z.coerce.number().int().min(1).max(1000).default(3),
  BSC_RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  // USDT on TRON (TRC20) through TronGrid's HTTP API; the xpub is at m/44'/195'/0'.
  TRON_API_URL: z.url().optional(),
  TRON_API_KEY: z.string().min(1).optional(),
  TRON_USDT_CONTRACT: z
    .string()
    .regex(/^T[1-9A-HJ-NP-Za-km-z]{33}$/, 'is not a TRON contract address')
    .optional(),
  TRON_USDT_DECIMALS: z.coerce.number().int().min(0).max(36).default(6),
  TRON_DEPOSIT_XPUB: z
    .string()
    .regex(/^xpub[1-9A-HJ-NP-Za-km-z]{100,112}$/, 'is not an extended public key (xpub…)')
    .optional(),
  TRON_CONFIRMATIONS: z.coerce.number().int().min(1).max(1000).default(19),
  TRON_START_BLOCK: z.coerce.number().int().min(0).optional(),
  TRON_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(3000),
  TRON_MAX_BLOCK_RANGE: z.coerce.number().int().min(1).max(1000).default(20),
  TRON_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * End-to-end tests only: exposes POST /api/test/clock to move the server's clock forward (to
   * advance the platform day). Never set it on a real deployment.
   */
  TEST_CLOCK_CONTROL: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /**
   * The only hosts the quote feed may ask (comma-separated; default Binance's public API hosts).
   * The console sets the feed's address; this bounds where it can point.
   */
  QUOTE_FEED_HOSTS: z.string().optional(),
  /**
   * Where packages, documents and images are kept (decision 053); default: `storage` beside
   * DATA_DIR. On several instances, a volume they all mount.
   */
  STORAGE_DIR: z.string().min(1).optional(),
  /** Downloads one client address may have running at once (more answer 429). */
  DOWNLOADS_PER_ADDRESS: z.coerce.number().int().min(1).max(1000).default(4),
  /**
   * The release key (decision 053): an Ed25519 private key, PKCS#8 PEM (or its base64 DER), that
   * signs hot bundles at the release step. Never stored in the database; its public half ships in
   * the app. Without it no hot bundle can be released (decision 057). The committed test key is
   * refused in production unless TEST_CLOCK_CONTROL marks a test server (the e2e run).
   */
  RELEASE_SIGNING_KEY: z
    .string()
    .optional()
    .transform((value, context) => {
      if (!value || value.trim() === '') return undefined;
      const key = releaseSigningKey(value);
      if (!key) {
        context.addIssue({ code: 'custom', message: 'is not an Ed25519 private key (PKCS#8 PEM or base64 DER)' });
        return z.NEVER;
      }
      return key;
    }),
  /** Run background jobs in this instance (turn off on API-only replicas). */
  JOBS_ENABLED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((value) => value === 'true'),
});

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  database: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string; poolSize: number };
  logLevel: string;
  platformTimeZone: string;
  /** Undefined: no proxy in front, request.ip is the socket's address. */
  trustProxy: TrustedProxies | undefined;
  webDistDir: string | undefined;
  adminDistDir: string | undefined;
  shutdownGraceMs: number;
  operatorSessionTtlMs: number;
  jobsEnabled: boolean;
  testClockControl: boolean;
  /**
   * `--demo` on the command line (main.ts sets it; never the environment): demo data and the demo
   * operator's log-in (decision 019).
   */
  demo: boolean;
  mail: { smtpUrl: string | undefined; from: string };
  memberSession: { idleMs: number; absoluteMs: number };
  chains: { bsc: EvmChainConfig | undefined; tron: TronChainConfig | undefined };
  /** Hosts the quote feed may ask (lower case). */
  quoteFeedHosts: string[];
  /** Stored files (decision 053): the folder, and the downloads each address may run at once. */
  storage: { directory: string; downloadsPerAddress: number };
  /** The release key that signs hot bundles, if configured. */
  releaseSigningKey: KeyObject | undefined;
}

export interface TronChainConfig {
  apiUrl: string;
  apiKey: string | undefined;
  tokenAddress: string;
  tokenDecimals: number;
  depositXpub: string;
  confirmations: number;
  startBlock: bigint | undefined;
  pollMs: number;
  maxBlockRange: number;
  timeoutMs: number;
}

export interface EvmChainConfig {
  rpcUrl: string;
  tokenAddress: `0x${string}`;
  depositXpub: string;
  confirmations: number;
  startBlock: bigint | undefined;
  pollMs: number;
  maxBlockRange: number;
  rpcTimeoutMs: number;
  hotWalletKey: `0x${string}` | undefined;
  payoutConfirmations: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const MAX_PROXY_HOPS = 10;

/**
 * TRUST_PROXY: unset, empty or `false` (no proxy); a hop count (`1`: one proxy in front, whatever
 * its address); or the proxies' addresses (`10.0.0.5`, `10.0.0.0/8`, `loopback`, comma-separated).
 * Either way request.ip is the address the last trusted hop saw, never an entry the client wrote.
 * `true` (every hop trusted: the client's left-most X-Forwarded-For entry would become its address),
 * a /0 range, a hop count mixed with addresses and shortened addresses (`1` read as 0.0.0.1) are
 * refused: returns why as a string.
 */
export function parseTrustProxy(value: string | undefined): TrustedProxies | undefined | string {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return undefined;
  if (text === 'true')
    return 'true would let a client choose its own address: give the number of proxies in front (e.g. 1) or their addresses';
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops < 1 || hops > MAX_PROXY_HOPS)
      return `must be a hop count from 1 to ${MAX_PROXY_HOPS} (leave it unset when no proxy is in front)`;
    return { hops };
  }
  const addresses = text.split(',').map((entry) => entry.trim());
  for (const entry of addresses) {
    if (/^\d+$/.test(entry)) return `mixes a hop count ("${entry}") with addresses: give one or the other`;
    const problem = trustedProxyEntryProblem(entry);
    if (problem) return `${problem}: give the number of proxies in front (e.g. 1) or their addresses`;
  }
  return { addresses };
}

function releaseSigningKey(text: string): KeyObject | undefined {
  try {
    const trimmed = text.trim();
    const key = trimmed.startsWith('-----BEGIN')
      ? createPrivateKey(trimmed)
      : createPrivateKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'pkcs8' });
    return key.asymmetricKeyType === 'ed25519' ? key : undefined;
  } catch {
    return undefined;
  }
}

const LOOPBACK_HOSTS = ['127.0.0.1', '::1', 'localhost'];

/** QUOTE_FEED_HOSTS, or Binance's hosts; tests (NODE_ENV=test only) also reach their loopback stand-in. */
function quoteFeedHosts(value: string | undefined, env: 'development' | 'production' | 'test'): string[] {
  const listed = value
    ?.split(',')
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host !== '');
  const hosts = listed && listed.length > 0 ? listed : [...DEFAULT_QUOTE_FEED_HOSTS];
  return env === 'test' ? [...new Set([...hosts, ...LOOPBACK_HOSTS])] : hosts;
}

/**
 * `storage` beside the data folder; in tests (which set neither) a folder of this process under the
 * system's temporary folder, so test runs never write into the working tree.
 */
function defaultStorageDir(dataDir: string, env: 'development' | 'production' | 'test'): string {
  if (env === 'test') return path.join(os.tmpdir(), `custos-test-storage-${process.pid}`);
  return path.join(path.dirname(path.resolve(dataDir)), 'storage');
}

/** Whether `key` is the committed release test key (decision 057), whose private half is public. */
export function isReleaseTestKey(key: KeyObject): boolean {
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  return typeof jwk.x === 'string' && Buffer.from(jwk.x, 'base64url').toString('base64') === RELEASE_TEST_PUBLIC_KEY;
}

/** Reads and checks the environment; a bad value stops start-up with one line naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  const value = parsed.data;
  if (
    value.RELEASE_SIGNING_KEY &&
    value.NODE_ENV === 'production' &&
    !value.TEST_CLOCK_CONTROL &&
    isReleaseTestKey(value.RELEASE_SIGNING_KEY)
  ) {
    // Anyone can sign with it: a real server signing with it would vouch for nothing.
    throw new ConfigError('invalid configuration: RELEASE_SIGNING_KEY is the committed test key; give the real release key');
  }
  return {
    env: value.NODE_ENV,
    host: value.HOST,
    port: value.PORT,
    database: value.DATABASE_URL
      ? { kind: 'postgres', url: value.DATABASE_URL, poolSize: value.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: path.resolve(value.DATA_DIR) },
    logLevel: value.LOG_LEVEL,
    platformTimeZone: value.PLATFORM_TIME_ZONE,
    trustProxy: value.TRUST_PROXY,
    webDistDir: value.WEB_DIST_DIR ? path.resolve(value.WEB_DIST_DIR) : undefined,
    adminDistDir: value.ADMIN_DIST_DIR ? path.resolve(value.ADMIN_DIST_DIR) : undefined,
    shutdownGraceMs: value.SHUTDOWN_GRACE_S * 1000,
    operatorSessionTtlMs: value.OPERATOR_SESSION_TTL_HOURS * 3_600_000,
    jobsEnabled: value.JOBS_ENABLED,
    testClockControl: value.TEST_CLOCK_CONTROL,
    demo: false,
    mail: { smtpUrl: value.SMTP_URL, from: value.MAIL_FROM },
    memberSession: {
      idleMs: value.MEMBER_SESSION_IDLE_DAYS * 86_400_000,
      absoluteMs: value.MEMBER_SESSION_ABSOLUTE_DAYS * 86_400_000,
    },
    quoteFeedHosts: quoteFeedHosts(value.QUOTE_FEED_HOSTS, value.NODE_ENV),
    releaseSigningKey: value.RELEASE_SIGNING_KEY,
    storage: {
      directory: path.resolve(value.STORAGE_DIR ?? defaultStorageDir(value.DATA_DIR, value.NODE_ENV)),
      downloadsPerAddress: value.DOWNLOADS_PER_ADDRESS,
    },
    chains: {
      bsc:
        value.BSC_RPC_URL && value.BSC_USDT_CONTRACT && value.BSC_DEPOSIT_XPUB
          ? {
              rpcUrl: value.BSC_RPC_URL,
              tokenAddress: value.BSC_USDT_CONTRACT as `0x${string}`,
              depositXpub: value.BSC_DEPOSIT_XPUB,
              confirmations: value.BSC_CONFIRMATIONS,
              startBlock: value.BSC_START_BLOCK === undefined ? undefined : BigInt(value.BSC_START_BLOCK),
              pollMs: value.BSC_POLL_MS,
              maxBlockRange: value.BSC_MAX_BLOCK_RANGE,
              rpcTimeoutMs: value.BSC_RPC_TIMEOUT_MS,
              hotWalletKey: value.BSC_HOT_WALLET_KEY as `0x${string}` | undefined,
              payoutConfirmations: value.BSC_PAYOUT_CONFIRMATIONS,
            }
          : undefined,
      tron:
        value.TRON_API_URL && value.TRON_USDT_CONTRACT && value.TRON_DEPOSIT_XPUB
          ? {
              apiUrl: value.TRON_API_URL,
              apiKey: value.TRON_API_KEY,
              tokenAddress: value.TRON_USDT_CONTRACT,
              tokenDecimals: value.TRON_USDT_DECIMALS,
              depositXpub: value.TRON_DEPOSIT_XPUB,
              confirmations: value.TRON_CONFIRMATIONS,
              startBlock: value.TRON_START_BLOCK === undefined ? undefined : BigInt(value.TRON_START_BLOCK),
              pollMs: value.TRON_POLL_MS,
              maxBlockRange: value.TRON_MAX_BLOCK_RANGE,
              timeoutMs: value.TRON_TIMEOUT_MS,
            }
          : undefined,
    },
  };
}
