/**
 * The dashboard's routes (src/site/account-routes.ts), each over real HTTP against the built engine and site
 * (QR_ROLE=all) with the accounts on PGlite in memory and the server AI chain pointed at a loopback groq:
 * the answer of each, every refusal with its status, code and field, the sign-in cookie and CSRF token each
 * needs, and what each change does to the account's keys, sessions and credits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERRORS, type FakeVendor, startFakeVendor, success } from '../ai/fake-vendor.js';
import type { Answer } from '../helpers/answers.js';
import { type Consumer, call, consumerConfig, GROQ_KEY, groqEnv, refusal, startConsumer } from '../helpers/consumer.js';
import { decodeOne } from '../helpers/decode.js';
import { newestLink, outboxMessages, tokenOf } from '../helpers/mailbox.js';
import { newAddress, PASSWORD, SiteBrowser } from '../helpers/site-browser.js';

const outbox = mkdtempSync(join(tmpdir(), 'qrfarm-account-routes-'));
const DESIGN = { config: { primaryColor: '#1b3a4b', moduleShape: 'rounded' }, explanation: 'Deep teal.' };

let c: Consumer;
let groq: FakeVendor;
/** Each test's browsers call from an address of their own, so no test's password checks slow another's. */
let addresses = 0;
const browser = () => new SiteBrowser(c.siteUrl, `127.0.4.${++addresses}`);

/** The status, code and field of a refusal. */
const refused = (a: Answer) => ({ ...refusal(a), field: a.body?.field });

/** A verified account with an active Studio pack of `credits`. */
async function holder(credits = 5): Promise<SiteBrowser> {
  const b = browser();
  const { customerId } = await b.verifiedAccount(outbox);
  await c.accounts.grantPack({ customerId, credits });
  return b;
}

beforeAll(async () => {
  groq = await startFakeVendor('openai', GROQ_KEY);
  c = await startConsumer(
    await consumerConfig({
      QR_DATA_DIR: 'memory://',
      QR_OUTBOX_DIR: outbox,
      ...groqEnv(groq),
      QR_LIMIT_SIGNIN: '1000',
    }),
  );
});
afterAll(async () => {
  await c?.close();
  groq?.close();
  rmSync(outbox, { recursive: true, force: true });
});
beforeEach(() => {
  groq.clearReplies();
  groq.reply(success.openai(JSON.stringify(DESIGN)));
});

describe('the guard of every account route', () => {
  const routes: [string, unknown?][] = [
    ['/api/account'],
    ['/api/account/ledger'],
    ['/api/account/usage'],
    ['/api/account/keys'],
    ['/api/account/keys', {}],
    ['/api/account/keys/key_x/revoke', {}],
    ['/api/account/password', { currentPassword: PASSWORD, password: 'a new long passphrase' }],
    ['/api/account/email', { email: newAddress(), password: PASSWORD }],
    ['/api/account/delete', { password: PASSWORD }],
    ['/api/account/render', { content: 'x' }],
    ['/api/account/ai', { content: 'x', prompt: 'teal' }],
  ];

  it('without a session: 401 session_required', async () => {
    const b = browser();
    await b.start();
    for (const [path, body] of routes)
      expect(refusal(await b.send(path, body)), path).toEqual({
        status: 401,
        success: false,
        code: 'session_required',
      });
  });

  it('a POST without the sign-in’s X-CSRF-Token: 403 csrf_failed, and nothing changes', async () => {
    const b = await holder();
    for (const [path, body] of routes.filter(([, body]) => body !== undefined))
      expect(refusal(await b.send(path, body, { 'x-csrf-token': '' })), path).toEqual({
        status: 403,
        success: false,
        code: 'csrf_failed',
      });
    expect((await b.send('/api/account/keys')).body.keys).toEqual([]);
    expect((await b.send('/api/session')).body.signedIn).toBe(true);
  });
});

