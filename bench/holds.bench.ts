/**
 * `npm run bench:holds`: the store's two hold ledgers side by side, on PGlite in memory and on the PostgreSQL
 * server (QR_TEST_DATABASE_URL), in one run:
 *   credits: a customer's AI credits (src/accounts/credits.ts): reserve, then commit or release, each a
 *            transaction that locks the customer's row, picks the pack, writes a ledger row, and keeps the
 *            reservation's row as the record the ledger points at;
 *   quota:   a marketplace user's managed-AI designs of the month (src/marketplace/quota.ts): hold, then
 *            deliver or release, each one statement on the month's counter row, the hold's row deleted at
 *            its end.
 * 1. Hold + settle, 16 callers at once: all on one owner (every call queues on one row lock), and each
 *    on an owner of its own.
 * 2. A sweep of 500 expired holds: each ledger's own, and the quota's swept hold by hold through its
 *    release statement, the one end path a hold lifecycle shared with the credits would give it.
 * 3. The rows each hold table keeps after the holds of 1. have ended.
 * BENCH_ROUNDS (3) rounds, the ledgers taking turns; medians reported.
 */
import { loadavg } from 'node:os';
import { createAccounts } from '../src/accounts/index.js';
import type { Accounts } from '../src/accounts/types.js';
import {
  holdManagedDesign,
  deliverManagedDesign,
  releaseManagedDesign,
  sweepManagedHolds,
} from '../src/marketplace/quota.js';
import { type Db, MEMORY_DATA_DIR, openStore } from '../src/store/index.js';

const DATABASE_URL = process.env.QR_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = `bench_holds_${process.pid}`;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CALLERS = 16;
const CALLS_PER_CALLER = 40;
const SWEPT = 500;
const PEPPER = Buffer.from('bench-holds-pepper-0123456789abcdefghijklmnop');

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!;
const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

