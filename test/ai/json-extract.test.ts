import { describe, expect, it, vi } from 'vitest';
import { extractJsonObject } from '../../src/ai/json-extract.js';

describe('extractJsonObject', () => {
  const obj = { config: { primaryColor: '#000' }, explanation: 'a {brace} and a "quote"' };
  const text = JSON.stringify(obj);

  it.each([
    ['bare', text],
    ['padded', `\n  ${text}  \n`],
    ['fenced json', `\`\`\`json\n${text}\n\`\`\``],
    ['fenced without language', `\`\`\`\n${text}\n\`\`\``],
    ['prose around', `Sure! Here it is:\n${text}\nHope you like it {:}`],
    ['a stray brace before', `Use {primary} colours. ${text}`],
  ])('%s', (_, input) => expect(extractJsonObject(input)).toEqual(obj));

  it.each([
    ['empty', ''],
    ['prose only', 'I cannot help with that.'],
    ['truncated', '{"config": {"a": 1'],
    ['an array', '[1, 2]'],
  ])('%s → undefined', (_, input) => expect(extractJsonObject(input)).toBeUndefined());

  it('tries a bounded number of candidates on a reply full of brace pairs that are not JSON', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(extractJsonObject('{x} '.repeat(20_000))).toBeUndefined();
      // One attempt at the whole text, then at most 64 balanced candidates: never one per brace.
      expect(parse.mock.calls.length).toBeLessThanOrEqual(65);
    } finally {
      parse.mockRestore();
    }
  });
});
