import { beforeAll, describe, expect, it } from 'vitest';
import { frameOf } from '../../src/design/frames.js';
import { roundOutline } from '../../src/design/round-shape.js';
import { textInsets } from '../../src/design/insets.js';
import { FRAME_STYLES, type FrameStyle } from '../../src/model/vocabulary.js';
import { decode, lightness, prepare, rasterize, type Raster } from './scan.js';
import { configOf, darkInQuietZone, drawDesign, symbolBounds } from './text-render.js';

beforeAll(prepare);

const content = 'https://example.com/menu?table=12';
const REQUIRED = [
  'box-bottom',
  'box-top',
  'banner-top',
  'banner-bottom',
  'balloon-bottom',
  'balloon-top',
  'circular',
  'text-only',
  'focus',
  'scan-corners',
];

const draw = (design: Record<string, unknown>) => drawDesign(configOf({ content, outputWidth: 400, ...design }));

/** Pixels that differ between two renders of one size, split by whether they fall inside `box`. */
function differences(a: Raster, b: Raster, [x0, y0, x1, y1]: [number, number, number, number]) {
  let inside = 0;
  let outside = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (lightness(a, x, y) === lightness(b, x, y)) continue;
      if (x >= x0 && x < x1 && y >= y0 && y < y1) inside++;
      else outside++;
    }
  }
  return { inside, outside };
}

const colourCount = (r: Raster, [red, green, blue]: [number, number, number]) => {
  let n = 0;
  for (let i = 0; i < r.pixels.length; i += 4)
    if (
      Math.abs(r.pixels[i]! - red) < 40 &&
      Math.abs(r.pixels[i + 1]! - green) < 40 &&
      Math.abs(r.pixels[i + 2]! - blue) < 40
    )
      n++;
  return n;
};

describe('frame names', () => {
  it('include the ten styles of the contract and more, in kebab-case', () => {
    expect(FRAME_STYLES).toEqual(expect.arrayContaining(['none', ...REQUIRED]));
    expect(FRAME_STYLES.length).toBeGreaterThanOrEqual(12);
    for (const name of FRAME_STYLES) expect(name).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });
});

describe('without text, frame or rounding', () => {
  it('takes no space and draws nothing, so a plain code renders exactly as before', () => {
    const cfg = configOf({ content });
    expect(textInsets(cfg, 800, 800)).toEqual({ top: 0, right: 0, bottom: 0, left: 0 });
    const { decorations } = draw({});
    expect(decorations).toEqual({ layers: { below: [], above: [] }, corrections: [], warnings: [] });
  });
});

describe.each(FRAME_STYLES)('frame %s', (frameStyle: FrameStyle) => {
  it('keeps the canvas size, leaves the quiet zone clear, draws text as outlines, and the code decodes', async () => {
    const { layout, svg } = draw({ frameStyle, ctaText: 'Scan me' });
    expect([layout.width, layout.height]).toEqual([400, 400]);
    expect(svg).not.toContain('<text');
    const r = rasterize(svg);
    expect(darkInQuietZone(r, layout)).toBe(0);
    expect(await decode(r)).toEqual([content]);
  });

  it('draws its caption outside the code block, where the pixels change with the text', () => {
    const a = draw({ frameStyle, ctaText: 'AAAA' });
    const b = draw({ frameStyle, ctaText: 'WWWW' });
    expect(a.layout).toEqual(b.layout);
    const d = differences(rasterize(a.svg), rasterize(b.svg), symbolBounds(a.layout, a.layout.quietZone));
    expect(d.inside).toBe(0);
    expect(d.outside).toBeGreaterThan(50);
  });

  it('shows "SCAN ME" without ctaText when it has a place for text, and nothing otherwise', () => {
    const bare = draw({ frameStyle });
    if (frameOf(frameStyle).slot) expect(bare.svg).toBe(draw({ frameStyle, ctaText: 'SCAN ME' }).svg);
    else expect(bare.decorations.layers.below.length).toBe(frameStyle === 'none' ? 0 : 1);
  });
});

describe('frame sizes', () => {
  it('shrink the code, never the canvas, on a wide canvas too', async () => {
    for (const frameStyle of ['box-bottom', 'circular', 'banner-top'] as const) {
      const { layout, svg } = draw({ frameStyle, outputWidth: 600, outputHeight: 400, ctaText: 'Wide' });
      expect([layout.width, layout.height]).toEqual([600, 400]);
      const plain = draw({ outputWidth: 600, outputHeight: 400 });
      expect(layout.modulePx).toBeLessThan(plain.layout.modulePx);
      expect(await decode(rasterize(svg))).toEqual([content]);
    }
  });

  it('insets are whole pixels', () => {
    for (const frameStyle of FRAME_STYLES) {
      const i = textInsets(configOf({ content, frameStyle, ctaText: 'x', qrShapeRadius: 17 }), 777, 555);
      for (const v of Object.values(i)) expect(Number.isInteger(v) && v >= 0).toBe(true);
    }
  });
});

