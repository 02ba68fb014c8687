/**
 * The site's session routes over real HTTP (the built engine and site, QR_ROLE=all, accounts on PGlite):
 * cookies and their attributes, the CSRF token on every state-changing request, sign-in refusals,
 * keys only of one's own account, sign-out (everywhere), the usage count, the Studio's per-address
 * limit, and the site's OpenAPI document listing every one of these routes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Consumer,
  type ConsumerStore,
  call,
  consumerConfig,
  consumerStore,
  refusal,
  startConsumer,
} from '../helpers/consumer.js';
import { decodeOne } from '../helpers/decode.js';
import { newAddress, PASSWORD, SiteBrowser } from '../helpers/site-browser.js';

const Browser = SiteBrowser;
const outbox = mkdtempSync(join(tmpdir(), 'qrfarm-site-accounts-'));

let store: ConsumerStore;
let c: Consumer;

beforeAll(async () => {
  store = await consumerStore('pglite');
  c = await startConsumer(
    await consumerConfig({ ...store.env, QR_OUTBOX_DIR: outbox, QR_LIMIT_SIGNIN: '1000', QR_LIMIT_STUDIO: '1000' }),
  );
});
afterAll(async () => {
  await c?.close();
  await store?.close();
  rmSync(outbox, { recursive: true, force: true });
});

describe('sessions', () => {
  it('sign-up sets an HttpOnly, SameSite=Lax session cookie (not Secure over plain HTTP) and nothing readable', async () => {
    const b = new Browser(c.siteUrl);
    const first = await b.send('/api/session');
    expect(first.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^qrf_csrf=[\w-]{43}; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Lax$/),
    ]);
    const up = await b.send('/api/session/signup', { email: newAddress(), password: PASSWORD });
    expect(up.status).toBe(200);
    expect(up.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^qrf_session=[\w-]{43}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/),
    ]);
    expect(JSON.stringify(up.body)).not.toContain(b.cookieHeader.match(/qrf_session=([\w-]+)/)![1]);
    const me = await b.send('/api/session');
    expect(me.body).toMatchObject({ signedIn: true, user: { email: up.body.user.email }, csrfToken: b.csrf });
  });

  it('every state-changing request needs the X-CSRF-Token of its own browser', async () => {
    const b = new Browser(c.siteUrl);
    await b.start();
    const form = { email: newAddress(), password: PASSWORD };
    expect(refusal(await b.send('/api/session/signup', form, { 'x-csrf-token': '' }))).toEqual({
      status: 403,
      success: false,
      code: 'csrf_failed',
    });
    // Another browser's token does not do either.
    const other = new Browser(c.siteUrl);
    await other.start();
    expect((await b.send('/api/session/signup', form, { 'x-csrf-token': other.csrf })).status).toBe(403);
    const preSession = b.csrf;
    expect((await b.send('/api/session/signup', form)).status).toBe(200);
    // Signed in, the token is the session's: the one from before sign-in no longer does.
    expect(b.csrf).not.toBe(preSession);
    expect(refusal(await b.send('/api/account/keys', {}, { 'x-csrf-token': preSession })).code).toBe('csrf_failed');
    expect(refusal(await b.send('/api/session/signout', {}, { 'x-csrf-token': '' })).code).toBe('csrf_failed');
    expect((await b.send('/api/session')).body.signedIn).toBe(true);
  });

  it('wrong passwords and unknown addresses are the same 401; a verified address is 409 on email', async () => {
    const b = new Browser(c.siteUrl);
    const { email } = await b.verifiedAccount(outbox);
    const other = new Browser(c.siteUrl);
    await other.start();
    const wrong = await other.send('/api/session/signin', { email, password: `${PASSWORD}?` });
    const unknown = await other.send('/api/session/signin', { email: newAddress(), password: PASSWORD });
    expect(refusal(wrong)).toEqual({ status: 401, success: false, code: 'invalid_credentials' });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers.getSetCookie()).toEqual([]);
    const taken = await other.send('/api/session/signup', { email: email.toUpperCase(), password: PASSWORD });
    expect(taken.body).toMatchObject({ code: 'customer_exists', field: 'email' });
    expect(taken.status).toBe(409);
    const short = await other.send('/api/session/signup', { email: newAddress(), password: 'short' });
    expect(short.body).toMatchObject({ code: 'invalid_body', field: 'password' });
    const extra = await other.send('/api/session/signin', { email, password: PASSWORD, remember: 'yes' });
    expect(extra.body).toMatchObject({ code: 'invalid_body', field: 'remember' });
    expect((await other.send('/api/session/signin', { email, password: PASSWORD })).status).toBe(200);
  });

  it('without a session the account routes answer 401 session_required', async () => {
    for (const path of ['/api/account', '/api/account/keys', '/api/account/ledger', '/api/account/usage'])
      expect(refusal(await call(c.siteUrl, path)), path).toEqual({
        status: 401,
        success: false,
        code: 'session_required',
      });
    const b = new Browser(c.siteUrl);
    await b.start();
    expect(refusal(await b.send('/api/account/keys', {})).code).toBe('session_required');
  });

  it('sign-out ends this session; sign-out everywhere ends every one of the account', async () => {
    const a = new Browser(c.siteUrl);
    const { email } = await a.signUp();
    const b = new Browser(c.siteUrl);
    await b.start();
    await b.send('/api/session/signin', { email, password: PASSWORD });
    const cBrowser = new Browser(c.siteUrl);
    await cBrowser.start();
    await cBrowser.send('/api/session/signin', { email, password: PASSWORD });
    const stale = a.cookieHeader;
    const out = await a.send('/api/session/signout', {});
    expect(out.headers.getSetCookie()).toEqual([expect.stringMatching(/^qrf_session=; Path=\/; Max-Age=0; HttpOnly/)]);
    // The old cookie, kept by someone, is worth nothing now.
    expect(refusal(await call(c.siteUrl, '/api/account', { headers: { cookie: stale } })).code).toBe(
      'session_required',
    );
    expect((await b.send('/api/account')).status).toBe(200);
    expect((await b.send('/api/session/signout-everywhere', {})).body).toEqual({ success: true, ended: 2 });
    expect((await cBrowser.send('/api/account')).status).toBe(401);
    expect((await b.send('/api/account')).status).toBe(401);
  });
});

describe('the dashboard’s routes', () => {
  it('keys: 403 unverified, 402 without a pack; issued once; listed without the key; another account’s is 404', async () => {
    const b = new Browser(c.siteUrl);
    await b.signUp();
    expect(refusal(await b.send('/api/account/keys', {}))).toEqual({
      status: 403,
      success: false,
      code: 'email_unverified',
    });
    const { customerId } = (await b.verify(outbox)).body.user;
    expect(refusal(await b.send('/api/account/keys', {})).code).toBe('studio_required');
    await c.accounts.grantPack({ customerId, credits: 2 });
    const issued = await b.send('/api/account/keys', { name: 'ci' });
    expect(issued.body.key).toMatchObject({ name: 'ci', key: expect.stringMatching(/^qrf_/), revokedAt: null });
    const key: string = issued.body.key.key;
    const listed = await b.send('/api/account/keys');
    const { key: _, ...shown } = issued.body.key;
    expect(listed.body.keys).toEqual([shown]);
    expect(JSON.stringify(listed.body)).not.toContain(key);

    const render = await call(c.siteUrl, '/api/v1/qr/generate', {
      key,
      body: { content: 'usage', responseType: 'binary' },
    });
    expect((await decodeOne('png', render.bytes)).text).toBe('usage');
    await call(c.siteUrl, '/api/v1/ping', { key });
    const usage = await b.send('/api/account/usage?days=2');
    expect(usage.body.days).toHaveLength(2);
    expect(usage.body.days[1]).toMatchObject({ day: new Date().toISOString().slice(0, 10), generation: 1, general: 1 });
    expect(refusal(await b.send('/api/account/usage?days=91')).code).toBe('invalid_body');

    const mallory = new Browser(c.siteUrl);
    await mallory.signUp();
    const theirs = await mallory.send(`/api/account/keys/${issued.body.key.id}/revoke`, {});
    expect(theirs.body).toMatchObject({ code: 'api_key_not_found', field: 'id' });
    expect((await call(c.siteUrl, '/api/v1/ping', { key })).status).toBe(200);
    const revoked = await b.send(`/api/account/keys/${issued.body.key.id}/revoke`, {});
    expect(revoked.body.key.revokedAt).toEqual(expect.any(String));
  });

  it('the Studio download of a pack holder: any size the API takes, where the anonymous preview stops at 1024 px', async () => {
    const b = new Browser(c.siteUrl);
    const { customerId } = await b.signUp();
    const body = { content: 'a large print', outputWidth: 2048, responseType: 'binary' };
    expect(refusal(await b.send('/api/account/render', body)).code).toBe('studio_required');
    const preview = await call(c.siteUrl, '/api/studio/render', { body });
    expect(refusal(preview)).toMatchObject({ status: 400, code: 'VALUE_OUT_OF_RANGE' });
    expect(preview.body.field).toBe('outputWidth');
    await c.accounts.grantPack({ customerId, credits: 1 });
    const download = await b.send('/api/account/render', body);
    expect(download.status).toBe(200);
    expect(download.headers.get('x-qr-width')).toBe('2048');
    expect(download.headers.get('ratelimit-policy')).toMatch(/^"generation";/);
    expect((await decodeOne('png', download.bytes)).text).toBe('a large print');
  });

  it('the account: the active pack with its end, the credits and the ledger', async () => {
    const b = new Browser(c.siteUrl);
    const { customerId } = await b.signUp();
    const pack = await c.accounts.grantPack({ customerId, credits: 7 });
    const account = await b.send('/api/account');
    expect(account.body).toMatchObject({
      activePack: { id: pack.id, credits: 7, remaining: 7, expiresAt: pack.expiresAt.toISOString() },
      credits: { available: 7, reserved: 0 },
    });
    const ledger = await b.send('/api/account/ledger');
    expect(ledger.body.ledger).toEqual([
      expect.objectContaining({ kind: 'grant', remainingChange: 7, packId: pack.id }),
    ]);
  });
});

describe('the site’s OpenAPI document', () => {
  it('lists every route the pages call, each with who may call it', async () => {
    const doc = (await call(c.siteUrl, '/api/openapi.json')).body;
    expect(doc.info.title).toBe('qrfarm consumer site');
    const security = (path: string, method: string) => doc.paths[path]?.[method]?.security;
    expect(security('/api/v1/qr/generate', 'post')).toBeUndefined(); // the default: apiKey
    expect(doc.security).toEqual([{ apiKey: [] }]);
    for (const [path, method] of [
      ['/api/account', 'get'],
      ['/api/account/keys', 'post'],
      ['/api/account/keys/{id}/revoke', 'post'],
      ['/api/account/ai', 'post'],
      ['/api/session/signout', 'post'],
    ])
      expect(security(path, method), path).toEqual([{ session: [] }]);
    for (const [path, method] of [
      ['/api/session/signin', 'post'],
      ['/api/studio/render', 'post'],
      ['/api/studio/shapes/{field}/{name}', 'get'],
    ])
      expect(security(path, method), path).toEqual([]);
    expect(doc.paths['/api/session/signup'].post.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/credentials',
    );
    expect(doc.components.schemas.credentials.properties.password.minLength).toBe(10);
    const engine = (await call(c.siteUrl, '/api/engine/openapi.json')).body;
    expect(engine.paths['/api/qr/generate'].post).toBeDefined();
  });
});

describe('limits on people', () => {
  let small: Consumer;
  let smallStore: ConsumerStore;
  beforeAll(async () => {
    smallStore = await consumerStore('pglite');
    small = await startConsumer(await consumerConfig({ ...smallStore.env, QR_LIMIT_STUDIO: '3' }));
  });
  afterAll(async () => {
    await small?.close();
    await smallStore?.close();
  });

  // Sign-in, sign-up and failed credentials per address: test/e2e/site-limits.test.ts.
  it('the Studio: QR_LIMIT_STUDIO calls per client address per minute, with RateLimit headers', async () => {
    const render = () => call(small.siteUrl, '/api/studio/render', { body: { content: 'x', outputWidth: 128 } });
    const answers = [await render(), await render(), await render(), await render()];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    expect(answers[0]!.headers.get('ratelimit-policy')).toBe('"studio";q=3;w=60');
    expect(answers[2]!.headers.get('ratelimit')).toMatch(/^"studio";r=0;t=\d+$/);
    expect(answers[3]!.body.code).toBe('rate_limited');
    // The pickers are a fixed set drawn once: they are not counted.
    const picker = await call(small.siteUrl, '/api/studio/shapes/moduleShape/dots');
    expect(picker.status).toBe(200);
    expect(picker.headers.get('content-type')).toBe('image/png');
  });
});

describe('safe defaults (issue 27)', () => {
  it('sign-up refuses 1234567890 and a password containing the address’s name, on field password', async () => {
    const b = new Browser(c.siteUrl);
    await b.start();
    for (const [email, password] of [
      [newAddress(), '1234567890'],
      ['grace.hopper@example.com', 'grace.hopper-was-here'],
    ] as const) {
      const a = await b.send('/api/session/signup', { email, password });
      expect(refusal(a)).toEqual({ status: 400, success: false, code: 'invalid_body' });
      expect(a.body.field).toBe('password');
    }
  });

  it('the dashboard issues at most 25 live keys at once: 409 key_limit_reached until one is revoked', async () => {
    const b = new Browser(c.siteUrl);
    const { customerId } = await b.verifiedAccount(outbox);
    await c.accounts.grantPack({ customerId, credits: 2 });
    for (let i = 0; i < 23; i++) await c.accounts.issueKey(customerId);
    const burst = await Promise.all(Array.from({ length: 4 }, () => b.send('/api/account/keys', {})));
    expect(burst.map((a) => a.status).sort()).toEqual([200, 200, 409, 409]);
    const refused = burst.find((a) => a.status === 409)!;
    expect(refused.body).toMatchObject({ code: 'key_limit_reached', error: expect.stringMatching(/revoke one/) });
    const issued = burst.find((a) => a.status === 200)!;
    await b.send(`/api/account/keys/${issued.body.key.id}/revoke`, {});
    expect((await b.send('/api/account/keys', {})).status).toBe(200);
  });

  it('every answer says X-Content-Type-Options: nosniff: pages, assets, the API, errors and relayed renders', async () => {
    const answers = [
      await call(c.siteUrl, '/'),
      await call(c.siteUrl, '/api/session'),
      await call(c.siteUrl, '/no-such-page'),
      await call(c.siteUrl, '/api/v1/ping'),
      await call(c.engineUrl!, '/api/qr/no-such-route'),
    ];
    const { key } = await c.customer();
    answers.push(await call(c.siteUrl, '/api/v1/qr/generate', { key, body: { content: 'x', responseType: 'binary' } }));
    for (const a of answers) expect(a.headers.get('x-content-type-options')).toBe('nosniff');
    // Plain HTTP public URL: no Strict-Transport-Security.
    expect(answers[0]!.headers.get('strict-transport-security')).toBeNull();
  });
});
