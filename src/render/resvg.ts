import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import type { RgbaRaster } from '../model/raster.js';

/**
 * resvg-wasm, which no render uses: renders draw with our kernel, and a vector file is verified from the
 * kernel's drawing of its scene (pipeline.ts, sceneRaster). It is the independent renderer the tests hold
 * the kernel and every vector file to, and the scripts' drawer of sheets; the render workers never load it
 * (its 2.4 MB module cost each worker start time and memory it could never give back). resvg-wasm can be
 * initialised once per thread, so everything in a process that draws with it loads it here, once.
 */
let loaded: Promise<void> | undefined;
export const loadResvg = (): Promise<void> =>
  (loaded ??= initWasm(readFileSync(createRequire(import.meta.url).resolve('@resvg/resvg-wasm/index_bg.wasm'))));

/**
 * Rasterizes an SVG document with resvg at `width` pixels (height follows the aspect ratio), once
 * `loadResvg` has resolved.
 */
export function rasterizeSvg(svg: string, width: number): RgbaRaster {
  const resvg = new Resvg(svg, { fitTo: { mode: 'width', value: width }, font: { loadSystemFonts: false } });
  try {
    const img = resvg.render();
    try {
      return { kind: 'rgba', width: img.width, height: img.height, pixels: img.pixels };
    } finally {
      img.free();
    }
  } finally {
    resvg.free();
  }
}
