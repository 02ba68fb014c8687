import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { contrastRatio, effectiveContrast, parseHex } from '../../src/render/color.js';
import { encodePng } from '../../src/render/formats/png.js';
import { computeLayout } from '../../src/render/layout.js';
import { BUDGETS, checkCanvasBudget, checkVectorBudget } from '../../src/render/pipeline.js';

/** Reads IHDR and inflates IDAT of a PNG, independently of the writer. */
function readPng(png: Uint8Array) {
  const b = Buffer.from(png);
  expect(b.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))).toBe(true);
  const chunks: Record<string, Buffer[]> = {};
  for (let o = 8; o < b.length; ) {
    const len = b.readUInt32BE(o);
    const type = b.toString('latin1', o + 4, o + 8);
    (chunks[type] ??= []).push(b.subarray(o + 8, o + 8 + len));
    o += 12 + len;
  }
  const ihdr = chunks.IHDR![0]!;
  return { width: ihdr.readUInt32BE(0), height: ihdr.readUInt32BE(4), bitDepth: ihdr[8], colorType: ihdr[9], chunks, raw: inflateSync(Buffer.concat(chunks.IDAT!)) };
}

describe('png writer', () => {
  const palette = [parseHex('#ffffff'), parseHex('#000000')];
  it('two colours → 1-bit palette, rows filtered and packed MSB first', () => {
    const pixels = Uint8Array.from([1, 0, 0, 0, 0, 0, 0, 0, 1, /* row 2 */ 0, 1, 0, 0, 0, 0, 0, 0, 0]);
    const png = readPng(encodePng({ kind: 'indexed', width: 9, height: 2, pixels, palette }));
    expect(png).toMatchObject({ width: 9, height: 2, bitDepth: 1, colorType: 3 });
    expect(png.chunks.tRNS).toBeUndefined();
    // Row 1: filter byte, 0b10000000, 0b10000000. Row 2 is "Up"-filtered: XOR-like difference mod 256.
    expect([...png.raw.subarray(0, 3)]).toEqual([2, 0x80, 0x80]);
    expect([...png.raw.subarray(3, 6)]).toEqual([2, (0x40 - 0x80) & 0xff, (0x00 - 0x80) & 0xff]);
  });

  it('translucent palette entries get a tRNS chunk', () => {
    const png = readPng(encodePng({ kind: 'indexed', width: 2, height: 1, pixels: Uint8Array.from([0, 1]), palette: [parseHex('#ffffff00'), parseHex('#000000cc')] }));
    expect([...png.chunks.tRNS![0]!]).toEqual([0, 0xcc]);
  });

  it('RGBA with few colours is indexed; with many it stays truecolour', () => {
    const few = new Uint8Array(4 * 4 * 4).fill(255);
    few.set([255, 0, 0, 255], 0);
    few.set([0, 255, 0, 255], 4);
    expect(readPng(encodePng({ kind: 'rgba', width: 4, height: 4, pixels: few })).bitDepth).toBe(2);
    const many = new Uint8Array(32 * 32 * 4);
    for (let i = 0; i < 32 * 32; i++) many.set([i & 0xff, i >> 8, 7, 255], i * 4);
    const png = readPng(encodePng({ kind: 'rgba', width: 32, height: 32, pixels: many }));
    expect(png).toMatchObject({ bitDepth: 8, colorType: 2 });
    expect(png.raw.length).toBe(32 * (1 + 32 * 3));
  });
});

describe('layout', () => {
  it('modules are the largest whole number of pixels that fit; leftovers widen the quiet zone evenly', () => {
    const l = computeLayout(33, { quietZone: 4 });
    expect(l).toMatchObject({ width: 800, height: 800, modulePx: 19 });
    expect(l.originX).toBe(Math.floor((800 - 33 * 19) / 2));
    expect(l.originX).toBeGreaterThanOrEqual(4 * 19);
  });

  it('pixelsPerModule alone sizes the canvas; with a width it must fit', () => {
    expect(computeLayout(21, { quietZone: 4, pixelsPerModule: 8 })).toMatchObject({ width: 232, height: 232, modulePx: 8, originX: 32 });
    expect(() => computeLayout(21, { quietZone: 4, outputWidth: 100, pixelsPerModule: 8 })).toThrow(ApiError);
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
  it('vector documents over 20 MB and canvases over 5120 px are OUTPUT_TOO_COMPLEX', () => {
    expect(() => checkVectorBudget(BUDGETS.vectorBytes)).not.toThrow();
    expect(() => checkVectorBudget(BUDGETS.vectorBytes + 1)).toThrow(expect.objectContaining({ code: 'OUTPUT_TOO_COMPLEX', status: 422 }));
    const layout = computeLayout(21, { quietZone: 4 });
    expect(() => checkCanvasBudget({ ...layout, width: 5121 })).toThrow(expect.objectContaining({ code: 'OUTPUT_TOO_COMPLEX' }));
    expect(() => checkCanvasBudget({ ...layout, width: 5120, height: 5120 })).not.toThrow();
  });
});
