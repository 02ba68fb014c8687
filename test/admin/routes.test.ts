/**
 * The operator's commands and their admin API (src/admin/routes.ts), the built modules (bodies are checked
 * by the validators compiled at build) against accounts on PGlite in memory: each command's result and what
 * it changed, each body refused with its field; one request answered in the order access, route, method,
 * size, JSON, command; and the HTTP routes behind their guard over real HTTP, a wrong token counted against
 * the client's address.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Accounts } from '../../src/accounts/index.js';
import type { AdminAccess } from '../../src/admin/access.js';
import type { AdminRoute } from '../../src/admin/routes.js';
import { call } from '../helpers/consumer.js';
import { openTestDatabase, TEST_PEPPER, type TestDatabase } from '../helpers/databases.js';
import { type RouteServer, serveRoutes } from '../helpers/route-server.js';

const dist = (file: string) => new URL(`../../dist/src/${file}`, import.meta.url).href;
const { createAccounts } = (await import(dist('accounts/index.js'))) as typeof import('../../src/accounts/index.js');
const { openAdminAccess, readAdminToken } = (await import(
  dist('admin/access.js')
)) as typeof import('../../src/admin/access.js');
const { ADMIN_COMMANDS, ADMIN_MAX_BODY_BYTES, adminHttpRoutes, adminPath, adminRoutes, answerAdmin, runAdminCommand } =
  (await import(dist('admin/routes.js'))) as typeof import('../../src/admin/routes.js');
const { CredentialThrottle } = (await import(
  dist('gateway/failure-throttle.js')
)) as typeof import('../../src/gateway/failure-throttle.js');

const KEY = /^qrf_[0-9A-Za-z]{39}$/;
/** Wrong admin tokens an address may send a minute here. */
const TOKEN_FAILURES = 3;

let t: TestDatabase;
let accounts: Accounts;
let emails = 0;
const email = () => `admin-routes-${emails++}@example.com`;

beforeAll(async () => {
  t = await openTestDatabase('pglite');
  accounts = createAccounts(t.db, { pepper: TEST_PEPPER });
});
afterAll(async () => {
  await accounts?.close();
  await t?.close();
});

/** The status, code and field a command was refused with. */
async function refusal(p: Promise<unknown>) {
  const e = (await p.then(
    () => undefined,
    (x: unknown) => x,
  )) as { status: number; code: string; field?: string } | undefined;
  expect(e, 'refused').toBeDefined();
  return { status: e!.status, code: e!.code, field: e!.field };
}
const run = (command: (typeof ADMIN_COMMANDS)[number], body: unknown) => runAdminCommand(accounts, command, body);

