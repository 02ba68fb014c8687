/**
 * The monthly calls of a hard-limited plan (src/marketplace/call-quota.ts) on both drivers: one call taken
 * per statement up to the limit, exact under concurrency from two pools as from two engines; a call given
 * back, never below zero; and the route wrapper that refuses past the quota with 429 CALL_QUOTA_EXCEEDED,
 * lets paid plans, unnamed plans and the site's relays through uncounted, and gives back a call answered
 * with a server error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, isApiError } from '../../src/errors.js';
import type { RequestContext, Route } from '../../src/http/router.js';
import { callsTaken, giveBackCall, hardLimitedRoute, takeCall } from '../../src/marketplace/call-quota.js';
import { loadPlanTable } from '../../src/marketplace/plans.js';
import { DRIVERS, type DriverName, openTestDatabase, type TestDatabase } from '../helpers/databases.js';

const settings = { userHeader: 'x-user', planHeader: 'x-plan' };
/** A free plan of 3 calls with no overage (the fallback), and a paid plan of 3 with overage. */
const PLANS = loadPlanTable({
  defaultPlan: 'FREE',
  plans: [
    {
      id: 'FREE',
      name: 'Free',
      monthlyPriceUsd: 0,
      callsPerMonth: 3,
      managedAiDesignsPerMonth: 0,
      overageUsdPerCall: null,
    },
    {
      id: 'PAID',
      name: 'Paid',
      monthlyPriceUsd: 5,
      callsPerMonth: 3,
      managedAiDesignsPerMonth: 1,
      overageUsdPerCall: 0.01,
    },
  ],
});

