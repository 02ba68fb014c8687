import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { decodeImage, IMAGE_LIMITS } from '../../src/images/decode.js';
import { declaredSize } from '../../src/images/dimensions.js';
import { resample, shrinkToFit, EMBED_MAX_SIDE } from '../../src/images/resample.js';
import { sniffImageType } from '../../src/images/sniff.js';
import type { RgbaRaster } from '../../src/model/raster.js';
import { initCodecs } from '../../wasm/index.js';
import {
  BLUE,
  bmp,
  CLEAR,
  gif,
  GREEN,
  image,
  jpeg,
  pixel,
  png,
  quadrants,
  RED,
  WHITE,
  webp,
  type Rgba,
} from '../helpers/make-images.js';

beforeAll(() => initCodecs());

/** Every channel within `tolerance` of the expected colour. */
const near = (got: Rgba, want: Rgba, tolerance: number) => got.every((v, i) => Math.abs(v - want[i]!) <= tolerance);

/** The centre of each quadrant of a decoded quadrants() image. */
function expectQuadrants(img: RgbaRaster, tolerance = 0) {
  const [w, h] = [img.width, img.height];
  const at = (fx: number, fy: number) => pixel(img, Math.floor(w * fx), Math.floor(h * fy));
  for (const [got, want] of [
    [at(0.25, 0.25), RED],
    [at(0.75, 0.25), GREEN],
    [at(0.25, 0.75), BLUE],
    [at(0.75, 0.75), WHITE],
  ] as const) {
    expect(near(got, want, tolerance), `${got} ≈ ${want}`).toBe(true);
  }
}

const refusal = async (p: Promise<unknown>): Promise<ApiError> => {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
};

describe('decodeImage: each accepted format to RGBA', () => {
  const src = quadrants(40, 30);

  it('PNG (RGB, palette with tRNS, RGBA) exactly', async () => {
    const rgba = image(5, 3, (x, y) => [x * 50, y * 100, 255 - x * 50, 40 + x * 40]);
    expect(await decodeImage(png(rgba), 'logo')).toMatchObject({ width: 5, height: 3, pixels: rgba.pixels });
    const decoded = await decodeImage(png(src), 'logo');
    expect(decoded.pixels).toEqual(src.pixels);
    const translucent = image(4, 4, (x) => (x < 2 ? CLEAR : RED));
    expect((await decodeImage(png(translucent), 'logo')).pixels).toEqual(translucent.pixels);
  });

  it('JPEG and lossy WebP within codec error; lossless WebP exactly', async () => {
    expectQuadrants(await decodeImage(await jpeg(src), 'logo'), 12);
    expectQuadrants(await decodeImage(await webp(src), 'logo'), 12);
    expect((await decodeImage(await webp(src, true), 'logo')).pixels).toEqual(src.pixels);
  });

  it('GIF: the first frame only, transparency kept', async () => {
    const first = image(6, 4, (x) => (x < 3 ? RED : CLEAR));
    const second = image(6, 4, () => BLUE);
    const decoded = await decodeImage(gif(first, second), 'logo');
    expect(decoded).toMatchObject({ width: 6, height: 4 });
    expect(pixel(decoded, 1, 1)).toEqual(RED);
    expect(pixel(decoded, 4, 1)[3]).toBe(0);
    // Over 256 colours is impossible in GIF; 200 distinct ones round-trip exactly.
    const many = image(20, 10, (x, y) => [x * 12, y * 25, 7, 255]);
    expect((await decodeImage(gif(many), 'background')).pixels).toEqual(many.pixels);
  });

  const twoColour = image(13, 5, (x, y) => ((x + y) % 3 === 0 ? RED : WHITE));
  const sixteen = image(9, 7, (x, y) => [(x * 30) % 256, (y * 40) % 256, 99, 255]);
  it.each([
    ['1-bit palette', twoColour, { bpp: 1 }, 0],
    ['4-bit palette', image(9, 3, (x) => [x * 20, 0, 0, 255]), { bpp: 4 }, 0],
    ['8-bit palette', sixteen, { bpp: 8 }, 0],
    ['8-bit palette, core header', sixteen, { bpp: 8, core: true }, 0],
    ['16-bit 5-5-5', src, { bpp: 16 }, 8],
    ['16-bit bit fields 5-6-5', src, { bpp: 16, bitfields: true }, 8],
    ['24-bit', src, { bpp: 24 }, 0],
    ['24-bit top-down', src, { bpp: 24, topDown: true }, 0],
    ['24-bit core header', src, { bpp: 24, core: true }, 0],
    ['32-bit BGRX', src, { bpp: 32 }, 0],
  ] as const)('BMP %s', async (_name, img, spec, tolerance) => {
    const decoded = await decodeImage(bmp(img, spec), 'logo');
    expect(decoded).toMatchObject({ width: img.width, height: img.height });
    for (let y = 0; y < img.height; y++)
      for (let x = 0; x < img.width; x++) expect(near(pixel(decoded, x, y), pixel(img, x, y), tolerance)).toBe(true);
  });

  it('BMP 32-bit bit fields keep alpha', async () => {
    const translucent = image(3, 2, (x) => [10, 20, 30, x * 100]);
    expect((await decodeImage(bmp(translucent, { bpp: 32, bitfields: true }), 'logo')).pixels).toEqual(
      translucent.pixels,
    );
  });
});

