/**
 * The sign-in routes (src/site/session-routes.ts), each over real HTTP against the built site on PGlite in
 * memory, its mail written to an outbox folder: the answer of each, every refusal with its status, code
 * and field, the CSRF token and the sign-in each asks for, and the limits they apply per client address.
 * Nothing here is relayed: the site is given an engine address nobody answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../src/site/server.js';
import { call, consumerConfig, refusal } from '../helpers/consumer.js';
import { linksIn, newestLink, outboxMessages, tokenOf } from '../helpers/mailbox.js';
import { newAddress, PASSWORD, SiteBrowser } from '../helpers/site-browser.js';

const dist = (file: string) => new URL(`../../dist/src/${file}`, import.meta.url).href;
const outbox = mkdtempSync(join(tmpdir(), 'qrfarm-session-routes-'));
/** Sign-up attempts (and resends, reset requests) per client address per 15 minutes. */
const SIGN_IN_LIMIT = 6;

let site: RunningSite;
let origin: string;
/** Each test calls from client addresses of its own, so one test's attempts never count against another's. */
let addresses = 0;
const newClient = () => `127.0.3.${++addresses}`;
const browser = (from = newClient()) => new SiteBrowser(origin, from);
const mailed = () => outboxMessages(outbox);

beforeAll(async () => {
  const { startSite } = (await import(dist('site/server.js'))) as typeof import('../../src/site/server.js');
  const { loadUws } = (await import(dist('http/uws.js'))) as typeof import('../../src/http/uws.js');
  const config = await consumerConfig({
    QR_DATA_DIR: 'memory://',
    QR_OUTBOX_DIR: outbox,
    QR_LIMIT_SIGNIN: String(SIGN_IN_LIMIT),
  });
  site = await startSite(config, { engineUrls: ['http://127.0.0.1:9'], uws: loadUws() }, () => {});
  origin = `http://127.0.0.1:${site.port}`;
});
afterAll(async () => {
  await site?.close();
  rmSync(outbox, { recursive: true, force: true });
});

describe('GET /api/session', () => {
  it('without a session: not signed in, a pre-session cookie set once, its CSRF token the same on each call', async () => {
    const b = browser();
    const first = await b.send('/api/session');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, signedIn: false, csrfToken: expect.stringMatching(/^[\w-]+$/) });
    expect(first.headers.getSetCookie()).toEqual([expect.stringMatching(/^qrf_csrf=[\w-]{43}; /)]);
    const again = await b.send('/api/session');
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(again.body.csrfToken).toBe(first.body.csrfToken);
  });

  it('a malformed pre-session cookie is replaced, not trusted', async () => {
    const a = await call(origin, '/api/session', { headers: { cookie: 'qrf_csrf=short' } });
    const [cookie] = a.headers.getSetCookie();
    expect(cookie).toMatch(/^qrf_csrf=[\w-]{43}; /);
    expect(cookie).not.toMatch(/^qrf_csrf=short;/);
  });

  it('signed in: the user, when the session ends and the session’s CSRF token', async () => {
    const b = browser();
    const { email, customerId } = await b.signUp();
    const me = await b.send('/api/session');
    expect(me.body).toEqual({
      success: true,
      signedIn: true,
      user: { email, emailVerified: false, customerId, createdAt: expect.any(String) },
      expiresAt: expect.any(String),
      csrfToken: b.csrf,
    });
    const days = (Date.parse(me.body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29);
    expect(days).toBeLessThanOrEqual(30);
  });
});

