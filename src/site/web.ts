import { readFileSync } from 'node:fs';
import { createPeople } from '../accounts/index.js';
import type { Accounts, Clock, People } from '../accounts/types.js';
import type { Config } from '../config.js';
import type { BatchRelays } from '../gateway/batch.js';
import type { GatewayDeps } from '../gateway/gateway.js';
import type { Checkout } from '../checkout/checkout.js';
import { checkoutRoutes } from '../checkout/routes.js';
import type { Route } from '../http/router.js';
import type { Db } from '../store/index.js';
import type { Redis } from 'ioredis';
import { AccountMailer } from './account-mail.js';
import { accountRoutes } from './account-routes.js';
import { accountBatchRoutes } from './batch-routes.js';
import { designRoutes } from './design-routes.js';
import { orderRoutes } from './order-routes.js';
import { sessionRoutes } from './session-routes.js';
import { openApiRoutes } from './openapi.js';
import { pageRoutes, WEB_BUILD_DIR } from './pages.js';
import { SessionCookies } from './session-cookies.js';
import { studioRoutes } from './studio-routes.js';
import { VisitorLimits } from './visitors.js';

const VERSION: string = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version;

export interface WebDeps extends GatewayDeps {
  accounts: Accounts;
  config: Config;
  db: Db;
  redis: Redis | undefined;
  checkout: Checkout;
  /** The bulk calls, for the Studio's bulk page. */
  batchRelays: BatchRelays;
  clock?: Clock;
  log: (msg: string) => void;
}

/**
 * What the site adds for people in a browser: sessions and the dashboard's routes, the Studio's anonymous
 * routes, the OpenAPI documents, and the built pages. `apiRoutes` are the routes the site serves besides
 * (the gateway), listed in its document with these.
 */
export function webRoutes(deps: WebDeps, apiRoutes: Route[]): { people: People; routes: Route[]; close: () => void } {
  const people = createPeople(deps.db, { clock: deps.clock });
  const cookies = new SessionCookies(people, deps.config.site.publicUrl.startsWith('https://'));
  const visitors = new VisitorLimits(deps.config, deps.redis, deps.log);
  const mailer = new AccountMailer(deps.config.site.receipts, deps.log);
  const account = [
    ...sessionRoutes({ people, cookies, visitors, mailer, publicUrl: deps.config.site.publicUrl }),
    ...accountRoutes({ ...deps, people, cookies, visitors, mailer, publicUrl: deps.config.site.publicUrl }),
    ...accountBatchRoutes(cookies.guard, deps.batchRelays),
    ...checkoutRoutes({ checkout: deps.checkout, limiter: deps.limiter, guard: cookies.guard }),
    ...designRoutes({ accounts: deps.accounts, guard: cookies.guard }),
    ...orderRoutes({ accounts: deps.accounts, guard: cookies.guard }),
  ];
  const studio = studioRoutes({ engine: deps.engine, settings: deps.settings, visitors });
  const documented = (): Route[] => [...apiRoutes, ...account, ...studio, ...docs];
  const docs = openApiRoutes(documented, deps.engine, VERSION, deps.settings.maxOutputBytes);
  return {
    people,
    routes: [...account, ...studio, ...docs, ...pageRoutes(WEB_BUILD_DIR, deps.log)],
    close: () => mailer.close(),
  };
}
