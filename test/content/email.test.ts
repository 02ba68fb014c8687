import { describe, expect, it } from 'vitest';
import { buildEmail } from '../../src/content/email.js';
import { expectApiError, randomText, seededRandom, TRICKY } from './support.js';

/** RFC 6068 §2: what may appear unencoded in an addr-spec and in an hfvalue. */
const QCHAR = String.raw`[A-Za-z0-9\-._~!$'()*+,;:@]|%[0-9A-F]{2}`;
const ADDRESS_PART = new RegExp(`^(?:(?!@)(?:${QCHAR}))+$`);
const HFVALUE = new RegExp(`^(?:${QCHAR})*$`);

/** Reads a mailto: URI by the RFC 6068 grammar, and checks it against the WHATWG URL parser too. */
function readMailto(payload: string): { to: string; headers: Record<string, string> } {
  expect(payload.startsWith('mailto:')).toBe(true);
  const [address, query] = payload.slice('mailto:'.length).split('?') as [string, string | undefined];
  const parts = address.split('@');
  expect(parts).toHaveLength(2);
  for (const part of parts) expect(part).toMatch(ADDRESS_PART);
  const headers: Record<string, string> = {};
  for (const field of query === undefined ? [] : query.split('&')) {
    const [name, value] = field.split('=') as [string, string];
    expect(value).toMatch(HFVALUE);
    headers[name] = decodeURIComponent(value);
  }
  const url = new URL(payload);
  expect(url.protocol).toBe('mailto:');
  for (const [name, value] of Object.entries(headers)) expect(url.searchParams.get(name)).toBe(value);
  return { to: parts.map(decodeURIComponent).join('@'), headers };
}

describe('buildEmail', () => {
  it('writes mailto:<to> with subject and body as header fields', () => {
    const payload = buildEmail({ to: 'info@example.com', subject: 'Hello there', body: 'See you' });
    expect(payload).toBe('mailto:info@example.com?subject=Hello%20there&body=See%20you');
    expect(buildEmail({ to: 'info@example.com' })).toBe('mailto:info@example.com');
    expect(readMailto(buildEmail({ to: 'info@example.com', body: 'only' })).headers).toEqual({ body: 'only' });
  });

  it.each([
    ['URI delimiters', 'a&b=c?d#e/f%g+h', 'x&subject=injected'],
    ['escaping characters', '; , : \\ "', '\\;,:"'],
    ['accents', 'Réunion à Zürich', 'Grüße, Ørjan'],
    ['CJK', '会議のお知らせ', '明日は十時です。'],
    ['emoji', '🎉 Party', 'Bring 🍕 & 🥤'],
  ])('round-trips subject and body: %s', (_, subject, body) => {
    const read = readMailto(buildEmail({ to: 'ops@example.com', subject, body }));
    expect(read).toEqual({ to: 'ops@example.com', headers: { subject, body } });
  });

  it('percent-encodes the address on each side of a literal @', () => {
    for (const to of ['first.last+tag@example.co.uk', 'josé@exämple.com', "o'brien@example.ie", '用户@例子.广告']) {
      expect(readMailto(buildEmail({ to })).to).toBe(to);
    }
  });

  it('sends every line break of the body as CRLF (%0D%0A)', () => {
    const payload = buildEmail({ to: 'a@example.com', body: 'one\ntwo\r\nthree\rfour' });
    expect(payload).toContain('one%0D%0Atwo%0D%0Athree%0D%0Afour');
    expect(readMailto(payload).headers.body).toBe('one\r\ntwo\r\nthree\r\nfour');
  });

  it('round-trips random subjects and bodies', () => {
    const random = seededRandom(6068);
    const alphabet = [...TRICKY, '&', '=', '?', '#', '%', '+', '/'];
    for (let i = 0; i < 300; i++) {
      const subject = randomText(random, 1, 255, alphabet);
      const body = randomText(random, 1, 600, alphabet);
      expect(readMailto(buildEmail({ to: 'x@example.com', subject, body })).headers).toEqual({ subject, body });
    }
  });

  it('requires a plausible address and a one-line subject', () => {
    expectApiError(() => buildEmail({ to: '' }), 'MISSING_REQUIRED_FIELD', 'to');
    expectApiError(() => buildEmail({ to: 'not-an-address' }), 'INVALID_FIELD_VALUE', 'to');
    expectApiError(() => buildEmail({ to: 'a@b.c', subject: 'two\nlines' }), 'INVALID_FIELD_VALUE', 'subject');
  });

  it('refuses a body that percent-encodes beyond what a QR code holds', () => {
    expect(() => buildEmail({ to: 'a@example.com', body: 'x'.repeat(2000) })).not.toThrow();
    expectApiError(() => buildEmail({ to: 'a@example.com', body: 'é'.repeat(2000) }), 'CONTENT_TOO_LONG');
  });
});
