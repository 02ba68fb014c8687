/**
 * The customer's row lock against PostgreSQL's row-level lock modes, on the real server (PGlite has one
 * connection, so nothing there ever waits). A reservation takes the customer's lock and then its pack's row;
 * a release takes the pack's row and then writes its ledger row, whose foreign key takes KEY SHARE on the
 * customer's row. The lock must keep reservations one after another and still let that KEY SHARE through,
 * or the two wait on each other. Each interleaving is made by holding a lock from a third transaction and
 * waiting until the server shows the waits (pg_locks), never by timing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { lockCustomer } from '../../src/accounts/customers.js';
import { createAccounts } from '../../src/accounts/index.js';
import type { Db } from '../../src/store/index.js';
import { accountsFixture, TEST_PEPPER } from '../helpers/databases.js';

/** How long a wait the test set up may take to show before the test gives up. */
const SHOWS_WITHIN_MS = 30_000;

/**
 * Resolves once `sql` (one count, in the run's schema) gives `n`: polled, since the server has no event
 * for "a backend now waits on this lock".
 */
async function until(db: Db, what: string, sql: string, n: number): Promise<void> {
  const started = performance.now();
  for (;;) {
    const { rows } = await db.query<{ n: number }>(sql);
    if (rows[0]!.n === n) return;
    if (performance.now() - started > SHOWS_WITHIN_MS) throw new Error(`${what}: not seen in ${SHOWS_WITHIN_MS} ms`);
    await sleep(5);
  }
}

/** Backends waiting for a table-level lock on `table` (a LOCK TABLE held elsewhere). */
const waitingForTable = (table: string) =>
  `SELECT COUNT(*)::int AS n FROM pg_locks WHERE relation = '${table}'::regclass AND locktype = 'relation' AND NOT granted`;

/**
 * Backends waiting for a row of `table` that another transaction holds: the first waiter on a row takes
 * the tuple lock and keeps it while it waits for the holder's transaction (PostgreSQL's heap_lock_tuple).
 */
const waitingForRowOf = (table: string) =>
  `SELECT COUNT(*)::int AS n FROM pg_locks WHERE relation = '${table}'::regclass AND locktype = 'tuple'`;

/** A transaction on `db` that runs `first` and then stays open until `end()`; `end` commits it. */
function heldTransaction(db: Db, first: (tx: Parameters<Parameters<Db['transaction']>[0]>[0]) => Promise<unknown>) {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  let began!: () => void;
  const holding = new Promise<void>((resolve) => (began = resolve));
  const done = db.transaction(async (tx) => {
    await first(tx);
    began();
    await ended;
  });
  return { holding, end, done };
}

describe('the customer lock on PostgreSQL', () => {
  const f = accountsFixture('postgres', { reservationTtlMs: 120_000 });

  it('a release and a reservation for one customer, interleaved: neither waits on the other, both succeed', async () => {
    const customer = await f.newCustomer();
    await f.accounts.grantPack({ customerId: customer, credits: 3 });
    const held = (await f.accounts.reserveCredit(customer))!;
    // A second instance: the reservation and the release run on connections of their own.
    const other = createAccounts(f.t.anotherPool(), { pepper: TEST_PEPPER, clock: f.clock.now });
    const blocker = heldTransaction(f.t.anotherPool(), (tx) => tx.query('LOCK TABLE credit_ledger IN SHARE MODE'));
    try {
      await blocker.holding;
      // The release updates the pack's row, then stops at its ledger row.
      const release = f.accounts.releaseCredit(held.id);
      await until(f.t.db, 'the release waiting to write its ledger row', waitingForTable('credit_ledger'), 1);
      // The reservation takes the customer's lock, then waits for the pack's row the release holds.
      const reservation = other.reserveCredit(customer);
      await until(f.t.db, "the reservation waiting for the pack's row", waitingForRowOf('packs'), 1);
      // The release goes on: its ledger row's foreign key asks for KEY SHARE on the customer's row, which the
      // reservation holds. FOR UPDATE there made each wait on the other until PostgreSQL failed one.
      blocker.end();
      await blocker.done;
      await expect(release).resolves.toBeUndefined();
      const reserved = await reservation;
      expect(reserved).toMatchObject({ customerId: customer });
      expect(await f.accounts.balance(customer)).toEqual({ available: 2, reserved: 1 });
      const kinds = (await f.accounts.ledger(customer, 10)).map((e) => e.kind).reverse();
      expect(kinds).toEqual(['grant', 'reserve', 'release', 'reserve']);
    } finally {
      blocker.end();
      await blocker.done.catch(() => {});
      await other.close();
    }
  });

  it("reservations for one customer still run one after another: one waits while the customer's lock is held", async () => {
    const customer = await f.newCustomer();
    await f.accounts.grantPack({ customerId: customer, credits: 2 });
    const other = createAccounts(f.t.anotherPool(), { pepper: TEST_PEPPER, clock: f.clock.now });
    // What another reservation (or grant, refund) holds while it changes the customer's credits.
    const first = heldTransaction(f.t.anotherPool(), async (tx) => {
      await lockCustomer(tx, customer);
      await tx.query('UPDATE packs SET remaining = remaining - 1 WHERE customer_id = $1', [customer]);
    });
    try {
      await first.holding;
      let settled = false;
      const second = other.reserveCredit(customer).finally(() => (settled = true));
      await until(f.t.db, "the reservation waiting for the customer's row", waitingForRowOf('customers'), 1);
      expect(settled).toBe(false);
      first.end();
      await first.done;
      // It ran after the first had committed, and saw what that one left.
      expect(await second).toMatchObject({ customerId: customer });
      expect(await f.accounts.balance(customer)).toEqual({ available: 0, reserved: 1 });
      expect(await f.accounts.reserveCredit(customer)).toBeNull();
    } finally {
      first.end();
      await first.done.catch(() => {});
      await other.close();
    }
  });
});