describe('decodeImage refusals name the field', () => {
  it('not an image', async () => {
    expect(await refusal(decodeImage(new TextEncoder().encode('<html>'), 'logo'))).toMatchObject({
      code: 'INVALID_FIELD_VALUE',
      field: 'logo',
    });
  });

  it('corrupt files of every type', async () => {
    const good = png(quadrants(40, 30));
    const broken = good.slice();
    for (let i = 41; i < broken.length; i++) broken[i] = 0x55;
    const jpg = await jpeg(quadrants(40, 30));
    const badJpeg = jpg.slice(0, 200);
    badJpeg.fill(0xab, 150);
    const bads = [
      broken,
      badJpeg,
      Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'),
      Buffer.concat([Buffer.from('BM'), Buffer.alloc(40)]),
      Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(20)]),
    ];
    for (const bad of bads)
      expect(await refusal(decodeImage(new Uint8Array(bad), 'background'))).toMatchObject({
        code: 'INVALID_FIELD_VALUE',
        field: 'background',
      });
  });

  it('a run-length compressed BMP is refused with the reason', async () => {
    const b = bmp(quadrants(4, 4), { bpp: 8 });
    b.set([1, 0, 0, 0], 30); // BI_RLE8
    expect((await refusal(decodeImage(b, 'logo'))).message).toMatch(/compressed BMP/);
  });

  it('declared sizes over the limits are refused from the header, before any pixel is allocated', async () => {
    // Tiny files declaring huge images: no decoder could even start on them, so only the header check can refuse.
    const pngHeader = png(quadrants(2, 2)).slice(0, 33);
    new DataView(pngHeader.buffer).setUint32(16, 30000);
    const gifHeader = gif(quadrants(2, 2));
    new DataView(gifHeader.buffer).setUint16(6, 9000, true);
    const bmpHeader = bmp(quadrants(2, 2), { bpp: 24 });
    new DataView(bmpHeader.buffer).setInt32(18, 7000, true);
    new DataView(bmpHeader.buffer).setInt32(22, -7000, true);
    for (const [bytes, size] of [
      [pngHeader, '30000×2'],
      [gifHeader, '9000×2'],
      [bmpHeader, '7000×7000'],
    ] as const) {
      const e = await refusal(decodeImage(bytes, 'logo'));
      expect(e.message).toContain(`${size} px`);
      expect(e.field).toBe('logo');
    }
    expect(IMAGE_LIMITS.side * IMAGE_LIMITS.side).toBeGreaterThan(IMAGE_LIMITS.pixels);
  });

  it('a GIF frame larger than its screen is bounded too', async () => {
    const g = gif(quadrants(2, 2));
    const descriptor = g.indexOf(0x2c);
    new DataView(g.buffer).setUint16(descriptor + 5, 9000, true);
    expect((await refusal(decodeImage(g, 'logo'))).message).toContain('9000×2 px');
  });
});

describe('declaredSize reads every header', () => {
  it('matches the real sizes', async () => {
    const img = quadrants(37, 21);
    const files = {
      png: png(img),
      jpg: await jpeg(img),
      webp: await webp(img),
      webpLossless: await webp(img, true),
      gif: gif(img),
      bmp: bmp(img, { bpp: 24 }),
    };
    for (const bytes of Object.values(files))
      expect(declaredSize(sniffImageType(bytes)!, bytes)).toEqual({ width: 37, height: 21 });
  });
});

describe('resampling', () => {
  it('area-averages exactly, with fractional spans', () => {
    const stripes = image(3, 1, (x) => (x === 1 ? [255, 255, 255, 255] : [0, 0, 0, 255]));
    // Two output pixels over three source pixels: each covers one and a half.
    expect([...resample(stripes, { x: 0, y: 0, w: 3, h: 1 }, 2, 1).pixels]).toEqual([85, 85, 85, 255, 85, 85, 85, 255]);
  });

  it('transparent pixels lend no colour (premultiplied averaging)', () => {
    const half = image(2, 1, (x) => (x === 0 ? RED : [0, 255, 0, 0]));
    expect(pixel(resample(half, { x: 0, y: 0, w: 2, h: 1 }, 1, 1), 0, 0)).toEqual([220, 20, 20, 128]);
  });

  it('crops, and shrinks to fit (never enlarges), capped at EMBED_MAX_SIDE', () => {
    const q = quadrants(40, 40);
    expect(pixel(resample(q, { x: 20, y: 0, w: 20, h: 20 }, 1, 1), 0, 0)).toEqual(GREEN);
    expect(shrinkToFit(q, { x: 0, y: 0, w: 40, h: 40 }, 100, 100)).toBe(q);
    expect(shrinkToFit(q, { x: 0, y: 0, w: 40, h: 40 }, 10, 30)).toMatchObject({ width: 10, height: 10 });
    const wide = image(3000, 30, () => RED);
    expect(shrinkToFit(wide, { x: 0, y: 0, w: 3000, h: 30 }, 4000, 4000)).toMatchObject({
      width: EMBED_MAX_SIDE,
      height: 13,
    });
  });
});
