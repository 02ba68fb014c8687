import decodeJpeg from '@jsquash/jpeg/decode.js';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import encodeJpeg, { init as initJpegEncode } from '@jsquash/jpeg/encode.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Raster } from '../../../src/model/raster.js';
import type { RenderConfig } from '../../../src/model/render-config.js';
import { encodeJpg } from '../../../src/render/formats/jpeg.js';
import { JpegGreyError, jpegGrey } from '../../../src/render/formats/jpeg-grey.js';
import { designScene } from '../../../src/render/pipeline.js';
import { rasterizeScene, toRgba } from '../../../src/render/raster.js';
import { QR_DEFAULTS } from '../../../src/schema/qr-config.js';
import { codecs, initWasm } from '../../../wasm/index.js';

beforeAll(async () => {
  await initWasm();
  await codecs.jpegDecoder.ready();
  const require = createRequire(import.meta.url);
  const wasm = readFileSync(require.resolve('@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm'));
  await initJpegEncode(await WebAssembly.compile(wasm));
});

/** A deterministic pseudo-random sequence (xorshift), so the noise images are the same on every run. */
function noise(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/**
 * Test images for the decoder: smooth gradients, noise (long Huffman codes, every coefficient), sharp
 * edges and flat blocks, translucency; sizes that leave partial blocks.
 */
function image(width: number, height: number, colour: boolean, seed: number): Raster {
  const random = noise(seed);
  const pixels = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const band = Math.floor(x / 24) % 4;
      const v =
        band === 0
          ? (x * 7 + y * 3) & 255
          : band === 1
            ? Math.floor(random() * 256)
            : band === 2
              ? ((x >> 2) + (y >> 2)) & 1
                ? 250
                : 5
              : 128;
      pixels[i] = v;
      pixels[i + 1] = colour ? (v * 3 + y) & 255 : v;
      pixels[i + 2] = colour ? 255 - v : v;
      pixels[i + 3] = y % 17 === 3 ? 128 : 255;
    }
  return { kind: 'rgba', width, height, pixels };
}

/** A real design's raster: anti-aliased shapes in colour. */
async function design(overrides: Partial<RenderConfig>): Promise<Raster> {
  const config: RenderConfig = { ...QR_DEFAULTS, content: 'https://example.com/grey?id=7', ...overrides };
  const d = await designScene({ config, assets: {} });
  const r = rasterizeScene(d.scene);
  const copy = { kind: 'rgba' as const, width: r.width, height: r.height, pixels: Uint8Array.from(toRgba(r)) };
  r.release();
  return copy;
}

/**
 * mozjpeg's decode of the same file (the oracle): its RGB, and Y computed back from it, exact where no
 * channel was clamped (JFIF's inverse: Y = 0.299 R + 0.587 G + 0.114 B).
 */
async function oracle(file: Uint8Array) {
  const img = await decodeJpeg(file.slice().buffer);
  const n = img.width * img.height;
  const luma = new Float64Array(n);
  const clamped = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const [r, g, b] = [img.data[4 * i]!, img.data[4 * i + 1]!, img.data[4 * i + 2]!];
    luma[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    clamped[i] = Math.min(r, g, b) === 0 || Math.max(r, g, b) === 255 ? 1 : 0;
  }
  return { img, luma, clamped };
}

describe('jpegGrey, against mozjpeg decoding the same file', () => {
  it('a grey JPEG: every sample equal to mozjpeg’s (the same ISLOW inverse DCT), partial blocks included', async () => {
    for (const [width, height, seed] of [
      [203, 77, 1],
      [64, 64, 2],
      [1, 1, 3],
      [9, 13, 4],
    ] as const) {
      const file = encodeJpg(image(width, height, false, seed));
      const grey = jpegGrey(file);
      const { img } = await oracle(file);
      expect([grey.width, grey.height]).toEqual([img.width, img.height]);
      const moz = Uint8Array.from({ length: width * height }, (_, i) => img.data[4 * i]!);
      expect(Buffer.from(grey.pixels).equals(Buffer.from(moz))).toBe(true);
    }
  });

  it('a colour JPEG: Y within one level of the luma of mozjpeg’s RGB wherever no channel was clamped', async () => {
    const rasters = [
      image(203, 77, true, 5),
      await design({ primaryColor: '#1a237e', backgroundColor: '#fff8e1', moduleShape: 'rounded', outputWidth: 300 }),
      await design({ primaryColor: '#ffeb3b', backgroundColor: '#263238', moduleShape: 'dots', outputWidth: 250 }),
    ];
    for (const raster of rasters) {
      const file = encodeJpg(raster);
      const grey = jpegGrey(file);
      const { luma, clamped } = await oracle(file);
      let compared = 0;
      let worst = 0;
      for (let i = 0; i < luma.length; i++) {
        if (clamped[i]) continue;
        compared++;
        worst = Math.max(worst, Math.abs(grey.pixels[i]! - luma[i]!));
      }
      expect(compared).toBeGreaterThan(luma.length / 4);
      expect(worst).toBeLessThanOrEqual(1);
    }
  });

  it('reads the grey through its palette as its own level', () => {
    const grey = jpegGrey(encodeJpg(image(16, 8, false, 6)));
    expect(grey.kind).toBe('indexed');
    for (const [v, c] of grey.palette.entries()) expect(c).toEqual({ r: v, g: v, b: v, a: 255 });
  });
});

describe('jpegGrey refuses what it does not read', () => {
  const raster = image(48, 40, true, 7);

  it('a progressive JPEG, and a subsampled one (mozjpeg’s)', async () => {
    const rgba = { data: new Uint8ClampedArray(raster.pixels), width: 48, height: 40, colorSpace: 'srgb' } as ImageData;
    const progressive = new Uint8Array(await encodeJpeg(rgba, { quality: 90 }));
    expect(() => jpegGrey(progressive)).toThrow(JpegGreyError);
    const subsampled = new Uint8Array(
      await encodeJpeg(rgba, {
        quality: 90,
        progressive: false,
        baseline: true,
        auto_subsample: false,
        chroma_subsample: 2,
      }),
    );
    expect(() => jpegGrey(subsampled)).toThrow(/subsampled|baseline/);
  });

  it('a file cut short, a Huffman code in no table, no scan', () => {
    const file = encodeJpg(raster);
    expect(() => jpegGrey(file.subarray(0, file.length - 200))).toThrow(/ends early/);
    // The scan's data starts after the SOS segment: fill it with ones, a code no canonical table has.
    const sos = file.findIndex((b, i) => b === 0xff && file[i + 1] === 0xda);
    const start = sos + 2 + ((file[sos + 2]! << 8) | file[sos + 3]!);
    const ones = file.slice();
    for (let i = start; i < start + 64; i += 2) [ones[i], ones[i + 1]] = [0xff, 0x00];
    expect(() => jpegGrey(ones)).toThrow(JpegGreyError);
    expect(() => jpegGrey(Uint8Array.of(0xff, 0xd8, 0xff, 0xd9))).toThrow(/no scan/);
  });
});
