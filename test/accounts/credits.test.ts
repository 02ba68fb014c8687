import { describe, expect, it } from 'vitest';
import { createAccounts, type Reservation } from '../../src/accounts/index.js';
import type { Db } from '../../src/store/index.js';
import { accountsFixture, DRIVERS, TEST_PEPPER as PEPPER } from '../helpers/databases.js';

const SECOND = 1000;

/** The same wall-clock instant `months` calendar months earlier (UTC), as PostgreSQL's interval does it. */
function monthsBefore(d: Date, months: number): Date {
  const r = new Date(d);
  r.setUTCMonth(r.getUTCMonth() - months);
  return r;
}

/** What the ledger says, next to what the tables say, for one customer. */
async function ledgerAndTables(db: Db, customerId: string) {
  const perPack = await db.query<{ id: string; remaining: number; from_ledger: number }>(
    `SELECT p.id, p.remaining, COALESCE(SUM(l.remaining_change), 0)::int AS from_ledger
     FROM packs p LEFT JOIN credit_ledger l ON l.pack_id = p.id
     WHERE p.customer_id = $1 GROUP BY p.id, p.remaining`,
    [customerId],
  );
  const held = await db.query<{ held: number; from_ledger: number }>(
    `SELECT (SELECT COUNT(*)::int FROM credit_reservations WHERE customer_id = $1 AND state = 'held') AS held,
            (SELECT COALESCE(SUM(held_change), 0)::int FROM credit_ledger WHERE customer_id = $1) AS from_ledger`,
    [customerId],
  );
  return { packs: perPack.rows, held: held.rows[0]! };
}

async function expectLedgerAgrees(db: Db, customerId: string) {
  const { packs, held } = await ledgerAndTables(db, customerId);
  expect(packs.length).toBeGreaterThan(0);
  for (const p of packs) expect(p.from_ledger, `pack ${p.id}`).toBe(p.remaining);
  expect(held.from_ledger).toBe(held.held);
}

