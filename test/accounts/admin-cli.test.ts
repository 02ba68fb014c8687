/**
 * The operator CLI end to end: the built script (dist/scripts/admin.js) spawned against a temporary
 * data directory, alone, then while a site holds the directory (its admin API handlers served on loopback
 * by a bare node:http server standing in for the site server), then against PostgreSQL.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Accounts } from '../../src/accounts/index.js';
import type { Db } from '../../src/store/index.js';
import { admin, CLI, fails, ok } from '../helpers/admin-cli.js';
import { newSchemaName, openTestDatabase, TEST_DATABASE_URL } from '../helpers/databases.js';

// The built modules, as the CLI runs them: admin bodies are checked by validators compiled at build time.
const built = (file: string) => new URL(`../../dist/src/${file}`, import.meta.url).href;
const { createAccounts, MAX_LIVE_KEYS, resolvePepper } = (await import(
  built('accounts/index.js')
)) as typeof import('../../src/accounts/index.js');
const { isLoopbackAddress, openAdminAccess, readAdminToken, SITE_ADMIN } = (await import(
  built('admin/access.js')
)) as typeof import('../../src/admin/access.js');
const { adminPath, adminRoutes, answerAdmin } = (await import(
  built('admin/routes.js')
)) as typeof import('../../src/admin/routes.js');
const { openPostgres, openStore } = (await import(
  built('store/index.js')
)) as typeof import('../../src/store/index.js');

const REDIS_URL = process.env.QR_TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const PEPPER = 'cli-test-pepper-0123456789abcdefghijklmnopqrstuvwxyz';
const KEY = /^qrf_[0-9A-Za-z]{39}$/;
/** Each run starts Node and opens PGlite: seconds apiece on a loaded 2-core machine. */
const CLI_TEST_TIMEOUT_MS = 300_000;

const isoMonthsAgo = (months: number, plusMs: number) => {
  const d = new Date();
  d.setUTCMonth(d.getUTCMonth() - months);
  return new Date(d.getTime() + plusMs).toISOString();
};

describe('admin CLI on a PGlite directory with no site running', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(() => {
    expect(existsSync(CLI), `${CLI} missing: run npm run build`).toBe(true);
    dir = mkdtempSync(join(tmpdir(), 'qrfarm-cli-'));
    env = { QR_DATA_DIR: dir };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'runs the commands against the store, leaves it unlocked, and the keys it printed verify',
    async () => {
      const quick = await ok(['quickstart'], env);
      expect(quick).toMatchObject({ email: 'quickstart@localhost', credits: 100 });
      expect(quick.key).toMatch(KEY);
      const again = await ok(['quickstart'], env);
      expect(again).toMatchObject({ customerId: quick.customerId, packId: quick.packId, credits: 100 });
      expect(again.key).not.toBe(quick.key);

      const customer = await ok(['customer', 'create', '--email', 'ops@example.com'], env);
      expect(customer.id).toMatch(/^cus_/);
      const stale = await ok(
        [
          'pack',
          'grant',
          '--customer',
          String(customer.id),
          '--credits',
          '5',
          '--purchased-at',
          isoMonthsAgo(12, -1000),
        ],
        env,
      );
      expect(stale).toMatchObject({ credits: 5, remaining: 5 });

      // Without --json: readable, and the key is there once with its warning.
      const plain = await admin(['key', 'issue', '--customer', String(customer.id)], env);
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout).toContain('shown only now');
      const issued = {
        id: /^id +(key_\S+)$/m.exec(plain.stdout)![1]!,
        key: /^key +(qrf_\S+)$/m.exec(plain.stdout)![1]!,
      };
      expect(issued.key).toMatch(KEY);
      const revoked = await ok(['key', 'revoke', '--id', String(quick.keyId)], env);
      expect(typeof revoked.revokedAt).toBe('string');

      // The pack bought 12 months and one second ago does not count.
      const credits = await ok(['credits', '--customer', String(customer.id)], env);
      expect(credits).toMatchObject({ customerId: customer.id, available: 0, reserved: 0 });
      expect(credits.ledger).toEqual([
        expect.objectContaining({ kind: 'grant', packId: stale.id, remainingChange: 5 }),
      ]);
      expect((await fails(['credits', '--customer', 'cus_missing'], env)).code).toBe('customer_not_found');
      // Usage mistakes exit 2 before touching the store.
      expect((await admin(['key', 'issue'], env)).code).toBe(2);
      expect((await admin(['launch'], env)).code).toBe(2);

      expect(existsSync(join(dir, 'pglite.lock'))).toBe(false);
      const db = await openStore({ dataDir: dir });
      const accounts = createAccounts(db, { pepper: resolvePepper({ dataDir: dir }) });
      try {
        expect(await accounts.verifyKey(String(again.key))).toEqual({
          customerId: quick.customerId,
          keyId: again.keyId,
        });
        expect(await accounts.verifyKey(issued.key)).toEqual({ customerId: customer.id, keyId: issued.id });
        expect(await accounts.verifyKey(String(quick.key))).toBeNull();
      } finally {
        await accounts.close();
        await db.close();
      }
    },
    CLI_TEST_TIMEOUT_MS,
  );
});

