import { consumerServerAttempts } from '../ai/attempts.js';
import { type AccountsOptions, createAccounts, resolvePepper, startMaintenance } from '../accounts/index.js';
import type { Accounts } from '../accounts/types.js';
import { CATALOGUE } from '../checkout/catalogue.js';
import { Checkout } from '../checkout/checkout.js';
import { type PaymentProvider, TEST_MODE } from '../checkout/payments.js';
import { describeDestination, ReceiptSender, receiptDestination } from '../checkout/receipts.js';
import type { StripePayments } from '../checkout/stripe.js';
import { STRIPE_WEBHOOK_PATH, stripeWebhookRoute } from '../checkout/stripe-webhook.js';
import { type Config, isLoopback } from '../config.js';
import { EdgeCache } from '../gateway/edge-cache.js';
import { EngineClient } from '../gateway/engine-client.js';
import { gatewayRoutes } from '../gateway/gateway.js';
import { CredentialThrottle } from '../gateway/failure-throttle.js';
import { BatchItemLimiter, CustomerLimiter } from '../gateway/limits.js';
import { batchRelays, gatewayBatchRoutes } from '../gateway/batch.js';
import { addressKey } from './visitors.js';
import { type AdminAccess, openAdminAccess } from '../admin/access.js';
import { adminHttpRoutes, adminRoutes } from '../admin/routes.js';
import type { RequestAuth } from '../http/auth.js';
import { opsRoutes } from '../http/ops-routes.js';
import { configureLogs } from '../observe/log.js';
import { recordMetrics } from '../observe/metrics.js';
import type { Route } from '../http/router.js';
import { HSTS } from '../http/answer-headers.js';
import { startHttp } from '../http/server.js';
import type { LoadedUws } from '../http/uws.js';
import { connectRedis } from '../redis.js';
import type { Db } from '../store/db.js';
import { openStore } from '../store/index.js';
import { webRoutes } from './web.js';

export interface SiteOptions {
  /** Engine origins to relay to. */
  engineUrls: string[];
  uws: LoadedUws;
  /** Tests: a clock for pack expiry, shorter reservations. */
  accounts?: Pick<AccountsOptions, 'clock' | 'reservationTtlMs' | 'usageFlushMs'>;
}

