import type { Accounts } from '../accounts/types.js';
import type { Config } from '../config.js';
import { EngineClient } from '../gateway/engine-client.js';
import { gatewayRoutes } from '../gateway/gateway.js';
import type { CustomerLimiter } from '../gateway/limits.js';
import type { RequestAuth } from '../http/auth.js';
import type { Route } from '../http/router.js';
import { startHttp } from '../http/server.js';
import type { LoadedUws } from '../http/uws.js';

export interface SiteDeps {
  accounts: Accounts;
  limiter: CustomerLimiter;
  /** The relay secret shared with the engines. */
  internalSecret: string;
  /** Engine origins to relay to. */
  engineUrls: string[];
  uws: LoadedUws;
}

/**
 * The site has no proxy secret and takes no relays: each gateway route checks the caller's API key itself,
 * and relay headers a client sends are ignored like any other.
 */
const SITE_AUTH: RequestAuth = {
  admit: () => false,
  verifyRelayed: () => Promise.reject(new Error('the site takes no relays')),
};

export interface RunningSite {
  port: number;
  close(): Promise<void>;
}

/**
 * The consumer site: the /api/v1 gateway and the direct consumer endpoints, on its own port. It keeps no
 * render state; every call is checked here and relayed, signed, to an engine.
 */
export async function startSite(config: Config, deps: SiteDeps, log: (msg: string) => void): Promise<RunningSite> {
  const engine = new EngineClient(deps.engineUrls, deps.internalSecret, config.site.engineTimeoutMs);
  const routes: Route[] = [
    {
      method: 'GET',
      path: '/healthz',
      auth: 'public',
      doc: { summary: 'Liveness of the site, for load balancers; no key needed.', response: '{ success, status }' },
      handler: (ctx) => ctx.reply.json(200, { success: true, status: 'ok', role: 'site' }),
    },
    ...gatewayRoutes({ accounts: deps.accounts, limiter: deps.limiter, engine, settings: config.site }),
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
    deps.uws,
  );
  log(`qrfarm site listening on http://${config.host}:${http.port}, relaying to ${deps.engineUrls.join(', ')}`);
  return {
    port: http.port,
    close: async () => {
      http.close();
      await engine.close();
    },
  };
}