describe('admin CLI while a site holds the PGlite directory', () => {
  let dir: string;
  let db: Db;
  let accounts: Accounts;
  let server: Server;
  let port: number;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qrfarm-site-'));
    env = { QR_DATA_DIR: dir };
    db = await openStore({ dataDir: dir, role: 'site' });
    accounts = createAccounts(db, { pepper: resolvePepper({ dataDir: dir }) });
    let access: ReturnType<typeof openAdminAccess> | undefined;
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const answer = await answerAdmin(
          {
            method: req.method ?? '',
            path: req.url ?? '',
            remoteAddress: req.socket.remoteAddress ?? '',
            authorization: req.headers.authorization,
            body: Buffer.concat(chunks),
          },
          adminRoutes(accounts),
          access!,
        );
        res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    access = openAdminAccess(dir, port);
  });
  afterAll(async () => {
    await new Promise((r) => server?.close(r));
    await accounts?.close();
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'goes through the admin API: the site’s own store sees every change at once',
    async () => {
      const quick = await ok(['quickstart', '--email', 'site@example.com', '--credits', '3'], env);
      expect(await accounts.verifyKey(String(quick.key))).toEqual({ customerId: quick.customerId, keyId: quick.keyId });
      expect(await accounts.balance(String(quick.customerId))).toEqual({ available: 3, reserved: 0 });
      // The site answers from its cache; the revocation, done in the site's process, reaches it at once.
      await ok(['key', 'revoke', '--id', String(quick.keyId)], env);
      expect(await accounts.verifyKey(String(quick.key))).toBeNull();

      const customer = String((await ok(['customer', 'create', '--email', 'ops@example.com'], env)).id);
      expect((await fails(['customer', 'create', '--email', 'OPS@example.com'], env)).code).toBe('customer_exists');
      const pack = await ok(['pack', 'grant', '--customer', customer, '--credits', '7'], env);
      expect(pack).toMatchObject({ credits: 7, remaining: 7, refundedAt: null });
      const k1 = await ok(['key', 'issue', '--customer', customer, '--name', 'ci'], env);
      const k2 = await ok(['key', 'issue', '--customer', customer], env);
      const revoked = await ok(['key', 'revoke', '--id', String(k1.id)], env);
      const list = await ok(['key', 'list', '--customer', customer], env);
      expect(list.keys).toEqual([
        expect.objectContaining({
          id: k1.id,
          name: 'ci',
          start: String(k1.key).slice(0, 12),
          revokedAt: revoked.revokedAt,
        }),
        expect.objectContaining({ id: k2.id, name: null, start: String(k2.key).slice(0, 12), revokedAt: null }),
      ]);
      expect(JSON.stringify(list)).not.toContain(String(k2.key).slice(12));
      expect(await accounts.verifyKey(String(k2.key))).toEqual({ customerId: customer, keyId: k2.id });

      expect(await ok(['credits', '--customer', customer], env)).toMatchObject({ available: 7, reserved: 0 });
      expect(await ok(['pack', 'refund', '--id', String(pack.id)], env)).toMatchObject({ id: pack.id, remaining: 0 });
      const credits = await ok(['credits', '--customer', customer], env);
      expect(credits).toMatchObject({ available: 0, reserved: 0 });
      expect((credits.ledger as { kind: string }[]).map((e) => e.kind)).toEqual(['refund', 'grant']);

      expect(await fails(['pack', 'grant', '--customer', customer, '--credits', 'ten'], env)).toMatchObject({
        code: 'invalid_body',
        field: 'credits',
      });
      expect(
        await fails(['pack', 'grant', '--customer', customer, '--credits', '3', '--purchased-at', 'yesterday'], env),
      ).toMatchObject({ code: 'invalid_body', field: 'purchasedAt' });
      const future = [
        'pack',
        'grant',
        '--customer',
        customer,
        '--credits',
        '3',
        '--purchased-at',
        '2030-01-01T00:00:00Z',
      ];
      expect(await fails(future, env)).toMatchObject({ code: 'invalid_body', field: 'purchasedAt' });
      expect((await ok(['credits', '--customer', customer], env)).available).toBe(0);
      expect((await fails(['key', 'revoke', '--id', 'key_missing'], env)).code).toBe('api_key_not_found');
      expect(await fails(['customer', 'create', '--email', 'not-an-address'], env)).toMatchObject({
        code: 'invalid_body',
        field: 'email',
      });
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it('the API wants the token of this run, from the data directory (mode 0600), and POST', async () => {
    expect(statSync(join(dir, SITE_ADMIN.tokenFile)).mode & 0o777).toBe(0o600);
    const url = `http://127.0.0.1:${port}${adminPath('customer create')}`;
    const post = (authorization?: string, body = '{"email":"token@example.com"}') =>
      fetch(url, {
        method: 'POST',
        headers: authorization === undefined ? {} : { authorization },
        body,
      });
    for (const auth of [undefined, 'Bearer wrong', readAdminToken(dir), `Basic ${readAdminToken(dir)}`]) {
      const res = await post(auth);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ success: false, code: 'invalid_admin_token' });
    }
    const good = `Bearer ${readAdminToken(dir)}`;
    const created = await post(good);
    expect(created.status).toBe(200);
    expect(await created.json()).toMatchObject({ email: 'token@example.com' });
    expect((await post(good, '{"email":')).status).toBe(400);
    expect((await post(good, '[1]')).status).toBe(400);
    const get = await fetch(url, { headers: { authorization: good } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(
      (await fetch(`http://127.0.0.1:${port}/admin/nothing`, { method: 'POST', headers: { authorization: good } }))
        .status,
    ).toBe(404);
  });

  it('refuses clients that are not on loopback', async () => {
    const answer = await answerAdmin(
      {
        method: 'POST',
        path: adminPath('quickstart'),
        remoteAddress: '203.0.113.9',
        authorization: `Bearer ${readAdminToken(dir)}`,
        body: new TextEncoder().encode('{}'),
      },
      adminRoutes(accounts),
      openAdminAccess(dir, port),
    );
    expect(answer).toMatchObject({ status: 403, body: { code: 'admin_loopback_only' } });
    for (const a of [
      '127.0.0.1',
      '127.8.9.10',
      '::1',
      '0000:0000:0000:0000:0000:0000:0000:0001',
      '::ffff:127.0.0.1',
      '0000:0000:0000:0000:0000:ffff:7f00:0001',
    ])
      expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of [
      '10.0.0.1',
      '::ffff:10.0.0.1',
      '0000:0000:0000:0000:0000:ffff:0a00:0001',
      '::',
      '2001:db8::1',
      'localhost',
      '',
    ])
      expect(isLoopbackAddress(a), a).toBe(false);
  });
});

