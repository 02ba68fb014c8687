/**
 * The browser's side of sessions (src/site/session-cookies.ts) on its own, with real People on PGlite in
 * memory and a clock moved by hand: the cookies' names and attributes over plain HTTP and over TLS, the
 * session a Cookie header names, the guard of the account routes (session, then CSRF on a POST), the
 * pre-session token of sign-in forms, and the CSRF token of each, computed here independently.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPeople } from '../../src/accounts/index.js';
import type { People } from '../../src/accounts/types.js';
import { isApiError } from '../../src/errors.js';
import type { RequestContext } from '../../src/http/router.js';
import { SessionCookies } from '../../src/site/session-cookies.js';
import { manualClock, openTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { newAddress, PASSWORD } from '../helpers/site-browser.js';

const csrfOf = (token: string) => createHash('sha256').update(`qrfarm-csrf\n${token}`).digest('base64url');
const clock = manualClock(new Date('2026-11-28T10:00:00Z'));

let t: TestDatabase;
let people: People;
/** Over plain HTTP. */
let cookies: SessionCookies;

beforeAll(async () => {
  t = await openTestDatabase('pglite');
  people = createPeople(t.db, { clock: clock.now });
  cookies = new SessionCookies(people, false);
});
afterAll(() => t?.close());

/** A request with these headers; the Set-Cookie headers answered are kept in `setCookies`. */
function request(headers: Record<string, string> = {}, method: 'GET' | 'POST' = 'GET') {
  const setCookies: string[] = [];
  const ctx = {
    method,
    headers,
    reply: {
      header: (name: string, value: string) => {
        expect(name).toBe('Set-Cookie');
        setCookies.push(value);
      },
    },
  } as unknown as RequestContext;
  return { ctx, setCookies };
}

/** The code of what `f` refused with, or 'admitted'. */
async function outcome(f: () => unknown): Promise<string> {
  try {
    await f();
    return 'admitted';
  } catch (e) {
    if (!isApiError(e)) throw e;
    return `${e.status} ${e.code}`;
  }
}

async function session() {
  const s = await people.signUp(newAddress('session-cookies'), PASSWORD);
  return { token: s.token, user: s.user };
}

describe('the cookies’ names and attributes', () => {
  it('over plain HTTP: qrf_session and qrf_csrf, HttpOnly, SameSite=Lax, for the whole site, not Secure', async () => {
    const cookies = new SessionCookies(people, false);
    expect([cookies.sessionName, cookies.preSessionName]).toEqual(['qrf_session', 'qrf_csrf']);
    const s = await session();
    const { ctx, setCookies } = request();
    expect(cookies.begin(ctx, { ...s, expiresAt: new Date() })).toBe(csrfOf(s.token));
    cookies.end(ctx);
    expect(setCookies).toEqual([
      `qrf_session=${s.token}; Path=/; Max-Age=${30 * 86_400}; HttpOnly; SameSite=Lax`,
      'qrf_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax',
    ]);
  });

  it('over TLS: the __Host- names, and Secure', async () => {
    const cookies = new SessionCookies(people, true);
    expect([cookies.sessionName, cookies.preSessionName]).toEqual(['__Host-qrf_session', '__Host-qrf_csrf']);
    const { ctx, setCookies } = request();
    cookies.preSessionCsrf(ctx);
    cookies.end(ctx);
    expect(setCookies).toEqual([
      expect.stringMatching(/^__Host-qrf_csrf=[\w-]{43}; Path=\/; Max-Age=31536000; HttpOnly; SameSite=Lax; Secure$/),
      '__Host-qrf_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure',
    ]);
  });
});

describe('current', () => {
  it('is the sign-in session the cookie names, among other cookies; null without one, or for an unknown token', async () => {
    const s = await session();
    const found = await cookies.current(request({ cookie: `theme=dark; qrf_session=${s.token}; x=1` }).ctx);
    expect(found).toEqual({ user: s.user, token: s.token, expiresAt: expect.any(Date) });
    expect(await cookies.current(request().ctx)).toBeNull();
    expect(await cookies.current(request({ cookie: 'qrf_csrf=abc' }).ctx)).toBeNull();
    expect(await cookies.current(request({ cookie: `qrf_session=${s.token}x` }).ctx)).toBeNull();
    // Only the plain name over plain HTTP: the TLS name is another cookie.
    expect(await cookies.current(request({ cookie: `__Host-qrf_session=${s.token}` }).ctx)).toBeNull();
  });

  it('is null once the sign-in has ended or expired', async () => {
    const ended = await session();
    await people.signOut(ended.token);
    expect(await cookies.current(request({ cookie: `qrf_session=${ended.token}` }).ctx)).toBeNull();
    const expiring = await session();
    const ctx = request({ cookie: `qrf_session=${expiring.token}` }).ctx;
    expect(await cookies.current(ctx)).not.toBeNull();
    clock.advance(30 * 86_400_000 + 1000);
    expect(await cookies.current(ctx)).toBeNull();
  });
});

