import { logWarn } from '../observe/log.js';
import type { Config } from '../config.js';
import type { Route } from '../http/router.js';
import { type Db, isMemoryDataDir, MARKETPLACE_PGLITE, openStore } from '../store/index.js';
import { callQuotaExceeded, callsTaken, giveBackCalls, hardLimitedRoute, takeCalls } from './call-quota.js';
import { ManagedAiMeter, type ManagedAiMeterOptions } from './managed-ai.js';
import { type MonthKey, monthOf } from './month.js';
import { PLANS, type PlanTable } from './plans.js';
import { type ManagedUsage, managedUsage } from './quota.js';
import { type UsageReport, usageReport } from './report.js';
import { countedRoute, MarketplaceCallCounter, type MarketplaceCallCounterOptions } from './usage.js';

export { type MarketplaceCaller, marketplaceCaller, UNNAMED_USER } from './caller.js';
export type { DeliverDesign, ManagedAiMeter } from './managed-ai.js';
export { type MonthKey, monthOf } from './month.js';
export { loadPlanTable, type Plan, PLANS, type PlanTable } from './plans.js';
export type { ManagedUsage } from './quota.js';
export { type UsageReport, usageCsv, usageReport, usageRows, type UserUsage } from './report.js';
export { ENDPOINT_CLASSES, type EndpointClass } from './usage.js';
export { USAGE_ADMIN_PATH, usageCommand } from './usage-command.js';

/** The engine's metering of the marketplace channel, on its own store. */
export interface Marketplace {
  plans: PlanTable;
  managedAi: ManagedAiMeter;
  /** A user's managed-AI count for a month, exact; null before their first managed call of it. */
  managedUsage(user: string, month: MonthKey): Promise<ManagedUsage | null>;
  /**
   * A hard-limited user's calls admitted this month (src/marketplace/call-quota.ts), exact; 0 before the
   * first.
   */
  callsTaken(user: string, month: MonthKey): Promise<number>;
  /**
   * The routes, each marketplace call of a plan with no overage refused past its monthly calls, and each
   * counted by endpoint class (unless counting is off).
   */
  metered(routes: Route[]): Route[];
  /** The month's usage of every user, this engine's counts written first. */
  report(month: MonthKey): Promise<UsageReport>;
  /**
   * Counts a bulk job's `items` as that many calls of the marketplace caller's plan: a plan with no overage
   * takes them all from its month or refuses (CALL_QUOTA_EXCEEDED), a paid plan's usage counts them as
   * generation calls. Relayed consumer calls and callers without a plan header are not counted, as for
   * single calls. Returns what gives the calls back (the job could not be queued).
   */
  chargeItems(headers: Readonly<Record<string, string>>, relayed: boolean, items: number): Promise<() => Promise<void>>;
  /** The store the metering is kept in (with DATABASE_URL, every engine's; else this engine's PGlite). */
  store: Db;
  /** Where the metering is kept, for the start log. */
  storeDescription: string;
  close(): Promise<void>;
}

export interface MarketplaceOptions {
  managedAi?: ManagedAiMeterOptions;
  usage?: Pick<MarketplaceCallCounterOptions, 'clock' | 'maxPending'>;
  /** The clock of the hard limit on calls (its month). */
  calls?: { clock?: () => Date };
  log?: (message: string) => void;
}

/**
 * Opens the engine's store and its metering. With DATABASE_URL it is the database every engine and site
 * shares, so quotas hold across engines; without, the engine's own PGlite directory in QR_DATA_DIR
 * (`marketplace-pglite`, locked like the site's), never the site's, which has one writer and is held
 * by the site's process.
 */
export async function openMarketplace(config: Config, options: MarketplaceOptions = {}): Promise<Marketplace> {
  const { databaseUrl, dataDir, schema } = config.store;
  const log = options.log ?? logWarn;
  const db: Db = await openStore({ databaseUrl, dataDir, schema, pglite: MARKETPLACE_PGLITE, role: 'engine' });
  const managedAi = new ManagedAiMeter(db, PLANS, config.marketplace, { log, ...options.managedAi });
  const { usageFlushMs } = config.marketplace;
  const usage =
    usageFlushMs === 0 ? undefined : new MarketplaceCallCounter(db, { flushMs: usageFlushMs, log, ...options.usage });
  const callsClock = options.calls?.clock ?? (() => new Date());
  const callerOf = (headers: Readonly<Record<string, string>>) => managedAi.callerOf(headers);
  return {
    plans: PLANS,
    managedAi,
    managedUsage: (user, month) => managedUsage(db, user, month),
    callsTaken: (user, month) => callsTaken(db, user, month),
    async chargeItems(headers, relayed, items) {
      const nothing = async () => {};
      if (relayed || headers[config.marketplace.planHeader] === undefined) return nothing;
      const caller = callerOf(headers);
      if (caller.plan.overageUsdPerCall !== null) {
        usage?.count(caller, 'generation', items);
        return nothing;
      }
      const now = callsClock();
      const month = monthOf(now).key;
      if (!(await takeCalls(db, caller.user, month, caller.plan.callsPerMonth, items)))
        throw callQuotaExceeded(caller.plan, now, items);
      return () => giveBackCalls(db, caller.user, month, items);
    },
    store: db,
    metered: (routes) =>
      routes.map((r) => {
        if (r.auth !== undefined || r.metering === 'own') return r;
        const limited = hardLimitedRoute(r, db, PLANS, config.marketplace, callsClock);
        return usage === undefined ? limited : countedRoute(limited, usage, callerOf);
      }),
    async report(month) {
      await usage?.flush();
      return usageReport(db, month, PLANS);
    },
    storeDescription:
      databaseUrl !== undefined
        ? 'PostgreSQL (DATABASE_URL)'
        : isMemoryDataDir(dataDir)
          ? 'PGlite in memory (nothing kept)'
          : `PGlite in ${dataDir}/${MARKETPLACE_PGLITE}`,
    async close() {
      await usage?.close();
      await managedAi.close();
      await db.close();
    },
  };
}
