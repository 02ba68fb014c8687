/**
 * The verifier's reads of a raster, made in our WASM kernel, against plain reference arithmetic: the grey
 * formulas of the two readers, translucent pixels over white, box means rounded as zxing-cpp's pyramid
 * rounds them (the layer-first check is safe only if its layer is zxing's, bit for bit), and the blur and
 * dim trial images.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { composite, WHITE, parseHex } from '../../src/model/color.js';
import type { Raster } from '../../src/model/raster.js';
import type { RenderConfig } from '../../src/model/render-config.js';
import { designScene } from '../../src/render/pipeline.js';
import { rasterizeScene } from '../../src/render/raster.js';
import { verifyRaster } from '../../src/render/verify/index.js';
import { blurDim, pixelsOf, scan } from '../../src/render/verify/read.js';
import { QR_DEFAULTS } from '../../src/schema/qr-config.js';
import { initWasm } from '../../wasm/index.js';
import { prng } from '../helpers/random-design.js';

beforeAll(() => initWasm());

const stb = (r: number, g: number, b: number) => (77 * r + 150 * g + 29 * b) >> 8;
const zx = (r: number, g: number, b: number) => (306 * r + 601 * g + 117 * b + 512) >> 10;
const overWhite = (v: number, a: number) => (a === 255 ? v : Math.round((v * a + 255 * (255 - a)) / 255));

/** RGBA pixels: the grey of the colour, then over white; palette entries: the colour over white, then its grey. */
function referenceGrey(r: Raster, asFile: boolean): Uint8Array {
  const formula = asFile ? stb : zx;
  const grey = new Uint8Array(r.width * r.height);
  for (let i = 0; i < grey.length; i++) {
    if (r.kind === 'rgba') {
      const [cr, cg, cb, ca] = r.pixels.subarray(i * 4, i * 4 + 4);
      grey[i] = overWhite(formula(cr!, cg!, cb!), ca!);
    } else {
      const o = composite(r.palette[r.pixels[i]!]!, WHITE);
      grey[i] = formula(o.r, o.g, o.b);
    }
  }
  return grey;
}

function referenceBox(grey: Uint8Array, width: number, height: number, f: number, invert: boolean): Uint8Array {
  const w = Math.floor(width / f),
    h = Math.floor(height / f),
    area = f * f;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let dy = 0; dy < f; dy++) for (let dx = 0; dx < f; dx++) s += grey[(y * f + dy) * width + x * f + dx]!;
      const v = Math.floor(((invert ? 255 * area - s : s) + Math.floor(area / 2)) / area);
      out[y * w + x] = v;
    }
  }
  return out;
}

/** Straight RGBA whose pixels are translucent with this share: the kernel reads opaque ones sixteen at a time. */
const TRANSLUCENT = { indexed: 0, rgba: 0.7, opaque: 0, 'mostly opaque': 0.01 } as const;

function randomRaster(seed: number, kind: keyof typeof TRANSLUCENT): Raster {
  const rnd = prng(seed);
  const width = rnd.int(20, 90),
    height = rnd.int(20, 90);
  if (kind === 'indexed') {
    const palette = Array.from({ length: rnd.int(2, 12) }, () => ({
      r: rnd.int(0, 255),
      g: rnd.int(0, 255),
      b: rnd.int(0, 255),
      a: rnd.chance(0.3) ? rnd.int(0, 255) : 255,
    }));
    return {
      kind: 'indexed',
      width,
      height,
      palette,
      pixels: Uint8Array.from({ length: width * height }, () => rnd.int(0, palette.length - 1)),
    };
  }
  return {
    kind: 'rgba',
    width,
    height,
    pixels: Uint8Array.from({ length: width * height * 4 }, (_, i) =>
      i % 4 === 3 && !rnd.chance(TRANSLUCENT[kind]) ? 255 : rnd.int(0, 255),
    ),
  };
}

