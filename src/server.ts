import { readFileSync } from 'node:fs';
import { aiRoutes } from './api/ai.js';
import { type BatchJobs, batchRoutes, openBatchJobs } from './batch/index.js';
import { contentRoutes } from './api/content.js';
import { docsRoutes } from './api/docs.js';
import { generateRoutes } from './api/generate.js';
import { CredentialThrottle } from './gateway/failure-throttle.js';
import { pingRoutes } from './api/ping.js';
import { templateRoutes } from './api/templates.js';
import { isLoopback, type Config } from './config.js';
import { makeRequestAuth } from './http/auth.js';
import { opsRoutes } from './http/ops-routes.js';
import { startHttp, type HttpServer } from './http/server.js';
import type { Route } from './http/router.js';
import { loadUws } from './http/uws.js';
import {
  type Marketplace,
  type MarketplaceOptions,
  openMarketplace,
  USAGE_ADMIN_PATH,
  usageCommand,
} from './marketplace/index.js';
import type { Redis } from 'ioredis';
import { connectRedis } from './redis.js';
import { InProcessReplayMemory, RedisReplayMemory, type ReplayMemory } from './relay/replay.js';
import { RenderCache } from './render/cache.js';
import { RenderPool } from './render/pool.js';
import { configureLogs, logInfo } from './observe/log.js';
import { recordMetrics, watchPool } from './observe/metrics.js';
import type { Service } from './service.js';
import { type AdminAccess, ENGINE_ADMIN, openAdminAccess } from './admin/access.js';
import { type AdminRoute, adminHttpRoutes } from './admin/routes.js';

const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

/**
 * A consumer API key has no use on the engine (the site verifies it and relays a signature instead); one
 * that arrives anyway is dropped unread.
 */
const ENGINE_UNREAD_HEADERS: ReadonlySet<string> = new Set(['x-api-key']);

export interface RunningService {
  service: Service;
  http: HttpServer;
  port: number;
  /**
   * Drains (SIGTERM): not ready at once, no new connection, every request accepted answered, within
   * `graceMs`; resolves with the number still unanswered then. `close` follows.
   */
  drain(graceMs: number): Promise<number>;
  close(): Promise<void>;
}

/** Every engine route, each marketplace call counted by the usage meter. */
function routesOf(service: Service, batches: BatchJobs): Route[] {
  const routes: Route[] = [
    ...pingRoutes(service),
    ...generateRoutes(service),
    ...contentRoutes(),
    ...aiRoutes(service),
    ...templateRoutes(service),
    ...batchRoutes(service, batches),
  ];
  routes.push(...docsRoutes(service, () => routes));
  return service.marketplace.metered(routes);
}

/**
 * The engine's admin API, for the CLI's usage export while this engine holds its PGlite directory (with
 * PostgreSQL the CLI reads the database itself): loopback and this run's token, like the site's.
 */
function engineAdminRoutes(
  marketplace: Marketplace,
  access: () => AdminAccess | undefined,
  failureLimit: number,
): Route[] {
  const usage: AdminRoute = {
    method: 'POST',
    path: USAGE_ADMIN_PATH,
    handle: async (body) => ({ ...(await usageCommand(body, (month) => marketplace.report(month))) }),
  };
  // The token is this process's own: its failures are counted here too.
  return adminHttpRoutes([usage], access, new CredentialThrottle(failureLimit));
}

/**
 * An engine is ready while a render worker that has loaded its modules takes renders. It listens only once
 * all its first workers have; a recycled worker's replacement loading beside the others does not take it
 * out of a load balancer, workers all crashed and still loading do.
 */
function notReady(pool: RenderPool): string | undefined {
  const { ready, workers } = pool.stats();
  return ready > 0 ? undefined : `none of the ${workers} render workers has loaded its modules`;
}

/** Tests: what the engine's metering runs on (a clock, shorter holds). */
export interface ServiceOptions {
  marketplace?: MarketplaceOptions;
}