describe('GET /api/account, /ledger and /usage', () => {
  it('the account without a pack, then with one: its end, every pack and the credits', async () => {
    const b = browser();
    const { email, customerId } = await b.signUp();
    expect((await b.send('/api/account')).body).toEqual({
      success: true,
      user: { email, emailVerified: false, customerId, createdAt: expect.any(String) },
      activePack: null,
      studioExtendsTo: null,
      packs: [],
      credits: { available: 0, reserved: 0 },
    });
    const pack = await c.accounts.grantPack({ customerId, credits: 7 });
    const topUp = await c.accounts.grantPack({ customerId, credits: 3, kind: 'topup' });
    const account = (await b.send('/api/account')).body;
    expect(account.activePack).toEqual({
      id: pack.id,
      credits: 7,
      remaining: 7,
      purchasedAt: pack.purchasedAt.toISOString(),
      expiresAt: pack.expiresAt.toISOString(),
      refundedAt: null,
    });
    expect(account.packs.map((p: { id: string }) => p.id).sort()).toEqual([pack.id, topUp.id].sort());
    expect(account.credits).toEqual({ available: 10, reserved: 0 });
    // A Studio pack bought now would run 12 months from this one's end (on 29 February a day earlier).
    const extended = new Date(pack.expiresAt);
    extended.setUTCFullYear(extended.getUTCFullYear() + 1);
    expect(Math.abs(new Date(account.studioExtendsTo).getTime() - extended.getTime())).toBeLessThanOrEqual(86_400_000);
  });

  it('the ledger, newest first, cut at ?limit=; a limit outside 1–200 is 400 invalid_body on limit', async () => {
    const b = browser();
    const { customerId } = await b.signUp();
    const first = await c.accounts.grantPack({ customerId, credits: 2 });
    const second = await c.accounts.grantPack({ customerId, credits: 4, kind: 'topup' });
    const ledger = (await b.send('/api/account/ledger')).body.ledger;
    expect(ledger).toEqual([
      expect.objectContaining({ kind: 'grant', packId: second.id, remainingChange: 4, heldChange: 0 }),
      expect.objectContaining({ kind: 'grant', packId: first.id, remainingChange: 2, heldChange: 0 }),
    ]);
    expect((await b.send('/api/account/ledger?limit=1')).body.ledger).toEqual([ledger[0]]);
    expect((await b.send('/api/account/ledger?limit=200')).status).toBe(200);
    for (const limit of ['0', '201', '1.5', 'ten', ''])
      expect(refused(await b.send(`/api/account/ledger?limit=${limit}`)), limit).toEqual({
        status: 400,
        success: false,
        code: 'invalid_body',
        field: 'limit',
      });
  });

  it('usage per UTC day, ?days= up to 90; outside is 400 invalid_body on days', async () => {
    const b = browser();
    await b.signUp();
    const usage = await b.send('/api/account/usage?days=7');
    expect(usage.status).toBe(200);
    expect(Array.isArray(usage.body.days)).toBe(true);
    for (const day of usage.body.days)
      expect(day).toEqual({
        day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        general: expect.any(Number),
        generation: expect.any(Number),
        ai: expect.any(Number),
        creditsSpent: expect.any(Number),
      });
    expect((await b.send('/api/account/usage?days=90')).status).toBe(200);
    for (const days of ['0', '91', '-1'])
      expect(refused(await b.send(`/api/account/usage?days=${days}`)), days).toEqual({
        status: 400,
        success: false,
        code: 'invalid_body',
        field: 'days',
      });
  });
});

describe('keys', () => {
  it('an unverified account is 403 email_unverified; a verified one without a pack 402 studio_required', async () => {
    const unverified = browser();
    const { customerId } = await unverified.signUp();
    await c.accounts.grantPack({ customerId, credits: 1 });
    expect(refusal(await unverified.send('/api/account/keys', {}))).toEqual({
      status: 403,
      success: false,
      code: 'email_unverified',
    });
    const packless = browser();
    await packless.verifiedAccount(outbox);
    const a = await packless.send('/api/account/keys', {});
    expect(refusal(a)).toEqual({ status: 402, success: false, code: 'studio_required' });
    expect(a.body).toMatchObject({ docs: c.config.site.docsUrl, pricing: c.config.site.pricingUrl });
    expect((await packless.send('/api/account/keys')).body.keys).toEqual([]);
  });

  it('issues a key shown once, which the gateway takes; the list shows its start, never the key', async () => {
    const b = await holder();
    const issued = await b.send('/api/account/keys', { name: 'ci' });
    expect(issued.status).toBe(200);
    const { key } = issued.body;
    expect(key).toEqual({
      id: expect.any(String),
      key: expect.any(String),
      start: key.key.slice(0, key.start.length),
      name: 'ci',
      createdAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
    });
    expect((await call(c.siteUrl, '/api/v1/ping', { key: key.key })).status).toBe(200);
    const listed = await b.send('/api/account/keys');
    expect(listed.body.keys).toEqual([expect.objectContaining({ id: key.id, start: key.start, name: 'ci' })]);
    expect(JSON.stringify(listed.body)).not.toContain(key.key);
    // Unnamed is fine; a name too long is refused on its field.
    expect((await b.send('/api/account/keys', {})).body.key.name).toBeNull();
    const long = await b.send('/api/account/keys', { name: 'n'.repeat(101) });
    expect(refused(long)).toEqual({ status: 400, success: false, code: 'invalid_body', field: 'name' });
  });

  it('revokes its own key, which the gateway then refuses; another account’s key is 404 api_key_not_found', async () => {
    const owner = await holder();
    const { key } = (await owner.send('/api/account/keys', {})).body;
    const stranger = await holder();
    const theirs = await stranger.send(`/api/account/keys/${key.id}/revoke`, {});
    expect(refused(theirs)).toEqual({ status: 404, success: false, code: 'api_key_not_found', field: 'id' });
    expect(refused(await owner.send('/api/account/keys/key_missing/revoke', {})).code).toBe('api_key_not_found');
    expect((await call(c.siteUrl, '/api/v1/ping', { key: key.key })).status).toBe(200);
    const revoked = await owner.send(`/api/account/keys/${key.id}/revoke`, {});
    expect(revoked.status).toBe(200);
    expect(revoked.body.key).toMatchObject({ id: key.id, revokedAt: expect.any(String) });
    expect(revoked.body.key.key).toBeUndefined();
    expect(refusal(await call(c.siteUrl, '/api/v1/ping', { key: key.key }))).toEqual({
      status: 401,
      success: false,
      code: 'invalid_api_key',
    });
  });
});

