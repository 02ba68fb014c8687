import { describe, expect, it } from 'vitest';
import { CALLER_FIELDS, cleanConfig, nearestName } from '../../src/ai/clean-config.js';
import { toHexColor } from '../../src/ai/colors.js';
import type { JsonSchema } from '../../src/ai/json-schema.js';
import { ApiError } from '../../src/errors.js';
import { sampleSchema } from './sample-schema.js';

/** The sample schema with shape enums, as the designer hands it to the cleaner. */
const schema = {
  ...sampleSchema,
  properties: {
    ...sampleSchema.properties,
    moduleShape: { type: 'string', enum: ['square', 'dots', 'rounded-square', 'diamond', 'classy-rounded'] },
    finderOuterShape: { type: 'string', enum: ['square', 'rounded', 'circle'] },
  },
} as const satisfies JsonSchema;

describe('cleanConfig', () => {
  it('repairs a config full of invalid values and records every change', () => {
    const raw = {
      content: 'https://evil.example',
      logoUrl: 'https://evil.example/logo.png',
      outputWidth: 4096,
      fileFormat: 'pdf',
      primaryColor: 'gold',
      backgroundColor: 'rgb(10, 20, 30)',
      moduleShape: 'Rounded_Square',
      finderOuterShape: 'circel',
      finderInnerShape: 'square',
      eccLevel: 'Z',
      moduleScale: '0.8',
      moduleSizeVariation: 0.5,
      pixelsPerModule: 12,
      minVersion: 12.6,
      logoSizePercent: -5,
      transparentBackground: 'false',
      qrShapeRadius: 'very round',
      gradient: {
        type: 'Linear',
        colors: ['#abc', 'navy', 'not-a-colour', 'teal', 'white', 'black'],
        angle: 400,
        spin: true,
      },
      frame: { style: 'rounded banner', color: 'hsl(120, 100%, 25%)' },
      sparkles: true,
    };
    const { config, corrections } = cleanConfig(raw, schema);

    expect(config).toEqual({
      primaryColor: '#ffd700',
      backgroundColor: '#0a141e',
      moduleShape: 'rounded-square',
      finderOuterShape: 'circle',
      finderInnerShape: 'square',
      eccLevel: 'M',
      moduleScale: 0.8,
      moduleSizeVariation: 0.15,
      minVersion: 13,
      logoSizePercent: 3,
      transparentBackground: false,
      gradient: { type: 'linear', colors: ['#abc', '#000080', '#008080', '#ffffff'], angle: 360 },
      frame: { style: 'rounded-banner', color: '#008000' },
    });

    const byField = Object.fromEntries(corrections.map((c) => [c.field, c]));
    for (const f of ['content', 'logoUrl', 'outputWidth', 'fileFormat', 'pixelsPerModule']) {
      expect(byField[f]).toMatchObject({ reason: 'set by the caller, not by the AI' });
      expect(byField[f]).not.toHaveProperty('to');
    }
    expect(byField.primaryColor).toEqual({
      field: 'primaryColor',
      from: 'gold',
      to: '#ffd700',
      reason: 'colour converted to hex',
    });
    expect(byField.moduleShape).toMatchObject({ from: 'Rounded_Square', to: 'rounded-square' });
    expect(byField.finderOuterShape).toMatchObject({ from: 'circel', to: 'circle' });
    expect(byField.eccLevel).toMatchObject({ from: 'Z', to: 'M', reason: 'unknown value; default used' });
    expect(byField.moduleScale).toMatchObject({ from: '0.8', to: 0.8, reason: 'number given as text' });
    expect(byField.moduleSizeVariation).toMatchObject({ to: 0.15, reason: 'lowered to the maximum 0.15' });
    expect(byField.minVersion).toMatchObject({ to: 13, reason: 'rounded to a whole number' });
    expect(byField.logoSizePercent).toMatchObject({ to: 3 });
    expect(byField.transparentBackground).toMatchObject({ to: false });
    expect(byField.qrShapeRadius).toEqual({ field: 'qrShapeRadius', from: 'very round', reason: 'expected a number' });
    expect(byField['gradient.colors[2]']).toMatchObject({ from: 'not-a-colour', reason: 'not a colour' });
    expect(byField['gradient.colors']).toMatchObject({ reason: 'cut to 4 items' });
    expect(byField['gradient.angle']).toMatchObject({ to: 360 });
    expect(byField['gradient.spin']).toMatchObject({ reason: 'unknown field' });
    expect(byField.sparkles).toMatchObject({ reason: 'unknown field' });
    expect(byField['frame.style']).toMatchObject({ to: 'rounded-banner' });
    expect(corrections.every((c) => typeof c.reason === 'string' && c.reason !== '')).toBe(true);
  });

  it('drops nulls silently: strict structured output says "not set" that way', () => {
    expect(cleanConfig({ primaryColor: '#000', moduleScale: null, gradient: null }, schema)).toEqual({
      config: { primaryColor: '#000' },
      corrections: [],
    });
  });

  it('drops every caller-controlled field', () => {
    const raw = Object.fromEntries(CALLER_FIELDS.map((f) => [f, f === 'centerText' ? { text: 'hi' } : 'x']));
    const { config, corrections } = cleanConfig({ ...raw, primaryColor: '#000' }, schema);
    expect(config).toEqual({ primaryColor: '#000' });
    expect(corrections.map((c) => c.field).sort()).toEqual([...CALLER_FIELDS].sort());
  });

  it('leaves a valid config untouched', () => {
    const good = {
      primaryColor: '#112233',
      backgroundColor: '#FFFFFFCC',
      moduleShape: 'dots',
      moduleScale: 0.9,
      gradient: { type: 'radial', colors: ['#000', '#333'] },
    };
    expect(cleanConfig(good, schema)).toEqual({ config: good, corrections: [] });
  });

  it('drops an enum value nothing resembles, and a list too short after cleaning', () => {
    const { config, corrections } = cleanConfig(
      { moduleShape: 'hexagon-star-burst', gradient: { type: 'linear', colors: ['#000', 'plaid'] } },
      schema,
    );
    expect(config).toEqual({});
    expect(corrections.map((c) => c.field)).toEqual([
      'moduleShape',
      'gradient.colors[1]',
      'gradient.colors',
      'gradient',
    ]);
    expect(corrections.at(-1)).toMatchObject({ reason: 'lacks colors' });
  });

  it('takes nested objects sent as JSON text', () => {
    const { config } = cleanConfig({ gradient: '{"type":"radial","colors":["#fff","#000"]}' }, schema);
    expect(config).toEqual({ gradient: { type: 'radial', colors: ['#fff', '#000'] } });
  });

  it('refuses a config that is not an object: AI_CONFIG_INVALID', () => {
    for (const raw of ['a string', 42, null, [{ primaryColor: '#000' }]]) {
      expect(() => cleanConfig(raw, schema)).toThrowError(ApiError);
      try {
        cleanConfig(raw, schema);
      } catch (e) {
        expect((e as ApiError).code).toBe('AI_CONFIG_INVALID');
      }
    }
  });

  it('ignores a __proto__ key instead of polluting the result', () => {
    const { config } = cleanConfig(JSON.parse('{"__proto__": {"polluted": true}, "primaryColor": "#000"}'), schema);
    expect(Object.getPrototypeOf(config)).toBe(Object.prototype);
    expect(config).toEqual({ primaryColor: '#000' });
  });
});