describe('POST /api/session/signup', () => {
  it('makes the account, signs in, and mails a link verifying the address', async () => {
    const b = browser();
    await b.start();
    const email = newAddress('signup');
    const up = await b.send('/api/session/signup', { email, password: PASSWORD });
    expect(up.status).toBe(200);
    expect(up.body).toEqual({
      success: true,
      user: { email, emailVerified: false, customerId: expect.stringMatching(/^cus_/), createdAt: expect.any(String) },
      csrfToken: expect.any(String),
    });
    expect(up.headers.getSetCookie()).toEqual([expect.stringMatching(/^qrf_session=[\w-]{43}; /)]);
    const link = await newestLink(mailed, email, 'verify-email');
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/verify-email#token=[\w-]{43}$/);
  });

  it('refuses a form without this browser’s X-CSRF-Token: 403 csrf_failed, no account made', async () => {
    const b = browser();
    await b.start();
    const other = browser();
    await other.start();
    const email = newAddress('signup-csrf');
    const form = { email, password: PASSWORD };
    for (const token of ['', other.csrf, 'x'.repeat(43)])
      expect(refusal(await b.send('/api/session/signup', form, { 'x-csrf-token': token }))).toEqual({
        status: 403,
        success: false,
        code: 'csrf_failed',
      });
    // Without the pre-session cookie at all.
    const bare = await call(origin, '/api/session/signup', { body: form, headers: { 'x-csrf-token': b.csrf } });
    expect(refusal(bare).code).toBe('csrf_failed');
    expect(linksIn(mailed(), email, 'verify-email')).toEqual([]);
    expect((await b.send('/api/session/signup', form)).status).toBe(200);
  });

  it('names the field at fault: a bad address, a short, common or address-like password, an unknown field', async () => {
    const b = browser();
    await b.start();
    const cases: [unknown, string][] = [
      [{ email: 'not an address', password: PASSWORD }, 'email'],
      [{ email: newAddress(), password: 'short' }, 'password'],
      [{ email: newAddress(), password: '1234567890' }, 'password'],
      [{ email: 'walter.sobchak@example.com', password: 'walter.sobchak-1' }, 'password'],
      [{ email: newAddress() }, 'password'],
      [{ email: newAddress(), password: PASSWORD, plan: 'free' }, 'plan'],
    ];
    for (const [form, field] of cases) {
      const a = await b.send('/api/session/signup', form);
      expect({ ...refusal(a), field: a.body.field }, JSON.stringify(form)).toEqual({
        status: 400,
        success: false,
        code: 'invalid_body',
        field,
      });
    }
  });

  it('an address a person verified, in any case, is 409 customer_exists on email; a mere claim takes nothing', async () => {
    const { email: claimed } = await browser().signUp();
    const second = browser();
    await second.start();
    // Signing up with an address does not hold it until its link is opened: the owner may still sign up.
    expect((await second.send('/api/session/signup', { email: claimed, password: PASSWORD })).status).toBe(200);
    const { email } = await browser().verifiedAccount(outbox);
    const b = browser();
    await b.start();
    const taken = await b.send('/api/session/signup', { email: email.toUpperCase(), password: PASSWORD });
    expect({ ...refusal(taken), field: taken.body.field }).toEqual({
      status: 409,
      success: false,
      code: 'customer_exists',
      field: 'email',
    });
    expect(taken.headers.getSetCookie()).toEqual([]);
  });

  it(`QR_LIMIT_SIGNIN (${SIGN_IN_LIMIT}) attempts per client address, then 429 rate_limited with Retry-After`, async () => {
    const from = newClient();
    const b = browser(from);
    await b.start();
    const statuses: number[] = [];
    // Refused forms count too: the limit is on attempts.
    for (let i = 0; i < SIGN_IN_LIMIT; i++)
      statuses.push((await b.send('/api/session/signup', { email: newAddress(), password: 'short' })).status);
    expect(statuses).toEqual(Array(SIGN_IN_LIMIT).fill(400));
    const refused = await b.send('/api/session/signup', { email: newAddress(), password: PASSWORD });
    expect(refusal(refused)).toEqual({ status: 429, success: false, code: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not held back.
    expect((await browser().send('/api/session')).status).toBe(200);
    const elsewhere = browser();
    await elsewhere.start();
    expect((await elsewhere.send('/api/session/signup', { email: newAddress(), password: PASSWORD })).status).toBe(200);
  });
});

describe('POST /api/session/signin', () => {
  it('signs in with a new session; the earlier one stays', async () => {
    const first = browser();
    const { email } = await first.signUp();
    const second = browser();
    const a = await second.signIn(email);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ success: true, user: { email }, csrfToken: second.csrf });
    expect(second.cookieHeader).not.toBe(first.cookieHeader);
    expect((await first.send('/api/session')).body.signedIn).toBe(true);
    expect((await second.send('/api/session')).body.signedIn).toBe(true);
  });

  it('a wrong password and an unknown address are the same 401 invalid_credentials, setting no cookie', async () => {
    const { email } = await browser().signUp();
    const b = browser();
    await b.start();
    const wrong = await b.send('/api/session/signin', { email, password: `${PASSWORD}!` });
    const unknown = await b.send('/api/session/signin', { email: newAddress(), password: PASSWORD });
    expect(refusal(wrong)).toEqual({ status: 401, success: false, code: 'invalid_credentials' });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers.getSetCookie()).toEqual([]);
    // A password too short to exist is a wrong one, not a malformed form.
    expect(refusal(await b.send('/api/session/signin', { email, password: 'x' })).code).toBe('invalid_credentials');
  });

  it('refuses a malformed form on its field, and a form without the CSRF token', async () => {
    const { email } = await browser().signUp();
    const b = browser();
    await b.start();
    const extra = await b.send('/api/session/signin', { email, password: PASSWORD, remember: true });
    expect({ status: extra.status, code: extra.body.code, field: extra.body.field }).toEqual({
      status: 400,
      code: 'invalid_body',
      field: 'remember',
    });
    const noEmail = await b.send('/api/session/signin', { password: PASSWORD });
    expect(noEmail.body).toMatchObject({ code: 'invalid_body', field: 'email' });
    expect(refusal(await b.send('/api/session/signin', { email, password: PASSWORD }, { 'x-csrf-token': '' }))).toEqual(
      { status: 403, success: false, code: 'csrf_failed' },
    );
  });

  it('failed sign-ins from one address end in 429 rate_limited with Retry-After; the owner elsewhere gets in', async () => {
    const { email } = await browser().signUp();
    const b = browser();
    await b.start();
    const wrong = () => b.send('/api/session/signin', { email, password: `${PASSWORD}?` });
    // Half of QR_LIMIT_SIGNIN failures cost nothing: each is checked and answered.
    for (let i = 0; i < SIGN_IN_LIMIT / 2; i++) expect(refusal(await wrong()).code).toBe('invalid_credentials');
    // After them the address waits, longer each time, and past QR_LIMIT_SIGNIN failures until the window's
    // end: whatever the time between requests, a refusal comes before the limit's worth of failures.
    const after: string[] = [];
    let last = await wrong();
    while (refusal(last).code === 'invalid_credentials' && after.length < SIGN_IN_LIMIT) {
      after.push(refusal(last).code);
      last = await wrong();
    }
    expect(after.length).toBeLessThanOrEqual(SIGN_IN_LIMIT / 2);
    expect(refusal(last)).toEqual({ status: 429, success: false, code: 'rate_limited' });
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The account is never locked: its owner, from an address that has not failed, signs in.
    expect((await browser().signIn(email)).status).toBe(200);
  });
});

