import decodeWebp from '@jsquash/webp/decode.js';
import encodeWebp from '@jsquash/webp/encode.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Raster } from '../../../src/model/raster.js';
import type { RenderConfig } from '../../../src/model/render-config.js';
import { encodeWebpImage } from '../../../src/render/formats/webp.js';
import { designScene } from '../../../src/render/pipeline.js';
import { rasterizeFlat, toRgba } from '../../../src/render/raster.js';
import { QR_DEFAULTS } from '../../../src/schema/qr-config.js';
import { codecs, initWasm } from '../../../wasm/index.js';
import { roundTrip } from '../../helpers/round-trip.js';
import { seededRandom } from '../../helpers/seeded-random.js';

beforeAll(async () => {
  await initWasm();
  await codecs.webpDecoder.ready();
  await codecs.webpEncoder.ready();
});

/** The RIFF chunk a WebP carries its image in: VP8L (lossless) or VP8 (lossy). */
function chunkOf(file: Uint8Array): string {
  expect(Buffer.from(file.subarray(0, 4)).toString('latin1')).toBe('RIFF');
  expect(Buffer.from(file).readUInt32LE(4)).toBe(file.length - 8);
  expect(Buffer.from(file.subarray(8, 12)).toString('latin1')).toBe('WEBP');
  return Buffer.from(file.subarray(12, 16)).toString('latin1');
}

/** libwebp's decoding of a file, pixel for pixel against the raster's straight RGBA. */
async function decodesExactly(file: Uint8Array, raster: Raster): Promise<void> {
  const img = await decodeWebp(file.slice().buffer);
  expect([img.width, img.height]).toEqual([raster.width, raster.height]);
  const want = toRgba(raster);
  const got = new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.byteLength);
  expect(
    Buffer.from(got.buffer, got.byteOffset, got.byteLength).equals(
      Buffer.from(want.buffer, want.byteOffset, want.byteLength),
    ),
  ).toBe(true);
}

const STANDARD = 'https://example.com/some/path?utm_source=qr&id=12345';
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('WebP exports decode to their content, byte for byte, with both decoder families', () => {
  const PAIRS = [
    { name: 'black on white', primaryColor: '#000000', backgroundColor: '#ffffff', lightOnDark: false },
    { name: 'navy on cream', primaryColor: '#1a237e', backgroundColor: '#fff8e1', lightOnDark: false },
    { name: 'light on dark', primaryColor: '#ffeb3b', backgroundColor: '#263238', lightOnDark: true },
    { name: 'translucent on transparent', primaryColor: '#000000B3', backgroundColor: '#FFFFFF00', lightOnDark: false },
  ];
  const SIZES = [203, 480, 800, 1203];
  for (const pair of PAIRS)
    for (const size of SIZES)
      for (const moduleShape of ['square', 'rounded'] as const) {
        // An anti-aliased raster keeps no colour under alpha 0 (RGB 0, as premultiplied), which a reader
        // that ignores alpha takes for black: the same in PNG, and in the lossy WebP before (issue 17 report).
        if (pair.backgroundColor.endsWith('00') && moduleShape !== 'square') continue;
        it(`${pair.name}, ${size} px, ${moduleShape} modules`, async () => {
          const content = `${STANDARD}&size=${size}`;
          const { out, zxing, zbar } = await roundTrip('webp', content, size, { ...pair, moduleShape });
          expect(out.corrections).toEqual([]);
          expect(out.verification.decoded).toBe(true);
          // Solid colours, anti-aliased or not, are at most 256 colours: lossless, ours.
          expect(chunkOf(out.bytes)).toBe('VP8L');
          const expected = Buffer.from(utf8(content));
          expect(Buffer.from(zxing).equals(expected)).toBe(true);
          expect(zbar.map((b) => Buffer.from(b).equals(expected))).toEqual([true]);
        });
      }
});

