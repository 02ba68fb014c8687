import type { LimitClass } from '../config.js';
import type { Db, Queryable } from '../store/index.js';
import type { UsageDay } from './types.js';

/** UTC calendar day of an instant, as PostgreSQL's `date` reads it. */
const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * Counts gateway calls per customer, UTC day and class in memory and adds them to `usage_daily` in one
 * statement every `flushMs`: the hot path pays a map increment, not a write. What a crash loses is at
 * most the last interval's counts; they feed the dashboard's chart, not billing (credits are exact in
 * the ledger). A failed flush keeps its counts for the next one.
 */
export class UsageCounter {
  private pending = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly clock: () => Date,
    flushMs: number,
    private readonly log: (m: string) => void,
  ) {
    this.timer = setInterval(() => void this.flush(), flushMs);
    this.timer.unref();
  }

  record(customerId: string, limitClass: LimitClass): void {
    const key = `${customerId}\n${dayOf(this.clock())}\n${limitClass}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
  }

  /** Writes what has been counted; one flush at a time. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const columns: [string[], string[], string[], number[]] = [[], [], [], []];
    for (const [key, calls] of batch) {
      const [customer, day, limitClass] = key.split('\n') as [string, string, string];
      columns[0].push(customer);
      columns[1].push(day);
      columns[2].push(limitClass);
      columns[3].push(calls);
    }
    try {
      await this.db.query(
        `INSERT INTO usage_daily (customer_id, day, class, calls)
         SELECT * FROM unnest($1::text[], $2::date[], $3::text[], $4::int[])
         ON CONFLICT (customer_id, day, class) DO UPDATE SET calls = usage_daily.calls + EXCLUDED.calls`,
        columns,
      );
    } catch (e) {
      for (const [key, calls] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + calls);
      this.log(`usage counts not written, kept for the next flush: ${(e as Error).message}`);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
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
