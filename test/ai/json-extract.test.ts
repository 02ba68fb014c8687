import { describe, expect, it } from 'vitest';
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

  it('stays fast on a reply full of unmatched braces', () => {
    const started = Date.now();
    expect(extractJsonObject('{'.repeat(200_000))).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
