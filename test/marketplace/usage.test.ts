/**
 * The usage counter on both drivers: counts kept in memory and written in one statement per flush, added
 * to what the store holds; a failed flush keeps its counts for the next; the month turns at midnight UTC;
 * the report reads both the flushed calls and the exact managed-AI counts, and its CSV is RFC 4180.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNNAMED_USER } from '../../src/marketplace/caller.js';
import { PLANS } from '../../src/marketplace/plans.js';
import { deliverManagedDesign, holdManagedDesign } from '../../src/marketplace/quota.js';
import { usageCsv, usageReport } from '../../src/marketplace/report.js';
import { MarketplaceCallCounter } from '../../src/marketplace/usage.js';
import type { Db } from '../../src/store/index.js';
import { DRIVERS, type DriverName, openTestDatabase, type TestDatabase } from '../helpers/databases.js';

const caller = (user: string, plan: string) => ({ user, plan: PLANS.planOf(plan) });

/** The same Db, its queries failing while `down` is set, as a store that went away would. */
function flakyDb(db: Db): { db: Db; setDown(down: boolean): void } {
  let down = false;
  const fail = () => Promise.reject(Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' }));
  return {
    db: { ...db, query: (sql, params) => (down ? fail() : db.query(sql, params)) },
    setDown: (d) => {
      down = d;
    },
  };
}

function usageSuite(driver: DriverName): void {
  describe(`marketplace usage on ${driver}`, () => {
    let t: TestDatabase;
    let now = Date.parse('2026-11-30T23:59:58Z');
    const logs: string[] = [];

    beforeAll(async () => {
      t = await openTestDatabase(driver);
    });
    afterAll(() => t?.close());

    it('counts in memory, writes on flush, adds to what is there, and keeps a failed flush for the next', async () => {
      const flaky = flakyDb(t.db);
      const counter = new MarketplaceCallCounter(flaky.db, {
        flushMs: 3_600_000,
        clock: () => now,
        log: (m) => logs.push(m),
      });
      try {
        for (let i = 0; i < 3; i++) counter.count(caller('ada', 'PRO'), 'generation');
        counter.count(caller('ada', 'PRO'), 'general');
        counter.count(caller('bo, "the" builder', 'BASIC'), 'ai');
        await counter.flush();
        flaky.setDown(true);
        counter.count(caller('ada', 'PRO'), 'generation');
        await counter.flush();
        expect(logs).toEqual([expect.stringMatching(/usage counts could not be written \(kept, retried\)/)]);
        counter.count(caller('ada', 'ULTRA'), 'generation');
        flaky.setDown(false);
        // Past midnight UTC: a new month's row.
        now = Date.parse('2026-12-01T00:00:00Z');
        counter.count(caller('ada', 'ULTRA'), 'generation');
        await counter.flush();
        await counter.flush();
      } finally {
        await counter.close();
      }
      const { rows } = await t.db.query<{ u: string; m: string; c: string; calls: string; plan: string }>(
        `SELECT marketplace_user AS u, month AS m, endpoint_class AS c, calls::text AS calls, plan
         FROM marketplace_usage ORDER BY 1, 2, 3`,
      );
      expect(rows).toEqual([
        { u: 'ada', m: '2026-11', c: 'general', calls: '1', plan: 'PRO' },
        { u: 'ada', m: '2026-11', c: 'generation', calls: '5', plan: 'ULTRA' },
        { u: 'ada', m: '2026-12', c: 'generation', calls: '1', plan: 'ULTRA' },
        { u: 'bo, "the" builder', m: '2026-11', c: 'ai', calls: '1', plan: 'BASIC' },
      ]);
    });

    it('starts a flush early once enough counts wait', async () => {
      const counter = new MarketplaceCallCounter(t.db, { flushMs: 3_600_000, maxPending: 3, clock: () => now });
      try {
        for (const user of ['early-1', 'early-2', 'early-3']) counter.count(caller(user, 'MEGA'), 'general');
        await counter.flush();
        const { rows } = await t.db.query(`SELECT 1 FROM marketplace_usage WHERE marketplace_user LIKE 'early-%'`);
        expect(rows).toHaveLength(3);
      } finally {
        await counter.close();
      }
    });

    it('reports a month: calls by class, overage past the plan, managed-AI designs exact; as CSV', async () => {
      const month = '2026-10';
      await t.db.query(
        `INSERT INTO marketplace_usage (marketplace_user, month, endpoint_class, calls, plan) VALUES
           ('=cmd', $1, 'general', 80, 'BASIC'),
           ('pro-user', $1, 'generation', 1990, 'PRO'), ('pro-user', $1, 'managed_ai', 105, 'PRO'),
           ($2, $1, 'ai', 2, 'BASIC')`,
        [month, UNNAMED_USER],
      );
      for (let i = 0; i < 3; i++) {
        const holdId = `report-${driver}-${i}`;
        const hold = { holdId, user: 'pro-user', month, planId: 'PRO', limit: undefined, expiresAt: new Date() };
        expect(await holdManagedDesign(t.db, hold)).toBe(true);
        await deliverManagedDesign(t.db, holdId, 2);
      }
      const report = await usageReport(t.db, month, PLANS);
      expect(report.users).toEqual([
        {
          user: UNNAMED_USER,
          plan: 'BASIC',
          calls: { general: 0, generation: 0, ai: 2, managed_ai: 0 },
          callsOverage: 0,
          managedAiDesigns: 0,
          managedAiQuota: 5,
          managedAiOverage: 0,
        },
        {
          user: '=cmd',
          plan: 'BASIC',
          calls: { general: 80, generation: 0, ai: 0, managed_ai: 0 },
          callsOverage: 0,
          managedAiDesigns: 0,
          managedAiQuota: 5,
          managedAiOverage: 0,
        },
        {
          user: 'pro-user',
          plan: 'PRO',
          calls: { general: 0, generation: 1990, ai: 0, managed_ai: 105 },
          callsOverage: 95,
          managedAiDesigns: 3,
          managedAiQuota: 100,
          managedAiOverage: 1,
        },
      ]);
      expect(usageCsv(report)).toBe(
        [
          'month,user,plan,calls,calls_general,calls_generation,calls_ai,calls_managed_ai,calls_overage,managed_ai_designs,managed_ai_quota,managed_ai_overage',
          '2026-10,(none),BASIC,2,0,0,2,0,0,0,5,0',
          "2026-10,'=cmd,BASIC,80,80,0,0,0,0,0,5,0",
          '2026-10,pro-user,PRO,2095,0,1990,0,105,95,3,100,1',
          '',
        ].join('\r\n'),
      );
      const empty = await usageReport(t.db, '2020-01', PLANS);
      expect(usageCsv(empty)).toBe(
        'month,user,plan,calls,calls_general,calls_generation,calls_ai,calls_managed_ai,calls_overage,managed_ai_designs,managed_ai_quota,managed_ai_overage\r\n',
      );
      expect(usageCsv({ month, users: [{ ...report.users[0]!, user: 'bo, "the" builder' }] })).toContain(
        '2026-10,"bo, ""the"" builder",BASIC,',
      );
    });
  });
}

for (const driver of DRIVERS) usageSuite(driver);