describe('frame colours', () => {
  it('frameColor paints the frame, frameTextColor its caption', () => {
    const r = rasterize(
      draw({ frameStyle: 'box-bottom', ctaText: 'COLOURS', frameColor: '#0000FF', frameTextColor: '#FF0000' }).svg,
    );
    expect(colourCount(r, [0, 0, 255])).toBeGreaterThan(2000);
    expect(colourCount(r, [255, 0, 0])).toBeGreaterThan(200);
  });

  it('a filled band shows its caption in the background colour, an open frame in the primary colour', () => {
    const filled = rasterize(
      draw({ frameStyle: 'banner-bottom', primaryColor: '#003300', backgroundColor: '#FFFFCC' }).svg,
    );
    const open = rasterize(draw({ frameStyle: 'text-only', primaryColor: '#003300', backgroundColor: '#FFFFCC' }).svg);
    const box = (r: Raster) => {
      // Count background-coloured pixels in the lowest fifth of the canvas: band text, or plain canvas.
      let n = 0;
      for (let y = Math.floor(r.height * 0.8); y < r.height; y++)
        for (let x = 0; x < r.width; x++) if (lightness(r, x, y) > 240) n++;
      return n;
    };
    expect(box(filled)).toBeLessThan(box(open));
  });

  it('ctaTextColor colours a plain caption', () => {
    const r = rasterize(draw({ ctaText: 'GREEN', ctaTextColor: '#00AA00' }).svg);
    expect(colourCount(r, [0, 170, 0])).toBeGreaterThan(200);
  });
});

describe('captions', () => {
  it('a long caption is shrunk, then cut with an ellipsis and a warning', async () => {
    const { decorations, svg } = draw({
      frameStyle: 'box-bottom',
      ctaText: 'Scan this code with your phone camera to open the full menu, prices and allergens',
    });
    expect(decorations.warnings).toEqual([
      expect.stringMatching(/^ctaText was shortened to ".+…" to fit the frame\.$/),
    ]);
    expect(await decode(rasterize(svg))).toEqual([content]);
  });

  it('accented captions draw their own glyphs; characters no font has are reported', () => {
    expect(draw({ ctaText: 'Zażółć gęślą jaźń — ß é' }).decorations.warnings).toEqual([]);
    expect(draw({ ctaText: 'Menu 東京' }).decorations.warnings).toEqual([
      expect.stringMatching(/^ctaText: no bundled typeface has 東 \(U\+6771\), 京 \(U\+4EAC\)/),
    ]);
  });

  it('a frame whose caption has nothing drawable keeps its band empty, and says so', () => {
    for (const frameStyle of ['box-bottom', 'circular'] as const) {
      const { decorations, svg } = draw({ frameStyle, ctaText: '東京' });
      expect(decorations.warnings).toEqual([expect.stringMatching(/nothing of ctaText is left to draw/)]);
      // The frame alone: one layer, the same as the frame's drawing with a caption of a lone space.
      expect(decorations.layers.below).toHaveLength(1);
      expect(svg).toBe(draw({ frameStyle, ctaText: ' ' }).svg);
    }
  });

  it('every family draws a caption', () => {
    const widths = new Set<string>();
    for (const fontFamily of ['sans', 'serif', 'mono', 'rounded', 'display'] as const)
      widths.add(draw({ ctaText: 'Scan me', fontFamily }).svg);
    expect(widths.size).toBe(5);
  });
});

describe('qrShapeRadius', () => {
  it('0 draws nothing', () => {
    expect(draw({ qrShapeRadius: 0 }).svg).toBe(draw({}).svg);
  });

  it.each([10, 25, 50])(
    '%i surrounds the untouched symbol and quiet zone with decoration modules, and decodes',
    async (qrShapeRadius) => {
      const { layout, svg } = draw({ qrShapeRadius, moduleShape: 'dots' });
      const r = rasterize(svg);
      expect(darkInQuietZone(r, layout, layout.quietZone)).toBe(0);
      const [x0, y0, x1, y1] = symbolBounds(layout, layout.quietZone);
      let decoration = 0;
      for (let y = 0; y < r.height; y++)
        for (let x = 0; x < r.width; x++)
          if ((x < x0 || x >= x1 || y < y0 || y >= y1) && lightness(r, x, y) < 128) decoration++;
      expect(decoration).toBeGreaterThan(1000);
      expect(await decode(r)).toEqual([content]);
    },
  );

  it('50 is a circle: nothing beyond it in the corners of its square', () => {
    const { layout, svg } = draw({ qrShapeRadius: 50 });
    const r = rasterize(svg);
    const outline = roundOutline(50, (layout.size + 2 * layout.quietZone) * layout.modulePx)!;
    expect(outline.corner).toBeCloseTo(outline.side / 2, 6);
    const [cx, cy] = [
      layout.originX + (layout.size * layout.modulePx) / 2,
      layout.originY + (layout.size * layout.modulePx) / 2,
    ];
    let beyond = 0;
    for (let y = 0; y < r.height; y++)
      for (let x = 0; x < r.width; x++)
        if (Math.hypot(x + 0.5 - cx, y + 0.5 - cy) > outline.side / 2 + 1 && lightness(r, x, y) < 128) beyond++;
    expect(beyond).toBe(0);
  });

  it('decodes inside every frame', async () => {
    for (const frameStyle of FRAME_STYLES) {
      const { layout, svg } = draw({ frameStyle, qrShapeRadius: 35, ctaText: 'Round' });
      const r = rasterize(svg);
      expect(darkInQuietZone(r, layout)).toBe(0);
      expect(await decode(r), frameStyle).toEqual([content]);
    }
  });
});
