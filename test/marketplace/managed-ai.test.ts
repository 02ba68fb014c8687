/**
 * The managed-AI meter (src/marketplace/managed-ai.ts) over the real quota statements on PGlite in memory,
 * with a clock moved by hand: a delivered design counted and billed with the marketplace's header, a call
 * without a design given back whatever ended it, a hard-limited plan refused before the call runs once
 * held and delivered designs reach its quota, a paid plan counted past it as overage, and a design
 * delivered after its hold was swept still billed, and said so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketplaceSettings } from '../../src/config.js';
import { isApiError } from '../../src/errors.js';
import { type DeliverDesign, ManagedAiMeter } from '../../src/marketplace/managed-ai.js';
import { loadPlanTable } from '../../src/marketplace/plans.js';
import { managedUsage, sweepManagedHolds } from '../../src/marketplace/quota.js';
import { manualClock, openTestDatabase, type TestDatabase } from '../helpers/databases.js';

const settings: MarketplaceSettings = {
  userHeader: 'x-user',
  planHeader: 'x-plan',
  billingHeader: 'X-Billing',
  managedAiBillingObject: 'designs',
  usageFlushMs: 0,
};
const PLANS = loadPlanTable({
  defaultPlan: 'FREE',
  plans: [
    {
      id: 'FREE',
      name: 'Free',
      monthlyPriceUsd: 0,
      callsPerMonth: 9,
      managedAiDesignsPerMonth: 2,
      overageUsdPerCall: null,
    },
    {
      id: 'NONE',
      name: 'None',
      monthlyPriceUsd: 0,
      callsPerMonth: 9,
      managedAiDesignsPerMonth: 0,
      overageUsdPerCall: null,
    },
    {
      id: 'PAID',
      name: 'Paid',
      monthlyPriceUsd: 5,
      callsPerMonth: 9,
      managedAiDesignsPerMonth: 2,
      overageUsdPerCall: 0.01,
    },
  ],
});
const HOLD_TTL_MS = 60_000;
const clock = manualClock(new Date('2026-11-30T23:00:00Z'));

let t: TestDatabase;
let meter: ManagedAiMeter;
const logs: string[] = [];
let users = 0;
const newUser = () => `managed-${users++}`;
const headers = (user: string, plan: string) => ({ 'x-user': user, 'x-plan': plan });

beforeAll(async () => {
  t = await openTestDatabase('pglite');
  meter = new ManagedAiMeter(t.db, PLANS, settings, {
    holdTtlMs: HOLD_TTL_MS,
    clock: clock.now,
    log: (m) => logs.push(m),
  });
});
afterAll(async () => {
  await meter?.close();
  await t?.close();
});

const usage = (user: string) => managedUsage(t.db, user, '2026-11');
/** A call that delivers a design; the headers it was given to answer with. */
async function delivering(user: string, plan: string): Promise<Record<string, string>> {
  let billed: Record<string, string> = {};
  await meter.meter(headers(user, plan), async (deliver) => {
    billed = await deliver();
  });
  return billed;
}
async function refusal(p: Promise<unknown>) {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!isApiError(e)) throw new Error(`not refused: ${String(e)}`);
  return { status: e.status, code: e.code, headers: e.headers, body: e.toBody() };
}

