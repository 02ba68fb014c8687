import { availableParallelism } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { MODEL_ID } from './ai/attempts.js';
import { getProvider, isProviderId, PROVIDER_IDS } from './ai/providers.js';
import { DEFAULT_AI_SETTINGS, type AiSettings, type ChainStep } from './ai/settings.js';
import { isMemoryDataDir } from './store/data-dir.js';
import { assertSchemaName } from './store/db.js';
import { parseTrustedProxies } from './trusted-proxies.js';

/** Each consumer request counts against the limit of its own class only. */
export type LimitClass = 'general' | 'generation' | 'ai';
/** Requests per customer per window, by class. */
export type RateLimits = Record<LimitClass, number>;

/** The contract's consumer limits per customer per minute (QR_LIMIT_GENERAL, _GENERATION, _AI). */
export const DEFAULT_RATE_LIMITS: Readonly<RateLimits> = { general: 120, generation: 60, ai: 30 };

/** Every environment variable the service reads, parsed and typed in one place. */
export interface Config {
  host: string;
  port: number;
  /**
   * QR_ENGINE_SOCKET: a Unix socket the engine listens on besides its port, for a site on the same host
   * (QR_ENGINE_URL=unix:<path>). `npm start` picks one for its own site when this is unset.
   */
  engineSocket: string | undefined;
  /** Marketplace proxy secret; undefined runs the service open (loopback only). */
  proxySecret: string | undefined;
  proxySecretHeader: string;
  /**
   * Secrets of the relay signature (src/relay): QR_INTERNAL_SECRET, then QR_INTERNAL_SECRET_PREVIOUS during
   * a rotation. Empty: the engine accepts no relayed request.
   */
  internalSecrets: string[];
  /** REDIS_URL: shared rate limits, relay replay memory and key revocations; unset, all stay in this process. */
  redisUrl: string | undefined;
  /** QR_REDIS_PREFIX: starts every key this service writes in Redis, so deployments can share one. */
  redisKeyPrefix: string;
  /** Consumer requests per customer per minute, by class (src/gateway/limits.ts). */
  rateLimits: RateLimits;
  /**
   * QR_LIMIT_AUTH_FAILURES: failed credential checks (API keys, admin tokens) per client address per
   * minute; past them the address is refused 429 before any lookup until the minute ends.
   */
  credentialFailureLimit: number;
  /**
   * QR_TRUSTED_PROXIES: the load balancers (addresses, CIDR blocks) whose X-Forwarded-For names the client
   * (src/http/client-address.ts); empty, the socket's peer is the client.
   */
  trustedProxies: string[];
  workers: number;
  /** Renders waiting for a worker before new ones get SERVER_BUSY. */
  maxQueue: number;
  /** How long a render may wait for a free worker before it gets SERVER_BUSY. */
  queueWaitMs: number;
  /** Time limit of one render, counted from the moment it has a worker. */
  taskTimeoutMs: number;
  workerHeapMb: number;
  /**
   * Each worker's young generation. A render's garbage dies young, so a small one is collected as
   * cheaply as a large one and keeps resident memory down (docs/design-decisions.md, "Memory": 3 MB against V8's
   * default took peak RSS under load from 493–519 MB to 345–395 MB, throughput no lower).
   */
  workerYoungMb: number;
  /** Renders whose canvas exceeds this many pixels count as high-resolution. */
  heavyPixels: number;
  /**
   * High-resolution renders allowed at once (running or queued). By default one worker fewer than there
   * are, so ordinary renders always keep a worker (with one worker, there is none to keep).
   */
  heavyConcurrency: number;
  /** A render worker is replaced after this many tasks (0: never); a backstop, see render/recycle.ts. */
  recycleTasks: number;
  /**
   * A render worker is replaced once its heap and external memory stay over this many MB for several tasks
   * in a row (0: never).
   */
  recycleMb: number;
  /** Bytes of rendered output kept for identical requests. */
  cacheBytes: number;
  maxBodyBytes: number;
  maxMultipartBytes: number;
  /** A request body must have arrived whole within this (else 408 REQUEST_TIMEOUT). */
  bodyTimeoutMs: number;
  maxHeaderBytes: number;
  logRequests: boolean;
  /** QR_LOG_FORMAT: `text` (the default) or `json`, one JSON object per line (observe/log.ts). */
  logFormat: 'text' | 'json';
  /**
   * QR_DRAIN_SECONDS in ms: after SIGTERM, how long a role waits at most for the requests it accepted before
   * it exits (src/main.ts).
   */
  drainMs: number;
  /** QR_METRICS: `on` (the default) counts and serves GET /metrics; `off` does neither (observe/metrics.ts). */
  metrics: boolean;
  /** QR_METRICS_TOKEN: what a non-loopback client of GET /metrics presents as a Bearer token; unset, none may. */
  metricsToken: string | undefined;
  /**
   * Test-only (QR_FETCH_ALLOW_LOOPBACK=1): lets logoUrl and backgroundImageUrl reach loopback addresses
   * (127/8, ::1) so tests can serve images locally; every other private or reserved address stays refused.
   */
  fetchAllowLoopback: boolean;
  /**
   * Origin the service is reached at from outside (QR_PUBLIC_BASE_URL, e.g. https://qr.example.com), used
   * to build absolute links such as template preview URLs; unset, links use the request's Host header.
   */
  publicBaseUrl: string | undefined;
  /** LLM providers: base URLs, the server's own keys, the managed chain and the time limits. */
  ai: AiSettings;
  /** Which roles this process runs: the engine, the consumer site, or both (the default). */
  role: Role;
  /**
   * The store: the site's accounts, and the engine's marketplace metering (managed-AI quotas, usage). The
   * engine keeps its own PGlite directory beside the site's; with DATABASE_URL both use that database.
   */
  store: StoreConfig;
  site: SiteSettings;
  marketplace: MarketplaceSettings;
  /** Bulk jobs (src/batch). */
  batch: BatchSettings;
}