describe('guard', () => {
  it('admits a signed-in GET without a CSRF token and gives the handler the sign-in', async () => {
    const s = await session();
    expect(cookies.guard.scheme).toBe('session');
    const admitted = await cookies.guard.admit(request({ cookie: `qrf_session=${s.token}` }).ctx);
    expect(admitted).toMatchObject({ token: s.token, user: { id: s.user.id } });
  });

  it('a POST needs the sign-in’s own CSRF token: not another sign-in’s, not the signed-out visitor’s', async () => {
    const s = await session();
    const other = await session();
    const cookie = `qrf_session=${s.token}; qrf_csrf=${other.token}`;
    const post = (token?: string) =>
      outcome(() =>
        cookies.guard.admit(request(token === undefined ? { cookie } : { cookie, 'x-csrf-token': token }, 'POST').ctx),
      );
    expect(await post(csrfOf(s.token))).toBe('admitted');
    expect(await post()).toBe('403 csrf_failed');
    expect(await post('')).toBe('403 csrf_failed');
    expect(await post(csrfOf(other.token))).toBe('403 csrf_failed');
    expect(await post(s.token)).toBe('403 csrf_failed');
    expect(cookies.csrfOf({ ...s, expiresAt: new Date() })).toBe(csrfOf(s.token));
  });

  it('refuses without a session before looking at CSRF: 401 session_required', async () => {
    expect(await outcome(() => cookies.guard.admit(request({}, 'POST').ctx))).toBe('401 session_required');
    expect(await outcome(() => cookies.guard.admit(request({ cookie: 'qrf_session=nope' }).ctx))).toBe(
      '401 session_required',
    );
  });
});

describe('the pre-session token of forms', () => {
  it('is set once as a cookie, then read back; its CSRF token is what sign-in forms must send', async () => {
    const first = request();
    const csrf = cookies.preSessionCsrf(first.ctx);
    expect(first.setCookies).toEqual([expect.stringMatching(/^qrf_csrf=[\w-]{43}; Path=\/; Max-Age=31536000; /)]);
    const token = /^qrf_csrf=([\w-]{43});/.exec(first.setCookies[0]!)![1]!;
    expect(csrf).toBe(csrfOf(token));
    const again = request({ cookie: `qrf_csrf=${token}` });
    expect(cookies.preSessionCsrf(again.ctx)).toBe(csrf);
    expect(again.setCookies).toEqual([]);
    const form = (headers: Record<string, string>) =>
      outcome(() => cookies.checkPreSession(request(headers, 'POST').ctx));
    expect(await form({ cookie: `qrf_csrf=${token}`, 'x-csrf-token': csrf })).toBe('admitted');
    expect(await form({ cookie: `qrf_csrf=${token}` })).toBe('403 csrf_failed');
    expect(await form({ 'x-csrf-token': csrf })).toBe('403 csrf_failed');
    expect(await form({ cookie: `qrf_csrf=${token}`, 'x-csrf-token': csrfOf('another') })).toBe('403 csrf_failed');
  });

  it('a malformed pre-session cookie is replaced by a fresh one, never echoed', () => {
    for (const bad of ['short', 'x'.repeat(44), `${'a'.repeat(42)}!`]) {
      const r = request({ cookie: `qrf_csrf=${bad}` });
      const csrf = cookies.preSessionCsrf(r.ctx);
      const token = /^qrf_csrf=([\w-]{43});/.exec(r.setCookies[0] ?? '')?.[1];
      expect(token, bad).toBeDefined();
      expect(csrf).toBe(csrfOf(token!));
      expect(csrf).not.toBe(csrfOf(bad));
    }
  });

  it('checkForm asks for the sign-in’s token when signed in, else the signed-out visitor’s', async () => {
    const s = await session();
    const pre = 'p'.repeat(43);
    const both = `qrf_session=${s.token}; qrf_csrf=${pre}`;
    const form = (cookie: string, token: string) =>
      outcome(() => cookies.checkForm(request({ cookie, 'x-csrf-token': token }, 'POST').ctx));
    expect(await form(both, csrfOf(s.token))).toBe('admitted');
    expect(await form(both, csrfOf(pre))).toBe('403 csrf_failed');
    expect(await form(`qrf_csrf=${pre}`, csrfOf(pre))).toBe('admitted');
    // A session cookie that names no session counts as none.
    expect(await form(`qrf_session=gone; qrf_csrf=${pre}`, csrfOf(pre))).toBe('admitted');
    expect(await form(`qrf_session=gone`, csrfOf('gone'))).toBe('403 csrf_failed');
  });
});
