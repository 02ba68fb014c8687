/**
 * Whom a marketplace request is for (src/marketplace/caller.ts): the user and plan the proxy's headers
 * name, under the header names configured; Basic, the strictest plan, for a missing or unknown plan; one
 * shared name for calls without a user; a long name cut.
 */
import { describe, expect, it } from 'vitest';
import { marketplaceCaller, UNNAMED_USER } from '../../src/marketplace/caller.js';
import { loadPlanTable, PLANS } from '../../src/marketplace/plans.js';

const settings = { userHeader: 'x-rapidapi-user', planHeader: 'x-rapidapi-subscription' };
const caller = (headers: Record<string, string>) => marketplaceCaller(headers, settings, PLANS);
const planOf = (headers: Record<string, string>) => caller(headers).plan.id;

describe('marketplaceCaller', () => {
  it('reads the user and the plan from the configured headers, the user trimmed, the plan in any case', () => {
    expect(caller({ 'x-rapidapi-user': ' alice ', 'x-rapidapi-subscription': 'pro' })).toEqual({
      user: 'alice',
      plan: PLANS.plans.find((p) => p.id === 'PRO'),
    });
    expect(planOf({ 'x-rapidapi-subscription': ' Ultra ' })).toBe('ULTRA');
    expect(planOf({ 'x-rapidapi-subscription': 'MEGA' })).toBe('MEGA');
    const other = marketplaceCaller(
      { 'x-user': 'bob', 'x-plan': 'PRO', 'x-rapidapi-user': 'alice' },
      { userHeader: 'x-user', planHeader: 'x-plan' },
      PLANS,
    );
    expect({ user: other.user, plan: other.plan.id }).toEqual({ user: 'bob', plan: 'PRO' });
  });

  it('a missing, empty or unknown plan (CUSTOM included) is the table’s fallback, Basic', () => {
    for (const plan of [undefined, '', 'CUSTOM', 'PRO2', 'basic plan'])
      expect(planOf(plan === undefined ? {} : { 'x-rapidapi-subscription': plan }), String(plan)).toBe('BASIC');
    expect(PLANS.fallback.overageUsdPerCall).toBeNull();
  });

  it('the fallback is whichever the table names', () => {
    const table = loadPlanTable({
      defaultPlan: 'FREE',
      plans: [
        {
          id: 'FREE',
          name: 'Free',
          monthlyPriceUsd: 0,
          callsPerMonth: 1,
          managedAiDesignsPerMonth: 0,
          overageUsdPerCall: null,
        },
        {
          id: 'PAID',
          name: 'Paid',
          monthlyPriceUsd: 1,
          callsPerMonth: 9,
          managedAiDesignsPerMonth: 1,
          overageUsdPerCall: 0.1,
        },
      ],
    });
    expect(marketplaceCaller({ 'x-rapidapi-subscription': 'PRO' }, settings, table).plan.id).toBe('FREE');
  });

  it('without a user, or with one of blanks, every call is the one unnamed user, which no real name can be', () => {
    expect(caller({}).user).toBe(UNNAMED_USER);
    expect(caller({ 'x-rapidapi-user': '' }).user).toBe(UNNAMED_USER);
    expect(caller({ 'x-rapidapi-user': '  \t ' }).user).toBe(UNNAMED_USER);
    expect(UNNAMED_USER).toMatch(/[()]/);
  });

  it('cuts a user name to 256 characters', () => {
    expect(caller({ 'x-rapidapi-user': 'u'.repeat(300) }).user).toBe('u'.repeat(256));
    expect(caller({ 'x-rapidapi-user': 'u'.repeat(256) }).user).toBe('u'.repeat(256));
  });
});