/** Bulk jobs: their size, their share of the workers, how long their results are kept. */
export interface BatchSettings {
  /** QR_BATCH_MAX_ITEMS: rows of one batch, bad ones included. */
  maxItems: number;
  /**
   * QR_BATCH_WORKER_SHARE: percent of the render workers a batch's items may hold while single requests
   * wait for one (at least one worker); when none waits, a batch takes every free worker.
   */
  workerSharePercent: number;
  /** QR_BATCH_KEEP_HOURS: a job and its files are removed this long after it was submitted. */
  keepHours: number;
  /** Items per queue task: what an engine takes at once, and takes again if it died with them. */
  chunkItems: number;
  /**
   * QR_BATCH_CHUNK_EXPIRE_S: a chunk an engine took and has not finished within this is given to another
   * (the engine is taken to have died); items already stored are not rendered again.
   */
  chunkExpireSeconds: number;
  /** How often an idle engine asks the queue for work. */
  pollMs: number;
}

/** What the marketplace proxy tells the engine about each caller, and what the engine reports back. */
export interface MarketplaceSettings {
  /** Request header naming the caller's marketplace user (lower case, as requests carry it). */
  userHeader: string;
  /** Request header naming the caller's plan: BASIC, PRO, ULTRA, MEGA (lower case). */
  planHeader: string;
  /** Response header that increments a custom quota object of the marketplace, as written. */
  billingHeader: string;
  /** The marketplace's quota object for managed-AI designs: `<billingHeader>: <object>=1` on success. */
  managedAiBillingObject: string;
  /** How often the in-memory call counters are written to the store; 0 counts no calls. */
  usageFlushMs: number;
}

export type Role = 'all' | 'engine' | 'site';

