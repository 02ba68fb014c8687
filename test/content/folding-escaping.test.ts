import { describe, expect, it } from 'vitest';
import { foldContentLines, foldLine } from '../../src/content/folding.js';
import { backslashEscape, escapeText } from '../../src/content/text-escaping.js';
import {
  expectFoldedAt75,
  randomText,
  seededRandom,
  splitStructured,
  TRICKY,
  unescapeText,
  unfold,
} from './support.js';

const octets = (s: string): number => Buffer.byteLength(s);

describe('foldLine', () => {
  it('leaves a line of exactly 75 octets alone and folds the 76th', () => {
    expect(foldLine('x'.repeat(75))).toBe('x'.repeat(75));
    expect(foldLine('x'.repeat(76))).toBe(`${'x'.repeat(75)}\r\n x`);
  });

  it('counts the leading space of a continuation line', () => {
    const physical = foldLine('x'.repeat(75 + 74 + 1)).split('\r\n');
    expect(physical.map(octets)).toEqual([75, 75, 2]);
  });

  it('moves a multi-byte character that would straddle the limit to the next line', () => {
    const physical = foldLine(`${'x'.repeat(74)}é`).split('\r\n');
    expect(physical).toEqual(['x'.repeat(74), ' é']);
    const emoji = foldLine(`${'x'.repeat(72)}😀`).split('\r\n');
    expect(emoji).toEqual(['x'.repeat(72), ' 😀']);
  });

  it('keeps every physical line within 75 octets and valid UTF-8, and unfolds to the input', () => {
    const random = seededRandom(5545);
    for (let i = 0; i < 300; i++) {
      const line = `X-TEST:${randomText(random, 0, 1200)}`;
      const payload = foldContentLines([line]);
      expectFoldedAt75(payload);
      expect(unfold(payload)).toBe(`${line}\r\n`);
    }
  });
});

describe('escapeText', () => {
  it('escapes backslash, semicolon and comma, and writes every line break as \\n', () => {
    expect(escapeText('a\\b;c,d:e"f')).toBe('a\\\\b\\;c\\,d:e"f');
    expect(escapeText('1\r\n2\r3\n4')).toBe('1\\n2\\n3\\n4');
  });

  it('round-trips through an independent unescaper, and never leaves an unescaped separator', () => {
    const random = seededRandom(2425);
    const alphabet = [...TRICKY, '\n'];
    for (let i = 0; i < 500; i++) {
      const value = randomText(random, 0, 200, alphabet);
      const escaped = escapeText(value);
      expect(escaped).not.toMatch(/\n/);
      expect(splitStructured(escaped)).toHaveLength(1);
      expect(unescapeText(escaped)).toBe(value);
    }
  });
});

describe('backslashEscape', () => {
  it('escapes exactly the characters it is given', () => {
    expect(backslashEscape('a;b,c:d\\e"f', /[\\;]/g)).toBe('a\\;b,c:d\\\\e"f');
    expect(backslashEscape('中文 😀', /[\\;,:"]/g)).toBe('中文 😀');
  });
});
