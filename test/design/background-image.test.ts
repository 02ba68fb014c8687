import { beforeAll, describe, expect, it } from 'vitest';
import { backgroundImageDecoration } from '../../src/design/background-image.js';
import { composite, contrastRatio, parseHex } from '../../src/model/color.js';
import type { ImageLayer } from '../../src/model/layer.js';
import type { Layout } from '../../src/model/layout.js';
import type { RenderConfig } from '../../src/model/render-config.js';
import { computeLayout } from '../../src/render/layout.js';
import { QR_DEFAULTS } from '../../src/schema/qr-config.js';
import { initCodecs } from '../../wasm/index.js';
import { image, pixel, png, type Rgba } from '../helpers/make-images.js';

beforeAll(() => initCodecs());

const config = (over: Partial<RenderConfig> = {}): RenderConfig =>
  ({ ...QR_DEFAULTS, content: 'background', ...over }) as RenderConfig;
const layoutOf = (cfg: RenderConfig, width = 400, height = width): Layout =>
  computeLayout(25, { ...cfg, outputWidth: width, outputHeight: height });

const stripes = (w: number, h: number, dark: Rgba, light: Rgba) =>
  image(w, h, (x) => (Math.floor(x / 10) % 2 ? dark : light));
const layerOf = (out: Awaited<ReturnType<typeof backgroundImageDecoration>>) => out.layers.below[0] as ImageLayer;

describe('background image placement', () => {
  it('cover fills the canvas, cropping the centre of the image', async () => {
    const cfg = config({ backgroundImageOpacity: 0.2 });
    // 800 × 200: left and right quarters are cut away on a square canvas.
    const wide = image(800, 200, (x) => (x < 300 || x >= 500 ? [0, 0, 0, 255] : [250, 250, 250, 255]));
    const layer = layerOf(await backgroundImageDecoration(cfg, png(wide), layoutOf(cfg)));
    expect(layer).toMatchObject({ kind: 'image', space: 'canvas', box: { x: 0, y: 0, w: 400, h: 400 }, opacity: 1 });
    const px = layer.image;
    expect(px).toMatchObject({ width: 200, height: 200 });
    // The opacity is baked into the alpha channel.
    expect(pixel(px, 100, 100)).toEqual([250, 250, 250, Math.floor(255 * 0.2)]);
  });

  it('contain letterboxes, aspect ratio kept, and never embeds more pixels than it covers', async () => {
    const cfg = config({ backgroundImageFit: 'contain', backgroundImageOpacity: 0.2 });
    const layer = layerOf(
      await backgroundImageDecoration(cfg, png(image(1600, 800, () => [240, 240, 200, 255])), layoutOf(cfg)),
    );
    expect(layer.box).toEqual({ x: 0, y: 100, w: 400, h: 200 });
    expect(layer.image).toMatchObject({ width: 400, height: 200 });
  });
});

describe('background image contrast', () => {
  it('keeps the requested opacity when the image is light enough', async () => {
    const cfg = config({ backgroundImageOpacity: 0.6 });
    const out = await backgroundImageDecoration(
      cfg,
      png(stripes(400, 400, [200, 220, 255, 255], [255, 255, 240, 255])),
      layoutOf(cfg),
    );
    expect(out.corrections).toEqual([]);
    expect(pixel(layerOf(out).image, 200, 200)[3]).toBe(Math.floor(255 * 0.6));
  });

  it('lowers the opacity of a dark image until every module keeps 4:1, and reports it', async () => {
    const cfg = config({ backgroundImageOpacity: 0.9, primaryColor: '#203060' });
    const out = await backgroundImageDecoration(
      cfg,
      png(stripes(400, 400, [10, 10, 30, 255], [240, 240, 240, 255])),
      layoutOf(cfg),
    );
    const opacity = out.corrections[0]!.to as number;
    expect(out.corrections).toEqual([
      { field: 'backgroundImageOpacity', from: 0.9, to: opacity, reason: expect.stringMatching(/4:1/) },
    ]);
    expect(pixel(layerOf(out).image, 200, 200)[3]).toBe(Math.floor(255 * opacity));
    expect(out.warnings[0]).toMatch(/lowered from 0.9/);
    // The darkest blended pixel, the module colour over it: at least 4:1 at the chosen opacity, under it one step up.
    const fg = parseHex('#203060');
    const blend = (a: number) => composite({ r: 10, g: 10, b: 30, a: Math.round(a * 255) }, parseHex('#FFFFFF'));
    expect(contrastRatio(fg, blend(opacity))).toBeGreaterThanOrEqual(4);
    expect(contrastRatio(fg, blend(opacity + 0.02))).toBeLessThan(4.1);
  });

  it('light modules on a dark background: a light image is what gets faded', async () => {
    const cfg = config({ backgroundImageOpacity: 1, primaryColor: '#F0F0F0', backgroundColor: '#101010' });
    const out = await backgroundImageDecoration(
      cfg,
      png(stripes(400, 400, [30, 30, 30, 255], [250, 250, 250, 255])),
      layoutOf(cfg),
    );
    expect(out.corrections[0]).toMatchObject({ field: 'backgroundImageOpacity', from: 1 });
    expect(out.corrections[0]!.to).toBeLessThan(0.5);
  });
});

describe('quiet zone', () => {
  it('outside the symbol the image is faded to within a quarter of the background-to-module grey distance', async () => {
    const cfg = config({ backgroundImageOpacity: 0.5 });
    const layout = layoutOf(cfg);
    const layer = layerOf(
      await backgroundImageDecoration(cfg, png(stripes(400, 400, [90, 90, 90, 255], [255, 255, 255, 255])), layout),
    );
    const px = layer.image;
    const grey = (c: Rgba) => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
    // Seen over the white background.
    const seen = (c: Rgba) => 255 + (c[3] / 255) * (grey(c) - 255);
    const symbolEnd = layout.originX + layout.size * layout.modulePx;
    let outside = 0;
    let darkest = 0;
    for (let y = 0; y < px.height; y++) {
      for (let x = 0; x < px.width; x++) {
        if (x >= layout.originX && y >= layout.originY && x < symbolEnd && y < symbolEnd) continue;
        outside++;
        darkest = Math.max(darkest, 255 - seen(pixel(px, x, y)));
      }
    }
    expect(outside).toBeGreaterThan(0);
    expect(darkest).toBeLessThanOrEqual(255 / 4 + 1);
    // Well inside the symbol the stripes are drawn as they are.
    const mid = Math.floor(layout.originX + (layout.size * layout.modulePx) / 2);
    const inside = [0, 10].map((dx) => pixel(px, mid + dx, mid));
    expect(inside.map((c) => c[3])).toEqual([127, 127]);
    expect(inside.map((c) => c[0]).sort()).toEqual([255, 90].sort());
  });
});
