import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { marketplaceCaller, UNNAMED_USER } from '../../src/marketplace/caller.js';
import type { ApiError } from '../../src/errors.js';
import { monthClock, monthOf } from '../../src/marketplace/month.js';
import type { UsageReport } from '../../src/marketplace/report.js';
import { loadPlanTable, PLANS } from '../../src/marketplace/plans.js';

const HEADERS = { userHeader: 'x-rapidapi-user', planHeader: 'x-rapidapi-subscription' };

describe('the plan table (src/marketplace/plans.json)', () => {
  it("holds the seed's four plans; Basic alone is a hard limit", () => {
    expect(PLANS.plans.map((p) => [p.id, p.callsPerMonth, p.managedAiDesignsPerMonth, p.overageUsdPerCall])).toEqual([
      ['BASIC', 75, 5, null],
      ['PRO', 2000, 100, 0.01],
      ['ULTRA', 10000, 1000, 0.005],
      ['MEGA', 50000, 5000, 0.005],
    ]);
    expect(PLANS.fallback.id).toBe('BASIC');
  });

  it('names a plan case-insensitively; anything else, or nothing, is the fallback', () => {
    expect(PLANS.planOf('PRO').id).toBe('PRO');
    expect(PLANS.planOf(' ultra ').id).toBe('ULTRA');
    for (const other of [undefined, '', 'CUSTOM', 'GOLD', 'BASIC2']) expect(PLANS.planOf(other).id).toBe('BASIC');
  });

  it('refuses a table it cannot meter by, naming the plan and the field', () => {
    const basic = { id: 'BASIC', name: 'Basic', monthlyPriceUsd: 0, callsPerMonth: 75, managedAiDesignsPerMonth: 5 };
    const table =
      (plans: unknown[], defaultPlan = 'BASIC') =>
      () =>
        loadPlanTable({ defaultPlan, plans });
    expect(table([{ ...basic, overageUsdPerCall: null }])).not.toThrow();
    expect(table([{ ...basic, overageUsdPerCall: null }], 'PRO')).toThrow(/defaultPlan/);
    expect(table([{ ...basic, overageUsdPerCall: -1 }])).toThrow(/plan BASIC: overageUsdPerCall/);
    expect(table([{ ...basic, overageUsdPerCall: null, managedAiDesignsPerMonth: 2.5 }])).toThrow(
      /plan BASIC: managedAiDesignsPerMonth/,
    );
    expect(table([{ ...basic, id: 'basic', overageUsdPerCall: null }])).toThrow(/upper case/);
    expect(
      table([
        { ...basic, overageUsdPerCall: null },
        { ...basic, overageUsdPerCall: null },
      ]),
    ).toThrow(/BASIC is listed twice/);
    expect(table([])).toThrow(/plans must be a list/);
  });
});

describe('the marketplace caller', () => {
  it('is the user and plan the proxy names', () => {
    const caller = marketplaceCaller({ 'x-rapidapi-user': 'ada', 'x-rapidapi-subscription': 'MEGA' }, HEADERS, PLANS);
    expect([caller.user, caller.plan.id]).toEqual(['ada', 'MEGA']);
  });

  it('without a user header is the one shared unnamed user; a long name is cut', () => {
    expect(marketplaceCaller({}, HEADERS, PLANS)).toMatchObject({ user: UNNAMED_USER, plan: { id: 'BASIC' } });
    expect(marketplaceCaller({ 'x-rapidapi-user': '  ' }, HEADERS, PLANS).user).toBe(UNNAMED_USER);
    expect(marketplaceCaller({ 'x-rapidapi-user': 'u'.repeat(1000) }, HEADERS, PLANS).user).toHaveLength(256);
  });

  it('reads the headers the configuration names', () => {
    const m = loadConfig({
      QR_MARKETPLACE_USER_HEADER: 'X-Market-User',
      QR_MARKETPLACE_PLAN_HEADER: 'X-Market-Plan',
    }).marketplace;
    expect(marketplaceCaller({ 'x-market-user': 'bo', 'x-market-plan': 'pro' }, m, PLANS)).toMatchObject({
      user: 'bo',
      plan: { id: 'PRO' },
    });
  });
});

describe('Config.marketplace', () => {
  it("defaults to RapidAPI's headers and a managed-ai-designs billing object", () => {
    expect(loadConfig({}).marketplace).toEqual({
      userHeader: 'x-rapidapi-user',
      planHeader: 'x-rapidapi-subscription',
      billingHeader: 'X-RapidAPI-Billing',
      managedAiBillingObject: 'managed-ai-designs',
      usageFlushMs: 10_000,
    });
  });

  it('refuses header names and object names the marketplace could not read', () => {
    expect(() => loadConfig({ QR_MARKETPLACE_BILLING_HEADER: 'X Billing' })).toThrow(/QR_MARKETPLACE_BILLING_HEADER/);
    expect(() => loadConfig({ QR_MANAGED_AI_BILLING_OBJECT: 'designs,calls' })).toThrow(/QR_MANAGED_AI_BILLING_OBJECT/);
    expect(() => loadConfig({ QR_MANAGED_AI_BILLING_OBJECT: 'a=1' })).toThrow(/QR_MANAGED_AI_BILLING_OBJECT/);
  });
});

describe('calendar months (UTC)', () => {
  it('keys a month and says when the next one starts, whatever the local time zone', () => {
    expect(monthOf(new Date('2026-11-30T23:59:59.999Z'))).toEqual({
      key: '2026-11',
      resetsAt: new Date('2026-12-01T00:00:00Z'),
    });
    expect(monthOf(new Date('2026-12-31T23:00:00-05:00'))).toEqual({
      key: '2027-01',
      resetsAt: new Date('2027-02-01T00:00:00Z'),
    });
  });

  it('a month clock turns exactly at midnight UTC, forward and back', () => {
    let now = Date.parse('2026-11-30T23:59:59.999Z');
    const month = monthClock(() => now);
    expect(month().key).toBe('2026-11');
    now += 1;
    expect(month().key).toBe('2026-12');
    now -= 1;
    expect(month().key).toBe('2026-11');
  });

  it('the usage export takes { month: YYYY-MM } only', async () => {
    // The build's: the body is checked by the schema compiled at build.
    const { usageCommand } = (await import(
      new URL('../../dist/src/marketplace/usage-command.js', import.meta.url).href
    )) as typeof import('../../src/marketplace/usage-command.js');
    const report = async (month: string) => ({ month }) as unknown as UsageReport;
    expect(await usageCommand({ month: '2026-11' }, report)).toEqual({ month: '2026-11' });
    const refused = (body: unknown) =>
      usageCommand(body, report).then(
        () => undefined,
        (e: ApiError) => e,
      );
    for (const bad of ['2026-13', '2026-00', '2026-1', '26-11', '2026-11-01', 202611])
      expect(await refused({ month: bad })).toMatchObject({ code: 'invalid_body', status: 400, field: 'month' });
    expect(await refused({})).toMatchObject({ code: 'invalid_body', field: 'month' });
    expect(await refused({ month: '2026-11', plan: 'PRO' })).toMatchObject({ code: 'invalid_body', field: 'plan' });
    for (const body of [null, [], '2026-11'])
      expect(await refused(body)).toMatchObject({ code: 'invalid_body', field: undefined });
  });
});
