import vCard from 'vcf';
import { describe, expect, it } from 'vitest';
import { buildVcard, type VcardInput } from '../../src/content/vcard.js';
import {
  contentLines,
  expectApiError,
  expectFoldedAt75,
  randomText,
  seededRandom,
  splitStructured,
  TRICKY,
  unescapeText,
  unfold,
} from './support.js';

/** Reads a payload back with the independent `vcf` parser, unescaping its raw values per RFC 2426. */
function readBack(payload: string): Record<string, unknown> {
  const card = new vCard().parse(payload);
  expect(card.version).toBe('3.0');
  const raw = (key: string): string | undefined => {
    const property = card.get(key);
    expect(Array.isArray(property)).toBe(false);
    return property === undefined ? undefined : String(property.valueOf());
  };
  const text = (key: string): string | undefined => {
    const value = raw(key);
    return value === undefined ? undefined : unescapeText(value);
  };
  const structured = (key: string): string[] | undefined => {
    const value = raw(key);
    return value === undefined ? undefined : splitStructured(value).map(unescapeText);
  };
  return {
    n: structured('n'),
    fn: text('fn'),
    org: text('org'),
    title: text('title'),
    tel: text('tel'),
    email: text('email'),
    url: raw('url'),
    adr: structured('adr'),
  };
}

/** What a reader should find for an input: the structure RFC 2426 prescribes, with line breaks as LF. */
function expected(input: VcardInput): Record<string, unknown> {
  const fn = [input.firstName, input.lastName].filter(Boolean).join(' ') || input.organization;
  return {
    n: [input.lastName ?? '', input.firstName ?? '', '', '', ''],
    fn,
    org: input.organization,
    title: input.title,
    tel: input.phone,
    email: input.email,
    url: input.url,
    adr: input.address === undefined ? undefined : ['', '', input.address.replace(/\r\n|\r/g, '\n'), '', '', '', ''],
  };
}

const full: VcardInput = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  organization: 'Analytical Engines, Ltd.',
  title: 'Programmer; first of her kind',
  phone: '+44 20 7946 0958',
  email: 'ada@example.org',
  url: 'https://example.org/ada?x=1,2;3',
  address: "12 St James's Square\nLondon SW1Y 4JH",
};

