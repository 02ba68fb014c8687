import { afterEach, describe, expect, it } from 'vitest';
import type { Attempt } from '../../../src/ai/chain.js';
import { CALLER_FIELDS } from '../../../src/ai/clean-config.js';
import { designQr, type DesignInput } from '../../../src/ai/designer.js';
import type { ProviderId } from '../../../src/ai/providers.js';
import { ApiError } from '../../../src/errors.js';
import { FINDER_OUTER_SHAPES, MODULE_SHAPES } from '../../../src/model/vocabulary.js';
import { baseUrlOf, startFakeVendor, success, type FakeVendor, type WireKind } from '../fake-vendor.js';
import { sampleSchema } from '../sample-schema.js';

const KEY = 'sk-test-9f8e7d6c5b4a39281706abcdef';
const DESIGN = {
  config: { primaryColor: '#1a1a1a', backgroundColor: '#fdf8ee', moduleShape: 'square', eccLevel: 'H' },
  explanation: 'Deep black modules on ivory, with the precision of fine jewellery.',
};
const BRIEF: DesignInput = { prompt: 'elegant gold on black for a jewellery shop' };

let fake: FakeVendor | undefined;
/** Where the fake of the current test listens; every attempt of the test goes there. */
let baseUrl = '';

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function vendor(wire: WireKind): Promise<FakeVendor> {
  fake = await startFakeVendor(wire, KEY);
  baseUrl = baseUrlOf(fake, wire);
  return fake;
}

const attempt = (providerId: ProviderId, model: string): Attempt[] => [{ providerId, model, apiKey: KEY, baseUrl }];
const quiet = { log: () => {} };

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

describe('OpenAI chat wire', () => {
  it('asks for strict json_schema with the design fields only and reads choices[0].message.content', async () => {
    const f = await vendor('openai');
    f.reply(success.openai(JSON.stringify(DESIGN)));
    const result = await designQr(BRIEF, attempt('openai', 'gpt-4.1-mini'), sampleSchema);

    expect(result).toMatchObject({
      config: DESIGN.config,
      explanation: DESIGN.explanation,
      providerId: 'openai',
      model: 'gpt-4.1-mini',
      corrections: [],
    });
    expect(f.problems).toEqual([]);
    const body = f.received[0].body;
    expect(body.model).toBe('gpt-4.1-mini');
    expect(body.max_completion_tokens).toBe(8192);
    expect(body.temperature).toBeCloseTo(0.65);
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.strict).toBe(true);
    const fields = body.response_format.json_schema.schema.properties.config.properties;
    for (const callerField of CALLER_FIELDS) expect(fields).not.toHaveProperty(callerField);
    expect(fields.moduleShape.enum).toEqual([...MODULE_SHAPES, null]);
    expect(fields.gradient.type).toEqual(['object', 'null']);
    expect(fields.frame.properties.style.enum).toEqual(['none', 'banner', 'rounded-banner', null]);
  });

  it.each([
    ['fenced', `\`\`\`json\n${JSON.stringify(DESIGN, null, 2)}\n\`\`\``],
    ['wrapped in prose', `Here is your design: ${JSON.stringify(DESIGN)} Let me know if you want changes {or not}.`],
    ['fenced after prose', `Sure!\n\n\`\`\`\n${JSON.stringify(DESIGN)}\n\`\`\`\nEnjoy.`],
  ])('reads JSON that arrives %s', async (_, content) => {
    const f = await vendor('openai');
    f.reply(success.openai(content));
    const result = await designQr(BRIEF, attempt('openai', 'gpt-4.1-mini'), sampleSchema);
    expect(result.config).toEqual(DESIGN.config);
  });

  it('sends temperature 1 to reasoning models and json_object to models older than structured outputs', async () => {
    const f = await vendor('openai');
    f.reply(success.openai(JSON.stringify(DESIGN)));
    await designQr({ ...BRIEF, creativity: 0 }, attempt('openai', 'gpt-5-mini'), sampleSchema);
    await designQr(BRIEF, attempt('openai', 'gpt-3.5-turbo'), sampleSchema);
    expect(f.received[0].body.temperature).toBe(1);
    expect(f.received[0].body.reasoning_effort).toBe('low');
    expect(f.received[1].body.response_format).toEqual({ type: 'json_object' });
    expect(f.received[1].body).not.toHaveProperty('reasoning_effort');
    expect(f.problems).toEqual([]);
  });

  it('treats a refusal as no usable output', async () => {
    const f = await vendor('openai');
    f.reply(success.openai(null, { refusal: 'I cannot help with that.' }));
    const err = await failure(designQr(BRIEF, attempt('openai', 'gpt-4.1-mini'), sampleSchema, quiet));
    expect(err.code).toBe('AI_GENERATION_FAILED');
    expect(err.message).toContain('refused');
  });

  it('mistral: temperature clamped to 0–1 and max_tokens', async () => {
    const f = await vendor('openai');
    f.reply(success.openai(JSON.stringify(DESIGN)));
    await designQr({ ...BRIEF, creativity: 1 }, attempt('mistral', 'mistral-small-latest'), sampleSchema);
    expect(f.received[0].body.temperature).toBe(1);
    expect(f.received[0].body.max_tokens).toBe(8192);
    expect(f.received[0].body.response_format.json_schema.strict).toBe(true);
    expect(f.problems).toEqual([]);
  });

  it('deepseek: JSON mode only, and one retry when the content comes back blank', async () => {
    const f = await vendor('openai');
    f.reply(success.openai(''), success.openai(JSON.stringify(DESIGN)));
    const result = await designQr(BRIEF, attempt('deepseek', 'deepseek-flash'), sampleSchema);
    expect(result.config).toEqual(DESIGN.config);
    expect(f.received).toHaveLength(2);
    expect(f.received[0].body.response_format).toEqual({ type: 'json_object' });
    expect(f.problems).toEqual([]);
  });

  it('deepseek: blank twice is a generation failure', async () => {
    const f = await vendor('openai');
    f.reply(success.openai('   '));
    const err = await failure(designQr(BRIEF, attempt('deepseek', 'deepseek-flash'), sampleSchema, quiet));
    expect(err.code).toBe('AI_GENERATION_FAILED');
    expect(f.received).toHaveLength(2);
  });

  it('groq: strict json_schema only on the gpt-oss models', async () => {
    const f = await vendor('openai');
    f.reply(success.openai(JSON.stringify(DESIGN)));
    await designQr(BRIEF, attempt('groq', 'openai/gpt-oss-20b'), sampleSchema);
    await designQr(BRIEF, attempt('groq', 'llama-3.3-70b-versatile'), sampleSchema);
    expect(f.received[0].body.response_format.json_schema.strict).toBe(true);
    expect(f.received[1].body.response_format).toEqual({ type: 'json_object' });
    expect(f.received[0].body.max_completion_tokens).toBe(8192);
    expect(f.problems).toEqual([]);
  });

  it('openrouter requires providers that honour the schema; together and local get a non-strict schema', async () => {
    const f = await vendor('openai');
    f.reply(success.openai(JSON.stringify(DESIGN)));
    await designQr(BRIEF, attempt('openrouter', 'openai/gpt-4.1-mini'), sampleSchema);
    expect(f.received[0].body.provider).toEqual({ require_parameters: true });
    await f.close();

    for (const id of ['together', 'local'] as const) {
      const g = await vendor('openai');
      g.reply(success.openai(JSON.stringify(DESIGN)));
      await designQr(BRIEF, attempt(id, 'some/model'), sampleSchema);
      const rf = g.received[0].body.response_format;
      expect(rf.json_schema.strict).toBe(false);
      expect(rf.json_schema.schema.properties.config.required).toEqual([]);
      expect(g.problems).toEqual([]);
      await g.close();
    }
  });
});

