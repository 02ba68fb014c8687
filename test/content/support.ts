/**
 * Support for the content tests, chiefly independent readers to check payloads against. They are written from the formats' specs
 * and from ZXing's parsers and share no code with src/content, so a wrong escape or fold on our side shows
 * up as a value that does not come back.
 */
import { expect } from 'vitest';
import { ApiError } from '../../src/errors.js';

/** Runs `fn` and checks it throws an ApiError with this code and field. */
export function expectApiError(fn: () => unknown, code: string, field?: string): void {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ApiError);
  expect({ code: (error as ApiError).code, field: (error as ApiError).field }).toEqual({ code, field });
}

// ---- ZXing ResultParser field matching (WIFI:, MECARD:) -------------------------------------------------

/**
 * ResultParser.matchPrefixedField without the unescaping: every `prefix` occurrence, searched anywhere in
 * the text, starts a value that runs to the first `end` preceded by an even number of backslashes.
 */
export function prefixedFieldsRaw(prefix: string, text: string, end = ';'): string[] {
  const values: string[] = [];
  let i = 0;
  while (i < text.length) {
    i = text.indexOf(prefix, i);
    if (i < 0) break;
    i += prefix.length;
    const start = i;
    for (;;) {
      i = text.indexOf(end, i);
      if (i < 0) {
        i = text.length; // ZXing drops a value that has no terminator
        break;
      }
      let backslashes = 0;
      for (let j = i - 1; j >= 0 && text[j] === '\\'; j--) backslashes++;
      if (backslashes % 2 === 0) {
        values.push(text.slice(start, i));
        i++;
        break;
      }
      i++;
    }
  }
  return values;
}

/** ResultParser.unescapeBackslash: a backslash makes the next character literal and disappears. */
export const unescapeBackslash = (value: string): string => value.replace(/\\([\s\S])/g, '$1');

/** ResultParser.matchSinglePrefixedField: the first non-empty value, unescaped (and trimmed if asked). */
function firstField(prefix: string, text: string, trim: boolean): string | undefined {
  return prefixedFieldsRaw(prefix, text)
    .map(unescapeBackslash)
    .map((v) => (trim ? v.trim() : v))
    .find((v) => v !== '');
}

/** What ZXing's WifiResultParser makes of a payload (the non-enterprise fields). */
export function readWifi(payload: string): { type: string; ssid: string; password?: string; hidden: boolean } | null {
  if (!payload.startsWith('WIFI:')) return null;
  const text = payload.slice('WIFI:'.length);
  const ssid = firstField('S:', text, false);
  if (ssid === undefined) return null;
  const hiddenValue = firstField('H:', text, false);
  return {
    type: firstField('T:', text, false) ?? 'nopass',
    ssid,
    password: firstField('P:', text, false),
    hidden: hiddenValue?.toLowerCase() === 'true',
  };
}

/**
 * A DoCoMo MECARD reader following ZXing's AddressBookDoCoMoResultParser (values trimmed except NOTE),
 * except that N is split at its first unescaped comma, as the DoCoMo spec says, where ZXing splits after
 * unescaping.
 */
export function readMecard(payload: string): Record<string, string> | null {
  if (!payload.startsWith('MECARD:')) return null;
  const [rawName] = prefixedFieldsRaw('N:', payload);
  if (rawName === undefined) return null;
  const comma = /(?<!\\)(?:\\\\)*,/.exec(rawName);
  const card: Record<string, string> = {};
  if (comma === null) {
    card.lastName = unescapeBackslash(rawName).trim();
  } else {
    const cut = comma.index + comma[0].length - 1;
    card.lastName = unescapeBackslash(rawName.slice(0, cut)).trim();
    card.firstName = unescapeBackslash(rawName.slice(cut + 1)).trim();
  }
  for (const [prefix, key, trim] of [
    ['TEL:', 'phone', true],
    ['EMAIL:', 'email', true],
    ['URL:', 'url', true],
    ['ADR:', 'address', true],
    ['NOTE:', 'note', false],
  ] as const) {
    const value = firstField(prefix, payload, trim);
    if (value !== undefined) card[key] = value;
  }
  return card;
}

// ---- vCard / iCalendar content lines --------------------------------------------------------------------

/** Checks RFC 2425/5545 folding at the octet level: CRLF line ends, ≤ 75 octets, each line valid UTF-8. */
export function expectFoldedAt75(payload: string): void {
  const bytes = Buffer.from(payload, 'utf8');
  expect(bytes.subarray(-2).toString('latin1')).toBe('\r\n');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let start = 0;
  for (let i = 0; i < bytes.length - 1; i++) {
    if (bytes[i] !== 0x0d) continue;
    expect(bytes[i + 1]).toBe(0x0a);
    const line = bytes.subarray(start, i);
    expect(line.length).toBeLessThanOrEqual(75);
    expect(() => decoder.decode(line)).not.toThrow();
    start = i + 2;
  }
  expect(start).toBe(bytes.length);
  expect(payload.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
}

export const unfold = (payload: string): string => payload.replace(/\r\n[ \t]/g, '');

/** Unfolded content lines as name → raw value (the last one wins; the tests never repeat a property). */
export function contentLines(payload: string): Map<string, string> {
  const lines = unfold(payload).split('\r\n');
  expect(lines.pop()).toBe('');
  return new Map(lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)]));
}

/** Splits a structured value at every `;` that is not escaped. */
export function splitStructured(value: string): string[] {
  const parts = [''];
  for (let i = 0; i < value.length; i++) {
    if (value[i] === '\\') parts[parts.length - 1] += value[i] + (value[++i] ?? '');
    else if (value[i] === ';') parts.push('');
    else parts[parts.length - 1] += value[i];
  }
  return parts;
}

/** RFC 2426 / RFC 5545 §3.3.11 TEXT unescaping. */
export const unescapeText = (value: string): string =>
  value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));

// ---- Deterministic random text ------------------------------------------------------------------------

export { seededRandom } from '../helpers/seeded-random.js';

/** Characters that stress escaping and folding: every special, accents, CJK, emoji (one with ZWJ). */
export const TRICKY = [
  ';',
  ',',
  ':',
  '\\',
  '"',
  ' ',
  'a',
  'Z',
  '7',
  'é',
  'ß',
  'Ø',
  '中',
  '文',
  '日',
  '😀',
  '👩‍💻',
  '€',
  'n',
  'N',
  'P',
  'S',
  'H',
  'T',
];

/** A random string of TRICKY characters whose UTF-8 size lies in [minBytes, maxBytes]. */
export function randomText(random: () => number, minBytes: number, maxBytes: number, alphabet = TRICKY): string {
  const target = minBytes + Math.floor(random() * (maxBytes - minBytes + 1));
  let text = '';
  for (;;) {
    const next = text + alphabet[Math.floor(random() * alphabet.length)];
    if (Buffer.byteLength(next) > target) break;
    text = next;
  }
  // Pad with ASCII when the last draw overshot, so the minimum always holds; never blank (blank = absent).
  while (Buffer.byteLength(text) < minBytes) text += 'x';
  return text.trim() === '' ? `x${text.slice(1)}` : text;
}