describe('nearestName', () => {
  const names = ['square', 'dots', 'rounded-square', 'diamond', 'classy-rounded'];
  it.each([
    ['ROUNDED SQUARE', 'rounded-square'],
    ['classy_rounded', 'classy-rounded'],
    ['dot', 'dots'],
    ['small-dots', 'dots'],
    ['diamand', 'diamond'],
    ['sqaure', 'square'],
  ])('%s → %s', (input, expected) => expect(nearestName(input, names)).toBe(expected));

  it('returns undefined when nothing is close', () => {
    expect(nearestName('hexagon', names)).toBeUndefined();
    expect(nearestName('', names)).toBeUndefined();
  });
});

describe('toHexColor', () => {
  it.each([
    ['#abc', '#abc'],
    ['ABCDEF', '#ABCDEF'],
    ['#abcd', '#aabbccdd'],
    ['gold', '#ffd700'],
    ['Rose Gold', '#b76e79'],
    ['rgb(255, 0, 0)', '#ff0000'],
    ['rgba(0,0,0,0.5)', '#00000080'],
    ['rgb(100% 50% 0%)', '#ff8000'],
    ['hsl(0, 100%, 50%)', '#ff0000'],
    ['transparent', '#00000000'],
  ])('%s → %s', (input, expected) => expect(toHexColor(input)).toBe(expected));

  it.each(['gold-ish', '#12345', 'rgb(1,2)', 'url(x)'])('%s → undefined', (input) =>
    expect(toHexColor(input)).toBeUndefined(),
  );
});
