/**
 * The managed-AI quota's statements on both drivers: holds against a limit, delivery with overage, release,
 * and the sweeper that gives back what a stopped engine held.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliverManagedDesign,
  holdManagedDesign,
  managedUsage,
  releaseManagedDesign,
  sweepManagedHolds,
} from '../../src/marketplace/quota.js';
import { DRIVERS, type DriverName, openTestDatabase, type TestDatabase } from '../helpers/databases.js';

const T0 = new Date('2026-11-05T10:00:00Z');
const later = (ms: number) => new Date(T0.getTime() + ms);

function quotaStatements(driver: DriverName): void {
  describe(`managed-AI quota statements on ${driver}`, () => {
    let t: TestDatabase;
    let n = 0;
    const hold = (user: string, limit: number | undefined, expiresAt = later(60_000)) => {
      const holdId = `hold-${driver}-${n++}`;
      return holdManagedDesign(t.db, { holdId, user, month: '2026-11', planId: 'X', limit, expiresAt }).then((held) =>
        held ? holdId : null,
      );
    };

    beforeAll(async () => {
      t = await openTestDatabase(driver);
    });
    afterAll(() => t?.close());

    it('holds up to a limit, counting holds and deliveries alike; without a limit, always', async () => {
      const a = await hold('limited', 2);
      const b = await hold('limited', 2);
      expect([a, b].every((h) => h !== null)).toBe(true);
      expect(await hold('limited', 2)).toBeNull();
      expect(await deliverManagedDesign(t.db, a!, 2)).toEqual({ designs: 1, overage: 0 });
      expect(await hold('limited', 2)).toBeNull();
      await releaseManagedDesign(t.db, b!);
      const c = await hold('limited', 2);
      expect(c).not.toBeNull();
      expect(await managedUsage(t.db, 'limited', '2026-11')).toEqual({ held: 1, designs: 1, overage: 0, plan: 'X' });
      for (let i = 0; i < 5; i++) expect(await hold('unlimited', undefined)).not.toBeNull();
    });

    it('counts deliveries past the quota as overage; settling twice changes nothing', async () => {
      const holds = [];
      for (let i = 0; i < 4; i++) holds.push((await hold('paid', undefined))!);
      const counts = [];
      for (const h of holds) counts.push(await deliverManagedDesign(t.db, h, 2));
      expect(counts).toEqual([
        { designs: 1, overage: 0 },
        { designs: 2, overage: 0 },
        { designs: 3, overage: 1 },
        { designs: 4, overage: 2 },
      ]);
      expect(await deliverManagedDesign(t.db, holds[0]!, 2)).toBeNull();
      await releaseManagedDesign(t.db, holds[1]!);
      expect(await managedUsage(t.db, 'paid', '2026-11')).toEqual({ held: 0, designs: 4, overage: 2, plan: 'X' });
    });

    it('the sweeper releases expired holds only, once, and a late delivery finds nothing to count', async () => {
      const stale = [(await hold('crashed', 3, later(1000)))!, (await hold('crashed', 3, later(1000)))!];
      const live = (await hold('crashed', 3, later(600_000)))!;
      expect(await hold('crashed', 3)).toBeNull();
      expect(await sweepManagedHolds(t.db, later(500))).toBe(0);
      expect(await sweepManagedHolds(t.db, later(1000))).toBe(2);
      expect(await sweepManagedHolds(t.db, later(1000))).toBe(0);
      expect(await managedUsage(t.db, 'crashed', '2026-11')).toMatchObject({ held: 1, designs: 0 });
      expect(await deliverManagedDesign(t.db, stale[0]!, 3)).toBeNull();
      expect(await deliverManagedDesign(t.db, live, 3)).toEqual({ designs: 1, overage: 0 });
    });

    it('has no count for a user before their first call of the month', async () => {
      expect(await managedUsage(t.db, 'nobody', '2026-11')).toBeNull();
    });
  });
}

for (const driver of DRIVERS) quotaStatements(driver);