export interface RunningSite {
  port: number;
  accounts: Accounts;
  /** Every route it serves, each with the guard it is behind. */
  routes: readonly Route[];
  /** As RunningService's: the relays, server AI and its credits of the requests accepted, settled. */
  drain(graceMs: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * The site has no proxy secret and takes no relays: who may call a route is its guard's to say (an API
 * key, a session, the admin token), and relay headers a client sends are ignored like any other.
 */
const SITE_AUTH: RequestAuth = {
  admit: () => false,
  verifyRelayed: () => Promise.reject(new Error('the site takes no relays')),
};

/**
 * Who takes the money for packs: Stripe when configured. Without a payment provider the site sells in test
 * mode (every order paid at once, no money moved) only when asked (QR_CHECKOUT_TEST_MODE=1) and on a
 * loopback address, and says so, as the engine does of its open mode; otherwise it sells nothing: a
 * reverse proxy on the same host must not hand out free packs to the internet.
 */
async function paymentProvider(
  config: Config,
  log: (msg: string) => void,
): Promise<{ provider: PaymentProvider | undefined; stripe?: StripePayments }> {
  const { stripe } = config.site.payments;
  if (stripe !== undefined) {
    log(
      `Checkout through Stripe${stripe.api ? ` at ${stripe.api.protocol}://${stripe.api.host}:${stripe.api.port}` : ''}; orders are fulfilled from its webhooks at ${STRIPE_WEBHOOK_PATH}.`,
    );
    // Loaded only here: the stripe package takes a quarter of a second to load, which a site without it saves.
    const { StripePayments } = await import('../checkout/stripe.js');
    const payments = new StripePayments(stripe, config.site.payments);
    return { provider: payments, stripe: payments };
  }
  if (config.site.payments.testMode && isLoopback(config.host)) {
    log(
      `Checkout runs in TEST MODE: QR_CHECKOUT_TEST_MODE=1 and no payment provider is configured, so every order is paid at once and no money moves (loopback only, ${config.host}).`,
    );
    return { provider: TEST_MODE };
  }
  log(
    config.site.payments.testMode
      ? `QR_CHECKOUT_TEST_MODE=1 is ignored: HOST=${config.host} is not loopback, and no payment provider is configured, so checkout is off (503 checkout_unavailable).`
      : 'No payment provider is configured and QR_CHECKOUT_TEST_MODE is not 1: checkout is off (503 checkout_unavailable).',
  );
  return { provider: undefined };
}

/** How long the readiness check waits for the store to answer. */
const STORE_CHECK_MS = 2_000;

/** Why the site cannot serve: its account store does not answer a query within STORE_CHECK_MS. */
async function storeDown(db: Db): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`the account store did not answer within ${STORE_CHECK_MS} ms`), STORE_CHECK_MS);
  });
  try {
    return await Promise.race([db.query('SELECT 1').then(() => undefined), late]);
  } catch {
    // Public: the reason names no address or error of the store's.
    return 'the account store is down';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The consumer site: the /api/v1 gateway, the direct consumer endpoints and the admin API, on its own port,
 * over the account store (PGlite in the data directory, or PostgreSQL). It keeps no render state; every
 * call is checked here and relayed, signed, to an engine.
 */
export async function startSite(
  config: Config,
  options: SiteOptions,
  log: (msg: string) => void,
): Promise<RunningSite> {
  const [secret] = config.internalSecrets;
  if (secret === undefined) throw new Error('The site needs QR_INTERNAL_SECRET, shared with the engines it relays to.');
  if (options.engineUrls.length === 0) throw new Error('The site needs QR_ENGINE_URL: the engines it relays to.');
  const { store } = config;
  configureLogs(config.logFormat);
  recordMetrics(config.metrics);
  // The pepper first: a missing one must stop the start before anything is opened.
  const pepper = resolvePepper({ pepper: store.keyPepper, dataDir: store.dataDir, databaseUrl: store.databaseUrl });
  const db = await openStore({ ...store, role: 'site' });
  const accounts = createAccounts(db, {
    pepper,
    redisUrl: config.redisUrl,
    seller: config.site.seller,
    ...options.accounts,
  });
  const redis = config.redisUrl === undefined ? undefined : await connectRedis(config.redisUrl);
  const limiter = new CustomerLimiter({
    limits: config.rateLimits,
    redis,
    keyPrefix: `${config.redisKeyPrefix}limit:`,
    log,
  });
  // Engines accept the current and the previous secret; signing with every configured one serves both
  // sides of a rotation.
  const engine = new EngineClient(options.engineUrls, config.internalSecrets, config.site.engineTimeoutMs);
  const { provider, stripe } = await paymentProvider(config, log);
  const destination = receiptDestination(config.site.receipts);
  log(describeDestination(destination));
  const receipts = destination && new ReceiptSender(accounts, CATALOGUE, destination, config.site.receipts.from, log);
  // Server AI runs on the engines, from the same variables (QR_MANAGED_<ID>_API_KEY, QR_SERVER_CHAIN): a
  // chain with no key there is one with none here, and its credits are not sold.
  const serverAi = consumerServerAttempts(config.ai).length > 0;
  if (!serverAi) log('No provider of QR_SERVER_CHAIN has a key: AI credit top-ups are not sold.');
  const checkout = new Checkout(accounts, CATALOGUE, provider, () => void receipts?.deliverPending(), serverAi);
  const admin: { access?: AdminAccess } = {};
  const edgeCache = config.site.edgeCacheBytes > 0 ? new EdgeCache(config.site.edgeCacheBytes) : undefined;
  // Failed API keys and admin tokens per client address, counted alike (src/gateway/limits.ts).
  const credentialFailures = new CredentialThrottle(config.credentialFailureLimit, {
    redis,
    keyPrefix: `${config.redisKeyPrefix}limit:`,
    log,
    keyOf: addressKey,
  });
  const batchItems = new BatchItemLimiter(config.site.batchItemsPerDay, {
    redis,
    keyPrefix: `${config.redisKeyPrefix}limit:`,
    log,
  });
  let draining = false;
  const gateway = { accounts, limiter, engine, settings: config.site, edgeCache, credentialFailures };
  const bulk = { ...gateway, batch: config.batch, batchItems };
  const apiRoutes: Route[] = [
    ...opsRoutes({
      role: 'site',
      metrics: config.metrics,
      metricsToken: config.metricsToken,
      notReady: () => storeDown(db),
      draining: () => draining,
    }),
    ...gatewayRoutes(gateway),
    ...gatewayBatchRoutes(bulk),
    ...(stripe === undefined ? [] : [stripeWebhookRoute(stripe, checkout)]),
  ];
  const web = webRoutes(
    { ...gateway, batchRelays: batchRelays(bulk), config, db, redis, checkout, clock: options.accounts?.clock, log },
    apiRoutes,
  );
  const stopMaintenance = startMaintenance(accounts, { log, people: web.people });
  const routes: Route[] = [
    ...apiRoutes,
    // With PostgreSQL the CLI opens the store itself (many writers are fine); only a PGlite directory,
    // which has one writer, is administered through the running site.
    ...(store.databaseUrl === undefined
      ? adminHttpRoutes(adminRoutes(accounts), () => admin.access, credentialFailures)
      : []),
    // After the gateway's: the pages and the account routes never slow its matching down.
    ...web.routes,
  ];
  const http = await startHttp(
    {
      ...config,
      port: config.site.port,
      maxBodyBytes: config.site.maxBodyBytes,
      maxMultipartBytes: config.site.maxBodyBytes,
      unreadHeaders: new Set(),
      serves: 'site',
      answerHeaders: config.site.publicUrl.startsWith('https://') ? [HSTS] : [],
    },
    routes,
    SITE_AUTH,
    options.uws,
  );
  if (store.databaseUrl === undefined) admin.access = openAdminAccess(store.dataDir, http.port);
  log(`qrfarm site listening on http://${config.host}:${http.port}, relaying to ${options.engineUrls.join(', ')}`);
  return {
    port: http.port,
    accounts,
    routes,
    drain: (graceMs) => {
      draining = true;
      return http.drain(graceMs);
    },
    close: async () => {
      http.close();
      await receipts?.close();
      web.close();
      await stopMaintenance();
      await engine.close();
      await accounts.close();
      redis?.disconnect();
      await db.close();
    },
  };
}