describe('the commands', () => {
  it('customer create, pack grant, key issue, key list, credits, key revoke, pack refund: each result, each change', async () => {
    const address = email();
    const customer = await run('customer create', { email: address });
    expect(customer).toEqual({ id: expect.stringMatching(/^cus_/), email: address, createdAt: expect.any(Date) });
    const id = customer.id as string;
    const pack = await run('pack grant', { customer: id, credits: 7, purchasedAt: '2026-11-01T00:00:00+01:00' });
    expect(pack).toMatchObject({ customerId: id, credits: 7, remaining: 7, refundedAt: null });
    expect((pack.purchasedAt as Date).toISOString()).toBe('2026-10-31T23:00:00.000Z');
    const key = await run('key issue', { customer: id, name: 'ops' });
    expect(key).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(KEY),
      start: (key.key as string).slice(0, 12),
      customerId: id,
      name: 'ops',
      createdAt: expect.any(Date),
    });
    expect(await accounts.verifyKey(key.key as string)).toEqual({ customerId: id, keyId: key.id });
    const list = await run('key list', { customer: id });
    expect(list).toEqual({
      customerId: id,
      keys: [expect.objectContaining({ id: key.id, name: 'ops', revokedAt: null })],
    });
    expect(JSON.stringify(list)).not.toContain((key.key as string).slice(12));
    const credits = await run('credits', { customer: id });
    expect(credits).toMatchObject({ customerId: id, available: 7, reserved: 0 });
    expect((credits.ledger as { kind: string }[]).map((e) => e.kind)).toEqual(['grant']);
    expect(await run('key revoke', { id: key.id })).toEqual({
      id: key.id,
      customerId: id,
      start: key.start,
      revokedAt: expect.any(Date),
    });
    expect(await accounts.verifyKey(key.key as string)).toBeNull();
    expect(await run('pack refund', { id: pack.id })).toMatchObject({
      id: pack.id,
      remaining: 0,
      refundedAt: expect.any(Date),
    });
    expect((await accounts.balance(id)).available).toBe(0);
  });

  it('quickstart: a customer, a 100-credit pack and a key; run again, the same customer and pack, a new key', async () => {
    const first = await run('quickstart', {});
    expect(first).toEqual({
      customerId: expect.stringMatching(/^cus_/),
      email: 'quickstart@localhost',
      packId: expect.any(String),
      credits: 100,
      keyId: expect.any(String),
      key: expect.stringMatching(KEY),
    });
    const again = await run('quickstart', {});
    expect(again).toMatchObject({ customerId: first.customerId, packId: first.packId, credits: 100 });
    expect(again.key).not.toBe(first.key);
    const own = await run('quickstart', { email: email(), credits: 3 });
    expect(own.credits).toBe(3);
    expect(own.customerId).not.toBe(first.customerId);
  });

  it('refuses a body its form does not take: 400 invalid_body on the field at fault', async () => {
    const { id } = await accounts.createCustomer(email());
    const cases: [(typeof ADMIN_COMMANDS)[number], unknown, string | undefined][] = [
      ['customer create', {}, 'email'],
      ['customer create', { email: '' }, 'email'],
      ['customer create', { email: 'a@example.com', plan: 'x' }, 'plan'],
      ['pack grant', { customer: id }, 'credits'],
      ['pack grant', { customer: id, credits: 0 }, 'credits'],
      ['pack grant', { customer: id, credits: 1.5 }, 'credits'],
      ['pack grant', { customer: id, credits: '10' }, 'credits'],
      ['pack grant', { customer: id, credits: 1, purchasedAt: '2026-11-01' }, 'purchasedAt'],
      // The pattern lets it through; no such day.
      ['pack grant', { customer: id, credits: 1, purchasedAt: '2025-01-32T00:00:00Z' }, 'purchasedAt'],
      ['key issue', { customer: id, name: 'n'.repeat(101) }, 'name'],
      ['key revoke', {}, 'id'],
      ['quickstart', { credits: -1 }, 'credits'],
    ];
    for (const [command, body, field] of cases)
      expect(await refusal(run(command, body)), `${command} ${JSON.stringify(body)}`).toEqual({
        status: 400,
        code: 'invalid_body',
        field,
      });
    for (const body of [null, [], 'x'])
      expect((await refusal(run('credits', body))).code, JSON.stringify(body)).toBe('invalid_body');
    expect((await accounts.balance(id)).available).toBe(0);
  });

  it('passes the store’s refusals on: an unknown customer, pack or key, an address taken', async () => {
    expect(await refusal(run('credits', { customer: 'cus_missing' }))).toEqual({
      status: 404,
      code: 'customer_not_found',
      field: 'customer',
    });
    expect((await refusal(run('pack refund', { id: 'pack_missing' }))).code).toBe('pack_not_found');
    expect((await refusal(run('key revoke', { id: 'key_missing' }))).code).toBe('api_key_not_found');
    const address = email();
    await run('customer create', { email: address });
    expect((await refusal(run('customer create', { email: address.toUpperCase() }))).code).toBe('customer_exists');
  });

  it('adminRoutes: one POST route per command, at its words joined by slashes', () => {
    const routes = adminRoutes(accounts);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(ADMIN_COMMANDS.map((c) => `POST ${adminPath(c)}`));
    expect(adminPath('pack grant')).toBe('/admin/pack/grant');
    expect(adminPath('credits')).toBe('/admin/credits');
  });
});

