import { describe, expect, it } from 'vitest';
import { buildSms } from '../../src/content/sms.js';
import { buildTel } from '../../src/content/tel.js';
import { expectApiError, randomText, seededRandom, TRICKY } from './support.js';

/** ZXing's SMSTOMMSTOResultParser: the number runs to the first colon after `SMSTO:`, the body is the rest. */
function readSmsto(payload: string): { number: string; body: string | undefined } {
  expect(payload.slice(0, 6).toUpperCase()).toBe('SMSTO:');
  const rest = payload.slice(6);
  const colon = rest.indexOf(':');
  return colon < 0 ? { number: rest, body: undefined } : { number: rest.slice(0, colon), body: rest.slice(colon + 1) };
}

describe('buildSms', () => {
  it('writes SMSTO:<number>:<message>, the number without spaces', () => {
    expect(readSmsto(buildSms({ number: '+1 555 123 4567', message: 'Hi' }))).toEqual({
      number: '+15551234567',
      body: 'Hi',
    });
    expect(readSmsto(buildSms({ number: '(030) 123-456' }))).toEqual({ number: '(030)123-456', body: '' });
  });

  it('carries any message verbatim, colons and line breaks included', () => {
    const random = seededRandom(160);
    const alphabet = [...TRICKY, '\n'];
    for (let i = 0; i < 300; i++) {
      const message = randomText(random, 1, 1000, alphabet);
      expect(readSmsto(buildSms({ number: '+441234567890', message })).body).toBe(message);
    }
  });

  it('requires a phone number', () => {
    expectApiError(() => buildSms({ number: ' ' }), 'MISSING_REQUIRED_FIELD', 'number');
    expectApiError(() => buildSms({ number: '555:1234' }), 'INVALID_FIELD_VALUE', 'number');
    expectApiError(() => buildSms({ number: 'ten' }), 'INVALID_FIELD_VALUE', 'number');
  });

  it('refuses a message no QR code can hold', () => {
    expectApiError(() => buildSms({ number: '112', message: '😀'.repeat(1000) }), 'CONTENT_TOO_LONG');
  });
});

describe('buildTel', () => {
  it('writes a tel: URI (RFC 3966) the WHATWG parser reads back', () => {
    for (const [number, expected] of [
      ['+1 (555) 123-4567', '+1(555)123-4567'],
      ['+49 30 1234567', '+49301234567'],
      ['112', '112'],
      ['+33.1.23.45.67.89', '+33.1.23.45.67.89'],
    ] as const) {
      const payload = buildTel({ number });
      expect(payload).toMatch(/^tel:\+?[\d().-]+$/);
      const url = new URL(payload);
      expect(url.protocol).toBe('tel:');
      expect(url.pathname).toBe(expected);
      expect(url.pathname.replace(/\D/g, '')).toBe(number.replace(/\D/g, ''));
    }
  });

  it('refuses what is not a phone number', () => {
    for (const number of ['12', '+1 555 1234 5678 9012', '555#1234', 'tel:112', '1+1']) {
      expectApiError(() => buildTel({ number }), 'INVALID_FIELD_VALUE', 'number');
    }
    expectApiError(() => buildTel({ number: '' }), 'MISSING_REQUIRED_FIELD', 'number');
  });
});
