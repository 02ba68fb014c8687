import { describe, expect, it } from 'vitest';
import { buildMecard, type MecardInput } from '../../src/content/mecard.js';
import { expectApiError, randomText, readMecard, seededRandom, TRICKY } from './support.js';

describe('buildMecard', () => {
  it('writes MECARD:N:<last>,<first>;…;; with only the given fields, in order', () => {
    const payload = buildMecard({
      firstName: 'Taro',
      lastName: 'Yamada',
      phone: '+81 3 1234 5678',
      email: 'taro@example.jp',
      url: 'https://example.jp',
      address: 'Tokyo',
      note: 'Met at the fair',
    });
    expect(payload.startsWith('MECARD:N:Yamada,Taro;TEL:')).toBe(true);
    expect(payload.endsWith(';;')).toBe(true);
    expect([...payload.matchAll(/;([A-Z]+):/g)].map((m) => m[1])).toEqual(['TEL', 'EMAIL', 'URL', 'ADR', 'NOTE']);
    expect(readMecard(payload)).toEqual({
      lastName: 'Yamada',
      firstName: 'Taro',
      phone: '+81312345678',
      email: 'taro@example.jp',
      url: 'https://example.jp',
      address: 'Tokyo',
      note: 'Met at the fair',
    });
  });

  it.each([
    ['every special', { firstName: 'A;B,C', lastName: 'D:E\\F', note: 'TEL:1;EMAIL:x,y\\' }],
    ['accents', { firstName: 'Renée', lastName: 'Çelik-Ødegård', address: 'Straße 5, Köln' }],
    ['CJK', { firstName: '太郎', lastName: '山田', note: '東京：会議；資料' }],
    ['emoji', { firstName: '🙂', lastName: 'Smile, 😀', note: '🎉:🎂;🎁' }],
    ['a URL with a port', { lastName: 'Web', url: 'http://example.com:8080/a;b,c' }],
  ])('reads back every field: %s', (_, input: MecardInput) => {
    expect(readMecard(buildMecard(input))).toEqual(input);
  });

  it('reads back random names and notes', () => {
    const random = seededRandom(1999);
    const noSpace = TRICKY.filter((c) => c !== ' '); // readers trim MECARD values
    for (let i = 0; i < 300; i++) {
      const input = {
        firstName: randomText(random, 1, 100, noSpace),
        lastName: randomText(random, 1, 100, noSpace),
        note: randomText(random, 1, 1000, [...noSpace, '\n']).replace(/^\n+|\n+$/g, 'x'),
      };
      expect(readMecard(buildMecard(input))).toEqual(input);
    }
  });

  it('writes a lone name without a comma', () => {
    expect(readMecard(buildMecard({ lastName: 'Solo' }))).toEqual({ lastName: 'Solo' });
    expect(buildMecard({ firstName: 'Only' })).toBe('MECARD:N:Only;;');
  });

  it('requires a name and checks phone, e-mail and URL', () => {
    expectApiError(() => buildMecard({ phone: '+1 555 0100' }), 'MISSING_REQUIRED_FIELD', 'firstName');
    expectApiError(() => buildMecard({ lastName: 'X', phone: 'x' }), 'INVALID_FIELD_VALUE', 'phone');
    expectApiError(() => buildMecard({ lastName: 'X', email: 'x@' }), 'INVALID_FIELD_VALUE', 'email');
    expectApiError(() => buildMecard({ lastName: 'X', url: 'no url' }), 'INVALID_FIELD_VALUE', 'url');
  });

  it('refuses a card no QR code can hold', () => {
    expectApiError(
      () => buildMecard({ lastName: 'X', note: ';'.repeat(1000), address: '😀'.repeat(500) }),
      'CONTENT_TOO_LONG',
    );
  });
});