describe('Anthropic messages wire', () => {
  it('forces the design tool and reads tool_use.input', async () => {
    const f = await vendor('anthropic');
    f.reply(success.anthropicTool(DESIGN));
    const result = await designQr(BRIEF, attempt('anthropic', 'claude-haiku-4-5'), sampleSchema);
    expect(result.config).toEqual(DESIGN.config);
    expect(f.problems).toEqual([]);
    const body = f.received[0].body;
    expect(body.tools[0].name).toBe('qr_design');
    expect(body.tools[0].input_schema.properties.config.properties.finderOuterShape.enum).toEqual([
      ...FINDER_OUTER_SHAPES,
    ]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'qr_design' });
    expect(body.system).toContain('Scannability');
    expect(body.temperature).toBeCloseTo(0.65);
  });

  it('takes a config sent as a JSON string, and JSON written as fenced text', async () => {
    const f = await vendor('anthropic');
    f.reply(
      success.anthropicTool({ config: JSON.stringify(DESIGN.config), explanation: 'x' }),
      success.anthropicText(`\`\`\`json\n${JSON.stringify(DESIGN)}\n\`\`\``),
    );
    expect((await designQr(BRIEF, attempt('anthropic', 'claude-haiku-4-5'), sampleSchema)).config).toEqual(
      DESIGN.config,
    );
    expect((await designQr(BRIEF, attempt('anthropic', 'claude-haiku-4-5'), sampleSchema)).config).toEqual(
      DESIGN.config,
    );
  });

  it('leaves temperature out for models that refuse it', async () => {
    const f = await vendor('anthropic');
    f.reply(success.anthropicTool(DESIGN));
    await designQr(BRIEF, attempt('anthropic', 'claude-opus-4-7'), sampleSchema);
    expect(f.received[0].body).not.toHaveProperty('temperature');
  });
});

describe('Gemini generateContent wire', () => {
  it('puts the model in the path, the key in x-goog-api-key, and skips thought parts', async () => {
    const f = await vendor('gemini');
    f.reply(success.gemini(JSON.stringify(DESIGN), 'The user wants {gold}; consider contrast...'));
    const result = await designQr(BRIEF, attempt('google', 'gemini-2.5-flash'), sampleSchema);
    expect(result.config).toEqual(DESIGN.config);
    expect(f.problems).toEqual([]);
    expect(f.received[0].model).toBe('gemini-2.5-flash');
    const gc = f.received[0].body.generationConfig;
    expect(gc.responseJsonSchema.properties.config.type).toBe('object');
    expect(gc.maxOutputTokens).toBe(8192);
  });

  it('reads fenced JSON text, and leaves Gemini 3 at its default temperature', async () => {
    const f = await vendor('gemini');
    f.reply(success.gemini(`\`\`\`json\n${JSON.stringify(DESIGN)}\n\`\`\``));
    expect((await designQr(BRIEF, attempt('google', 'gemini-3.5-flash'), sampleSchema)).config).toEqual(DESIGN.config);
    expect(f.received[0].body.generationConfig).not.toHaveProperty('temperature');
  });

  it('a blocked prompt is no usable output', async () => {
    const f = await vendor('gemini');
    f.reply({ body: { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 9 } } });
    const err = await failure(designQr(BRIEF, attempt('google', 'gemini-2.5-flash'), sampleSchema, quiet));
    expect(err.code).toBe('AI_GENERATION_FAILED');
    expect(err.message).toContain('SAFETY');
  });
});
