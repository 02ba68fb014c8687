import { describe, expect, it } from 'vitest';
import { buildEvent } from '../../src/content/event.js';
import {
  contentLines,
  expectApiError,
  expectFoldedAt75,
  randomText,
  seededRandom,
  TRICKY,
  unescapeText,
  unfold,
} from './support.js';

/** The iCalendar UTC form of an ISO 8601 instant, computed by V8's own date parser. */
const utcOf = (iso: string): string => `${new Date(iso).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;

describe('buildEvent', () => {
  it('is a VEVENT with SUMMARY, DTSTART, DTEND, LOCATION, DESCRIPTION and CRLF line ends', () => {
    const payload = buildEvent({
      summary: 'Launch',
      start: '2025-07-14T20:30:00+02:00',
      end: '2025-07-14T22:00:00+02:00',
      location: 'Pier 4',
      description: 'Bring a jacket',
    });
    const names = unfold(payload)
      .split('\r\n')
      .map((line) => line.split(':')[0]);
    expect(names).toEqual(['BEGIN', 'SUMMARY', 'DTSTART', 'DTEND', 'LOCATION', 'DESCRIPTION', 'END', '']);
    const lines = contentLines(payload);
    expect(lines.get('BEGIN')).toBe('VEVENT');
    expect(lines.get('DTSTART')).toBe('20250714T183000Z');
    expect(lines.get('DTEND')).toBe('20250714T200000Z');
    expect(lines.get('END')).toBe('VEVENT');
  });

  it.each([
    '2025-07-14T18:30:00Z',
    '2025-07-14T18:30:00z',
    '2025-07-14T20:30:00+02:00',
    '2025-07-14T20:30+02:00',
    '2025-03-09T01:59:59-08:00',
    '2024-12-31T23:30:00-05:00',
    '2025-01-01T00:15:00+05:45',
    '2024-02-29T12:00:00.987Z',
    '2025-06-30T23:59:59+14:00',
    '1970-01-01T00:00:00Z',
  ])('converts %s to the UTC date-time V8 computes', (start) => {
    expect(contentLines(buildEvent({ summary: 'x', start })).get('DTSTART')).toBe(utcOf(start));
  });

  it('reads years below 100 as such, not as 19xx', () => {
    expect(contentLines(buildEvent({ summary: 'x', start: '0099-05-01T00:00:00Z' })).get('DTSTART')).toBe(
      '00990501T000000Z',
    );
  });

  it('refuses date-times without an offset, impossible dates, and years outside 0000–9999 after conversion', () => {
    for (const start of [
      '2025-07-14T18:30:00',
      '2025-07-14',
      '2023-02-29T12:00:00Z',
      '2025-04-31T12:00:00Z',
      '2025-07-14T24:00:00Z',
      '2025-07-14T18:60:00Z',
      '2025-07-14T18:30:60Z',
      '2025-07-14T18:30:00+24:00',
      '2025-07-14T18:30:00+01:60',
      '9999-12-31T23:00:00-05:00',
      '0000-01-01T00:00:00+01:00',
      'July 14, 2025 18:30 UTC',
    ]) {
      expectApiError(() => buildEvent({ summary: 'x', start }), 'INVALID_FIELD_VALUE', 'start');
    }
  });

  it('requires summary and start, and an end later than the start', () => {
    expectApiError(
      () => buildEvent({ summary: '', start: '2025-01-01T00:00:00Z' }),
      'MISSING_REQUIRED_FIELD',
      'summary',
    );
    expectApiError(() => buildEvent({ summary: 'x', start: ' ' }), 'MISSING_REQUIRED_FIELD', 'start');
    const start = '2025-01-01T10:00:00+01:00';
    expectApiError(
      () => buildEvent({ summary: 'x', start, end: '2025-01-01T09:00:00Z' }),
      'INVALID_FIELD_VALUE',
      'end',
    );
    expectApiError(
      () => buildEvent({ summary: 'x', start, end: '2025-01-01T08:59:59Z' }),
      'INVALID_FIELD_VALUE',
      'end',
    );
    expectApiError(() => buildEvent({ summary: 'x', start, end: 'tomorrow' }), 'INVALID_FIELD_VALUE', 'end');
    expect(contentLines(buildEvent({ summary: 'x', start, end: '2025-01-01T09:00:01Z' })).get('DTEND')).toBe(
      '20250101T090001Z',
    );
  });

  it.each([
    [
      'every special',
      'Meet; greet, eat: "now" \\ later',
      'Room 1; Floor 2, Bldg: A\\B',
      'Line 1\nLine 2; with, specials\\',
    ],
    ['accents', 'Réunion générale', 'Salle Étoile, Zürich', 'Ordre du jour :\r\n1. Café'],
    ['CJK', '年次総会', '東京国際フォーラム', '議題：予算；人事'],
    ['emoji', '🎂 Birthday', '🏠 Home', '🎉\n🎁'],
  ])('escapes and folds text: %s', (_, summary, location, description) => {
    const payload = buildEvent({ summary, start: '2025-01-01T00:00:00Z', location, description });
    expectFoldedAt75(payload);
    const lines = contentLines(payload);
    expect(unescapeText(lines.get('SUMMARY') as string)).toBe(summary);
    expect(unescapeText(lines.get('LOCATION') as string)).toBe(location);
    expect(unescapeText(lines.get('DESCRIPTION') as string)).toBe(description.replace(/\r\n/g, '\n'));
  });

  it('folds long random descriptions at 75 octets and unfolds them intact', () => {
    const random = seededRandom(5545);
    for (let i = 0; i < 200; i++) {
      const description = randomText(random, 1, 2000, [...TRICKY, '\n']);
      const payload = buildEvent({ summary: 'x', start: '2025-01-01T00:00:00Z', description });
      expectFoldedAt75(payload);
      expect(unescapeText(contentLines(payload).get('DESCRIPTION') as string)).toBe(description);
    }
  });

  it('refuses line breaks in the summary and an event no QR code can hold', () => {
    expectApiError(
      () => buildEvent({ summary: 'a\nb', start: '2025-01-01T00:00:00Z' }),
      'INVALID_FIELD_VALUE',
      'summary',
    );
    expectApiError(
      () => buildEvent({ summary: 'x', start: '2025-01-01T00:00:00Z', description: '😀'.repeat(1000) }),
      'CONTENT_TOO_LONG',
    );
  });
});