describe('buildVcard', () => {
  it('is a complete vCard 3.0 with CRLF line ends, in RFC 2426 order', () => {
    const payload = buildVcard(full);
    const names = unfold(payload)
      .split('\r\n')
      .map((line) => line.split(/[:;]/)[0]);
    expect(names).toEqual(['BEGIN', 'VERSION', 'N', 'FN', 'ORG', 'TITLE', 'TEL', 'EMAIL', 'URL', 'ADR', 'END', '']);
    expect(payload).not.toMatch(/[^\r]\n/);
    expect(readBack(payload)).toEqual(expected(full));
  });

  it.each([
    [
      'backslash, comma, semicolon, colon, quote',
      { firstName: 'J\\R "Bob"', lastName: 'Smith, Jr.; III', organization: 'A:B;C,D\\E' },
    ],
    ['accents', { firstName: 'Zoë', lastName: 'Åström-Müller', title: 'Directrice générale' }],
    ['CJK', { firstName: '太郎', lastName: '山田', organization: '株式会社テスト', address: '東京都千代田区1-1' }],
    ['emoji', { firstName: '👩‍💻', lastName: 'Dev 🚀', title: '🎉;,\\' }],
    ['line breaks of every platform', { organization: 'Org', address: 'line 1\r\nline 2\rline 3\nline 4' }],
    ['escape-like text', { lastName: 'back\\nslash\\,', firstName: '\\\\n' }],
  ])('reads back every field: %s', (_, input: VcardInput) => {
    expect(readBack(buildVcard(input))).toEqual(expected(input));
  });

  it('reads back random fields full of specials and multi-byte characters', () => {
    const random = seededRandom(2426);
    const withBreaks = [...TRICKY, '\n'];
    for (let i = 0; i < 200; i++) {
      const input: VcardInput = {
        firstName: randomText(random, 1, 100),
        lastName: randomText(random, 1, 100),
        organization: randomText(random, 1, 200),
        title: randomText(random, 1, 200),
        address: randomText(random, 1, 500, withBreaks),
      };
      const payload = buildVcard(input);
      expectFoldedAt75(payload);
      expect(readBack(payload)).toEqual(expected(input));
    }
  });

  it('folds long lines at 75 octets without splitting UTF-8, and unfolding restores the value', () => {
    for (const title of ['x'.repeat(400), 'é'.repeat(150), '中'.repeat(120), '😀'.repeat(90), `a${'€'.repeat(100)}`]) {
      const payload = buildVcard({ lastName: 'Fold', title });
      expectFoldedAt75(payload);
      expect(payload).toContain('\r\n ');
      expect(unescapeText(contentLines(payload).get('TITLE') as string)).toBe(title);
      expect(readBack(payload).title).toBe(title);
    }
  });

  it('names the card after the organization when no person is named', () => {
    const read = readBack(buildVcard({ organization: 'ACME; Inc.' }));
    expect(read.fn).toBe('ACME; Inc.');
    expect(read.n).toEqual(['', '', '', '', '']);
    expect(readBack(buildVcard({ firstName: 'Cher' })).fn).toBe('Cher');
  });

  it('requires at least one of firstName, lastName or organization', () => {
    expectApiError(() => buildVcard({ email: 'a@example.com' }), 'MISSING_REQUIRED_FIELD', 'firstName');
    expectApiError(
      () => buildVcard({ firstName: ' ', lastName: '', organization: '\t' }),
      'MISSING_REQUIRED_FIELD',
      'firstName',
    );
  });

  it('checks phone, e-mail and URL loosely', () => {
    const ok = { lastName: 'X' };
    for (const phone of ['+1 (555) 123-4567', '030 1234567', '112', '+49.30.123456']) {
      expect(readBack(buildVcard({ ...ok, phone })).tel).toBe(phone);
    }
    for (const email of ['first.last+tag@sub.example.co.uk', 'josé@exämple.com', 'x@y.io']) {
      expect(readBack(buildVcard({ ...ok, email })).email).toBe(email);
    }
    for (const url of [
      'example.com',
      'https://example.com/a,b;c?q=1#f',
      'http://例え.jp/パス',
      'https://h.example:8443',
    ]) {
      expect(readBack(buildVcard({ ...ok, url })).url).toBe(url);
    }
    for (const phone of ['12', 'call me', '+1 555 1234 5678 9012', '555+1234', '1-800-FLOWERS']) {
      expectApiError(() => buildVcard({ ...ok, phone }), 'INVALID_FIELD_VALUE', 'phone');
    }
    for (const email of ['no-at', 'a@b', 'a b@c.de', 'a@b@c.de', 'a;b@c.de']) {
      expectApiError(() => buildVcard({ ...ok, email }), 'INVALID_FIELD_VALUE', 'email');
    }
    for (const url of ['not a url', 'javascript:alert(1)', 'http://localhost', 'https://a.b/c d', 'https://a.b\\c']) {
      expectApiError(() => buildVcard({ ...ok, url }), 'INVALID_FIELD_VALUE', 'url');
    }
  });

  it('refuses line breaks in one-line fields and control characters anywhere', () => {
    expectApiError(() => buildVcard({ firstName: 'A\nB' }), 'INVALID_FIELD_VALUE', 'firstName');
    expectApiError(() => buildVcard({ lastName: 'A', address: 'bell\u0007' }), 'INVALID_FIELD_VALUE', 'address');
  });

  it('refuses a card no QR code can hold', () => {
    const input = {
      firstName: '😀'.repeat(100),
      lastName: '😀'.repeat(100),
      organization: '😀'.repeat(200),
      title: '😀'.repeat(200),
      address: '😀'.repeat(500),
    };
    expectApiError(() => buildVcard(input), 'CONTENT_TOO_LONG');
  });
});