describe.each(DRIVERS)('packs and credits on %s', (driver) => {
  const f = accountsFixture(driver, { reservationTtlMs: 120 * SECOND });
  const { clock, newCustomer } = f;

  it('a pack bought 12 months and one second ago is refused; 12 months minus one second ago is accepted', async () => {
    const now = clock.now();
    const yearAgo = monthsBefore(now, 12);
    const expired = await newCustomer();
    await f.accounts.grantPack({ customerId: expired, credits: 5, purchasedAt: new Date(yearAgo.getTime() - SECOND) });
    expect(await f.accounts.activePack(expired)).toBeNull();
    expect(await f.accounts.balance(expired)).toEqual({ available: 0, reserved: 0 });
    expect(await f.accounts.reserveCredit(expired)).toBeNull();

    const active = await newCustomer();
    const pack = await f.accounts.grantPack({
      customerId: active,
      credits: 5,
      purchasedAt: new Date(yearAgo.getTime() + SECOND),
    });
    expect(pack.expiresAt).toEqual(new Date(now.getTime() + SECOND));
    expect((await f.accounts.activePack(active))?.id).toBe(pack.id);
    expect(await f.accounts.balance(active)).toEqual({ available: 5, reserved: 0 });
    expect(await f.accounts.reserveCredit(active)).not.toBeNull();

    // The same pack at its expiry instant and after it.
    expect(await f.accounts.activePack(active, pack.expiresAt)).toBeNull();
    expect(await f.accounts.reserveCredit(active, pack.expiresAt)).toBeNull();
    expect(await f.accounts.balance(active, new Date(pack.expiresAt.getTime() - 1))).toEqual({
      available: 4,
      reserved: 1,
    });
  });

  it('the active pack is the newest; a reservation draws from the one expiring first and is released to it', async () => {
    const customer = await newCustomer();
    const older = await f.accounts.grantPack({
      customerId: customer,
      credits: 1,
      purchasedAt: monthsBefore(clock.now(), 3),
    });
    const newer = await f.accounts.grantPack({ customerId: customer, credits: 2 });
    expect((await f.accounts.activePack(customer))?.id).toBe(newer.id);
    const first = (await f.accounts.reserveCredit(customer))!;
    expect(first.packId).toBe(older.id);
    const second = (await f.accounts.reserveCredit(customer))!;
    expect(second.packId).toBe(newer.id);
    await f.accounts.releaseCredit(first.id);
    const packs = await f.accounts.listPacks(customer);
    expect(packs.map((p) => [p.id, p.remaining])).toEqual([
      [older.id, 1],
      [newer.id, 1],
    ]);
    await expectLedgerAgrees(f.t.db, customer);
  });

  it('refund: the pack stops counting, its credits leave the balance, twice is once', async () => {
    const customer = await newCustomer();
    const pack = await f.accounts.grantPack({ customerId: customer, credits: 10 });
    const held = (await f.accounts.reserveCredit(customer))!;
    const refunded = await f.accounts.refundPack(pack.id);
    expect(refunded.refundedAt).toEqual(clock.now());
    expect(refunded.remaining).toBe(0);
    expect(await f.accounts.activePack(customer)).toBeNull();
    expect(await f.accounts.balance(customer)).toEqual({ available: 0, reserved: 1 });
    expect(await f.accounts.reserveCredit(customer)).toBeNull();
    clock.advance(SECOND);
    expect((await f.accounts.refundPack(pack.id)).refundedAt).toEqual(refunded.refundedAt);
    // A hold from before the refund is released to the refunded pack, where it cannot be reserved again.
    await f.accounts.releaseCredit(held.id);
    expect(await f.accounts.balance(customer)).toEqual({ available: 0, reserved: 0 });
    const kinds = (await f.accounts.ledger(customer)).map((e) => [e.kind, e.remainingChange, e.heldChange]);
    expect(kinds).toEqual([
      ['release', 1, -1],
      ['refund', -9, 0],
      ['reserve', -1, 1],
      ['grant', 10, 0],
    ]);
    await expectLedgerAgrees(f.t.db, customer);
    await expect(f.accounts.refundPack('pack_missing')).rejects.toMatchObject({ code: 'pack_not_found' });
  });

  it('commit and release are idempotent, and a reservation is settled once whichever comes first', async () => {
    const customer = await newCustomer();
    await f.accounts.grantPack({ customerId: customer, credits: 3 });
    const a = (await f.accounts.reserveCredit(customer))!;
    const b = (await f.accounts.reserveCredit(customer))!;
    expect(await f.accounts.balance(customer)).toEqual({ available: 1, reserved: 2 });

    expect(await f.accounts.commitCredit(a.id)).toEqual({ available: 1, reserved: 1 });
    expect(await f.accounts.commitCredit(a.id)).toEqual({ available: 1, reserved: 1 });
    await f.accounts.releaseCredit(a.id); // committed stays committed
    expect(await f.accounts.balance(customer)).toEqual({ available: 1, reserved: 1 });

    await f.accounts.releaseCredit(b.id);
    await f.accounts.releaseCredit(b.id);
    expect(await f.accounts.balance(customer)).toEqual({ available: 2, reserved: 0 });
    expect(await f.accounts.commitCredit(b.id)).toEqual({ available: 2, reserved: 0 }); // released stays released

    const entries = await f.accounts.ledger(customer);
    expect(entries.filter((e) => e.reservationId === a.id).map((e) => e.kind)).toEqual(['commit', 'reserve']);
    expect(entries.filter((e) => e.reservationId === b.id).map((e) => e.kind)).toEqual(['release', 'reserve']);
    await expectLedgerAgrees(f.t.db, customer);
    await expect(f.accounts.commitCredit('res_missing')).rejects.toThrow(/no reservation/);
  });

  it('concurrent commits and releases of the same reservations settle each exactly once', async () => {
    const customer = await newCustomer();
    await f.accounts.grantPack({ customerId: customer, credits: 20 });
    const holds = [];
    for (let i = 0; i < 20; i++) holds.push((await f.accounts.reserveCredit(customer))!);
    const other = createAccounts(f.t.anotherPool(), { pepper: PEPPER, clock: clock.now });
    try {
      await Promise.all(
        holds.flatMap((h) => [
          f.accounts.commitCredit(h.id),
          other.releaseCredit(h.id),
          f.accounts.releaseCredit(h.id),
        ]),
      );
    } finally {
      await other.close();
    }
    const states = await f.t.db.query<{ state: string; n: number }>(
      'SELECT state, COUNT(*)::int AS n FROM credit_reservations WHERE customer_id = $1 GROUP BY state',
      [customer],
    );
    const settledNow = Object.fromEntries(states.rows.map((r) => [r.state, r.n]));
    expect((settledNow.committed ?? 0) + (settledNow.released ?? 0)).toBe(20);
    expect(settledNow.held).toBeUndefined();
    const balance = await f.accounts.balance(customer);
    expect(balance).toEqual({ available: settledNow.released ?? 0, reserved: 0 });
    const settlements = (await f.accounts.ledger(customer, 1000)).filter(
      (e) => e.kind === 'commit' || e.kind === 'release',
    );
    expect(settlements).toHaveLength(20);
    await expectLedgerAgrees(f.t.db, customer);
  });

  it('2N concurrent reservations against N credits: exactly N succeed, from two instances', async () => {
    const N = 40;
    const customer = await newCustomer();
    await f.accounts.grantPack({ customerId: customer, credits: N / 2 });
    await f.accounts.grantPack({ customerId: customer, credits: N / 2, purchasedAt: monthsBefore(clock.now(), 1) });
    // On PostgreSQL the second instance has its own pool: the reservations race on the server.
    const other = createAccounts(f.t.anotherPool(), { pepper: PEPPER, clock: clock.now });
    let results: (Reservation | null)[];
    try {
      results = await Promise.all(
        Array.from({ length: 2 * N }, (_, i) => (i % 2 === 0 ? f.accounts : other).reserveCredit(customer)),
      );
    } finally {
      await other.close();
    }
    const won = results.filter((r) => r !== null);
    expect(won).toHaveLength(N);
    expect(new Set(won.map((r) => r.id)).size).toBe(N);
    expect(await f.accounts.balance(customer)).toEqual({ available: 0, reserved: N });
    expect(await f.accounts.reserveCredit(customer)).toBeNull();
    await expectLedgerAgrees(f.t.db, customer);
  });

  it('the sweeper releases expired holds once, even with two sweepers, and leaves live ones', async () => {
    const customer = await newCustomer();
    await f.accounts.grantPack({ customerId: customer, credits: 5 });
    const stale = [(await f.accounts.reserveCredit(customer))!, (await f.accounts.reserveCredit(customer))!];
    clock.advance(60 * SECOND);
    const live = (await f.accounts.reserveCredit(customer))!;
    expect(stale[0]!.expiresAt).toEqual(new Date(clock.now().getTime() + 60 * SECOND));

    // One millisecond before their expiry the holds stay (other tests' expired holds in this database may go).
    await f.accounts.sweepExpiredReservations(new Date(stale[0]!.expiresAt.getTime() - 1));
    expect(await f.accounts.balance(customer)).toEqual({ available: 2, reserved: 3 });
    clock.advance(60 * SECOND);
    const other = createAccounts(f.t.anotherPool(), { pepper: PEPPER, clock: clock.now });
    let swept: number[];
    try {
      swept = await Promise.all([f.accounts.sweepExpiredReservations(), other.sweepExpiredReservations()]);
    } finally {
      await other.close();
    }
    // Other customers' holds in this database may expire too; ours are exactly the two stale ones.
    expect(swept[0]! + swept[1]!).toBeGreaterThanOrEqual(2);
    expect(await f.accounts.balance(customer)).toEqual({ available: 4, reserved: 1 });
    const expired = (await f.accounts.ledger(customer)).filter((e) => e.kind === 'expire');
    expect(expired.map((e) => e.reservationId).sort()).toEqual(stale.map((s) => s.id).sort());
    // A late commit of a swept hold changes nothing; the live one still commits.
    expect(await f.accounts.commitCredit(stale[0]!.id)).toEqual({ available: 4, reserved: 1 });
    expect(await f.accounts.commitCredit(live.id)).toEqual({ available: 4, reserved: 0 });
    await expectLedgerAgrees(f.t.db, customer);
  });

  it('grants once per idempotency key, and refuses bad grants', async () => {
    const customer = await newCustomer();
    const first = await f.accounts.grantPack({
      customerId: customer,
      credits: 7,
      idempotencyKey: `checkout-${customer}`,
    });
    const again = await f.accounts.grantPack({
      customerId: customer,
      credits: 7,
      idempotencyKey: `checkout-${customer}`,
    });
    expect(again.id).toBe(first.id);
    expect(await f.accounts.balance(customer)).toEqual({ available: 7, reserved: 0 });
    for (const credits of [0, -1, 1.5, 1_000_001, Number.NaN])
      await expect(f.accounts.grantPack({ customerId: customer, credits })).rejects.toMatchObject({
        code: 'invalid_body',
        field: 'credits',
      });
    await expect(f.accounts.grantPack({ customerId: 'cus_missing', credits: 1 })).rejects.toMatchObject({
      code: 'customer_not_found',
    });
    await expect(f.accounts.reserveCredit('cus_missing')).rejects.toMatchObject({ code: 'customer_not_found' });
  });

  it('the ledger is append-only', async () => {
    const customer = await newCustomer();
    await f.accounts.grantPack({ customerId: customer, credits: 1 });
    await expect(
      f.t.db.query('UPDATE credit_ledger SET remaining_change = 100 WHERE customer_id = $1', [customer]),
    ).rejects.toThrow(/append-only/);
    await expect(f.t.db.query('DELETE FROM credit_ledger WHERE customer_id = $1', [customer])).rejects.toThrow(
      /append-only/,
    );
    expect((await f.accounts.ledger(customer)).map((e) => e.remainingChange)).toEqual([1]);
  });
});