describe('POST /api/session/signout and signout-everywhere', () => {
  it('sign-out ends this session and deletes its cookie; the account’s other sessions stay', async () => {
    const a = browser();
    const { email } = await a.signUp();
    const b = browser();
    await b.signIn(email);
    const out = await a.send('/api/session/signout', {});
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    expect(out.headers.getSetCookie()).toEqual([expect.stringMatching(/^qrf_session=; .*Max-Age=0/)]);
    expect((await a.send('/api/session')).body.signedIn).toBe(false);
    expect((await b.send('/api/session')).body.signedIn).toBe(true);
  });

  it('the session’s cookie sent again after sign-out is no session', async () => {
    const a = browser();
    await a.signUp();
    const cookie = a.cookieHeader;
    const csrf = a.csrf;
    await a.send('/api/session/signout', {});
    const replay = await call(origin, '/api/session/signout', {
      body: {},
      headers: { cookie, 'x-csrf-token': csrf },
    });
    expect(refusal(replay)).toEqual({ status: 401, success: false, code: 'session_required' });
  });

  it('sign-out everywhere ends every session of the account, and says how many', async () => {
    const a = browser();
    const { email } = await a.signUp();
    const b = browser();
    await b.signIn(email);
    const c = browser();
    await c.signIn(email);
    const stranger = browser();
    await stranger.signUp();
    const out = await b.send('/api/session/signout-everywhere', {});
    expect(out.body).toEqual({ success: true, ended: 3 });
    for (const x of [a, b, c]) expect((await x.send('/api/session')).body.signedIn).toBe(false);
    expect((await stranger.send('/api/session')).body.signedIn).toBe(true);
  });

  it('both need a session (401 session_required) and its X-CSRF-Token (403 csrf_failed)', async () => {
    for (const path of ['/api/session/signout', '/api/session/signout-everywhere']) {
      const anonymous = browser();
      await anonymous.start();
      expect(refusal(await anonymous.send(path, {})), path).toEqual({
        status: 401,
        success: false,
        code: 'session_required',
      });
      const a = browser();
      await a.signUp();
      expect(refusal(await a.send(path, {}, { 'x-csrf-token': '' })).code, path).toBe('csrf_failed');
      expect((await a.send('/api/session')).body.signedIn, path).toBe(true);
    }
  });
});