export interface SiteSettings {
  port: number;
  /**
   * The engines the gateway relays to (QR_ENGINE_URL, comma-separated): http(s) origins, or `unix:` and
   * the path of an engine's socket (QR_ENGINE_SOCKET). Empty with QR_ROLE=all: the engine of the same
   * process tree.
   */
  engineUrls: string[];
  /** Gateway request bodies above this are refused before they are read. */
  maxBodyBytes: number;
  /** Rendered files above this are not relayed (output_too_large). */
  maxOutputBytes: number;
  /** QR_LIMIT_BATCH_ITEMS: bulk items a customer may submit per day (the `batch` limit class). */
  batchItemsPerDay: number;
  /** How long the gateway waits for an engine's answer to start (504 engine_timeout). */
  engineTimeoutMs: number;
  /** QR_SITE_CACHE_MB: bytes of engine answers the site keeps to give again (src/gateway/edge-cache.ts); 0: none. */
  edgeCacheBytes: number;
  /** Links carried by the 402 answers. */
  docsUrl: string;
  pricingUrl: string;
  /** Who takes the money for packs; none: test mode if asked for on loopback, else no checkout. */
  payments: PaymentSettings;
  /** How buyers get their receipt. */
  receipts: ReceiptSettings;
  /** Who sells, as invoices name them, and the tax the prices include. */
  seller: SellerSettings;
  /** QR_SITE_PUBLIC_URL: the site's origin; https makes its cookies Secure (and `__Host-` named). */
  publicUrl: string;
  /** Limits on people rather than customers (src/site/visitors.ts). */
  visitorLimits: VisitorLimitSettings;
}

/**
 * QR_SELLER_NAME, QR_SELLER_ADDRESS (lines separated by newlines, or by `\n` written out), QR_SELLER_TAX_ID and
 * QR_TAX_PERCENT (the rate of tax every catalogue price includes, 0 to under 100, at most two decimals).
 */
export interface SellerSettings {
  name: string;
  address: string;
  taxId: string;
  taxPercent: number;
}

export interface VisitorLimitSettings {
  /** QR_LIMIT_STUDIO: anonymous Studio calls per client address per minute (default 30, half a customer's generation limit). */
  studio: number;
  /**
   * QR_LIMIT_SIGNIN: sign-up attempts, and failed sign-ins, per client address per 15 minutes; the failed
   * sign-ins' growing delays start at half of it (src/site/visitors.ts).
   */
  signIn: number;
}

/** A receipt goes by SMTP when SMTP_URL is set, else into an outbox folder; with neither it waits. */
export interface ReceiptSettings {
  /** SMTP_URL: smtp://[user:pass@]host[:port] or smtps://…; never logged (it may hold a password). */
  smtpUrl: string | undefined;
  /** QR_MAIL_FROM: the receipts' sender. */
  from: string;
  /** QR_OUTBOX_DIR, default `<QR_DATA_DIR>/outbox` (none with a memory:// data directory). */
  outboxDir: string | undefined;
}

export interface PaymentSettings {
  /** STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (both or neither); undefined: no payment provider. */
  stripe: StripeSettings | undefined;
  /**
   * QR_CHECKOUT_RETURN_URL (default the pricing page): where Stripe sends the buyer back, with
   * `checkout=success&session_id=…` or `checkout=cancelled` added.
   */
  returnUrl: string;
  /**
   * QR_CHECKOUT_TEST_MODE=1: without Stripe, every order is paid at once and no money moves, on a
   * loopback HOST only. Unset, a site without Stripe sells nothing (503 checkout_unavailable).
   */
  testMode: boolean;
}

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** QR_STRIPE_API_URL, for a local stand-in of Stripe's API (tests, stripe-mock); unset: api.stripe.com. */
  api: { protocol: 'http' | 'https'; host: string; port: number } | undefined;
}

export interface StoreConfig {
  /** DATABASE_URL (postgres:// or postgresql://); unset, the embedded PGlite under dataDir. */
  databaseUrl: string | undefined;
  /** QR_DATABASE_SCHEMA: PostgreSQL schema to use (created if missing); unset, the server's default. */
  schema: string | undefined;
  /** QR_DATA_DIR (default ./data): PGlite's files and the secrets generated on first start. */
  dataDir: string;
  /** QR_KEY_PEPPER: the secret API keys are hashed with; required with DATABASE_URL. */
  keyPepper: string | undefined;
}