describe('answerAdmin', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qrfarm-admin-routes-'));
  let access: AdminAccess;
  let token: string;
  const logged: string[] = [];
  const failing: AdminRoute = {
    method: 'POST',
    path: '/admin/explode',
    handle: () => Promise.reject(new Error('store on fire')),
  };
  beforeAll(() => {
    access = openAdminAccess(dir, 0);
    token = readAdminToken(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const answer = (
    path: string,
    body: string | Uint8Array,
    o: { method?: string; authorization?: string; remoteAddress?: string } = {},
  ) =>
    answerAdmin(
      {
        method: o.method ?? 'POST',
        path,
        body: typeof body === 'string' ? new TextEncoder().encode(body) : body,
        authorization: o.authorization ?? `Bearer ${token}`,
        remoteAddress: o.remoteAddress ?? '127.0.0.1',
      },
      [...adminRoutes(accounts), failing],
      access,
      (m) => logged.push(m),
    );
  const outcome = async (p: ReturnType<typeof answer>) => {
    const a = await p;
    return { status: a.status, code: (a.body as { code?: string }).code, headers: a.headers };
  };

  it('runs the command and answers its result', async () => {
    const address = email();
    const a = await answer('/admin/customer/create', JSON.stringify({ email: address }));
    expect(a).toMatchObject({ status: 200, headers: {}, body: { email: address } });
  });

  it('checks access before anything: a wrong token or a distant client learns nothing of routes or bodies', async () => {
    for (const path of ['/admin/customer/create', '/admin/nothing']) {
      expect(await outcome(answer(path, '{', { authorization: 'Bearer wrong' }))).toEqual({
        status: 401,
        code: 'invalid_admin_token',
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
      expect(await outcome(answer(path, '{', { method: 'GET', remoteAddress: '10.1.2.3' }))).toEqual({
        status: 403,
        code: 'admin_loopback_only',
        headers: {},
      });
    }
  });

  it('then the route, the method, the size and the JSON, each with its own answer', async () => {
    expect(await outcome(answer('/admin/customer/delete', '{}'))).toEqual({
      status: 404,
      code: 'NOT_FOUND',
      headers: {},
    });
    expect(await outcome(answer('/admin/credits', '', { method: 'GET' }))).toEqual({
      status: 405,
      code: 'METHOD_NOT_ALLOWED',
      headers: { Allow: 'POST' },
    });
    const big = JSON.stringify({ email: `${'a'.repeat(ADMIN_MAX_BODY_BYTES)}@example.com` });
    expect((await outcome(answer('/admin/customer/create', big))).code).toBe('PAYLOAD_TOO_LARGE');
    expect((await outcome(answer('/admin/customer/create', big.slice(0, ADMIN_MAX_BODY_BYTES)))).code).toBe(
      'invalid_body',
    );
    for (const body of ['{"email":', '', new Uint8Array([0x7b, 0xff, 0x7d])])
      expect(await outcome(answer('/admin/customer/create', body)), String(body)).toEqual({
        status: 400,
        code: 'invalid_body',
        headers: {},
      });
  });

  it('an unexpected failure is a 500 INTERNAL_ERROR whose answer says nothing of it, and is logged', async () => {
    const a = await answer('/admin/explode', '{}');
    expect({ status: a.status, code: (a.body as { code: string }).code }).toEqual({
      status: 500,
      code: 'INTERNAL_ERROR',
    });
    expect(JSON.stringify(a.body)).not.toContain('fire');
    expect(logged).toEqual(['admin /admin/explode failed:']);
  });
});

describe('adminHttpRoutes over HTTP', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qrfarm-admin-http-'));
  let server: RouteServer;
  let token: string;
  const admin: { access?: AdminAccess } = {};
  let addresses = 0;
  const newClient = () => `127.0.9.${++addresses}`;

  beforeAll(async () => {
    const failures = new CredentialThrottle(TOKEN_FAILURES, { log: () => {} });
    server = await serveRoutes(adminHttpRoutes(adminRoutes(accounts), () => admin.access, failures));
  });
  afterAll(() => {
    server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (path: string, body: unknown, authorization: string | undefined, from: string) =>
    call(server.origin, path, { body, from, headers: authorization === undefined ? {} : { authorization } });

  it('before the server has opened its access, every request fails without running anything', async () => {
    const a = await post('/admin/quickstart', {}, 'Bearer x', newClient());
    expect({ status: a.status, code: a.body.code }).toEqual({ status: 500, code: 'INTERNAL_ERROR' });
  });

  it('runs a command for this run’s token', async () => {
    admin.access = openAdminAccess(dir, 0);
    token = readAdminToken(dir);
    const address = email();
    const a = await post('/admin/customer/create', { email: address }, `Bearer ${token}`, newClient());
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ email: address, id: expect.stringMatching(/^cus_/) });
    const bad = await post('/admin/pack/grant', { customer: a.body.id, credits: 0 }, `Bearer ${token}`, newClient());
    expect({ status: bad.status, code: bad.body.code, field: bad.body.field }).toEqual({
      status: 400,
      code: 'invalid_body',
      field: 'credits',
    });
  });

  it(`counts wrong tokens per address: past ${TOKEN_FAILURES}, 429 rate_limited even for the right one, elsewhere not`, async () => {
    const from = newClient();
    for (let i = 0; i < TOKEN_FAILURES; i++)
      expect((await post('/admin/credits', {}, 'Bearer wrong', from)).body.code).toBe('invalid_admin_token');
    const throttled = await post('/admin/quickstart', {}, `Bearer ${token}`, from);
    expect({ status: throttled.status, code: throttled.body.code }).toEqual({ status: 429, code: 'rate_limited' });
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not held back by them; a missing token is refused as a wrong one.
    const other = newClient();
    expect((await post('/admin/credits', {}, undefined, other)).body.code).toBe('invalid_admin_token');
    expect((await post('/admin/quickstart', {}, `Bearer ${token}`, other)).status).toBe(200);
  });
});
