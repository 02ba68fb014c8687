import type { LimitClass } from '../config.js';
import type { Db, Queryable } from '../store/index.js';
import type { UsageDay } from './types.js';

/** UTC calendar day of an instant, as PostgreSQL's `date` reads it. */
const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

const CLASSES: readonly LimitClass[] = ['general', 'generation', 'ai'];
const DAY_MS = 86_400_000;

/** Calls counted and not yet written: UTC day → customer → calls by class (in CLASSES order). */
type Pending = Map<string, Map<string, number[]>>;

/** The map's value for `key`, made and stored first when there is none. */
function entry<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    map.set(key, v);
  }
  return v;
}

/**
 * Counts gateway calls per customer, UTC day and class in memory and adds them to `usage_daily` in one
 * statement every `flushMs`: the hot path pays two map lookups and an increment, not a write (the day's
 * name is worked out once a day, not per call). What a crash loses is at most the last interval's counts;
 * they feed the dashboard's chart, not billing (credits are exact in the ledger). A failed flush keeps its
 * counts for the next one.
 */
export class UsageCounter {
  private pending: Pending = new Map();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private day = '';
  private dayStart = 0;

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
    const now = this.clock().getTime();
    if (now < this.dayStart || now >= this.dayStart + DAY_MS) {
      this.dayStart = now - (now % DAY_MS);
      this.day = dayOf(new Date(now));
    }
    const calls = entry(
      entry(this.pending, this.day, () => new Map()),
      customerId,
      () => [0, 0, 0],
    );
    calls[CLASSES.indexOf(limitClass)]!++;
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
    for (const [day, customers] of batch)
      for (const [customer, calls] of customers)
        calls.forEach((n, i) => {
          if (n === 0) return;
          columns[0].push(customer);
          columns[1].push(day);
          columns[2].push(CLASSES[i]!);
          columns[3].push(n);
        });
    try {
      await this.db.query(
        `INSERT INTO usage_daily (customer_id, day, class, calls)
         SELECT * FROM unnest($1::text[], $2::date[], $3::text[], $4::int[])
         ON CONFLICT (customer_id, day, class) DO UPDATE SET calls = usage_daily.calls + EXCLUDED.calls`,
        columns,
      );
    } catch (e) {
      this.restore(batch);
      this.log(`usage counts not written, kept for the next flush: ${(e as Error).message}`);
    }
  }

  /** Puts counts that could not be written back with those counted since. */
  private restore(batch: Pending): void {
    for (const [day, customers] of batch) {
      const into = entry(this.pending, day, () => new Map<string, number[]>());
      for (const [customer, calls] of customers) {
        const current = into.get(customer);
        into.set(customer, current === undefined ? calls : current.map((n, i) => n + calls[i]!));
      }
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
