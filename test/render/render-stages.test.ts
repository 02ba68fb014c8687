import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { contrastRatio, effectiveContrast, parseHex } from '../../src/model/color.js';
import { computeLayout } from '../../src/render/layout.js';
import { BUDGETS, checkCanvasBudget, checkVectorBudget } from '../../src/render/pipeline.js';

describe('layout', () => {
  it('modules are the largest whole number of pixels that fit; leftovers widen the quiet zone evenly', () => {
    const l = computeLayout(33, { quietZone: 4 });
    expect(l).toMatchObject({ width: 800, height: 800, modulePx: 19 });
    expect(l.originX).toBe(Math.floor((800 - 33 * 19) / 2));
    expect(l.originX).toBeGreaterThanOrEqual(4 * 19);
  });

  it('pixelsPerModule alone sizes the canvas; with a width it must fit', () => {
    expect(computeLayout(21, { quietZone: 4, pixelsPerModule: 8 })).toMatchObject({
      width: 232,
      height: 232,
      modulePx: 8,
      originX: 32,
    });
    expect(() => computeLayout(21, { quietZone: 4, outputWidth: 100, pixelsPerModule: 8 })).toThrow(ApiError);
  });

  it('a canvas too small for the symbol is refused naming the size field', () => {
    try {
      computeLayout(177, { quietZone: 4, outputWidth: 100 });
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ code: 'VALUE_OUT_OF_RANGE', field: 'outputWidth' });
    }
  });
});

describe('colour', () => {
  it('WCAG contrast matches published values', () => {
    expect(contrastRatio(parseHex('#000'), parseHex('#fff'))).toBeCloseTo(21, 5);
    expect(contrastRatio(parseHex('#777777'), parseHex('#ffffff'))).toBeCloseTo(4.48, 2);
    expect(contrastRatio(parseHex('#0000ff'), parseHex('#ffffff'))).toBeCloseTo(8.59, 2);
  });

  it('alpha is composited: a translucent foreground loses contrast, a transparent background is read as white', () => {
    expect(effectiveContrast(parseHex('#00000080'), parseHex('#ffffff'))).toBeLessThan(5);
    expect(effectiveContrast(parseHex('#000000'), parseHex('#00000000'))).toBeCloseTo(21, 5);
  });
});

describe('budgets', () => {
  it('vector documents over 20 MB and canvases over 5120 px are OUTPUT_TOO_COMPLEX', () => {
    expect(() => checkVectorBudget(BUDGETS.vectorBytes)).not.toThrow();
    expect(() => checkVectorBudget(BUDGETS.vectorBytes + 1)).toThrow(
      expect.objectContaining({ code: 'OUTPUT_TOO_COMPLEX', status: 422 }),
    );
    const layout = computeLayout(21, { quietZone: 4 });
    expect(() => checkCanvasBudget({ ...layout, width: 5121 })).toThrow(
      expect.objectContaining({ code: 'OUTPUT_TOO_COMPLEX' }),
    );
    expect(() => checkCanvasBudget({ ...layout, width: 5120, height: 5120 })).not.toThrow();
  });
});
