import type { MarketplaceSettings } from '../config.js';
import { ApiError, isApiError } from '../errors.js';
import type { Route } from '../http/router.js';
import type { Queryable } from '../store/index.js';
import { marketplaceCaller } from './caller.js';
import { type MonthKey, monthOf } from './month.js';
import type { Plan, PlanTable } from './plans.js';

/**
 * Takes one call of the user's month unless `limit` calls are taken already. One statement: concurrent
 * ones on the user's row queue on its lock and each sees the count the previous one left, on PGlite and on
 * PostgreSQL shared by any number of engines. True when taken.
 */
export async function takeCall(db: Queryable, user: string, month: MonthKey, limit: number): Promise<boolean> {
  if (limit <= 0) return false;
  const { rowCount } = await db.query(
    `INSERT INTO marketplace_call_quota AS q (marketplace_user, month, calls) VALUES ($1, $2, 1)
     ON CONFLICT (marketplace_user, month) DO UPDATE SET calls = q.calls + 1 WHERE q.calls < $3
     RETURNING calls`,
    [user, month, limit],
  );
  return rowCount === 1;
}

/**
 * Takes `n` calls of the user's month at once (a bulk job's items), or none if fewer than `n` are left of
 * `limit`. One statement, as `takeCall`. True when taken.
 */
export async function takeCalls(
  db: Queryable,
  user: string,
  month: MonthKey,
  limit: number,
  n: number,
): Promise<boolean> {
  if (n > limit) return false;
  const { rowCount } = await db.query(
    `INSERT INTO marketplace_call_quota AS q (marketplace_user, month, calls) VALUES ($1, $2, $4)
     ON CONFLICT (marketplace_user, month) DO UPDATE SET calls = q.calls + $4 WHERE q.calls + $4 <= $3
     RETURNING calls`,
    [user, month, limit, n],
  );
  return rowCount === 1;
}

/** Gives back calls taken (`n`, one by default): the answer was a server error, which the marketplace does not count. */
export async function giveBackCalls(db: Queryable, user: string, month: MonthKey, n: number): Promise<void> {
  await db.query(
    'UPDATE marketplace_call_quota SET calls = greatest(0, calls - $3) WHERE marketplace_user = $1 AND month = $2',
    [user, month, n],
  );
}

/** Gives back a call taken: its answer was a server error, which the marketplace does not count either. */
export async function giveBackCall(db: Queryable, user: string, month: MonthKey): Promise<void> {
  await db.query(
    'UPDATE marketplace_call_quota SET calls = calls - 1 WHERE marketplace_user = $1 AND month = $2 AND calls > 0',
    [user, month],
  );
}

/** The calls a hard-limited user has been admitted this month (0 before the first). */
export async function callsTaken(db: Queryable, user: string, month: MonthKey): Promise<number> {
  const { rows } = await db.query<{ calls: number }>(
    'SELECT calls FROM marketplace_call_quota WHERE marketplace_user = $1 AND month = $2',
    [user, month],
  );
  return rows[0]?.calls ?? 0;
}

/** 429 CALL_QUOTA_EXCEEDED for a plan with no overage whose calls of the month at `now` are used up. */
export function callQuotaExceeded(plan: Plan, now: Date, wanted = 1): ApiError {
  const month = monthOf(now);
  const seconds = Math.max(1, Math.ceil((month.resetsAt.getTime() - now.getTime()) / 1000));
  const what = wanted === 1 ? 'all used' : `too few left for ${wanted} items`;
  return new ApiError('CALL_QUOTA_EXCEEDED', {
    message: `The ${plan.name} plan includes ${plan.callsPerMonth} calls a month, ${what} for ${month.key}, and is never billed beyond; calls start again at ${month.resetsAt.toISOString()}. Paid plans continue past their quota.`,
    headers: { 'Retry-After': String(seconds) },
    extra: { resetAt: month.resetsAt.toISOString() },
  });
}

/**
 * The route, refusing a marketplace call past the monthly calls of a plan with no overage (Basic: "hard
 * limit, never billed beyond") with 429 CALL_QUOTA_EXCEEDED, Retry-After and resetAt. Only calls whose
 * subscription header names a plan are limited (the proxy always sends it; an unknown one is Basic, as for
 * managed AI): a direct caller without one, on an open loopback engine, is not. Calls relayed by the
 * consumer site, and paid plans, pass untouched. A call answered with a server error is given back.
 */
export function hardLimitedRoute(
  route: Route,
  db: Queryable,
  plans: PlanTable,
  settings: Pick<MarketplaceSettings, 'userHeader' | 'planHeader'>,
  clock: () => Date,
): Route {
  return {
    ...route,
    handler: async (ctx, admitted) => {
      if (ctx.customerId !== undefined || ctx.headers[settings.planHeader] === undefined)
        return route.handler(ctx, admitted);
      const { user, plan } = marketplaceCaller(ctx.headers, settings, plans);
      if (plan.overageUsdPerCall !== null) return route.handler(ctx, admitted);
      const now = clock();
      const month = monthOf(now);
      if (!(await takeCall(db, user, month.key, plan.callsPerMonth))) throw callQuotaExceeded(plan, now);
      try {
        await route.handler(ctx, admitted);
      } catch (e) {
        if (!isApiError(e) || e.status >= 500) await giveBackCall(db, user, month.key).catch(() => undefined);
        throw e;
      }
    },
  };
}