/**
 * Builds the service from a configuration and starts listening: native uWS (or a refusal to start), the
 * worker pool, the metering store, the routes. It listens once every render worker has loaded its modules
 * (they load while the store opens), so the first requests it accepts render at once. Without a proxy
 * secret the service runs open only on a loopback address.
 */
export async function startService(
  config: Config,
  log: (msg: string) => void = logInfo,
  options: ServiceOptions = {},
): Promise<RunningService> {
  if (config.proxySecret === undefined && !isLoopback(config.host)) {
    throw new Error(
      `QR_PROXY_SECRET is not set and HOST=${config.host} is not a loopback address: refusing to serve without authentication.`,
    );
  }
  configureLogs(config.logFormat);
  recordMetrics(config.metrics);
  const loaded = loadUws();
  const pool = new RenderPool({ ...config, batchWorkerSharePercent: config.batch.workerSharePercent });
  const unwatch = watchPool(pool);
  let marketplace: Marketplace;
  try {
    marketplace = await openMarketplace(config, { log, ...options.marketplace });
  } catch (e) {
    unwatch();
    await pool.close();
    throw e;
  }
  const service: Service = {
    config,
    pool,
    cache: new RenderCache(config.cacheBytes),
    marketplace,
    startedAt: Date.now(),
    version: VERSION,
    uwsBinary: loaded.binary,
  };
  // Relays are remembered in Redis only where there is a secret to accept them with.
  let redis: Redis | undefined;
  let batches: BatchJobs | undefined;
  let http: HttpServer;
  let draining = false;
  try {
    batches = await openBatchJobs(service, marketplace.store, config.store.schema, config.batch);
    redis =
      config.internalSecrets.length > 0 && config.redisUrl !== undefined
        ? await connectRedis(config.redisUrl)
        : undefined;
    const replay: ReplayMemory = redis
      ? new RedisReplayMemory(redis, { keyPrefix: `${config.redisKeyPrefix}relay-seen:`, log })
      : new InProcessReplayMemory();
    const admin: { access?: AdminAccess } = {};
    const routes = [
      ...opsRoutes({
        role: 'engine',
        metrics: config.metrics,
        metricsToken: config.metricsToken,
        notReady: () => notReady(pool),
        draining: () => draining,
      }),
      ...routesOf(service, batches),
    ];
    if (config.store.databaseUrl === undefined)
      routes.push(...engineAdminRoutes(marketplace, () => admin.access, config.credentialFailureLimit));
    await pool.ready();
    http = await startHttp(
      { ...config, unreadHeaders: ENGINE_UNREAD_HEADERS, socketPath: config.engineSocket, serves: 'engine' },
      routes,
      makeRequestAuth(config, replay),
      loaded,
    );
    if (config.store.databaseUrl === undefined)
      admin.access = openAdminAccess(config.store.dataDir, http.port, ENGINE_ADMIN);
  } catch (e) {
    redis?.disconnect();
    await batches?.close();
    unwatch();
    await pool.close();
    await marketplace.close();
    throw e;
  }
  log(`uWebSockets.js native build: ${loaded.binary}`);
  if (config.proxySecret === undefined)
    log(`QR_PROXY_SECRET is not set: serving WITHOUT authentication, on loopback only (${config.host}).`);
  log(
    config.internalSecrets.length === 0
      ? 'QR_INTERNAL_SECRET is not set: relayed consumer requests are refused.'
      : `Relayed consumer requests accepted; replays remembered ${redis ? 'in Redis' : 'in this process'}.`,
  );
  log(`Marketplace plans and managed-AI quotas kept in ${marketplace.storeDescription}.`);
  log(`qrfarm ${VERSION} listening on http://${config.host}:${http.port} with ${config.workers} render workers`);
  if (config.engineSocket !== undefined) log(`Sites on this host can relay through unix:${config.engineSocket}.`);
  return {
    service,
    http,
    port: http.port,
    drain: (graceMs) => {
      draining = true;
      return http.drain(graceMs);
    },
    close: async () => {
      http.close();
      await batches.close();
      unwatch();
      await pool.close();
      redis?.disconnect();
      await marketplace.close();
    },
  };
}
