import type { Db, Queryable } from '../store/index.js';
import type { MonthKey } from './month.js';

/**
 * The managed-AI quota in the store: one row per marketplace user and month counting designs in flight
 * (`held`), delivered (`designs`) and past the plan's quota (`overage`), and one row per call in flight.
 * Every change is a single statement, so it is atomic on both drivers and exact under concurrency on any
 * number of engines: concurrent statements on a user's row queue on its row lock, and each sees the
 * count the previous one left.
 */

export interface HoldRequest {
  holdId: string;
  user: string;
  month: MonthKey;
  planId: string;
  /** Hard-limit plans: the most designs held and delivered this month; undefined: no limit. */
  limit: number | undefined;
  expiresAt: Date;
}

/**
 * Holds one design of the month for the user, unless a limit is given and held + delivered designs
 * have reached it. True when held.
 */
export async function holdManagedDesign(db: Queryable, r: HoldRequest): Promise<boolean> {
  const { rowCount } = await db.query(
    `WITH counted AS (
       INSERT INTO managed_ai_usage AS u (marketplace_user, month, plan, held) VALUES ($2, $3, $4, 1)
       ON CONFLICT (marketplace_user, month) DO UPDATE SET held = u.held + 1, plan = EXCLUDED.plan
       WHERE $5::integer IS NULL OR u.held + u.designs < $5::integer
       RETURNING marketplace_user, month
     )
     INSERT INTO managed_ai_holds (id, marketplace_user, month, expires_at)
     SELECT $1, marketplace_user, month, $6 FROM counted`,
    [r.holdId, r.user, r.month, r.planId, r.limit ?? null, r.expiresAt],
  );
  return rowCount === 1;
}

export interface ManagedCount {
  designs: number;
  overage: number;
}

/**
 * A held design delivered: it leaves `held` for `designs`, and for `overage` too when the month's designs
 * had already reached `quota`. Null when the hold was ended already (released, or swept after expiry).
 */
export async function deliverManagedDesign(db: Queryable, holdId: string, quota: number): Promise<ManagedCount | null> {
  const { rows } = await db.query<ManagedCount>(
    `WITH ended AS (DELETE FROM managed_ai_holds WHERE id = $1 RETURNING marketplace_user, month)
     UPDATE managed_ai_usage u
     SET held = u.held - 1, designs = u.designs + 1,
         overage = u.overage + CASE WHEN u.designs >= $2 THEN 1 ELSE 0 END
     FROM ended WHERE u.marketplace_user = ended.marketplace_user AND u.month = ended.month
     RETURNING u.designs, u.overage`,
    [holdId, quota],
  );
  return rows[0] ?? null;
}

/** A held design not delivered: the hold is given back. Ending twice changes nothing. */
export async function releaseManagedDesign(db: Queryable, holdId: string): Promise<void> {
  await db.query(
    `WITH ended AS (DELETE FROM managed_ai_holds WHERE id = $1 RETURNING marketplace_user, month)
     UPDATE managed_ai_usage u SET held = u.held - 1
     FROM ended WHERE u.marketplace_user = ended.marketplace_user AND u.month = ended.month`,
    [holdId],
  );
}

/** How many expired holds one sweep releases at most; the next sweep takes the rest. */
const SWEEP_BATCH = 500;

/**
 * Releases holds past their expiry: what an engine that stopped mid-call left behind. One statement, so
 * sweepers on several engines (and a late delivery) never end a hold twice. Returns how many.
 */
export async function sweepManagedHolds(db: Db, now: Date): Promise<number> {
  const { rows } = await db.query<{ released: number }>(
    `WITH ended AS (
       DELETE FROM managed_ai_holds WHERE id IN (
         SELECT id FROM managed_ai_holds WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2
       ) RETURNING marketplace_user, month
     ), per_month AS (
       SELECT marketplace_user, month, count(*)::integer AS n FROM ended GROUP BY marketplace_user, month
     ), released AS (
       UPDATE managed_ai_usage u SET held = u.held - per_month.n
       FROM per_month WHERE u.marketplace_user = per_month.marketplace_user AND u.month = per_month.month
       RETURNING per_month.n
     )
     SELECT COALESCE(SUM(n), 0)::integer AS released FROM released`,
    [now, SWEEP_BATCH],
  );
  return rows[0]!.released;
}

export interface ManagedUsage extends ManagedCount {
  held: number;
  plan: string;
}

/** The user's managed-AI count for the month; null before their first managed call of it. */
export async function managedUsage(db: Queryable, user: string, month: MonthKey): Promise<ManagedUsage | null> {
  const { rows } = await db.query<ManagedUsage>(
    'SELECT held, designs, overage, plan FROM managed_ai_usage WHERE marketplace_user = $1 AND month = $2',
    [user, month],
  );
  return rows[0] ?? null;
}