/** `CALLERS` loops of `CALLS_PER_CALLER` hold + settle each, caller i on owner `owner(i)`. */
async function concurrent(call: (caller: number) => Promise<void>) {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CALLERS }, async (_, i) => {
      for (let n = 0; n < CALLS_PER_CALLER; n++) {
        const t0 = performance.now();
        await call(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { perSec: latencies.length / seconds, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
}

interface Ledger {
  name: string;
  holdAndSettle(owner: number): Promise<void>;
  /** Makes SWEPT holds expired by `at`, then times `sweep(at)`; returns ms and how many it ended. */
  sweep(variant: string): Promise<{ ms: number; ended: number }>;
  sweeps: string[];
  rowsKept(): Promise<number>;
}

let holds = 0;

async function creditsLedger(db: Db): Promise<{ ledger: Ledger; accounts: Accounts }> {
  const accounts = createAccounts(db, { pepper: PEPPER, reservationTtlMs: 1_000, usageFlushMs: 60_000 });
  const customers: string[] = [];
  for (let i = 0; i < CALLERS; i++) {
    const { id } = await accounts.createCustomer(`bench-holds-${process.pid}-${i}@example.com`);
    await accounts.grantPack({ customerId: id, credits: 1_000_000 });
    customers.push(id);
  }
  const ledger: Ledger = {
    name: 'credits',
    async holdAndSettle(owner) {
      const r = await accounts.reserveCredit(customers[owner]!);
      if (r === null) throw new Error('no credit');
      await accounts.commitCredit(r.id);
    },
    sweeps: ['one transaction per hold (its own)'],
    async sweep() {
      const at = new Date(Date.now() - 10_000);
      for (let i = 0; i < SWEPT; i++) await accounts.reserveCredit(customers[0]!, at);
      const t0 = performance.now();
      let ended = 0;
      for (let n = 1; n > 0; ended += n) n = await accounts.sweepExpiredReservations(new Date());
      return { ms: performance.now() - t0, ended };
    },
    async rowsKept() {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM credit_reservations');
      return rows[0]!.n;
    },
  };
  return { ledger, accounts };
}

function quotaLedger(db: Db): Ledger {
  const hold = (user: string, expiresAt: Date) => {
    const holdId = `bench-hold-${holds++}`;
    return holdManagedDesign(db, { holdId, user, month: '2026-11', planId: 'PRO', limit: undefined, expiresAt }).then(
      (held) => {
        if (!held) throw new Error('not held');
        return holdId;
      },
    );
  };
  return {
    name: 'quota',
    async holdAndSettle(owner) {
      const holdId = await hold(`bench-user-${owner}`, new Date(Date.now() + 60_000));
      if ((await deliverManagedDesign(db, holdId, 1_000_000_000)) === null) throw new Error('not delivered');
    },
    sweeps: ['one statement (its own)', 'hold by hold through its release (a shared per-hold end path)'],
    async sweep(variant) {
      const at = new Date(Date.now() - 10_000);
      for (let i = 0; i < SWEPT; i++) await hold('bench-user-0', at);
      const t0 = performance.now();
      let ended = 0;
      if (variant.startsWith('one statement')) {
        for (let n = 1; n > 0; ended += n) n = await sweepManagedHolds(db, new Date());
      } else {
        const { rows } = await db.query<{ id: string }>(
          'SELECT id FROM managed_ai_holds WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2',
          [new Date(), SWEPT],
        );
        for (const { id } of rows) await releaseManagedDesign(db, id);
        ended = rows.length;
      }
      return { ms: performance.now() - t0, ended };
    },
    async rowsKept() {
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM managed_ai_holds');
      return rows[0]!.n;
    },
  };
}

async function compare(driver: string, db: Db): Promise<void> {
  const { ledger: credits, accounts } = await creditsLedger(db);
  const ledgers = [credits, quotaLedger(db)];
  const results = new Map<string, number[]>();
  const add = (key: string, value: number) => results.set(key, [...(results.get(key) ?? []), value]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const l of round % 2 === 0 ? ledgers : [...ledgers].reverse()) {
      for (const [shape, owner] of [
        ['one owner', () => 0],
        [`${CALLERS} owners`, (i: number) => i],
      ] as const) {
        const r = await concurrent((i) => l.holdAndSettle(owner(i)));
        add(`${l.name}|${shape}|perSec`, r.perSec);
        add(`${l.name}|${shape}|p50`, r.p50);
        add(`${l.name}|${shape}|p99`, r.p99);
      }
      for (const variant of l.sweeps) {
        const s = await l.sweep(variant);
        if (s.ended !== SWEPT) throw new Error(`${l.name} swept ${s.ended} of ${SWEPT}`);
        add(`${l.name}|sweep|${variant}`, s.ms);
      }
    }
  }
  for (const l of ledgers) {
    for (const shape of ['one owner', `${CALLERS} owners`]) {
      const m = (k: string) => median(results.get(`${l.name}|${shape}|${k}`)!);
      console.log(
        `${driver}, ${l.name}, hold + settle, ${CALLERS} callers on ${shape}: ${Math.round(m('perSec'))}/s, p50 ${m('p50').toFixed(1)} ms, p99 ${m('p99').toFixed(1)} ms (rounds ${results
          .get(`${l.name}|${shape}|perSec`)!
          .map(Math.round)
          .join(', ')}/s)`,
      );
    }
    for (const variant of l.sweeps)
      console.log(
        `${driver}, ${l.name}, sweep of ${SWEPT} expired holds, ${variant}: ${median(results.get(`${l.name}|sweep|${variant}`)!).toFixed(0)} ms`,
      );
    const settled = ROUNDS * 2 * CALLERS * CALLS_PER_CALLER + ROUNDS * l.sweeps.length * SWEPT;
    console.log(`${driver}, ${l.name}: ${await l.rowsKept()} rows left in its hold table after ${settled} ended holds`);
  }
  await accounts.close();
}

console.log(`load average at start: ${loadAverage()}`);
const pglite = await openStore({ dataDir: MEMORY_DATA_DIR });
await compare('PGlite', pglite);
await pglite.close();
const postgres = await openStore({ databaseUrl: DATABASE_URL, dataDir: MEMORY_DATA_DIR, schema: SCHEMA });
try {
  await compare('PostgreSQL', postgres);
} finally {
  await postgres.query(`DROP SCHEMA ${SCHEMA} CASCADE`);
  await postgres.close();
}
console.log(`load average at end: ${loadAverage()}`);