describe('encodeWebpImage', () => {
  it('writes any palette image losslessly: 1 to 256 colours (8, 4, 2 and 1 pixels to the byte), any width', async () => {
    const random = seededRandom(17);
    for (const colours of [1, 2, 3, 4, 5, 16, 17, 200, 256])
      for (const [width, height] of [
        [1, 1],
        [13, 7],
        [97, 61],
      ] as const) {
        const palette = Array.from({ length: colours }, () => ({
          r: Math.floor(random() * 256),
          g: Math.floor(random() * 256),
          b: Math.floor(random() * 256),
          a: random() < 0.2 ? Math.floor(random() * 256) : 255,
        }));
        const pixels = new Uint8Array(width * height);
        // Runs and repeated rows, as the matcher looks for, between stretches of noise.
        for (let i = 0; i < pixels.length; i++)
          pixels[i] =
            random() < 0.7 && i > 0
              ? pixels[i - (random() < 0.5 || i < width ? 1 : width)]!
              : Math.floor(random() * colours);
        const raster: Raster = { kind: 'indexed', width, height, pixels, palette };
        const file = await encodeWebpImage(raster);
        expect(chunkOf(file)).toBe('VP8L');
        await decodesExactly(file, raster);
      }
  });

  it('never refers back farther than VP8L allows (2^20 − 120 packed pixels), however large the image', async () => {
    // 2048 × 1024 pixels of 17 colours (a byte each): a block repeated after 1.5 million pixels, which the
    // matcher would find and a decoder refuse. Measured: a 2048 px gradient export was unreadable so.
    const [width, height] = [2048, 1024];
    const random = seededRandom(5);
    const block = Uint8Array.from({ length: width * 64 }, () => Math.floor(random() * 17));
    const pixels = new Uint8Array(width * height);
    for (let y = 0; y < height; y += 64)
      pixels.set(y < 256 || y >= 768 ? block : block.map((v) => (v + y) % 17), y * width);
    const palette = Array.from({ length: 17 }, (_, i) => ({ r: i * 15, g: 255 - i * 15, b: 128, a: 255 }));
    const raster: Raster = { kind: 'indexed', width, height, pixels, palette };
    const file = await encodeWebpImage(raster);
    expect(chunkOf(file)).toBe('VP8L');
    await decodesExactly(file, raster);
  });

  it('indexes an RGBA raster of at most 256 colours, and leaves one of more to libwebp, lossy', async () => {
    const width = 64;
    const height = 48;
    const few = new Uint8Array(width * height * 4);
    const many = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        few.set([x * 4, 0, 255 - x * 4, 255], i);
        many.set([x * 4, y * 5, 128, 255], i);
      }
    const fewRaster: Raster = { kind: 'rgba', width, height, pixels: few };
    const fewFile = await encodeWebpImage(fewRaster);
    expect(chunkOf(fewFile)).toBe('VP8L');
    await decodesExactly(fewFile, fewRaster);
    expect(chunkOf(await encodeWebpImage({ kind: 'rgba', width, height, pixels: many }))).toBe('VP8 ');
  });

  it('writes flat codes within 2 % of libwebp lossless at method 2 (the writer before) in all, none over 10 %', async () => {
    let ourBytes = 0;
    let theirBytes = 0;
    const long = 'https://example.com/a/rather/long/path/for/a/campaign?utm_source=newsletter&utm_medium=email&id=';
    for (const content of ['hello', STANDARD, long.padEnd(200, 'x')])
      for (const outputWidth of [300, 500, 800, 1200]) {
        const config: RenderConfig = {
          ...QR_DEFAULTS,
          content,
          outputWidth,
          fileFormat: 'webp',
          primaryColor: '#1a237e',
          backgroundColor: '#fff8e1',
        };
        const d = await designScene({ config, assets: {} });
        const raster = rasterizeFlat(d.grid, d.scene);
        const ours = await encodeWebpImage(raster);
        await decodesExactly(ours, raster);
        const rgba = toRgba(raster);
        const image = { data: new Uint8ClampedArray(rgba), width: outputWidth, height: outputWidth } as ImageData;
        const libwebp = await encodeWebp(image, { lossless: 1, quality: 75, method: 2 });
        expect(ours.length / libwebp.byteLength).toBeLessThanOrEqual(1.1);
        ourBytes += ours.length;
        theirBytes += libwebp.byteLength;
      }
    expect(ourBytes / theirBytes).toBeLessThanOrEqual(1.02);
  });
});
