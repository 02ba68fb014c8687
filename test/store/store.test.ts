import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePepper } from '../../src/accounts/index.js';
import { ApiError } from '../../src/errors.js';
import {
  announceAdminPort,
  DataDirBusyError,
  lockDataDir,
  MARKETPLACE_PGLITE,
  MIGRATIONS,
  migrate,
  openPostgres,
  openStore,
  readDataDirLock,
  readOrCreateSecret,
  replaceSecret,
} from '../../src/store/index.js';
import {
  DRIVERS,
  newSchemaName,
  openTestDatabase,
  TEST_DATABASE_URL,
  type TestDatabase,
} from '../helpers/databases.js';

describe.each(DRIVERS)('migrations on %s', (driver) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(driver);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('are recorded in schema_migrations and applying them again changes nothing', async () => {
    const recorded = await t.db.query<{ version: number; name: string }>(
      'SELECT version, name FROM schema_migrations ORDER BY version',
    );
    expect(recorded.rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
    const tables = async () =>
      (
        await t.db.query<{ table_name: string }>(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`,
        )
      ).rows.map((r) => r.table_name);
    const before = await tables();
    expect(before).toEqual([
      'api_keys',
      'batch_jobs',
      'batch_results',
      'credit_ledger',
      'credit_reservations',
      'customers',
      'designs',
      'email_tokens',
      'idempotency_keys',
      'invoices',
      'managed_ai_holds',
      'managed_ai_usage',
      'marketplace_call_quota',
      'marketplace_usage',
      'orders',
      'packs',
      'payment_events',
      'payment_refunds',
      'receipts',
      'schema_migrations',
      'sessions',
      'usage_daily',
      'users',
      'withdrawal_waivers',
    ]);
    expect(await migrate(t.db, { schema: t.schema })).toEqual({ applied: [] });
    expect(await tables()).toEqual(before);
    expect((await t.db.query('SELECT 1 FROM schema_migrations')).rowCount).toBe(MIGRATIONS.length);
  });

  it('roll back entirely when one fails', async () => {
    const broken = [
      ...MIGRATIONS,
      { version: 999, name: 'broken', sql: 'CREATE TABLE half_done (id int); SELECT nonsense;' },
    ];
    await expect(migrate(t.db, { schema: t.schema, migrations: broken })).rejects.toThrow();
    const left = await t.db.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'`);
    expect(left.rowCount).toBe(0);
    expect((await t.db.query('SELECT 1 FROM schema_migrations WHERE version = 999')).rowCount).toBe(0);
  });
});

describe('migrations on PostgreSQL from several instances at once', () => {
  it('apply once: the advisory lock makes the others wait and find the schema current', async () => {
    await openTestDatabase('postgres').then((t) => t.close()); // fails clearly when the server is down
    const schema = newSchemaName();
    const dbs = [0, 1, 2, 3].map(() => openPostgres(TEST_DATABASE_URL, { schema }));
    try {
      const reports = await Promise.all(dbs.map((db) => migrate(db, { schema })));
      expect(reports.map((r) => r.applied.length).sort()).toEqual([0, 0, 0, MIGRATIONS.length]);
      expect((await dbs[0]!.query('SELECT 1 FROM schema_migrations')).rowCount).toBe(MIGRATIONS.length);
    } finally {
      await dbs[0]!.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await Promise.all(dbs.map((db) => db.close()));
    }
  });
});

describe('a database that is down', () => {
  it('surfaces as store_unavailable (503), without the driver’s text, from queries and transactions', async () => {
    // Port 9 (discard) on loopback: nothing listens, the connection is refused.
    const db = openPostgres('postgres://postgres@127.0.0.1:9/test', { connectTimeoutMs: 1000 });
    try {
      for (const attempt of [() => db.query('SELECT 1'), () => db.transaction((tx) => tx.query('SELECT 1'))]) {
        const error = await attempt().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(ApiError);
        expect(error).toMatchObject({ code: 'store_unavailable', status: 503 });
        expect((error as ApiError).message).not.toContain('127.0.0.1');
      }
      await expect(
        openStore({ databaseUrl: 'postgres://postgres@127.0.0.1:9/test', dataDir: 'memory://' }),
      ).rejects.toMatchObject({
        code: 'store_unavailable',
      });
    } finally {
      await db.close();
    }
  });

  it('a transaction cut off midway leaves nothing written', async () => {
    const t = await openTestDatabase('postgres');
    try {
      await t.db.exec('CREATE TABLE cut (id int)');
      const error = await t.db
        .transaction(async (tx) => {
          await tx.query('INSERT INTO cut VALUES (1)');
          // The server ends this connection, as a restart or failover would.
          await tx.query('SELECT pg_terminate_backend(pg_backend_pid())');
        })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toMatchObject({ code: 'store_unavailable' });
      expect((await t.db.query('SELECT 1 FROM cut')).rowCount).toBe(0);
    } finally {
      await t.close();
    }
  });
});

describe('the PGlite data directory', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'qrfarm-store-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('persists across reopening, and has one writer at a time', async () => {
    const db = await openStore({ dataDir: dir });
    expect(db.kind).toBe('pglite');
    await db.query(`INSERT INTO customers (id, email, created_at) VALUES ('cus_persist', 'p@example.com', now())`);
    expect(readDataDirLock(dir)).toEqual({ pid: process.pid, role: 'site' });
    await expect(openStore({ dataDir: dir, role: 'cli' })).rejects.toBeInstanceOf(DataDirBusyError);
    expect(() => lockDataDir(dir, 'cli')).toThrow(/in use by a running site/);
    expect(announceAdminPort(dir, 4321)).toBe(true);
    expect(readDataDirLock(dir)).toEqual({ pid: process.pid, role: 'site', adminPort: 4321 });
    await db.close();
    expect(existsSync(join(dir, 'pglite.lock'))).toBe(false);
    expect(readDataDirLock(dir)).toBeNull();
    expect(announceAdminPort(dir, 4321)).toBe(false);

    const again = await openStore({ dataDir: dir, role: 'cli' });
    try {
      const { rows } = await again.query<{ email: string }>(`SELECT email FROM customers WHERE id = 'cus_persist'`);
      expect(rows).toEqual([{ email: 'p@example.com' }]);
      expect((await migrate(again)).applied).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it("the site's and the engine's directories in one data directory are locked apart", async () => {
    const site = await openStore({ dataDir: dir });
    const engine = await openStore({ dataDir: dir, pglite: MARKETPLACE_PGLITE, role: 'engine' });
    try {
      expect(readDataDirLock(dir)).toEqual({ pid: process.pid, role: 'site' });
      expect(readDataDirLock(dir, MARKETPLACE_PGLITE)).toEqual({ pid: process.pid, role: 'engine' });
      expect(() => lockDataDir(dir, 'cli', MARKETPLACE_PGLITE)).toThrow(/in use by a running engine/);
      expect(announceAdminPort(dir, 5432, MARKETPLACE_PGLITE)).toBe(true);
      expect(readDataDirLock(dir, MARKETPLACE_PGLITE)).toEqual({ pid: process.pid, role: 'engine', adminPort: 5432 });
      // Two databases: a row in one is not in the other.
      await site.query(`INSERT INTO customers (id, email, created_at) VALUES ('cus_apart', 'a@example.com', now())`);
      expect((await engine.query(`SELECT 1 FROM customers WHERE id = 'cus_apart'`)).rowCount).toBe(0);
    } finally {
      await engine.close();
      await site.close();
    }
    expect(existsSync(join(dir, 'marketplace-pglite.lock'))).toBe(false);
    expect(existsSync(join(dir, 'marketplace-pglite'))).toBe(true);
  });

  it('a lock left by a process that is gone is replaced', () => {
    // A pid far above any the kernel hands out (pid_max ≤ 2^22).
    writeFileSync(join(dir, 'pglite.lock'), JSON.stringify({ pid: 2 ** 30, role: 'site', adminPort: 1 }));
    expect(readDataDirLock(dir)).toBeNull();
    const release = lockDataDir(dir, 'cli');
    expect(readDataDirLock(dir)).toEqual({ pid: process.pid, role: 'cli' });
    release();
    expect(existsSync(join(dir, 'pglite.lock'))).toBe(false);
  });

  it('keeps secrets in files of mode 0600: created once, read after; replaced on demand', () => {
    const first = readOrCreateSecret(dir, 'a-secret');
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readOrCreateSecret(dir, 'a-secret')).toBe(first);
    expect(statSync(join(dir, 'a-secret')).mode & 0o777).toBe(0o600);
    const replaced = replaceSecret(dir, 'a-secret');
    expect(replaced).not.toBe(first);
    expect(readFileSync(join(dir, 'a-secret'), 'utf8').trim()).toBe(replaced);
    expect(statSync(join(dir, 'a-secret')).mode & 0o777).toBe(0o600);
  });

  it('the key pepper: configured, or generated and kept in the data directory, and required with DATABASE_URL', () => {
    const configured = 'p'.repeat(32);
    expect(resolvePepper({ pepper: configured, dataDir: dir })).toEqual(Buffer.from(configured));
    expect(() => resolvePepper({ pepper: 'short', dataDir: dir })).toThrow(/at least 32/);
    const generated = resolvePepper({ dataDir: dir });
    expect(generated.length).toBeGreaterThanOrEqual(32);
    expect(resolvePepper({ dataDir: dir })).toEqual(generated);
    expect(statSync(join(dir, 'key-pepper')).mode & 0o777).toBe(0o600);
    expect(() => resolvePepper({ dataDir: dir, databaseUrl: TEST_DATABASE_URL })).toThrow(/QR_KEY_PEPPER is required/);
  });
});
