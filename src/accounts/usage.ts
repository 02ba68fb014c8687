import type { LimitClass } from '../config.js';
import { BatchedCounts } from '../store/batched-counts.js';
import type { Db, Queryable } from '../store/index.js';
import type { UsageDay } from './types.js';

/** UTC calendar day of an instant, as PostgreSQL's `date` reads it. */
const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

const DAY_MS = 86_400_000;

interface DayCalls {
  customerId: string;
  day: string;
  limitClass: LimitClass;
}

/**
 * Counts gateway calls per customer, UTC day and class for the dashboard's chart, written to
 * `usage_daily` in batches (src/store/batched-counts.ts); the day's name is worked out once a day, not
 * per call.
 */
export class GatewayCallCounter {
  private readonly counts: BatchedCounts<DayCalls>;
  private day = '';
  private dayStart = 0;

  constructor(
    db: Db,
    private readonly clock: () => Date,
    flushMs: number,
    log: (m: string) => void,
  ) {
    this.counts = new BatchedCounts({
      flushMs,
      log,
      what: 'usage counts',
      write: async (batch) => {
        await db.query(
          `INSERT INTO usage_daily (customer_id, day, class, calls)
           SELECT * FROM unnest($1::text[], $2::date[], $3::text[], $4::int[])
           ON CONFLICT (customer_id, day, class) DO UPDATE SET calls = usage_daily.calls + EXCLUDED.calls`,
          [
            batch.map((c) => c.row.customerId),
            batch.map((c) => c.row.day),
            batch.map((c) => c.row.limitClass),
            batch.map((c) => c.n),
          ],
        );
      },
    });
  }

  record(customerId: string, limitClass: LimitClass): void {
    const now = this.clock().getTime();
    if (now < this.dayStart || now >= this.dayStart + DAY_MS) {
      this.dayStart = now - (now % DAY_MS);
      this.day = dayOf(new Date(now));
    }
    const { day } = this;
    this.counts.count(`${day}\n${limitClass}\n${customerId}`, () => ({ customerId, day, limitClass }));
  }

  flush(): Promise<void> {
    return this.counts.flush();
  }

  close(): Promise<void> {
    return this.counts.close();
  }
}

/**
 * The customer's last `days` UTC days up to `now`, oldest first, every day present: gateway calls by
 * class, and AI credits spent (committed in the ledger, through the gateway or the Studio).
 */
export async function usageByDay(db: Queryable, customerId: string, days: number, now: Date): Promise<UsageDay[]> {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const out = new Map<string, UsageDay>();
  for (let i = 0; i < days; i++) {
    const day = dayOf(new Date(first.getTime() + i * 86_400_000));
    out.set(day, { day, general: 0, generation: 0, ai: 0, creditsSpent: 0 });
  }
  const calls = await db.query<{ day: string; class: LimitClass; calls: number }>(
    'SELECT day::text AS day, class, calls FROM usage_daily WHERE customer_id = $1 AND day >= $2::date',
    [customerId, dayOf(first)],
  );
  for (const r of calls.rows) {
    const entry = out.get(r.day);
    if (entry !== undefined) entry[r.class] = r.calls;
  }
  const spent = await db.query<{ day: string; n: number }>(
    `SELECT ((created_at AT TIME ZONE 'UTC')::date)::text AS day, COUNT(*)::int AS n FROM credit_ledger
     WHERE customer_id = $1 AND kind = 'commit' AND created_at >= $2 GROUP BY 1`,
    [customerId, first],
  );
  for (const r of spent.rows) {
    const entry = out.get(r.day);
    if (entry !== undefined) entry.creditsSpent = r.n;
  }
  return [...out.values()];
}
