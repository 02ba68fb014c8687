import type { RequestContext, Route } from '../http/router.js';
import { isApiError } from '../errors.js';
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

interface Pending {
  user: string;
  month: string;
  endpointClass: EndpointClass;
  plan: string;
  calls: number;
}

export interface UsageCounterOptions {
  /** How often the counts are written; 0 is not allowed here (no counter is made). */
  flushMs: number;
  /** A flush starts early once this many user × class counts wait. Default 10,000. */
  maxPending?: number;
  clock?: () => number;
  log?: (message: string) => void;
}

/**
 * Marketplace calls per user, month (UTC) and endpoint class, counted in memory on the request path (a
 * map increment) and written to the store in one statement every `flushMs`. A flush that fails keeps its
 * counts for the next one. What a crash loses is what was counted since the last flush (at most
 * `flushMs` of calls); managed-AI designs are not counted here but in the quota, exactly.
 */
export class UsageCounter {
  private pending = new Map<string, Pending>();
  private readonly month: () => Month;
  private readonly maxPending: number;
  private readonly log: (message: string) => void;
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | undefined;
  private failing = false;

  constructor(
    private readonly db: Db,
    options: UsageCounterOptions,
  ) {
    this.month = monthClock(options.clock);
    this.maxPending = options.maxPending ?? 10_000;
    this.log = options.log ?? ((m) => console.warn(m));
    this.timer = setInterval(() => void this.flush(), options.flushMs);
    this.timer.unref();
  }

  /** One call of `caller` to an endpoint of `endpointClass`, now. */
  count(caller: MarketplaceCaller, endpointClass: EndpointClass): void {
    const month = this.month().key;
    const key = `${month}\n${endpointClass}\n${caller.user}`;
    const entry = this.pending.get(key);
    if (entry !== undefined) {
      entry.calls++;
      entry.plan = caller.plan.id;
      return;
    }
    this.pending.set(key, { user: caller.user, month, endpointClass, plan: caller.plan.id, calls: 1 });
    if (this.pending.size >= this.maxPending) void this.flush();
  }

  /** Writes what has been counted; resolves once it is in the store (or kept for the next flush). */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      await this.db.query(
        `INSERT INTO marketplace_usage AS u (marketplace_user, month, endpoint_class, calls, plan)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[])
         ON CONFLICT (marketplace_user, month, endpoint_class)
         DO UPDATE SET calls = u.calls + EXCLUDED.calls, plan = EXCLUDED.plan`,
        [
          batch.map((p) => p.user),
          batch.map((p) => p.month),
          batch.map((p) => p.endpointClass),
          batch.map((p) => p.calls),
          batch.map((p) => p.plan),
        ],
      );
      this.failing = false;
    } catch (e) {
      // Kept for the next flush, added to what is counted meanwhile; the plan counted since is newer.
      for (const p of batch) {
        const key = `${p.month}\n${p.endpointClass}\n${p.user}`;
        const now = this.pending.get(key);
        if (now === undefined) this.pending.set(key, p);
        else now.calls += p.calls;
      }
      if (!this.failing) this.log(`usage counts could not be written (kept, retried): ${(e as Error).message}`);
      this.failing = true;
    }
  }

  /** Stops the timer and writes what is left. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}

/**
 * The route, counting each marketplace call it answers with a status below 500, as the marketplace
 * counts them. Calls relayed by the consumer site are the site's business and are not counted.
 */
export function countedRoute(
  route: Route,
  counter: UsageCounter,
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