describe('admin CLI with DATABASE_URL', () => {
  let schema: string;
  let db: Db;
  let site: Accounts;
  let env: Record<string, string>;

  beforeAll(async () => {
    await openTestDatabase('postgres').then((t) => t.close()); // fails clearly when the server is down
    schema = newSchemaName();
    db = await openStore({ databaseUrl: TEST_DATABASE_URL, schema, dataDir: 'memory://' });
    // A site instance trusting the Redis broadcast with a minute-long cache.
    site = createAccounts(db, { pepper: Buffer.from(PEPPER), redisUrl: REDIS_URL, keyCacheTtlWithRedisMs: 60_000 });
    env = {
      DATABASE_URL: TEST_DATABASE_URL,
      QR_DATABASE_SCHEMA: schema,
      QR_KEY_PEPPER: PEPPER,
      REDIS_URL,
      QR_DATA_DIR: '/nonexistent',
    };
    const deadline = Date.now() + 10_000;
    while (site.keyRevocationFeed() !== 'listening') {
      if (Date.now() > deadline) throw new Error(`Redis at ${REDIS_URL} is not reachable`);
      await new Promise((r) => setTimeout(r, 20));
    }
  });
  afterAll(async () => {
    await site?.close();
    await db?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await db?.close();
  });

  it(
    'opens the store itself; a key it revokes is refused by a running site within 1 s',
    async () => {
      const quick = await ok(['quickstart'], env);
      expect(await site.verifyKey(String(quick.key))).toEqual({ customerId: quick.customerId, keyId: quick.keyId });
      const started = Date.now();
      await ok(['key', 'revoke', '--id', String(quick.keyId)], env);
      const revokedBy = Date.now();
      for (;;) {
        if ((await site.verifyKey(String(quick.key))) === null) break;
        if (Date.now() - revokedBy > 1000)
          throw new Error('the site still accepts the key 1 s after the CLI revoked it');
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(revokedBy).toBeGreaterThanOrEqual(started);
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'refuses to run without QR_KEY_PEPPER, naming it',
    async () => {
      const { QR_KEY_PEPPER: _, ...withoutPepper } = env;
      const body = await fails(['key', 'list', '--customer', 'cus_x'], withoutPepper);
      expect(body.error).toMatch(/QR_KEY_PEPPER is required/);
      // Nothing was created in another schema either: the pool never opened.
      const probe = openPostgres(TEST_DATABASE_URL, { schema });
      try {
        expect((await probe.query('SELECT 1 FROM customers')).rowCount).toBe(1);
      } finally {
        await probe.close();
      }
    },
    CLI_TEST_TIMEOUT_MS,
  );

  it(
    'refuses a key past the live-key cap (409 key_limit_reached), counting keys issued elsewhere',
    async () => {
      const customer = await site.createCustomer(`cap-${schema}@example.com`);
      for (let i = 0; i < MAX_LIVE_KEYS; i++) await site.issueKey(customer.id);
      const body = await fails(['key', 'issue', '--customer', customer.id], env);
      expect(body).toMatchObject({ code: 'key_limit_reached', error: expect.stringMatching(/25 live API keys/) });
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
