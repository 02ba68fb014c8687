import { describe, expect, it } from 'vitest';
import type { People } from '../../src/accounts/types.js';
import type { RequestContext } from '../../src/http/router.js';
import { readCookies } from '../../src/site/cookies.js';
import { SessionCookies } from '../../src/site/session-cookies.js';
import { addressKey } from '../../src/site/visitors.js';

describe('who a visitor limit counts', () => {
  it('an IPv4 address as it is, an IPv4-mapped IPv6 as IPv4, any other IPv6 by its /64', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('0000:0000:0000:0000:0000:ffff:cb00:7109')).toBe('203.0.113.9');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:0000:0000:0009')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});

describe('session cookies', () => {
  const context = (cookie?: string) => {
    const set: string[] = [];
    const ctx = {
      headers: cookie === undefined ? {} : { cookie },
      reply: { header: (name: string, value: string) => set.push(`${name}: ${value}`) },
    } as unknown as RequestContext;
    return { ctx, set };
  };
  const session = { user: {} as never, token: 'T'.repeat(43), expiresAt: new Date() };

  it('over TLS: __Host- names and Secure; over HTTP: plain names, no Secure; always HttpOnly and SameSite=Lax', () => {
    const tls = new SessionCookies({} as People, true);
    const a = context();
    tls.begin(a.ctx, session);
    expect(a.set).toEqual([
      `Set-Cookie: __Host-qrf_session=${session.token}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax; Secure`,
    ]);
    const plain = new SessionCookies({} as People, false);
    const b = context();
    plain.begin(b.ctx, session);
    expect(b.set).toEqual([
      `Set-Cookie: qrf_session=${session.token}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax`,
    ]);
  });

  it('the pre-session cookie is set once and its CSRF token stays the same while it lives', () => {
    const cookies = new SessionCookies({} as People, false);
    const first = context();
    const token = cookies.preSessionCsrf(first.ctx);
    expect(first.set).toHaveLength(1);
    const value = readCookies(first.set[0]!.slice('Set-Cookie: '.length).split(';')[0]).get('qrf_csrf')!;
    const again = context(`qrf_csrf=${value}`);
    expect(cookies.preSessionCsrf(again.ctx)).toBe(token);
    expect(again.set).toEqual([]);
  });

  it('reads the first of repeated cookies and ignores malformed pairs', () => {
    expect([...readCookies('a=1; junk; b = 2 ; a=3')]).toEqual([
      ['a', '1'],
      ['b', '2'],
    ]);
  });
});
