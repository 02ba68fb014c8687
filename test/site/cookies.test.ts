/** The site's cookie header reading and Set-Cookie writing (src/site/cookies.ts). */
import { describe, expect, it } from 'vitest';
import { readCookies, setCookie } from '../../src/site/cookies.js';

describe('readCookies', () => {
  it('reads every pair, trimmed; the first of a repeated name wins', () => {
    const cookies = readCookies(' a=1;b = two ; a=3; c=x=y');
    expect([...cookies]).toEqual([
      ['a', '1'],
      ['b', 'two'],
      ['c', 'x=y'],
    ]);
  });

  it('skips what is not a pair, and a pair without a name; no header is no cookie', () => {
    expect([...readCookies('flag; =orphan; ok=1;;')]).toEqual([['ok', '1']]);
    expect(readCookies(undefined).size).toBe(0);
    expect(readCookies('').size).toBe(0);
  });

  it('keeps an empty value (a deleted cookie a browser still sends)', () => {
    expect(readCookies('qrf_session=').get('qrf_session')).toBe('');
  });
});

describe('setCookie', () => {
  it('HttpOnly, SameSite=Lax, for the whole site; Secure only over TLS', () => {
    expect(setCookie('qrf_session', 'abc', { maxAge: 60, secure: false })).toBe(
      'qrf_session=abc; Path=/; Max-Age=60; HttpOnly; SameSite=Lax',
    );
    expect(setCookie('__Host-qrf_session', 'abc', { maxAge: 60, secure: true })).toBe(
      '__Host-qrf_session=abc; Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure',
    );
  });

  it('Max-Age=0 deletes it; what it writes reads back', () => {
    const deleted = setCookie('qrf_session', '', { maxAge: 0, secure: false });
    expect(deleted).toMatch(/; Max-Age=0;/);
    const written = setCookie('qrf_csrf', 'token-1', { maxAge: 10, secure: false });
    expect(readCookies(written.split(';')[0]).get('qrf_csrf')).toBe('token-1');
  });
});