describe('ManagedAiMeter', () => {
  it('counts a delivered design and gives the marketplace’s billing header for it', async () => {
    const user = newUser();
    expect(await delivering(user, 'PAID')).toEqual({ 'X-Billing': 'designs=1' });
    expect(await usage(user)).toEqual({ held: 0, designs: 1, overage: 0, plan: 'PAID' });
  });

  it('holds the design while the call runs, and gives it back when no design comes, or the call fails', async () => {
    const user = newUser();
    await meter.meter(headers(user, 'FREE'), async () => {
      expect(await usage(user)).toMatchObject({ held: 1, designs: 0 });
    });
    expect(await usage(user)).toMatchObject({ held: 0, designs: 0 });
    await expect(
      meter.meter(headers(user, 'FREE'), async () => {
        throw new Error('vendor down');
      }),
    ).rejects.toThrow('vendor down');
    expect(await usage(user)).toMatchObject({ held: 0, designs: 0 });
  });

  it('a hard-limited plan: refused once its quota is delivered, before the call runs, with when it starts again', async () => {
    const user = newUser();
    await delivering(user, 'FREE');
    await delivering(user, 'FREE');
    let ran = false;
    const r = await refusal(
      meter.meter(headers(user, 'FREE'), async () => {
        ran = true;
      }),
    );
    expect(ran).toBe(false);
    expect(r).toEqual({
      status: 429,
      code: 'MANAGED_AI_QUOTA_EXCEEDED',
      headers: { 'Retry-After': '3600' },
      body: {
        success: false,
        code: 'MANAGED_AI_QUOTA_EXCEEDED',
        error:
          'The Free plan includes 2 managed-AI designs a month, all used for 2026-11; the quota starts again at 2026-12-01T00:00:00.000Z. Paid plans continue past their quota.',
        resetAt: '2026-12-01T00:00:00.000Z',
      },
    });
    expect(await usage(user)).toEqual({ held: 0, designs: 2, overage: 0, plan: 'FREE' });
  });

  it('calls in flight count against the hard limit: a third call while two are held is refused', async () => {
    const user = newUser();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const started: Promise<void>[] = [];
    const inFlight = [0, 1].map(
      () =>
        new Promise<void>((entered) => {
          started.push(
            meter.meter(headers(user, 'FREE'), async () => {
              entered();
              await gate;
            }),
          );
        }),
    );
    await Promise.all(inFlight);
    expect((await refusal(meter.meter(headers(user, 'FREE'), async () => {}))).code).toBe('MANAGED_AI_QUOTA_EXCEEDED');
    release();
    await Promise.all(started);
    // Neither delivered: both given back, and the quota is open again.
    expect(await delivering(user, 'FREE')).toEqual({ 'X-Billing': 'designs=1' });
  });

  it('a plan without managed AI is refused at once, and an unknown plan is the fallback’s', async () => {
    const user = newUser();
    expect((await refusal(meter.meter(headers(user, 'NONE'), async () => {}))).code).toBe('MANAGED_AI_QUOTA_EXCEEDED');
    expect(await usage(user)).toBeNull();
    const unknown = newUser();
    await delivering(unknown, 'GOLD');
    await delivering(unknown, 'GOLD');
    expect((await refusal(meter.meter(headers(unknown, 'GOLD'), async () => {}))).code).toBe(
      'MANAGED_AI_QUOTA_EXCEEDED',
    );
    expect(meter.callerOf(headers(unknown, 'GOLD')).plan.id).toBe('FREE');
  });

  it('a paid plan goes on past its quota, the designs past it counted as overage and billed alike', async () => {
    const user = newUser();
    const billed = [];
    for (let i = 0; i < 4; i++) billed.push(await delivering(user, 'PAID'));
    expect(billed).toEqual(Array(4).fill({ 'X-Billing': 'designs=1' }));
    expect(await usage(user)).toEqual({ held: 0, designs: 4, overage: 2, plan: 'PAID' });
  });

  it('a design delivered after its hold was swept is still billed, not counted, and logged', async () => {
    const user = newUser();
    logs.length = 0;
    let billed: Record<string, string> = {};
    await meter.meter(headers(user, 'PAID'), async (deliver: DeliverDesign) => {
      clock.advance(HOLD_TTL_MS + 1000);
      expect(await sweepManagedHolds(t.db, clock.now())).toBe(1);
      billed = await deliver();
    });
    expect(billed).toEqual({ 'X-Billing': 'designs=1' });
    expect(await usage(user)).toMatchObject({ held: 0, designs: 0 });
    expect(logs).toEqual(['managed-AI design of 2026-11 delivered after its hold expired']);
  });
});
