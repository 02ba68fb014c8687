/**
 * The verifier's reads of a raster, made in our WASM kernel, against plain reference arithmetic: the grey
 * formulas of zxing's two readers and zbar's (and zbar's against zbar-wasm itself), translucent pixels over white, box means rounded as zxing-cpp's pyramid
 * rounds them (the layer-first check is safe only if its layer is zxing's, bit for bit), and the blur and
 * dim trial images.
 */
import { getInstance, ZBarImage } from '@undecaf/zbar-wasm';
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

type Formula = (r: number, g: number, b: number) => number;
const stb: Formula = (r, g, b) => (77 * r + 150 * g + 29 * b) >> 8;
const zx: Formula = (r, g, b) => (306 * r + 601 * g + 117 * b + 512) >> 10;
/** @undecaf/zbar-wasm's, for RGBA it is handed (ZBarImage.createFromRGBABuffer). */
const zb: Formula = (r, g, b) => (19595 * r + 38469 * g + 7472 * b) >> 16;
const overWhite = (v: number, a: number) => (a === 255 ? v : Math.round((v * a + 255 * (255 - a)) / 255));

/** RGBA pixels: the grey of the colour, then over white; palette entries: the colour over white, then its grey. */
function referenceGrey(r: Raster, formula: Formula): Uint8Array {
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

/**
 * Straight RGBA whose pixels are translucent with this share: the kernel reads opaque ones sixteen at a
 * time. Indexed rasters: a palette of any colours, or of greys only, on which every formula agrees and
 * zbar's grey is the reader's; odd seeds up to 16 colours (the kernel looks sixteen pixels up at a time), even
 * ones more.
 */
const TRANSLUCENT = { indexed: 0, 'grey indexed': 0, rgba: 0.7, opaque: 0, 'mostly opaque': 0.01, runs: 0.2 } as const;

function randomRaster(seed: number, kind: keyof typeof TRANSLUCENT): Raster {
  const rnd = prng(seed);
  const width = rnd.int(20, 90),
    height = rnd.int(20, 90);
  if (kind === 'indexed' || kind === 'grey indexed') {
    const palette = Array.from({ length: seed % 2 ? rnd.int(2, 16) : rnd.int(17, 256) }, () => {
      const [r, g, b] =
        kind === 'indexed' ? [rnd.int(0, 255), rnd.int(0, 255), rnd.int(0, 255)] : Array(3).fill(rnd.int(0, 255));
      return { r, g, b, a: rnd.chance(0.3) ? rnd.int(0, 255) : 255 };
    });
    return {
      kind: 'indexed',
      width,
      height,
      palette,
      pixels: Uint8Array.from({ length: width * height }, () => rnd.int(0, palette.length - 1)),
    };
  }
  if (kind === 'runs') {
    // Runs of one colour, as a drawn code has (the kernel greys a group of sixteen of one colour at once).
    const colours = Array.from({ length: 4 }, () =>
      Array.from({ length: 4 }, (_, c) => (c === 3 && !rnd.chance(TRANSLUCENT.runs) ? 255 : rnd.int(0, 255))),
    );
    const pixels = new Uint8Array(width * height * 4);
    for (let i = 0; i < width * height; ) {
      const colour = colours[rnd.int(0, colours.length - 1)]!;
      for (let end = Math.min(width * height, i + rnd.int(1, 40)); i < end; i++) pixels.set(colour, i * 4);
    }
    return { kind: 'rgba', width, height, pixels };
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
    "%s: grey for both of zxing's readers and for zbar, and box filters of factors 1–9 of either, plain and inverted",
    (kind) => {
      for (let seed = 1; seed <= 12; seed++) {
        const r = randomRaster(seed, kind);
        const wantZbar = referenceGrey(r, zb);
        for (const [asFile, zbarNative] of [
          [true, true],
          [false, false],
        ] as const) {
          const boxes = [
            ...[1, 2, 3, 5, 9, 3].map((f, i) => ({ f, invert: i % 2 === 1 })),
            ...[1, 3, 4].map((f, i) => ({ f, invert: i % 2 === 0, zbar: true })),
          ];
          // zbar's grey at full size, or only its boxes (the kernel keeps one row of it).
          const { grey, zbarGrey, reduced } = scan(r, asFile, boxes, zbarNative);
          const want = referenceGrey(r, asFile ? stb : zx);
          expect(Buffer.from(grey).equals(Buffer.from(want)), `seed ${seed}`).toBe(true);
          if (zbarNative) expect(Buffer.from(zbarGrey!).equals(Buffer.from(wantZbar)), `seed ${seed}`).toBe(true);
          else expect(zbarGrey).toBeNull();
          boxes.forEach((b, i) => {
            expect(reduced[i]!.width).toBe(Math.floor(r.width / b.f));
            expect(Buffer.from(reduced[i]!.pgm).toString('latin1', 0, 20)).toMatch(
              new RegExp(`^P5\n${reduced[i]!.width} ${reduced[i]!.height}\n255\n`),
            );
            expect(
              Buffer.from(pixelsOf(reduced[i]!)).equals(
                Buffer.from(referenceBox('zbar' in b ? wantZbar : want, r.width, r.height, b.f, b.invert)),
              ),
              `seed ${seed} f ${b.f}`,
            ).toBe(true);
          });
        }
      }
    },
  );

  it("zbar's grey of opaque pixels is the grey @undecaf/zbar-wasm makes of them itself, in every format", async () => {
    const z = await getInstance();
    // zbar-wasm greys RGBA into memory it allocates for the image: it is read back from there.
    const malloc = z._malloc;
    let at = 0;
    z._malloc = (n: number) => (at = malloc(n));
    try {
      for (let seed = 1; seed <= 6; seed++) {
        const r = randomRaster(seed, 'opaque');
        const image = await ZBarImage.createFromRGBABuffer(r.width, r.height, r.pixels.slice().buffer);
        const theirs = z.HEAPU8.slice(at, at + r.width * r.height);
        image.destroy();
        for (const asFile of [true, false]) {
          const { zbarGrey } = scan(r, asFile, [], true);
          expect(Buffer.from(zbarGrey!).equals(Buffer.from(theirs)), `seed ${seed}`).toBe(true);
        }
      }
    } finally {
      z._malloc = malloc;
    }
  });

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
    '%s: clean as drawn; one stray pixel of foreground grey fails it, above, beside or below the symbol, drawn as levels and as RGBA',
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
      const c = parseHex(fg);
      // A stray pixel of foreground: its level (255), or its colour.
      for (const [raster, stray] of [
        [rasterizeScene(scene), [255]],
        [rasterizeScene(scene, null), [c.r, c.g, c.b, 255]],
      ] as const) {
        expect(raster.kind).toBe(stray.length === 1 ? 'indexed' : 'rgba');
        const input = {
          raster,
          exact: false,
          format: 'png' as const,
          layout,
          expected: new TextEncoder().encode(content),
          foreground: c,
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
        for (const [x, y] of strays) {
          const at = (y! * raster.width + x!) * stray.length;
          const was = raster.pixels.slice(at, at + stray.length);
          raster.pixels.set(stray, at);
          const dirty = await verifyRaster(input);
          expect(dirty.quietZoneClean, `${raster.kind} ${x},${y}`).toBe(false);
          expect(dirty.failures).toContain('the 4-module quiet zone is not clear');
          raster.pixels.set(was, at);
        }
        raster.release();
      }
    },
  );
});
