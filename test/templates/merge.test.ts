/** How a request body lands on a template: the merge, then the two validations the route runs. */
import { describe, expect, it } from 'vitest';
import type { ApiError } from '../../src/errors.js';
import type { TemplateConfig } from '../../src/templates/check.js';
import { mergeOverTemplate } from '../../src/templates/merge.js';

const { validate } = (await import(
  new URL('../../dist/src/schema/validate.js', import.meta.url).href
)) as typeof import('../../src/schema/validate.js');

const template = Object.freeze<TemplateConfig>({
  primaryColor: '#5A0F2E',
  backgroundColor: '#F8F1E9',
  foregroundGradient: {
    type: 'linear',
    rotation: 45,
    stops: [
      { offset: 0, color: '#5A0F2E' },
      { offset: 1, color: '#3D0A1F' },
    ],
  },
  finderEyes: [{ outerColor: '#111111' }, { outerColor: '#222222' }],
  moduleShape: 'classy-rounded',
  centerText: { text: 'WINE LIST', color: '#F8F1E9', backgroundColor: '#5A0F2E' },
  eccLevel: 'H',
});

/** The code and field of the ApiError `fn` throws (the build's class, so matched by name, not instanceof). */
const apiError = (fn: () => unknown): { code: string; field: string | undefined } => {
  try {
    fn();
  } catch (e) {
    if ((e as Error).name === 'ApiError') return { code: (e as ApiError).code, field: (e as ApiError).field };
    throw e;
  }
  throw new Error('expected an ApiError');
};

describe('mergeOverTemplate', () => {
  it('keeps the template where the body says nothing', () => {
    expect(mergeOverTemplate(template, { content: 'x' })).toEqual({ ...template, content: 'x' });
  });

  it('merges objects key by key: one nested field changes, its siblings stay', () => {
    const merged = mergeOverTemplate(template, { centerText: { text: 'CARTE DES VINS' } });
    expect(merged.centerText).toEqual({ text: 'CARTE DES VINS', color: '#F8F1E9', backgroundColor: '#5A0F2E' });
    expect(mergeOverTemplate(template, { centerText: { fontSize: 30 } }).centerText).toEqual({
      ...template.centerText,
      fontSize: 30,
    });
  });

  it('replaces arrays and scalars whole', () => {
    const merged = mergeOverTemplate(template, {
      finderEyes: [{ innerColor: '#000000' }],
      moduleShape: 'dots',
      eccLevel: 'Q',
    });
    expect(merged.finderEyes).toEqual([{ innerColor: '#000000' }]);
    expect(merged).toMatchObject({ moduleShape: 'dots', eccLevel: 'Q' });
  });

  it('a colour the body sets displaces the template gradient that would paint over it', () => {
    const merged = mergeOverTemplate(template, { primaryColor: '#000000' });
    expect(merged.primaryColor).toBe('#000000');
    expect(merged).not.toHaveProperty('foregroundGradient');
  });

  it('a body that sets a colour and a gradient keeps both, and the gradient merges key by key', () => {
    const merged = mergeOverTemplate(template, { primaryColor: '#000000', foregroundGradient: { rotation: 90 } });
    expect(merged.foregroundGradient).toEqual({ ...template.foregroundGradient, rotation: 90 });
  });

  it('never changes the template nor shares objects with it', () => {
    const before = JSON.stringify(template);
    const merged = mergeOverTemplate(template, { centerText: { text: 'NEW' } });
    (merged.finderEyes as object[]).push({});
    expect(merged.foregroundGradient).not.toBe(template.foregroundGradient);
    expect(JSON.stringify(template)).toBe(before);
  });
});

describe('override validation, then validation of the merged config', () => {
  it('an override may name a single nested field', () => {
    expect(validate('qrTemplateOverride', { centerText: { color: '#000000' } })).toEqual({
      centerText: { color: '#000000' },
    });
    expect(validate('qrTemplateOverride', { foregroundGradient: { rotation: 90 } })).toBeTruthy();
    expect(validate('qrTemplateOverride', {})).toEqual({});
  });

  it('keeps every other rule: unknown fields, colours, bounds, array items', () => {
    expect(apiError(() => validate('qrTemplateOverride', { primaryColour: '#000000' }))).toEqual({
      code: 'INVALID_FIELD_VALUE',
      field: 'primaryColour',
    });
    expect(apiError(() => validate('qrTemplateOverride', { centerText: { color: 'red' } }))).toEqual({
      code: 'INVALID_HEX',
      field: 'centerText.color',
    });
    expect(apiError(() => validate('qrTemplateOverride', { outputWidth: 9000 }))).toEqual({
      code: 'VALUE_OUT_OF_RANGE',
      field: 'outputWidth',
    });
    expect(apiError(() => validate('qrTemplateOverride', { content: '' }))).toEqual({
      code: 'MISSING_REQUIRED_FIELD',
      field: 'content',
    });
    expect(
      apiError(() =>
        validate('qrTemplateOverride', {
          foregroundGradient: { stops: [{ offset: 0 }, { offset: 1, color: '#000' }] },
        }),
      ),
    ).toEqual({ code: 'MISSING_REQUIRED_FIELD', field: 'foregroundGradient.stops.0.color' });
  });

  it('after the merge, content and nested required fields are required again', () => {
    expect(apiError(() => validate('qrConfig', mergeOverTemplate(template, { outputWidth: 1200 })))).toEqual({
      code: 'MISSING_REQUIRED_FIELD',
      field: 'content',
    });
    const { centerText: _, ...plain } = template;
    expect(
      apiError(() =>
        validate('qrConfig', mergeOverTemplate(plain, { content: 'x', centerText: { color: '#000000' } })),
      ),
    ).toEqual({ code: 'MISSING_REQUIRED_FIELD', field: 'centerText.text' });
    expect(
      validate('qrConfig', mergeOverTemplate(template, { content: 'x', centerText: { color: '#000000' } })),
    ).toBeTruthy();
  });
});