const int = (env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return n;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const workers = int(env, 'QR_WORKERS', availableParallelism(), 1);
  const host = env.HOST || '127.0.0.1';
  const sitePort = int(env, 'SITE_PORT', 3001);
  // The site's own pages (/docs, /pricing) unless the operator points elsewhere.
  const siteOrigin = given(env, 'QR_SITE_PUBLIC_URL')?.replace(/\/+$/, '') ?? `http://${host}:${sitePort}`;
  return {
    host,
    port: int(env, 'PORT', 3000),
    engineSocket: engineSocket(env),
    proxySecret: env.QR_PROXY_SECRET || undefined,
    proxySecretHeader: (env.QR_PROXY_SECRET_HEADER || 'X-RapidAPI-Proxy-Secret').toLowerCase(),
    internalSecrets: internalSecrets(env),
    redisUrl: redisUrl(env),
    redisKeyPrefix: given(env, 'QR_REDIS_PREFIX') ?? 'qrfarm:',
    rateLimits: {
      general: int(env, 'QR_LIMIT_GENERAL', DEFAULT_RATE_LIMITS.general, 1),
      generation: int(env, 'QR_LIMIT_GENERATION', DEFAULT_RATE_LIMITS.generation, 1),
      ai: int(env, 'QR_LIMIT_AI', DEFAULT_RATE_LIMITS.ai, 1),
    },
    credentialFailureLimit: int(env, 'QR_LIMIT_AUTH_FAILURES', 20, 1),
    trustedProxies: parseTrustedProxies(env.QR_TRUSTED_PROXIES),
    workers,
    maxQueue: int(env, 'QR_MAX_QUEUE', workers * 16),
    queueWaitMs: int(env, 'QR_QUEUE_WAIT_MS', 5_000, 1),
    taskTimeoutMs: int(env, 'QR_TASK_TIMEOUT_MS', 15_000, 1),
    workerHeapMb: int(env, 'QR_WORKER_HEAP_MB', 512, 64),
    workerYoungMb: int(env, 'QR_WORKER_YOUNG_MB', 3, 1),
    heavyPixels: int(env, 'QR_HEAVY_PIXELS', 2048 * 2048, 1),
    heavyConcurrency: int(env, 'QR_HEAVY_CONCURRENCY', Math.max(1, workers - 1), 1),
    recycleTasks: int(env, 'QR_RECYCLE_TASKS', 50_000, 0),
    recycleMb: int(env, 'QR_RECYCLE_MB', 384, 0),
    cacheBytes: int(env, 'QR_CACHE_MB', 64) * 1024 * 1024,
    maxBodyBytes: 10 * 1024 * 1024,
    // Two files of 10 MB each plus the config and multipart framing.
    maxMultipartBytes: 21 * 1024 * 1024,
    bodyTimeoutMs: int(env, 'QR_BODY_TIMEOUT_MS', 30_000, 1),
    maxHeaderBytes: int(env, 'QR_MAX_HEADER_BYTES', 16 * 1024, 1024),
    logRequests: env.QR_LOG_REQUESTS === '1',
    logFormat: logFormat(env),
    metrics: onOff(env, 'QR_METRICS', true),
    metricsToken: env.QR_METRICS_TOKEN || undefined,
    drainMs: int(env, 'QR_DRAIN_SECONDS', 30, 1) * 1000,
    fetchAllowLoopback: env.QR_FETCH_ALLOW_LOOPBACK === '1',
    publicBaseUrl: publicBaseUrl(env),
    ai: loadAi(env),
    role: role(env),
    store: loadStore(env),
    site: {
      port: sitePort,
      engineUrls: engineUrls(env),
      maxBodyBytes: 1024 * 1024,
      maxOutputBytes: 10 * 1024 * 1024,
      batchItemsPerDay: int(env, 'QR_LIMIT_BATCH_ITEMS', 20_000, 1),
      engineTimeoutMs: int(env, 'QR_ENGINE_TIMEOUT_MS', 60_000, 1),
      edgeCacheBytes: int(env, 'QR_SITE_CACHE_MB', 64) * 1024 * 1024,
      docsUrl: given(env, 'QR_DOCS_URL') ?? `${siteOrigin}/docs`,
      pricingUrl: given(env, 'QR_PRICING_URL') ?? `${siteOrigin}/pricing`,
      payments: {
        stripe: loadStripe(env),
        returnUrl: httpUrl(env, 'QR_CHECKOUT_RETURN_URL') ?? given(env, 'QR_PRICING_URL') ?? `${siteOrigin}/pricing`,
        testMode: env.QR_CHECKOUT_TEST_MODE === '1',
      },
      receipts: loadReceipts(env),
      seller: loadSeller(env),
      publicUrl: siteOrigin,
      visitorLimits: {
        studio: int(env, 'QR_LIMIT_STUDIO', 30, 1),
        signIn: int(env, 'QR_LIMIT_SIGNIN', 20, 2),
      },
    },
    marketplace: loadMarketplace(env),
    batch: {
      maxItems: int(env, 'QR_BATCH_MAX_ITEMS', 10_000, 1),
      workerSharePercent: int(env, 'QR_BATCH_WORKER_SHARE', 50, 1),
      keepHours: int(env, 'QR_BATCH_KEEP_HOURS', 24, 1),
      chunkItems: int(env, 'QR_BATCH_CHUNK_ITEMS', 25, 1),
      chunkExpireSeconds: int(env, 'QR_BATCH_CHUNK_EXPIRE_S', 120, 1),
      pollMs: int(env, 'QR_BATCH_POLL_MS', 500, 50),
    },
  };
}