describe('POST /api/account/password', () => {
  it('changes the password with the current one; every other session ends, this one stays', async () => {
    const a = browser();
    const { email } = await a.signUp();
    const other = browser();
    await other.signIn(email);
    const password = 'a new long passphrase';
    const changed = await a.send('/api/account/password', { currentPassword: PASSWORD, password });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ success: true });
    expect((await a.send('/api/session')).body.signedIn).toBe(true);
    expect((await other.send('/api/session')).body.signedIn).toBe(false);
    expect(refusal(await browser().signIn(email)).code).toBe('invalid_credentials');
    expect((await browser().signIn(email, password)).status).toBe(200);
  });

  it('a wrong current password is 403 wrong_password; a weak new one 400 on password', async () => {
    const a = browser();
    const { email } = await a.signUp();
    const wrong = await a.send('/api/account/password', {
      currentPassword: 'not the password',
      password: 'a new long passphrase',
    });
    expect(refusal(wrong)).toEqual({ status: 403, success: false, code: 'wrong_password' });
    const weak = await a.send('/api/account/password', { currentPassword: PASSWORD, password: 'short' });
    expect(refused(weak)).toEqual({ status: 400, success: false, code: 'invalid_body', field: 'password' });
    const missing = await a.send('/api/account/password', { password: 'a new long passphrase' });
    expect(refused(missing)).toMatchObject({ code: 'invalid_body', field: 'currentPassword' });
    expect((await browser().signIn(email)).status).toBe(200);
  });
});

describe('POST /api/account/email', () => {
  it('202 with the pending address; the link mailed there makes the change, the old address signs in no more', async () => {
    const a = browser();
    const { email } = await a.verifiedAccount(outbox);
    const next = newAddress('moved');
    const asked = await a.send('/api/account/email', { email: next, password: PASSWORD });
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ success: true, pendingEmail: next });
    // Until the link is opened the account keeps its address.
    expect((await a.send('/api/session')).body.user.email).toBe(email);
    const verified = await a.send('/api/session/verify-email', {
      token: tokenOf(await newestLink(() => outboxMessages(outbox), next, 'verify-email')),
    });
    expect(verified.body.user).toMatchObject({ email: next, emailVerified: true });
    expect(refusal(await browser().signIn(email)).code).toBe('invalid_credentials');
    expect((await browser().signIn(next)).status).toBe(200);
  });

  it('refusals: a wrong password 403, an address another person verified 409 on email, a malformed one 400', async () => {
    const a = browser();
    await a.signUp();
    const { email: taken } = await browser().verifiedAccount(outbox);
    // An address only claimed (not verified) is held by nobody yet: asking for it is fine.
    const { email: claimed } = await browser().signUp();
    expect((await a.send('/api/account/email', { email: claimed, password: PASSWORD })).status).toBe(202);
    const wrong = await a.send('/api/account/email', { email: newAddress(), password: 'not the password' });
    expect(refusal(wrong)).toEqual({ status: 403, success: false, code: 'wrong_password' });
    const held = await a.send('/api/account/email', { email: taken, password: PASSWORD });
    expect(refused(held)).toEqual({ status: 409, success: false, code: 'customer_exists', field: 'email' });
    const malformed = await a.send('/api/account/email', { email: 'nowhere', password: PASSWORD });
    expect(refused(malformed)).toEqual({ status: 400, success: false, code: 'invalid_body', field: 'email' });
  });
});

