import stored from './plans.json' with { type: 'json' };

/**
 * A marketplace plan as the marketplace proxy names it in its subscription header. Prices are what the
 * marketplace bills; the service only counts (calls, managed-AI designs, and designs past the quota).
 */
export interface Plan {
  /** The subscription header's value: BASIC, PRO, ULTRA, MEGA. */
  id: string;
  name: string;
  monthlyPriceUsd: number;
  callsPerMonth: number;
  managedAiDesignsPerMonth: number;
  /** Price of a call past the plan's quota; null: a hard limit, nothing past it is served. */
  overageUsdPerCall: number | null;
}

export interface PlanTable {
  /** The plan of a request whose subscription header is missing or names no plan of the table. */
  fallback: Plan;
  plans: readonly Plan[];
  /** The plan a subscription header names, case-insensitively; the fallback for anything else. */
  planOf(header: string | undefined): Plan;
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
const isPrice = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;

/**
 * Checks a plan table (src/marketplace/plans.json) once, at start: a mistake in the data stops the start
 * naming the plan and the field, rather than metering wrongly.
 */
export function loadPlanTable(data: unknown): PlanTable {
  const table = data as { defaultPlan?: unknown; plans?: unknown };
  if (!Array.isArray(table.plans) || table.plans.length === 0) throw new Error('plans.json: plans must be a list');
  const plans = table.plans.map((p: Record<string, unknown>, i): Plan => {
    const at = `plans.json: plan ${typeof p.id === 'string' ? p.id : `#${i}`}`;
    if (typeof p.id !== 'string' || !/^[A-Z][A-Z0-9_]{0,31}$/.test(p.id))
      throw new Error(`${at}: id must be upper case`);
    if (typeof p.name !== 'string' || p.name === '') throw new Error(`${at}: name is missing`);
    if (!isPrice(p.monthlyPriceUsd)) throw new Error(`${at}: monthlyPriceUsd must be a price`);
    if (!isCount(p.callsPerMonth)) throw new Error(`${at}: callsPerMonth must be a whole number`);
    if (!isCount(p.managedAiDesignsPerMonth)) throw new Error(`${at}: managedAiDesignsPerMonth must be a whole number`);
    if (p.overageUsdPerCall !== null && !isPrice(p.overageUsdPerCall))
      throw new Error(`${at}: overageUsdPerCall must be a price, or null for a hard limit`);
    return {
      id: p.id,
      name: p.name,
      monthlyPriceUsd: p.monthlyPriceUsd,
      callsPerMonth: p.callsPerMonth,
      managedAiDesignsPerMonth: p.managedAiDesignsPerMonth,
      overageUsdPerCall: p.overageUsdPerCall,
    };
  });
  const ids = plans.map((p) => p.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) throw new Error(`plans.json: plan ${twice} is listed twice`);
  const fallback = plans.find((p) => p.id === table.defaultPlan);
  if (fallback === undefined) throw new Error('plans.json: defaultPlan must name a plan of the list');
  const byId = new Map(plans.map((p) => [p.id, p]));
  return {
    fallback,
    plans,
    planOf: (header) => (header === undefined ? fallback : (byId.get(header.trim().toUpperCase()) ?? fallback)),
  };
}

/** The contract's plans (docs/contract.md): Basic (free, hard limit), Pro, Ultra and Mega. */
export const PLANS: PlanTable = loadPlanTable(stored);
