import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Attempt } from '../../src/ai/chain.js';
import { CALLER_FIELDS } from '../../src/ai/clean-config.js';
import { designQr, temperatureFor } from '../../src/ai/designer.js';
import { buildSystemPrompt, buildUserPrompt, STYLE_PRESETS } from '../../src/ai/system-prompt.js';
import { ApiError } from '../../src/errors.js';
import { FINDER_INNER_SHAPES, FINDER_OUTER_SHAPES, MODULE_SHAPES } from '../../src/model/vocabulary.js';
import { baseUrlOf, startFakeVendor, success, type FakeVendor } from './fake-vendor.js';
import { sampleSchema } from './sample-schema.js';

// The shape lists are growing in another engineer's hands; extra names here prove the prompt and the
// response schema read the lists rather than a copy of them.
vi.mock('../../src/model/vocabulary.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/model/vocabulary.js')>();
  return {
    ...real,
    MODULE_SHAPES: [...real.MODULE_SHAPES, 'test-blob', 'test-star'],
    FINDER_OUTER_SHAPES: [...real.FINDER_OUTER_SHAPES, 'test-leaf'],
    FINDER_INNER_SHAPES: [...real.FINDER_INNER_SHAPES, 'test-dot'],
  };
});

const KEY = 'sk-test-designer-0123456789abcdef';
let fake: FakeVendor | undefined;
let attempts: Attempt[] = [];
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function openai(...contents: string[]): Promise<FakeVendor> {
  fake = await startFakeVendor('openai', KEY);
  attempts = [{ providerId: 'openai', model: 'gpt-4.1-mini', apiKey: KEY, baseUrl: baseUrlOf(fake, 'openai') }];
  fake.reply(...contents.map((c) => success.openai(c)));
  return fake;
}

describe('system prompt', () => {
  const prompt = buildSystemPrompt(sampleSchema);

  it('lists every shape name of the design modules', () => {
    expect(MODULE_SHAPES).toContain('test-blob');
    for (const name of [...MODULE_SHAPES, ...FINDER_OUTER_SHAPES, ...FINDER_INNER_SHAPES])
      expect(prompt).toContain(name);
  });

  it('teaches the seven presets, the scannability rules and the JSON answer', () => {
    for (const preset of STYLE_PRESETS) expect(prompt).toMatch(new RegExp(`^- ${preset}: `, 'm'));
    expect(prompt).toContain('at least 4:1');
    expect(prompt).toContain('25%');
    expect(prompt).toMatch(/dark modules on a light background/);
    expect(prompt).toMatch(/finder eyes solid/);
    expect(prompt).toContain('JSON');
  });

  it('describes every design field of the schema, with bounds and options, and no caller field', () => {
    for (const field of Object.keys(sampleSchema.properties)) {
      const listed = new RegExp(`^- ${field}\\b`, 'm').test(prompt);
      expect(listed, field).toBe(!(CALLER_FIELDS as readonly string[]).includes(field));
    }
    expect(prompt).toContain('- moduleScale (number; 0.5 to 1): Drawn size of a module in its cell.');
    expect(prompt).toContain('- eccLevel (string; one of L, M, Q, H; default "M")');
    expect(prompt).toMatch(/^ {2}- colors \(list of string; 2 to 4 items\)/m);
    expect(prompt).toMatch(/^ {2}- style \(string; one of none, banner, rounded-banner\)/m);
    expect(prompt).toContain(`never include them: ${CALLER_FIELDS.join(', ')}`);
  });

  it('the user message carries the brief, the preset and the boldness', () => {
    const quiet = buildUserPrompt('gold on black', 'luxury', 0.1);
    const loud = buildUserPrompt('gold on black', 'playful', 0.9);
    expect(quiet).toContain('gold on black');
    expect(quiet).toMatch(/Style preset: luxury/);
    expect(quiet).toMatch(/conservative/);
    expect(loud).toMatch(/Style preset: playful/);
    expect(loud).toMatch(/bold/);
  });
});

describe('designQr', () => {
  it('maps creativity to temperature, defaults to luxury at 0.5, and asks with the grown shape lists', async () => {
    expect(temperatureFor(0)).toBeCloseTo(0.2);
    expect(temperatureFor(1)).toBeCloseTo(1.1);
    const f = await openai(
      JSON.stringify({ config: { moduleShape: 'Test Blob', finderOuterShape: 'test_leaf' }, explanation: 'ok' }),
    );
    const result = await designQr({ prompt: 'a blob' }, attempts, sampleSchema);
    expect(result.config).toEqual({ moduleShape: 'test-blob', finderOuterShape: 'test-leaf' });
    const body = f.received[0].body;
    expect(body.temperature).toBeCloseTo(0.65);
    expect(body.messages[1].content).toMatch(/Style preset: luxury/);
    const fields = body.response_format.json_schema.schema.properties.config.properties;
    expect(fields.moduleShape.enum).toEqual([...MODULE_SHAPES, null]);
    expect(fields.finderInnerShape.enum).toEqual([...FINDER_INNER_SHAPES, null]);
  });

  it('clamps creativity out of range', async () => {
    const f = await openai(JSON.stringify({ config: { primaryColor: '#000' }, explanation: '' }));
    await designQr({ prompt: 'x', creativity: 7 }, attempts, sampleSchema);
    await designQr({ prompt: 'x', creativity: Number.NaN }, attempts, sampleSchema);
    expect(f.received[0].body.temperature).toBeCloseTo(1.1);
    expect(f.received[1].body.temperature).toBeCloseTo(0.65);
  });

  it('accepts design fields flattened to the top level, and returns the corrections', async () => {
    await openai(JSON.stringify({ primaryColor: 'black', content: 'https://x.example', explanation: 'Flat.' }));
    const result = await designQr({ prompt: 'x' }, attempts, sampleSchema);
    expect(result.config).toEqual({ primaryColor: '#000000' });
    expect(result.explanation).toBe('Flat.');
    expect(result.corrections.map((c) => c.field)).toEqual(['primaryColor', 'content']);
  });

  it('a config that is not an object, or has nothing usable, is AI_CONFIG_INVALID', async () => {
    await openai(
      JSON.stringify({ config: ['#000'], explanation: '' }),
      JSON.stringify({ config: { sparkle: true, content: 'x' }, explanation: '' }),
    );
    for (let i = 0; i < 2; i++) {
      const err = await designQr({ prompt: 'x' }, attempts, sampleSchema).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ApiError);
      expect([(err as ApiError).code, (err as ApiError).status]).toEqual(['AI_CONFIG_INVALID', 422]);
    }
  });
});
