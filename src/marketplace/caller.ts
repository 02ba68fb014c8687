import type { MarketplaceSettings } from '../config.js';
import type { Plan, PlanTable } from './plans.js';

/** Whom a marketplace request is for, as the marketplace proxy says. */
export interface MarketplaceCaller {
  user: string;
  plan: Plan;
}

/**
 * The user of a request without the user header: the proxy always sends one, so this is a direct caller
 * holding the proxy secret (or anyone, on an open loopback engine). All such calls share one count, on the
 * plan their header names (Basic without one). Marketplace user names have no parentheses, so it cannot be
 * a real user's.
 */
export const UNNAMED_USER = '(none)';
/** A longer user header is cut: the name keys rows of the store. */
const MAX_USER_LENGTH = 256;

/**
 * The caller's user and plan from the proxy's headers. A missing or unknown plan (the marketplace's
 * CUSTOM included) is the table's fallback, Basic: the strictest plan, so a misconfigured proxy can never
 * spend managed AI without limit.
 */
export function marketplaceCaller(
  headers: Readonly<Record<string, string>>,
  settings: Pick<MarketplaceSettings, 'userHeader' | 'planHeader'>,
  plans: PlanTable,
): MarketplaceCaller {
  const user = headers[settings.userHeader]?.trim();
  return {
    user: user === undefined || user === '' ? UNNAMED_USER : user.slice(0, MAX_USER_LENGTH),
    plan: plans.planOf(headers[settings.planHeader]),
  };
}