describe('POST /api/account/delete', () => {
  it('a wrong password is 403 and deletes nothing', async () => {
    const a = await holder();
    const refusedDelete = await a.send('/api/account/delete', { password: 'not the password' });
    expect(refusal(refusedDelete)).toEqual({ status: 403, success: false, code: 'wrong_password' });
    expect((await a.send('/api/account')).status).toBe(200);
  });

  it('revokes every key, ends every session, deletes the cookie; the address and password sign in no more', async () => {
    const a = await holder();
    const { key } = (await a.send('/api/account/keys', {})).body;
    const other = browser();
    await other.signIn(a.email);
    const deleted = await a.send('/api/account/delete', { password: PASSWORD });
    expect(deleted.status).toBe(200);
    expect(deleted.headers.getSetCookie()).toEqual([expect.stringMatching(/^qrf_session=; .*Max-Age=0/)]);
    expect(refusal(await call(c.siteUrl, '/api/v1/ping', { key: key.key })).code).toBe('invalid_api_key');
    expect((await other.send('/api/session')).body.signedIn).toBe(false);
    expect(refusal(await browser().signIn(a.email)).code).toBe('invalid_credentials');
    // The address is free again.
    expect((await browser().signUp(a.email)).email).toBe(a.email);
  });
});

describe('POST /api/account/render', () => {
  it('renders for a pack holder at any size the API takes, within the account’s generation limit', async () => {
    const a = await holder();
    const download = await a.send('/api/account/render', {
      content: 'a poster',
      outputWidth: 2048,
      responseType: 'binary',
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('x-qr-width')).toBe('2048');
    expect(download.headers.get('ratelimit-policy')).toMatch(/^"generation";/);
    expect((await decodeOne('png', download.bytes)).text).toBe('a poster');
  });

  it('402 studio_required without a pack; the engine’s refusal of a design comes back as it was', async () => {
    const packless = browser();
    await packless.signUp();
    expect(refusal(await packless.send('/api/account/render', { content: 'x' }))).toEqual({
      status: 402,
      success: false,
      code: 'studio_required',
    });
    const a = await holder();
    const bad = await a.send('/api/account/render', { content: 'x', outputWidth: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, field: 'outputWidth' });
  });
});

describe('POST /api/account/ai', () => {
  it('designs with the server AI, one credit spent on success; the design renders and scans', async () => {
    const a = await holder(2);
    const designed = await a.send('/api/account/ai', {
      content: 'https://tea.example.com',
      prompt: 'calm teal',
      outputWidth: 256,
    });
    expect(designed.status).toBe(200);
    expect(designed.body).toMatchObject({ success: true, creditsRemaining: 1 });
    const png = new Uint8Array(Buffer.from(designed.body.qrBase64, 'base64'));
    expect((await decodeOne('png', png)).text).toBe('https://tea.example.com');
    expect((await a.send('/api/account')).body.credits).toEqual({ available: 1, reserved: 0 });
  });

  it('an unverified address is 403 email_unverified; no credits left 402 out_of_api_credits; a vendor failure spends none', async () => {
    const unverified = browser();
    const { customerId } = await unverified.signUp();
    await c.accounts.grantPack({ customerId, credits: 3 });
    const brief = { content: 'x', prompt: 'teal' };
    expect(refusal(await unverified.send('/api/account/ai', brief))).toEqual({
      status: 403,
      success: false,
      code: 'email_unverified',
    });
    expect((await unverified.send('/api/account')).body.credits).toEqual({ available: 3, reserved: 0 });

    const a = await holder(1);
    groq.clearReplies();
    groq.reply(ERRORS.groq.overloaded);
    const failed = await a.send('/api/account/ai', brief);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(failed.body).toMatchObject({ success: false, code: expect.stringMatching(/^AI_/) });
    expect(failed.body).not.toHaveProperty('creditsRemaining');
    expect((await a.send('/api/account')).body.credits).toEqual({ available: 1, reserved: 0 });
    groq.clearReplies();
    groq.reply(success.openai(JSON.stringify(DESIGN)));
    expect((await a.send('/api/account/ai', brief)).body.creditsRemaining).toBe(0);
    expect(refusal(await a.send('/api/account/ai', brief))).toEqual({
      status: 402,
      success: false,
      code: 'out_of_api_credits',
    });
  });
});