function callQuotaSuite(driver: DriverName): void {
  describe(`call quota on ${driver}`, () => {
    let t: TestDatabase;
    let users = 0;
    const newUser = () => `user-${driver}-${users++}`;

    beforeAll(async () => {
      t = await openTestDatabase(driver);
    });
    afterAll(() => t?.close());

    it('takes calls up to the limit, per user and month, and says how many were taken', async () => {
      const user = newUser();
      const taken = [];
      for (let i = 0; i < 4; i++) taken.push(await takeCall(t.db, user, '2026-11', 3));
      expect(taken).toEqual([true, true, true, false]);
      expect(await callsTaken(t.db, user, '2026-11')).toBe(3);
      // Another month, another user: counts of their own.
      expect(await takeCall(t.db, user, '2026-12', 3)).toBe(true);
      expect(await takeCall(t.db, newUser(), '2026-11', 3)).toBe(true);
      expect(await callsTaken(t.db, user, '2026-12')).toBe(1);
      expect(await callsTaken(t.db, newUser(), '2026-11')).toBe(0);
    });

    it('a limit of 0 takes nothing and writes nothing', async () => {
      const user = newUser();
      expect(await takeCall(t.db, user, '2026-11', 0)).toBe(false);
      expect(
        (await t.db.query('SELECT 1 FROM marketplace_call_quota WHERE marketplace_user = $1', [user])).rowCount,
      ).toBe(0);
    });

    it('a call given back can be taken again; giving back never goes below zero', async () => {
      const user = newUser();
      for (let i = 0; i < 3; i++) await takeCall(t.db, user, '2026-11', 3);
      await giveBackCall(t.db, user, '2026-11');
      expect(await callsTaken(t.db, user, '2026-11')).toBe(2);
      expect(await takeCall(t.db, user, '2026-11', 3)).toBe(true);
      for (let i = 0; i < 5; i++) await giveBackCall(t.db, user, '2026-11');
      expect(await callsTaken(t.db, user, '2026-11')).toBe(0);
      // Giving back what was never taken creates nothing.
      const stranger = newUser();
      await giveBackCall(t.db, stranger, '2026-11');
      expect(await callsTaken(t.db, stranger, '2026-11')).toBe(0);
    });

    it('is exact under concurrency: 40 calls at once from two pools against a limit of 17 take 17', async () => {
      const user = newUser();
      const other = t.anotherPool();
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => takeCall(i % 2 === 0 ? t.db : other, user, '2026-11', 17)),
      );
      expect(results.filter(Boolean)).toHaveLength(17);
      expect(await callsTaken(t.db, user, '2026-11')).toBe(17);
    });

    describe('hardLimitedRoute', () => {
      const NOW = new Date('2026-11-30T23:59:30Z');
      let handled: string[];
      /** The route wrapped; its handler records the user and fails as `fail` says. */
      const wrapped = (fail?: () => never) =>
        hardLimitedRoute(
          {
            method: 'POST',
            path: '/api/qr/generate',
            handler: (ctx) => {
              handled.push(ctx.headers['x-user'] ?? '-');
              fail?.();
            },
          } satisfies Route,
          t.db,
          PLANS,
          settings,
          () => NOW,
        );
      const ctx = (headers: Record<string, string>, customerId?: string) =>
        ({ headers, customerId }) as unknown as RequestContext;
      async function outcome(route: Route, c: RequestContext) {
        try {
          await route.handler(c);
          return 'handled';
        } catch (e) {
          if (!isApiError(e)) return `threw ${(e as Error).message}`;
          return { status: e.status, code: e.code, headers: e.headers, body: e.toBody() };
        }
      }

      it('keeps the route’s method and path, and refuses the call past the quota with when it starts again', async () => {
        handled = [];
        const route = wrapped();
        expect({ method: route.method, path: route.path }).toEqual({ method: 'POST', path: '/api/qr/generate' });
        const user = newUser();
        const c = ctx({ 'x-user': user, 'x-plan': 'FREE' });
        for (let i = 0; i < 3; i++) expect(await outcome(route, c)).toBe('handled');
        expect(await outcome(route, c)).toEqual({
          status: 429,
          code: 'CALL_QUOTA_EXCEEDED',
          headers: { 'Retry-After': '30' },
          body: {
            success: false,
            code: 'CALL_QUOTA_EXCEEDED',
            error:
              'The Free plan includes 3 calls a month, all used for 2026-11, and is never billed beyond; calls start again at 2026-12-01T00:00:00.000Z. Paid plans continue past their quota.',
            resetAt: '2026-12-01T00:00:00.000Z',
          },
        });
        expect(handled).toEqual([user, user, user]);
        expect(await callsTaken(t.db, user, '2026-11')).toBe(3);
      });

      it('an unknown plan is the fallback’s, limited alike', async () => {
        handled = [];
        const route = wrapped();
        const user = newUser();
        for (let i = 0; i < 4; i++) await outcome(route, ctx({ 'x-user': user, 'x-plan': 'CUSTOM' }));
        expect(handled).toHaveLength(3);
      });

      it('passes untouched: a paid plan, a call naming no plan, a call the consumer site relayed', async () => {
        handled = [];
        const route = wrapped();
        const paid = newUser();
        const relayed = newUser();
        for (let i = 0; i < 5; i++) {
          expect(await outcome(route, ctx({ 'x-user': paid, 'x-plan': 'PAID' }))).toBe('handled');
          expect(await outcome(route, ctx({ 'x-user': 'direct' }))).toBe('handled');
          expect(await outcome(route, ctx({ 'x-user': relayed, 'x-plan': 'FREE' }, 'cus_1'))).toBe('handled');
        }
        expect(handled).toHaveLength(15);
        for (const user of [paid, 'direct', relayed]) expect(await callsTaken(t.db, user, '2026-11'), user).toBe(0);
      });

      it('gives back a call answered with a server error or an unexpected failure, not one the client caused', async () => {
        handled = [];
        const user = newUser();
        const c = ctx({ 'x-user': user, 'x-plan': 'FREE' });
        expect(
          await outcome(
            wrapped(() => {
              throw new ApiError('INTERNAL_ERROR');
            }),
            c,
          ),
        ).toMatchObject({ status: 500 });
        expect(
          await outcome(
            wrapped(() => {
              throw new Error('worker died');
            }),
            c,
          ),
        ).toBe('threw worker died');
        expect(await callsTaken(t.db, user, '2026-11')).toBe(0);
        expect(
          await outcome(
            wrapped(() => {
              throw new ApiError('INVALID_JSON');
            }),
            c,
          ),
        ).toMatchObject({ status: 400 });
        expect(await callsTaken(t.db, user, '2026-11')).toBe(1);
      });
    });
  });
}

for (const driver of DRIVERS) callQuotaSuite(driver);
