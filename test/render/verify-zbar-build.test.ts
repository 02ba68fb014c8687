/**
 * Our zbar build (wasm/zbar/, zbar 0.23.92 built for speed) finds what @undecaf/zbar-wasm (zbar 0.23.90, built
 * for size; the package the verifier used before, kept as the oracle) finds, byte for byte, in every grey
 * image zbar is handed for a design (test/helpers/zbar-images.ts): each shape of the vocabulary alone, and
 * designs where zbar's verdict is marginal. test/measure/zbar-build.ts compares them on random designs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { packageZbarPayloads } from '../../bench/previous-zbar.js';
import { FINDER_INNER_SHAPES, FINDER_OUTER_SHAPES, MODULE_SHAPES } from '../../src/model/vocabulary.js';
import { type GreyPixels, zbarPayloads } from '../../src/render/verify/zbar.js';
import { initWasm, zbar, zbarInstance } from '../../wasm/index.js';
import { randomDesign } from '../helpers/random-design.js';
import { zbarImages } from '../helpers/zbar-images.js';

beforeAll(initWasm);

const CONTENT = 'https://example.com/zbar/build?id=20261126';
const hex = (ps: Uint8Array[]) => ps.map((p) => Buffer.from(p).toString('hex'));

/** Each image's payloads as our build and the package find them, by image name. */
async function bothReadings(design: Record<string, unknown>) {
  const { images } = await zbarImages(design);
  const ours: Record<string, string[]> = {};
  const oracle: Record<string, string[]> = {};
  for (const { name, image, invert } of images) {
    ours[name] = hex(await zbarPayloads(image, invert));
    oracle[name] = hex(await packageZbarPayloads(image, invert));
  }
  return { ours, oracle };
}

const SHAPES = [
  ...MODULE_SHAPES.map((s) => ({ moduleShape: s })),
  ...FINDER_OUTER_SHAPES.map((s) => ({ finderOuterShape: s })),
  ...FINDER_INNER_SHAPES.map((s) => ({ finderInnerShape: s })),
];

describe('our zbar build reads as @undecaf/zbar-wasm does', () => {
  it.each(SHAPES)(
    '%o alone, 800 px: the same payloads from every image, and the content from the verifier’s',
    async (shape) => {
      const { ours, oracle } = await bothReadings({ content: CONTENT, outputWidth: 800, ...shape });
      expect(ours).toEqual(oracle);
      expect(ours.reduction).toEqual([Buffer.from(CONTENT).toString('hex')]);
    },
  );

  // Random designs (test/helpers/random-design.ts) on which zbar's verdict is marginal: it reads some of
  // their images and not others (an SVG, a light-on-dark code, leaf, heart and diamond shapes among them).
  it.each([1549107668, 3394068386, 1035485675, 613287549, 2183976666, 486942473])(
    'random design, seed %i, read by zbar from some of its images only: the same payloads from every image',
    async (seed) => {
      const { ours, oracle } = await bothReadings(randomDesign(seed));
      expect(ours).toEqual(oracle);
      const { 'own size, other polarity': _, ...asRead } = ours;
      expect(new Set(Object.values(asRead).map((p) => p.length))).toEqual(new Set([0, 1]));
    },
  );

  it('a light-on-dark code: found inverted, not as it is', async () => {
    const { ours, oracle } = await bothReadings({
      content: CONTENT,
      outputWidth: 600,
      moduleShape: 'rounded',
      primaryColor: '#F5F5F5',
      backgroundColor: '#102030',
    });
    expect(ours).toEqual(oracle);
    expect(ours['own size']).toEqual([Buffer.from(CONTENT).toString('hex')]);
    expect(ours['own size, other polarity']).toEqual([]);
  });

  // Our build hands zbar's scanner each line in one call that skips the samples which cannot change its state
  // (wasm/zbar/scan-line.patch), 16 at a time, and reads columns from a copy transposed 16 × 16 pixels at a
  // time, the rest one by one: these images probe where that could go wrong.
  it('images at the limits of the skipped runs and the transposed blocks: sides not a multiple of 16, dark modules in the last columns and rows, greys 0 beside 255, ramps of one level', async () => {
    const { images } = await zbarImages({ content: CONTENT, outputWidth: 400 });
    const own = images.find((i) => i.name === 'own size')!.image;
    expect(new Set(own.pixels)).toEqual(new Set([0, 255]));
    const reshaped = (width: number, left: number, at: (x: number, y: number, grey: number) => number): GreyPixels => {
      const height = own.height + 3;
      const pixels = new Uint8Array(width * height).fill(255);
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          const inside = y < own.height && x >= left && x < left + own.width;
          pixels[y * width + x] = at(x, y, inside ? own.pixels[y * own.width + x - left]! : 255);
        }
      return { width, height, pixels };
    };
    // The symbol with a margin narrow enough that its last modules fall in the columns and rows after the last
    // whole block of 16.
    const dark = [...own.pixels.keys()].filter((i) => own.pixels[i] === 0);
    const [top, bottom] = [Math.floor(dark[0]! / own.width), Math.floor(dark.at(-1)! / own.width)];
    const xs = dark.map((i) => i % own.width);
    const [left, right] = [Math.min(...xs), Math.max(...xs)];
    const tight = (margin: number): GreyPixels => {
      const width = right - left + 1 + 2 * margin;
      const height = bottom - top + 1 + 2 * margin;
      const pixels = new Uint8Array(width * height);
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++)
          pixels[y * width + x] = own.pixels[(top - margin + y) * own.width + left - margin + x]!;
      return { width, height, pixels };
    };
    const margin = [2, 3, 4, 5, 6, 7, 8, 9].find((m) => (right - left + 1 + 2 * m) % 16 > m)!;
    const cropped = tight(margin);
    expect(cropped.width % 16).toBeGreaterThan(margin);
    expect(cropped.height % 16).toBeGreaterThan(margin);
    const variants = {
      cropped,
      padded: reshaped(own.width + 9, 2, (_x, _y, g) => g),
      // Light and dark each drift by one level every 8 pixels, up along rows and down along columns.
      ramps: reshaped(own.width + 5, 5, (x, y, g) => Math.min(255, Math.max(0, g + ((x >> 3) & 1) - ((y >> 3) & 1)))),
    };
    for (const [name, image] of Object.entries(variants)) {
      for (const invert of [false, true]) {
        const ours = hex(await zbarPayloads({ ...image, pixels: image.pixels.slice() }, invert));
        expect(ours, `${name}${invert ? ', inverted' : ''}`).toEqual(
          hex(await packageZbarPayloads({ ...image, pixels: image.pixels.slice() }, invert)),
        );
        expect(ours, name).toEqual(invert ? [] : [Buffer.from(CONTENT).toString('hex')]);
      }
    }
  });

  it('a renewed instance is a new one, in memory of its own, and reads as the first did', async () => {
    const design = { content: CONTENT, outputWidth: 800, moduleShape: 'dots' };
    const first = await bothReadings(design);
    const before = await zbarInstance();
    await zbar.renew();
    const after = await zbarInstance();
    expect(after).not.toBe(before);
    expect(after.memory).not.toBe(before.memory);
    expect(await bothReadings(design)).toEqual(first);
  });
});