describe('POST /api/session/verify-email and its resend', () => {
  it('the mailed token verifies the address, once, from any browser', async () => {
    const a = browser();
    const { email } = await a.signUp();
    const token = tokenOf(await newestLink(mailed, email, 'verify-email'));
    // Another browser, not signed in: the link's token is the credential, its pre-session the CSRF check.
    const other = browser();
    await other.start();
    const verified = await other.send('/api/session/verify-email', { token });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ success: true, user: { email, emailVerified: true } });
    expect((await a.send('/api/session')).body.user.emailVerified).toBe(true);
    const again = await other.send('/api/session/verify-email', { token });
    expect({ ...refusal(again), field: again.body.field }).toEqual({
      status: 400,
      success: false,
      code: 'invalid_token',
      field: 'token',
    });
  });

  it('an unknown token is 400 invalid_token on token; a missing one invalid_body; no CSRF token 403', async () => {
    const b = browser();
    await b.start();
    const unknown = await b.send('/api/session/verify-email', { token: 'x'.repeat(43) });
    expect({ ...refusal(unknown), field: unknown.body.field }).toEqual({
      status: 400,
      success: false,
      code: 'invalid_token',
      field: 'token',
    });
    expect((await b.send('/api/session/verify-email', {})).body).toMatchObject({
      code: 'invalid_body',
      field: 'token',
    });
    expect(refusal(await b.send('/api/session/verify-email', { token: 'x' }, { 'x-csrf-token': '' })).code).toBe(
      'csrf_failed',
    );
  });

  it('a resend mails a new link to the account’s address; the session and its CSRF token are required', async () => {
    const a = browser();
    const { email } = await a.signUp();
    await newestLink(mailed, email, 'verify-email');
    const resent = await a.send('/api/session/verify-email/resend', {});
    expect(resent.body).toEqual({ success: true, email });
    const second = await newestLink(mailed, email, 'verify-email', 1);
    expect((await a.send('/api/session/verify-email', { token: tokenOf(second) })).status).toBe(200);
    expect(refusal(await a.send('/api/session/verify-email/resend', {}, { 'x-csrf-token': '' })).code).toBe(
      'csrf_failed',
    );
    const anonymous = browser();
    await anonymous.start();
    expect(refusal(await anonymous.send('/api/session/verify-email/resend', {})).code).toBe('session_required');
  });
});

describe('POST /api/session/password-reset and its confirmation', () => {
  it('always 202; a link is mailed only when an account has the address', async () => {
    const { email } = await browser().signUp();
    const b = browser();
    await b.start();
    const stranger = newAddress('nobody');
    const known = await b.send('/api/session/password-reset', { email });
    const unknown = await b.send('/api/session/password-reset', { email: stranger });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    expect(known.body).toEqual({ success: true });
    expect(await newestLink(mailed, email, 'reset-password')).toMatch(/\/reset-password#token=[\w-]{43}$/);
    expect(linksIn(mailed(), stranger, 'reset-password')).toEqual([]);
  });

  it('the link’s token sets the password once and ends every session; the old password no longer signs in', async () => {
    const a = browser();
    const { email } = await a.signUp();
    const b = browser();
    await b.start();
    await b.send('/api/session/password-reset', { email });
    const token = tokenOf(await newestLink(mailed, email, 'reset-password'));
    const password = 'another long passphrase';
    const confirmed = await b.send('/api/session/password-reset/confirm', { token, password });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ success: true });
    expect((await a.send('/api/session')).body.signedIn).toBe(false);
    expect(refusal(await browser().signIn(email)).code).toBe('invalid_credentials');
    expect((await browser().signIn(email, password)).status).toBe(200);
    const again = await b.send('/api/session/password-reset/confirm', { token, password: 'yet another passphrase' });
    expect({ ...refusal(again), field: again.body.field }).toEqual({
      status: 400,
      success: false,
      code: 'invalid_token',
      field: 'token',
    });
  });

  it('refusals: a weak new password on password, an unknown token, no CSRF token, a malformed address', async () => {
    const b = browser();
    await b.start();
    const weak = await b.send('/api/session/password-reset/confirm', { token: 'x'.repeat(43), password: 'short' });
    expect(weak.body).toMatchObject({ code: 'invalid_body', field: 'password' });
    const unknown = await b.send('/api/session/password-reset/confirm', {
      token: 'x'.repeat(43),
      password: PASSWORD,
    });
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 400, code: 'invalid_token' });
    expect(
      refusal(await b.send('/api/session/password-reset', { email: newAddress() }, { 'x-csrf-token': '' })),
    ).toEqual({ status: 403, success: false, code: 'csrf_failed' });
    expect((await b.send('/api/session/password-reset', { email: '' })).body).toMatchObject({
      code: 'invalid_body',
      field: 'email',
    });
  });

  it('reset requests count against the client address as sign-up attempts do', async () => {
    const b = browser();
    await b.start();
    const statuses: number[] = [];
    for (let i = 0; i <= SIGN_IN_LIMIT; i++)
      statuses.push((await b.send('/api/session/password-reset', { email: newAddress() })).status);
    expect(statuses).toEqual([...Array(SIGN_IN_LIMIT).fill(202), 429]);
  });
});