describe('the verifier reads a raster exactly as the references compute it', () => {
  it.each(Object.keys(TRANSLUCENT) as (keyof typeof TRANSLUCENT)[])(
    '%s: grey for both readers, and box filters of factors 1–9, plain and inverted',
    (kind) => {
      for (let seed = 1; seed <= 12; seed++) {
        const r = randomRaster(seed, kind);
        for (const asFile of [true, false]) {
          const boxes = [1, 2, 3, 5, 9].map((f, i) => ({ f, invert: i % 2 === 1 }));
          const { grey, reduced } = scan(r, asFile, boxes);
          const want = referenceGrey(r, asFile);
          expect(Buffer.from(grey).equals(Buffer.from(want)), `seed ${seed}`).toBe(true);
          boxes.forEach((b, i) => {
            expect(reduced[i]!.width).toBe(Math.floor(r.width / b.f));
            expect(Buffer.from(reduced[i]!.pgm).toString('latin1', 0, 20)).toMatch(
              new RegExp(`^P5\n${reduced[i]!.width} ${reduced[i]!.height}\n255\n`),
            );
            expect(
              Buffer.from(pixelsOf(reduced[i]!)).equals(
                Buffer.from(referenceBox(want, r.width, r.height, b.f, b.invert)),
              ),
              `seed ${seed} f ${b.f}`,
            ).toBe(true);
          });
        }
      }
    },
  );

  it('blurs with the window clipped at the edges and halves contrast about mid-grey', () => {
    const rnd = prng(5);
    const [w, h] = [23, 17];
    const g = Uint8Array.from({ length: w * h }, () => rnd.int(0, 255));
    const pgm = new Uint8Array([...new TextEncoder().encode(`P5\n${w} ${h}\n255\n`), ...g]);
    const img = { width: w, height: h, pgm };
    for (const [blurred, dimmed] of [
      [true, false],
      [false, true],
      [true, true],
    ] as const) {
      const out = blurDim(img, blurred, dimmed);
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          let v = g[y * w + x]!;
          if (blurred) {
            let s = 0,
              n = 0;
            for (let dy = -1; dy <= 1; dy++)
              for (let dx = -1; dx <= 1; dx++)
                if (x + dx >= 0 && x + dx < w && y + dy >= 0 && y + dy < h) {
                  s += g[(y + dy) * w + x + dx]!;
                  n++;
                }
            v = Math.round(s / n);
          }
          if (dimmed) v = 64 + (v >> 1);
          expect(pixelsOf(out)[y * w + x], `${x},${y} ${blurred} ${dimmed}`).toBe(v);
        }
      }
    }
  });
});

describe('the quiet-zone check', () => {
  it.each([
    ['dark on light', '#1A237E', '#FFFFFF'],
    ['light on dark', '#FFF59D', '#102027'],
  ])(
    '%s: clean as drawn; one stray pixel of foreground grey fails it, above, beside or below the symbol',
    async (_name, fg, bg) => {
      const content = 'https://example.com/quiet';
      const config = {
        ...QR_DEFAULTS,
        content,
        moduleShape: 'dots',
        primaryColor: fg,
        backgroundColor: bg,
        outputWidth: 400,
      } as RenderConfig;
      const { scene, layout } = await designScene({ config, assets: {} });
      const raster = rasterizeScene(scene);
      const input = {
        raster,
        exact: false,
        format: 'png' as const,
        layout,
        expected: new TextEncoder().encode(content),
        foreground: parseHex(fg),
        background: parseHex(bg),
      };
      expect(await verifyRaster(input)).toMatchObject({ quietZoneClean: true, decoded: true, failures: [] });
      const q = 4 * layout.modulePx;
      const right = layout.originX + layout.size * layout.modulePx;
      const bottom = layout.originY + layout.size * layout.modulePx;
      const strays = [
        [layout.originX - 2 * layout.modulePx, layout.originY - 2 * layout.modulePx],
        [right + 1, layout.originY + 5 * layout.modulePx],
        [layout.originX - q, bottom],
        [Math.min(raster.width, right + q) - 1, Math.min(raster.height, bottom + q) - 1],
      ];
      const c = parseHex(fg);
      for (const [x, y] of strays) {
        const at = (y! * raster.width + x!) * 4;
        const was = raster.pixels.slice(at, at + 4);
        raster.pixels.set([c.r, c.g, c.b, 255], at);
        const dirty = await verifyRaster(input);
        expect(dirty.quietZoneClean, `${x},${y}`).toBe(false);
        expect(dirty.failures).toContain('the 4-module quiet zone is not clear');
        raster.pixels.set(was, at);
      }
    },
  );
});
