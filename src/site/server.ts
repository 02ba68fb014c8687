import { type AccountsOptions, createAccounts, resolvePepper, startMaintenance } from '../accounts/index.js';
import type { Accounts } from '../accounts/types.js';
import type { Config } from '../config.js';
import { EngineClient } from '../gateway/engine-client.js';
import { gatewayRoutes } from '../gateway/gateway.js';
import { CustomerLimiter } from '../gateway/limits.js';
import type { RequestAuth } from '../http/auth.js';
import type { Route } from '../http/router.js';
import { startHttp } from '../http/server.js';
import type { LoadedUws } from '../http/uws.js';
import { connectRedis } from '../redis.js';
import { openStore } from '../store/index.js';
import { type AdminAccess, openAdminAccess } from './admin-access.js';
import { ADMIN_COMMANDS, adminPath, answerAdmin } from './admin-routes.js';
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
  close(): Promise<void>;
}

/**
 * The site has no proxy secret and takes no relays: each gateway route checks the caller's API key itself,
 * and relay headers a client sends are ignored like any other.
 */
const SITE_AUTH: RequestAuth = {
  admit: () => false,
  verifyRelayed: () => Promise.reject(new Error('the site takes no relays')),
};

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
  // The pepper first: a missing one must stop the start before anything is opened.
  const pepper = resolvePepper({ pepper: store.keyPepper, dataDir: store.dataDir, databaseUrl: store.databaseUrl });
  const db = await openStore({ ...store, role: 'site' });
  const accounts = createAccounts(db, { pepper, redisUrl: config.redisUrl, ...options.accounts });
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
  const admin: { access?: AdminAccess } = {};
  const gateway = { accounts, limiter, engine, settings: config.site };
  const apiRoutes: Route[] = [
    {
      method: 'GET',
      path: '/healthz',
      auth: 'public',
      doc: { summary: 'Liveness of the site, for load balancers; no key needed.', response: '{ success, status }' },
      handler: (ctx) => ctx.reply.json(200, { success: true, status: 'ok', role: 'site' }),
    },
    ...gatewayRoutes(gateway),
  ];
  const web = webRoutes({ ...gateway, config, db, redis, clock: options.accounts?.clock, log }, apiRoutes);
  const stopMaintenance = startMaintenance(accounts, { log, people: web.people });
  const routes: Route[] = [
    ...apiRoutes,
    // With PostgreSQL the CLI opens the store itself (many writers are fine); only a PGlite directory,
    // which has one writer, is administered through the running site.
    ...(store.databaseUrl === undefined ? adminHttpRoutes(accounts, admin) : []),
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
    close: async () => {
      http.close();
      await stopMaintenance();
      await engine.close();
      await accounts.close();
      redis?.disconnect();
      await db.close();
    },
  };
}

/** The admin API for the CLI: loopback and this run's token, checked before anything else is read. */
function adminHttpRoutes(accounts: Accounts, admin: { access?: AdminAccess }): Route[] {
  return ADMIN_COMMANDS.map((command) => ({
    method: 'POST',
    path: adminPath(command),
    auth: 'public',
    handler: async (ctx) => {
      const access = admin.access;
      if (access === undefined) throw new Error('admin API used before the site listens');
      const answer = await answerAdmin(
        {
          method: ctx.method,
          path: ctx.path,
          body: await ctx.body(),
          authorization: ctx.headers.authorization,
          remoteAddress: ctx.remoteAddress,
        },
        accounts,
        access,
      );
      ctx.reply.json(answer.status, answer.body, answer.headers);
    },
  }));
}
