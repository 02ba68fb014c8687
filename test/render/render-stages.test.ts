import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { contrastRatio, effectiveContrast, parseHex } from '../../src/model/color.js';
import { textInsets } from '../../src/design/insets.js';
import type { RenderConfig } from '../../src/model/render-config.js';
import { FRAME_STYLES } from '../../src/model/vocabulary.js';
import { computeLayout } from '../../src/render/layout.js';
import { BUDGETS, checkCanvasBudget, checkVectorBudget } from '../../src/render/pipeline.js';
import { configOf } from '../design/text-render.js';

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

  describe('pixelsPerModule with a frame, caption or rounded outline: the canvas grows to hold them', () => {
    const cases: Partial<RenderConfig>[] = [
      ...FRAME_STYLES.filter((f) => f !== 'none').map((frameStyle) => ({ frameStyle })),
      { ctaText: 'Scan me' },
      { frameStyle: 'circular', ctaText: 'Scan me' },
      { qrShapeRadius: 50 },
      { qrShapeRadius: 20, frameStyle: 'box-bottom', ctaText: 'Scan me' },
    ];
    for (const design of cases) {
      it(JSON.stringify(design), () => {
        const cfg = configOf({ content: 'x', ...design });
        const insets = (w: number, h: number) => textInsets(cfg, w, h);
        const l = computeLayout(25, { quietZone: 4, pixelsPerModule: 9 }, insets);
        const block = 33 * 9;
        expect(l).toMatchObject({ modulePx: 9, height: l.width });
        expect(l.width).toBeGreaterThan(block);
        // The code and its quiet zone lie inside the room the decoration leaves.
        const i = insets(l.width, l.height);
        expect(l.originX - 4 * 9).toBeGreaterThanOrEqual(i.left);
        expect(l.originY - 4 * 9).toBeGreaterThanOrEqual(i.top);
        expect(l.originX + (25 + 4) * 9).toBeLessThanOrEqual(l.width - i.right);
        expect(l.originY + (25 + 4) * 9).toBeLessThanOrEqual(l.height - i.bottom);
        // The smallest such canvas: one pixel less no longer holds the block at this pitch.
        const j = insets(l.width - 1, l.height - 1);
        expect(Math.min(l.width - 1 - j.left - j.right, l.height - 1 - j.top - j.bottom)).toBeLessThan(block);
      });
    }

    it('a fixed outputHeight keeps its height; the width grows', () => {
      const cfg = configOf({ content: 'x', frameStyle: 'box-bottom' });
      const l = computeLayout(25, { quietZone: 4, pixelsPerModule: 9, outputHeight: 600 }, (w, h) =>
        textInsets(cfg, w, h),
      );
      expect(l).toMatchObject({ modulePx: 9, height: 600 });
      expect(l.width).toBeGreaterThan(33 * 9);
      // A height that cannot hold the frame and the block is not made up for by width: refused as before.
      expect(() =>
        computeLayout(25, { quietZone: 4, pixelsPerModule: 9, outputHeight: 310 }, (w, h) => textInsets(cfg, w, h)),
      ).toThrow(expect.objectContaining({ code: 'VALUE_OUT_OF_RANGE', field: 'pixelsPerModule' }));
    });

    it('a canvas that would pass the size limit is refused naming pixelsPerModule', () => {
      const cfg = configOf({ content: 'x', frameStyle: 'circular', ctaText: 'Scan me' });
      // 41 modules at 90 px are 3690 px: within the limit bare, over it with the ring around.
      expect(computeLayout(25, { quietZone: 8, pixelsPerModule: 90 }).width).toBe(3690);
      try {
        computeLayout(25, { quietZone: 8, pixelsPerModule: 90 }, (w, h) => textInsets(cfg, w, h));
        expect.unreachable();
      } catch (e) {
        expect(e).toMatchObject({
          code: 'VALUE_OUT_OF_RANGE',
          field: 'pixelsPerModule',
          message: expect.stringMatching(/with the frame, caption or rounded outline around them.*maximum is 4096 px/),
        });
      }
    });
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
  it('vector documents over 20 MB and canvases over 5120 px are OUTPUT_TOO_COMPLEX, naming the format and budget', () => {
    expect(() => checkVectorBudget(BUDGETS.vectorBytes, 'pdf')).not.toThrow();
    expect(() => checkVectorBudget(BUDGETS.vectorBytes + 1, 'pdf')).toThrow(
      expect.objectContaining({
        code: 'OUTPUT_TOO_COMPLEX',
        status: 422,
        message: expect.stringMatching(/^The PDF .* over the 20 MB vector budget/),
      }),
    );
    const layout = computeLayout(21, { quietZone: 4 });
    expect(() => checkCanvasBudget({ ...layout, width: 5121 }, 'webp')).toThrow(
      expect.objectContaining({
        code: 'OUTPUT_TOO_COMPLEX',
        message: expect.stringMatching(/^The WebP's canvas .* over the 5120 px canvas budget/),
      }),
    );
    expect(() => checkCanvasBudget({ ...layout, width: 5120, height: 5120 }, 'png')).not.toThrow();
  });
});
