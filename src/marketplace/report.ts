import type { Queryable } from '../store/index.js';
import type { MonthKey } from './month.js';
import type { PlanTable } from './plans.js';
import { ENDPOINT_CLASSES, type EndpointClass } from './usage.js';

/** One marketplace user's month. */
export interface UserUsage {
  user: string;
  /** The plan of their latest metered call of the month. */
  plan: string;
  /** Calls answered below 500, by endpoint class, as last flushed. */
  calls: Record<EndpointClass, number>;
  /** Calls past the plan's monthly calls, on a plan with overage; 0 on a hard-limit plan. */
  callsOverage: number;
  /** Managed-AI designs delivered, exact. */
  managedAiDesigns: number;
  managedAiQuota: number;
  /** Of those designs, the ones past the quota (paid plans). */
  managedAiOverage: number;
}

export interface UsageReport {
  month: MonthKey;
  users: UserUsage[];
}

const noCalls = () => Object.fromEntries(ENDPOINT_CLASSES.map((c) => [c, 0])) as Record<EndpointClass, number>;

/** The month's usage of every marketplace user who called, sorted by user. */
export async function usageReport(db: Queryable, month: MonthKey, plans: PlanTable): Promise<UsageReport> {
  const calls = await db.query<{ marketplace_user: string; endpoint_class: string; calls: string; plan: string }>(
    'SELECT marketplace_user, endpoint_class, calls::text AS calls, plan FROM marketplace_usage WHERE month = $1',
    [month],
  );
  const managed = await db.query<{ marketplace_user: string; designs: number; overage: number; plan: string }>(
    'SELECT marketplace_user, designs, overage, plan FROM managed_ai_usage WHERE month = $1',
    [month],
  );
  const users = new Map<string, Omit<UserUsage, 'callsOverage' | 'managedAiQuota'>>();
  const userOf = (user: string, plan: string) => {
    let u = users.get(user);
    if (u === undefined) {
      u = { user, plan, calls: noCalls(), managedAiDesigns: 0, managedAiOverage: 0 };
      users.set(user, u);
    }
    return u;
  };
  for (const r of calls.rows) {
    const u = userOf(r.marketplace_user, r.plan);
    if ((ENDPOINT_CLASSES as readonly string[]).includes(r.endpoint_class))
      u.calls[r.endpoint_class as EndpointClass] += Number(r.calls);
  }
  for (const r of managed.rows) {
    // The managed-AI row is written by the call itself, so its plan is the one the user had last.
    const u = userOf(r.marketplace_user, r.plan);
    u.plan = r.plan;
    u.managedAiDesigns = r.designs;
    u.managedAiOverage = r.overage;
  }
  return {
    month,
    users: [...users.values()]
      .sort((a, b) => (a.user < b.user ? -1 : a.user > b.user ? 1 : 0))
      .map((u) => {
        const plan = plans.planOf(u.plan);
        const total = ENDPOINT_CLASSES.reduce((sum, c) => sum + u.calls[c], 0);
        return {
          ...u,
          callsOverage: plan.overageUsdPerCall === null ? 0 : Math.max(0, total - plan.callsPerMonth),
          managedAiQuota: plan.managedAiDesignsPerMonth,
        };
      }),
  };
}

/** The report flat, one row per user, named as the CSV's columns. */
export function usageRows(report: UsageReport): Record<string, string | number>[] {
  return report.users.map((u) => ({
    month: report.month,
    user: u.user,
    plan: u.plan,
    calls: ENDPOINT_CLASSES.reduce((sum, c) => sum + u.calls[c], 0),
    ...Object.fromEntries(ENDPOINT_CLASSES.map((c) => [`calls_${c}`, u.calls[c]])),
    calls_overage: u.callsOverage,
    managed_ai_designs: u.managedAiDesigns,
    managed_ai_quota: u.managedAiQuota,
    managed_ai_overage: u.managedAiOverage,
  }));
}

/**
 * A CSV field (RFC 4180): quoted when it holds a separator, a quote or a line break. A user name a
 * spreadsheet would run as a formula (starting with = + - @) is prefixed with an apostrophe.
 */
function field(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The report as CSV: a header line, then one line per user; CRLF line ends (RFC 4180). */
export function usageCsv(report: UsageReport): string {
  const rows = usageRows(report);
  const columns = Object.keys(usageRows({ month: report.month, users: [EMPTY_USER] })[0]!);
  const lines = [columns.join(','), ...rows.map((r) => columns.map((c) => field(r[c]!)).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}

/** A user with nothing counted: gives the CSV its columns when the month has no rows. */
const EMPTY_USER: UserUsage = {
  user: '',
  plan: '',
  calls: noCalls(),
  callsOverage: 0,
  managedAiDesigns: 0,
  managedAiQuota: 0,
  managedAiOverage: 0,
};
