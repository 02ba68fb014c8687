import { readFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-wasm';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { loadResvg } from '../../src/render/resvg.js';

let ready: Promise<void> | undefined;

/** Loads both wasm modules once per test file. */
export function prepare(): Promise<void> {
  ready ??= (async () => {
    await loadResvg();
    await prepareZXingModule({
      overrides: { wasmBinary: readFileSync('node_modules/zxing-wasm/dist/reader/zxing_reader.wasm') },
      fireImmediately: true,
    });
  })();
  return ready;
}

export interface Raster {
  pixels: Uint8Array;
  width: number;
  height: number;
  png: () => Uint8Array;
}

/** An SVG of `size` modules plus a 4-module quiet zone, `d` filled black (nonzero) on white at `px` pixels per module. */
export function svgFor(d: string, size: number, px = 10, quiet = 4): string {
  const side = (size + 2 * quiet) * px;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 ${side} ${side}">` +
    `<rect width="${side}" height="${side}" fill="#fff"/>` +
    `<g transform="translate(${quiet * px} ${quiet * px}) scale(${px})"><path d="${d}" fill="#000" fill-rule="nonzero"/></g></svg>`
  );
}

export function rasterize(svg: string): Raster {
  const img = new Resvg(svg).render();
  const r = { pixels: new Uint8Array(img.pixels), width: img.width, height: img.height, png: () => img.asPng() };
  return r;
}

export async function decode(r: Raster): Promise<string[]> {
  const res = await readBarcodes(
    { data: new Uint8ClampedArray(r.pixels), width: r.width, height: r.height, colorSpace: 'srgb' } as ImageData,
    { formats: ['QRCode'] },
  );
  return res.filter((b) => b.isValid).map((b) => b.text);
}

/** Red channel at pixel (x, y): 0 black … 255 white. */
export const lightness = (r: Raster, x: number, y: number): number => r.pixels[(y * r.width + x) * 4];

export const SHORT_URL = 'https://qr.example.com/p/42';
/** 148 characters: a version 7–8 symbol at ECC M. */
export const LONG_TEXT =
  'https://shop.example.com/catalogue/spring-2025/outdoor/tents?colour=forest-green&size=4p&utm_source=print&utm_medium=poster&utm_campaign=launch-week';

/** Dark pixels (red channel below half) in the pixel box [x0, x1) × [y0, y1). */
export function darkCount(r: Raster, x0: number, y0: number, x1: number, y1: number): number {
  let n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (lightness(r, x, y) < 128) n++;
  return n;
}
