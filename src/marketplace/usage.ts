import { logWarn } from '../observe/log.js';
import type { RequestContext, Route } from '../http/router.js';
import { isApiError } from '../errors.js';
import { BatchedCounts } from '../store/batched-counts.js';
import type { Db } from '../store/index.js';
import type { MarketplaceCaller } from './caller.js';
import { type Month, monthClock } from './month.js';

/** What the usage export counts marketplace calls by. */
export const ENDPOINT_CLASSES = ['general', 'generation', 'ai', 'managed_ai'] as const;
export type EndpointClass = (typeof ENDPOINT_CLASSES)[number];

/** The class of each metered route; every other one is `general` (content helpers, lists, ping, schema). */
const CLASS_OF_ROUTE: Readonly<Record<string, EndpointClass>> = {
  '/api/qr/generate': 'generation',
  '/api/qr/templates/:id': 'generation',
  '/api/qr/templates/:id/generate': 'generation',
  '/api/qr/ai/generate': 'ai',
  '/api/qr/ai/generate-managed': 'managed_ai',
};

export const endpointClassOf = (path: string): EndpointClass => CLASS_OF_ROUTE[path] ?? 'general';

interface MonthCalls {
  user: string;
  month: string;
  endpointClass: EndpointClass;
  plan: string;
}

export interface MarketplaceCallCounterOptions {
  /** How often the counts are written; 0 is not allowed here (no counter is made). */
  flushMs: number;
  /** A flush starts early once this many user × class counts wait. Default 10,000. */
  maxPending?: number;
  clock?: () => number;
  log?: (message: string) => void;
}

/**
 * Marketplace calls per user, month (UTC) and endpoint class, for the usage export, written to
 * `marketplace_usage` in batches (src/store/batched-counts.ts); managed-AI designs are not counted here
 * but in the quota, exactly.
 */
export class MarketplaceCallCounter {
  private readonly counts: BatchedCounts<MonthCalls>;
  private readonly month: () => Month;

  constructor(db: Db, options: MarketplaceCallCounterOptions) {
    this.month = monthClock(options.clock);
    this.counts = new BatchedCounts({
      flushMs: options.flushMs,
      maxPending: options.maxPending ?? 10_000,
      log: options.log ?? logWarn,
      what: 'usage counts',
      write: async (batch) => {
        await db.query(
          `INSERT INTO marketplace_usage AS u (marketplace_user, month, endpoint_class, calls, plan)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[])
           ON CONFLICT (marketplace_user, month, endpoint_class)
           DO UPDATE SET calls = u.calls + EXCLUDED.calls, plan = EXCLUDED.plan`,
          [
            batch.map((c) => c.row.user),
            batch.map((c) => c.row.month),
            batch.map((c) => c.row.endpointClass),
            batch.map((c) => c.n),
            batch.map((c) => c.row.plan),
          ],
        );
      },
    });
  }

  /** `n` calls (one by default) of `caller` to an endpoint of `endpointClass`, now. */
  count(caller: MarketplaceCaller, endpointClass: EndpointClass, n = 1): void {
    const month = this.month().key;
    const { user } = caller;
    const calls = this.counts.count(
      `${month}\n${endpointClass}\n${user}`,
      () => ({ user, month, endpointClass, plan: caller.plan.id }),
      n,
    );
    // The plan is the user's latest: one changed mid-month is billed on the new one.
    calls.plan = caller.plan.id;
  }

  /** Writes what has been counted; resolves once it is in the store (or kept for the next flush). */
  flush(): Promise<void> {
    return this.counts.flush();
  }

  /** Stops the timer and writes what is left. */
  close(): Promise<void> {
    return this.counts.close();
  }
}

/**
 * The route, counting each marketplace call it answers with a status below 500, as the marketplace
 * counts them. Calls relayed by the consumer site are the site's business and are not counted.
 */
export function countedRoute(
  route: Route,
  counter: MarketplaceCallCounter,
  callerOf: (headers: Readonly<Record<string, string>>) => MarketplaceCaller,
): Route {
  const endpointClass = endpointClassOf(route.path);
  const count = (ctx: RequestContext) => {
    if (ctx.customerId === undefined) counter.count(callerOf(ctx.headers), endpointClass);
  };
  return {
    ...route,
    handler: async (ctx) => {
      try {
        await route.handler(ctx);
      } catch (e) {
        if (isApiError(e) && e.status < 500) count(ctx);
        throw e;
      }
      count(ctx);
    },
  };
}
