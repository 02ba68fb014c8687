/**
 * Migrated stores for tests, on both drivers: PGlite in memory, and the real PostgreSQL server in a
 * schema of its own, made for the run and dropped after it, so runs never see each other's rows. The
 * server is required: when it cannot be reached the suite fails saying so, it is never skipped.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { type Accounts, type AccountsOptions, createAccounts } from '../../src/accounts/index.js';
import { openPglite, openPostgres, migrate, type Db, type Queryable } from '../../src/store/index.js';

export const TEST_DATABASE_URL = process.env.QR_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

export type DriverName = 'pglite' | 'postgres';
export const DRIVERS: readonly DriverName[] = ['pglite', 'postgres'];

export interface TestDatabase {
  driver: DriverName;
  db: Db;
  /** PostgreSQL: the run's schema. */
  schema: string | undefined;
  /** PostgreSQL: another pool on the same schema, as a second instance would have; closed with the rest. */
  anotherPool(): Db;
  close(): Promise<void>;
}

export const newSchemaName = () => `qrfarm_test_${process.pid}_${randomBytes(4).toString('hex')}`;

async function reachable(url: string): Promise<void> {
  const probe = openPostgres(url, { connectTimeoutMs: 3000, poolSize: 1 });
  try {
    await probe.query('SELECT 1');
  } catch (e) {
    const why = (e as Error & { cause?: Error }).cause?.message ?? (e as Error).message;
    throw new Error(
      `PostgreSQL is not reachable at ${url} (${why}). The store tests run on the real server as well as on PGlite: start it, or point QR_TEST_DATABASE_URL at one.`,
    );
  } finally {
    await probe.close();
  }
}

export async function openTestDatabase(driver: DriverName): Promise<TestDatabase> {
  if (driver === 'pglite') {
    const db = await openPglite('memory://');
    await migrate(db);
    return { driver, db, schema: undefined, anotherPool: () => db, close: () => db.close() };
  }
  await reachable(TEST_DATABASE_URL);
  const schema = newSchemaName();
  const db = openPostgres(TEST_DATABASE_URL, { schema });
  await migrate(db, { schema });
  const others: Db[] = [];
  return {
    driver,
    db,
    schema,
    anotherPool() {
      const other = openPostgres(TEST_DATABASE_URL, { schema });
      others.push(other);
      return other;
    },
    async close() {
      await Promise.all(others.map((o) => o.close()));
      await db.query(`DROP SCHEMA ${schema} CASCADE`);
      await db.close();
    },
  };
}

/** The same Db, counting the statements sent through it (transactions count each of theirs). */
export function countingDb(db: Db): { db: Db; count: () => number } {
  let n = 0;
  const counted = (q: Queryable): Queryable => ({
    query: <R>(sql: string, params?: readonly unknown[]) => {
      n++;
      return q.query<R>(sql, params);
    },
    exec: (sql) => {
      n++;
      return q.exec(sql);
    },
  });
  const direct = counted(db);
  return {
    db: {
      kind: db.kind,
      query: direct.query,
      exec: direct.exec,
      transaction: (work) => db.transaction((tx) => work(counted(tx))),
      close: () => db.close(),
    },
    count: () => n,
  };
}

/** A clock the test moves by hand. */
export function manualClock(start = new Date('2025-03-10T12:00:00Z')) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    set: (d: Date) => {
      now = d.getTime();
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
}

export const TEST_PEPPER = Buffer.from('test-pepper-0123456789abcdefghijklmnopqrstuvwxyz');

export interface AccountsFixture {
  /** Set once the suite's beforeAll has run. */
  t: TestDatabase;
  accounts: Accounts;
  clock: ReturnType<typeof manualClock>;
  /** A new customer's id, with an address unique in the database. */
  newCustomer(): Promise<string>;
}

/**
 * For a describe block: a test database on `driver` and Accounts on it with a manual clock, opened before
 * the block's tests and closed after them.
 */
export function accountsFixture(driver: DriverName, options: Partial<AccountsOptions> = {}): AccountsFixture {
  let customers = 0;
  const fixture = {
    clock: manualClock(),
    newCustomer: async () => (await fixture.accounts.createCustomer(`c${customers++}-${driver}@example.com`)).id,
  } as AccountsFixture;
  beforeAll(async () => {
    fixture.t = await openTestDatabase(driver);
    fixture.accounts = createAccounts(fixture.t.db, { pepper: TEST_PEPPER, clock: fixture.clock.now, ...options });
  });
  afterAll(async () => {
    await fixture.accounts?.close();
    await fixture.t?.close();
  });
  return fixture;
}
