import { beforeAll, describe, expect, it } from 'vitest';
import type { Raster } from '../../src/model/raster.js';
import type { RenderConfig } from '../../src/model/render-config.js';
import { encodePng } from '../../src/render/formats/png.js';
import { kernelFor, type ResidentRaster } from '../../src/render/kernel.js';
import { designScene } from '../../src/render/pipeline.js';
import { rasterizeScene } from '../../src/render/raster.js';
import { scan } from '../../src/render/verify/read.js';
import { QR_DEFAULTS } from '../../src/schema/qr-config.js';
import { initWasm } from '../../wasm/index.js';

beforeAll(initWasm);

const draw = async (design: Partial<RenderConfig>): Promise<ResidentRaster> =>
  rasterizeScene(
    (
      await designScene({
        config: { ...QR_DEFAULTS, content: 'https://example.com/kernel', outputWidth: 240, ...design } as RenderConfig,
        assets: {},
      })
    ).scene,
  );

/** A raster with the same pixels in memory of its own, which the kernel must copy in. */
const copyOf = (r: ResidentRaster): Raster =>
  r.kind === 'rgba'
    ? { kind: 'rgba', width: r.width, height: r.height, pixels: r.pixels.slice() }
    : { kind: 'indexed', width: r.width, height: r.height, pixels: r.pixels.slice(), palette: r.palette, sparse: true };

describe('a raster drawn by the kernel stays in its memory until released (kernel.ts)', () => {
  it.each([
    [
      'RGBA',
      {
        moduleShape: 'dots',
        foregroundGradient: {
          type: 'linear',
          rotation: 30,
          stops: [
            { offset: 0, color: '#0D47A1' },
            { offset: 1, color: '#6A1B9A' },
          ],
        },
      },
    ],
    ['levels', { moduleShape: 'dots', primaryColor: '#0D47A1' }],
  ] as const)("%s: reads the same in place as copied in: the PNG and the verifier's scan", async (kind, design) => {
    const drawn = await draw(design as Partial<RenderConfig>);
    expect(drawn.kind).toBe(kind === 'RGBA' ? 'rgba' : 'indexed');
    const copy = copyOf(drawn);
    expect(Buffer.from(encodePng(drawn)).equals(Buffer.from(encodePng(copy)))).toBe(true);
    const boxes = [
      { f: 3, invert: false },
      { f: 2, invert: true },
    ];
    const inPlace = scan(drawn, true, boxes);
    const copied = scan(copy, true, boxes);
    expect(Buffer.from(inPlace.grey).equals(Buffer.from(copied.grey))).toBe(true);
    expect(inPlace.reduced).toHaveLength(boxes.length);
    for (const [i, img] of inPlace.reduced.entries()) {
      expect(Buffer.from(img.pgm).equals(Buffer.from(copied.reduced[i]!.pgm))).toBe(true);
    }
    drawn.release();
  });

  it('keeps its pixels when other jobs lay out after it and the memory grows', async () => {
    const drawn = await draw({ moduleShape: 'rounded' });
    const before = drawn.pixels.slice();
    const { k, base } = kernelFor(1024);
    const had = k.memory.buffer.byteLength;
    const grown = kernelFor(had - base + 4 * 65536);
    expect(grown.k).toBe(k);
    expect(k.memory.buffer.byteLength).toBeGreaterThan(had);
    new Uint8Array(k.memory.buffer).fill(0x5a, grown.base, grown.base + had - base + 4 * 65536);
    expect(drawn.pixels.buffer).toBe(k.memory.buffer);
    expect(Buffer.from(drawn.pixels).equals(Buffer.from(before))).toBe(true);
    drawn.release();
  });

  it('is copied out, unchanged, when a new canvas needs the space', async () => {
    const first = await draw({ moduleShape: 'diamond', primaryColor: '#B71C1C' });
    const before = first.pixels.slice();
    const second = await draw({ moduleShape: 'square' });
    expect(first.pixels.buffer).not.toBe(second.pixels.buffer);
    expect(Buffer.from(first.pixels).equals(Buffer.from(before))).toBe(true);
    expect(Buffer.from(second.pixels).equals(Buffer.from(before))).toBe(false);
    second.release();
  });

  it("once copied out, is no longer the kernel's to free: releasing it keeps its pixels", async () => {
    const first = await draw({ moduleShape: 'dots' });
    const before = first.pixels.slice();
    const second = await draw({ moduleShape: 'square' });
    first.release();
    expect(Buffer.from(first.pixels).equals(Buffer.from(before))).toBe(true);
    const { k } = kernelFor(16);
    expect(second.pixels.buffer).toBe(k.memory.buffer);
    second.release();
    expect(second.pixels.length).toBe(0);
  });

  it('once released, has no pixels left to read by mistake', async () => {
    const drawn = await draw({});
    drawn.release();
    expect(drawn.pixels.length).toBe(0);
  });
});