/** An http(s) URL variable; a malformed one is refused by name. */
function httpUrl(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const url = given(env, name);
  if (url !== undefined && !/^https?:\/\/[^/?#\s]+/.test(url))
    throw new Error(`${name} must be an http(s) URL, got "${url}"`);
  return url;
}

function loadReceipts(env: NodeJS.ProcessEnv): ReceiptSettings {
  const smtpUrl = given(env, 'SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^/?#\s]+\/?(\?.*)?$/.test(smtpUrl))
    throw new Error('SMTP_URL must be an smtp:// or smtps:// URL');
  const from = given(env, 'QR_MAIL_FROM') ?? 'qrfarm <receipts@localhost>';
  if (!/^([^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(from))
    throw new Error(`QR_MAIL_FROM must be an address, or a name and <address>, got "${from}"`);
  const dataDir = given(env, 'QR_DATA_DIR') ?? './data';
  const outboxDir = given(env, 'QR_OUTBOX_DIR') ?? (isMemoryDataDir(dataDir) ? undefined : join(dataDir, 'outbox'));
  return { smtpUrl, from, outboxDir };
}

function loadSeller(env: NodeJS.ProcessEnv): SellerSettings {
  const rate = given(env, 'QR_TAX_PERCENT') ?? '0';
  if (!/^\d{1,2}(\.\d{1,2})?$/.test(rate))
    throw new Error(`QR_TAX_PERCENT must be a rate from 0 to 99.99 with at most two decimals, got "${rate}"`);
  return {
    name: given(env, 'QR_SELLER_NAME') ?? 'qrfarm',
    address: (given(env, 'QR_SELLER_ADDRESS') ?? '').replaceAll('\\n', '\n'),
    taxId: given(env, 'QR_SELLER_TAX_ID') ?? '',
    taxPercent: Number(rate),
  };
}

/** Stripe's keys, both or neither; their values are never echoed (they are secrets). */
function loadStripe(env: NodeJS.ProcessEnv): StripeSettings | undefined {
  const secretKey = given(env, 'STRIPE_SECRET_KEY');
  const webhookSecret = given(env, 'STRIPE_WEBHOOK_SECRET');
  if (secretKey === undefined) {
    if (webhookSecret !== undefined) throw new Error('STRIPE_WEBHOOK_SECRET is set without STRIPE_SECRET_KEY');
    return undefined;
  }
  if (!/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/.test(secretKey))
    throw new Error('STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_… or rk_…)');
  if (webhookSecret === undefined)
    throw new Error('STRIPE_SECRET_KEY needs STRIPE_WEBHOOK_SECRET: payments are fulfilled from signed webhooks only');
  if (!/^whsec_[A-Za-z0-9+/=]+$/.test(webhookSecret))
    throw new Error("STRIPE_WEBHOOK_SECRET must be the endpoint's signing secret (whsec_…)");
  const apiUrl = given(env, 'QR_STRIPE_API_URL');
  let api: StripeSettings['api'];
  if (apiUrl !== undefined) {
    const m = /^(https?):\/\/([^/:?#\s]+|\[[0-9a-fA-F:]+\])(?::(\d+))?\/?$/.exec(apiUrl);
    if (m === null) throw new Error(`QR_STRIPE_API_URL must be an http(s) origin, got "${apiUrl}"`);
    const protocol = m[1] as 'http' | 'https';
    api = { protocol, host: m[2]!, port: m[3] === undefined ? (protocol === 'https' ? 443 : 80) : Number(m[3]) };
  }
  return { secretKey, webhookSecret, api };
}

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function headerName(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const value = given(env, name) ?? fallback;
  if (!HEADER_NAME.test(value)) throw new Error(`${name} must be an HTTP header name, got "${value}"`);
  return value;
}

function loadMarketplace(env: NodeJS.ProcessEnv): MarketplaceSettings {
  const object = given(env, 'QR_MANAGED_AI_BILLING_OBJECT') ?? 'managed-ai-designs';
  // The billing header lists `object=n` pairs joined by "; ", and object names may not contain commas.
  if (!/^[A-Za-z0-9_.-]{1,100}$/.test(object))
    throw new Error(`QR_MANAGED_AI_BILLING_OBJECT must be letters, digits and _ . - (at most 100), got "${object}"`);
  return {
    userHeader: headerName(env, 'QR_MARKETPLACE_USER_HEADER', 'X-RapidAPI-User').toLowerCase(),
    planHeader: headerName(env, 'QR_MARKETPLACE_PLAN_HEADER', 'X-RapidAPI-Subscription').toLowerCase(),
    billingHeader: headerName(env, 'QR_MARKETPLACE_BILLING_HEADER', 'X-RapidAPI-Billing'),
    managedAiBillingObject: object,
    usageFlushMs: int(env, 'QR_USAGE_FLUSH_MS', 10_000),
  };
}

function loadStore(env: NodeJS.ProcessEnv): StoreConfig {
  const databaseUrl = given(env, 'DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(?:ql)?:\/\/./.test(databaseUrl))
    throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL');
  const schema = given(env, 'QR_DATABASE_SCHEMA');
  if (schema !== undefined) assertSchemaName(schema);
  return {
    databaseUrl,
    schema,
    dataDir: given(env, 'QR_DATA_DIR') ?? './data',
    keyPepper: given(env, 'QR_KEY_PEPPER'),
  };
}

function role(env: NodeJS.ProcessEnv): Role {
  const r = given(env, 'QR_ROLE') ?? 'all';
  if (r !== 'all' && r !== 'engine' && r !== 'site') throw new Error(`QR_ROLE must be all, engine or site, got "${r}"`);
  return r;
}

/**
 * Longest path a Unix socket address holds on Linux: sun_path is 108 bytes with its terminating zero. uWS
 * copies the path into it unchecked, so a longer one must never reach it.
 */
export const MAX_SOCKET_PATH_BYTES = 107;

/** How an engine reached through a Unix socket is named (QR_ENGINE_URL): `unix:/run/qrfarm/engine.sock`. */
export const UNIX_SCHEME = 'unix:';

/** The socket path of a `unix:` engine address; undefined for an http(s) origin. */
export const socketPathOf = (address: string): string | undefined =>
  address.startsWith(UNIX_SCHEME) ? address.slice(UNIX_SCHEME.length) : undefined;

/** Why `path` cannot name a Unix socket to listen on or connect to; undefined when it can. */
export function socketPathProblem(path: string): string | undefined {
  if (!isAbsolute(path)) return `a Unix socket path must be absolute, got "${path}"`;
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES)
    return `a Unix socket path holds at most ${MAX_SOCKET_PATH_BYTES} bytes, "${path}" has ${Buffer.byteLength(path)}`;
  return undefined;
}

/** QR_ENGINE_URL: one or more engines, comma-separated: http(s) origins, or `unix:` and a socket's path. */
function engineUrls(env: NodeJS.ProcessEnv): string[] {
  const list = given(env, 'QR_ENGINE_URL');
  if (list === undefined) return [];
  return list.split(',').map((u) => {
    const url = u.trim();
    const socket = socketPathOf(url);
    if (socket !== undefined) {
      const problem = socketPathProblem(socket);
      if (problem !== undefined) throw new Error(`QR_ENGINE_URL: ${problem}`);
      return url;
    }
    const origin = url.replace(/\/+$/, '');
    if (!/^https?:\/\/[^/?#\s]+$/.test(origin))
      throw new Error(`QR_ENGINE_URL must be http(s) origins without a path or unix:<socket path>, got "${url}"`);
    return origin;
  });
}

function engineSocket(env: NodeJS.ProcessEnv): string | undefined {
  const path = given(env, 'QR_ENGINE_SOCKET');
  const problem = path === undefined ? undefined : socketPathProblem(path);
  if (problem !== undefined) throw new Error(`QR_ENGINE_SOCKET: ${problem}`);
  return path;
}

/** A variable's trimmed value; unset and blank are the same. */
const given = (env: NodeJS.ProcessEnv, name: string): string | undefined => {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
};

/**
 * The AI section. For each provider id (openai, anthropic, google, mistral, deepseek, groq, xai, openrouter,
 * together, local), upper-cased:
 *   QR_LLM_<ID>_BASE_URL      where the provider is reached, e.g. QR_LLM_LOCAL_BASE_URL=http://127.0.0.1:11434/v1
 *   QR_MANAGED_<ID>_API_KEY   the server's own key, for the managed and consumer-server chains
 *   QR_MANAGED_CHAIN          managed chain order: ids, each optionally `id=model`; default groq,google,openai
 *   QR_SERVER_CHAIN           consumer-server chain, same form; default
 *                             groq=openai/gpt-oss-120b,groq=openai/gpt-oss-20b,openai,google
 *   QR_AI_ATTEMPT_TIMEOUT_MS  per-provider limit, default 20000
 *   QR_AI_TOTAL_TIMEOUT_MS    whole-chain limit, default 45000
 * Mistakes fail the start with the variable's name, never its value (it may be a key).
 */
function loadAi(env: NodeJS.ProcessEnv): AiSettings {
  const baseUrls: AiSettings['baseUrls'] = {};
  const managedKeys: AiSettings['managedKeys'] = {};
  for (const id of PROVIDER_IDS) {
    const urlName = `QR_LLM_${id.toUpperCase()}_BASE_URL`;
    const url = given(env, urlName);
    if (url !== undefined) {
      if (!/^https?:\/\/[^/]/.test(url)) throw new Error(`${urlName} must be an http(s) URL, got "${url}"`);
      baseUrls[id] = url;
    }
    const keyName = `QR_MANAGED_${id.toUpperCase()}_API_KEY`;
    const key = given(env, keyName);
    if (key !== undefined) {
      // The key goes into an HTTP header; a stray space or newline would fail every request at run time.
      if (!/^[\x21-\x7e]+$/.test(key)) throw new Error(`${keyName} must be printable ASCII without spaces`);
      managedKeys[id] = key;
    }
  }
  return {
    baseUrls,
    managedKeys,
    managedChain: chain(env, 'QR_MANAGED_CHAIN', DEFAULT_AI_SETTINGS.managedChain),
    serverChain: chain(env, 'QR_SERVER_CHAIN', DEFAULT_AI_SETTINGS.serverChain),
    perAttemptMs: int(env, 'QR_AI_ATTEMPT_TIMEOUT_MS', DEFAULT_AI_SETTINGS.perAttemptMs, 1),
    totalMs: int(env, 'QR_AI_TOTAL_TIMEOUT_MS', DEFAULT_AI_SETTINGS.totalMs, 1),
  };
}

/** A relay secret must resist guessing: at least 32 characters (the generated ones are 64 hex digits). */
const MIN_INTERNAL_SECRET = 32;

function internalSecrets(env: NodeJS.ProcessEnv): string[] {
  const secret = (name: string): string | undefined => {
    const value = given(env, name);
    if (value !== undefined && value.length < MIN_INTERNAL_SECRET)
      throw new Error(`${name} must be at least ${MIN_INTERNAL_SECRET} characters`);
    return value;
  };
  const current = secret('QR_INTERNAL_SECRET');
  const previous = secret('QR_INTERNAL_SECRET_PREVIOUS');
  if (current === undefined && previous !== undefined)
    throw new Error('QR_INTERNAL_SECRET_PREVIOUS is set without QR_INTERNAL_SECRET');
  return [current, previous].filter((s) => s !== undefined);
}

/** REDIS_URL: redis:// or rediss://; a malformed one is named, never echoed (it may hold a password). */
function redisUrl(env: NodeJS.ProcessEnv): string | undefined {
  const url = given(env, 'REDIS_URL');
  if (url !== undefined && !/^rediss?:\/\/[^/\s]/.test(url))
    throw new Error('REDIS_URL must be a redis:// or rediss:// URL');
  return url;
}

/** QR_PUBLIC_BASE_URL: an http(s) origin, optionally with a path prefix; a trailing slash is dropped. */
function publicBaseUrl(env: NodeJS.ProcessEnv): string | undefined {
  const url = given(env, 'QR_PUBLIC_BASE_URL');
  if (url === undefined) return undefined;
  if (!/^https?:\/\/[^/?#\s]+(?:\/[^?#\s]*)?$/.test(url))
    throw new Error(`QR_PUBLIC_BASE_URL must be an http(s) URL without query or fragment, got "${url}"`);
  return url.replace(/\/+$/, '');
}

/** A chain variable: comma-separated steps; unset, `fallback`. */
const chain = (env: NodeJS.ProcessEnv, name: string, fallback: readonly ChainStep[]): readonly ChainStep[] =>
  given(env, name)
    ?.split(',')
    .map((s) => chainStep(name, s.trim())) ?? fallback;

/** `groq` or `local=llama3.2:3b` (`=`, since model ids may contain `:` and `/`). */
function chainStep(variable: string, entry: string): ChainStep {
  const [providerId, model, ...rest] = entry.split('=');
  if (!isProviderId(providerId) || rest.length > 0) {
    throw new Error(
      `${variable}: "${entry}" is not a provider id (${PROVIDER_IDS.join(', ')}), optionally followed by =model`,
    );
  }
  if (model === undefined) {
    if (getProvider(providerId).defaultModel === '')
      throw new Error(`${variable}: ${providerId} has no default model; write ${providerId}=<model>`);
    return { providerId };
  }
  if (!MODEL_ID.test(model))
    throw new Error(`${variable}: "${model}" is not a model id (letters, digits and . _ : / -, up to 100)`);
  return { providerId, model };
}

/** A switch: `on` or `off`, `fallback` when unset. */
function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  if (value !== 'on' && value !== 'off') throw new Error(`${name} must be on or off, not "${value}"`);
  return value === 'on';
}

function logFormat(env: NodeJS.ProcessEnv): 'text' | 'json' {
  const format = env.QR_LOG_FORMAT ?? 'text';
  if (format !== 'text' && format !== 'json') throw new Error(`QR_LOG_FORMAT must be text or json, not "${format}"`);
  return format;
}

export const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
