import type { Rgba } from '../model/color.js';
import type { RgbaRaster } from '../model/raster.js';
import { type Kernel, kernelFor, kernelWith } from './kernel.js';

/** A raster's palette indices, laid out by the kernel (wasm/assembly/palette.ts, paletteIndex). */
export interface KernelIndices {
  k: Kernel;
  /** Where row y's indices start, at `lines + y × stride + (stride − width)`, in `k`'s memory. */
  lines: number;
  palette: Rgba[];
}

/**
 * Indexes an RGBA raster in the kernel when it has at most 256 distinct colours (every solid-colour design,
 * anti-aliasing included); null when it has more. Each row's indices take the last `width` of `stride`
 * bytes, the bytes before them zero (a PNG scanline's filter byte), with `slack` bytes free after the last
 * row. The indices are the caller's until it yields (kernel.ts, Lease).
 */
export function indexInKernel(r: RgbaRaster, stride: number, slack: number): KernelIndices | null {
  const { width, height } = r;
  const tableBytes = kernelFor(0).k.PALETTE_TABLE_BYTES.value;
  // The palette (256 RGBA words), the hash table, then the rows.
  const { k, pixels, base } = kernelWith(r, 1024 + tableBytes + stride * height + slack);
  const lines = base + 1024 + tableBytes;
  const colours = k.paletteIndex(pixels, width, height, lines, stride, base, base + 1024);
  if (colours < 0) return null;
  const words = new Uint32Array(k.memory.buffer, base, colours);
  const palette = Array.from(words, (w) => ({ r: w & 0xff, g: (w >>> 8) & 0xff, b: (w >>> 16) & 0xff, a: w >>> 24 }));
  return { k, lines, palette };
}

/**
 * An RGBA raster as palette indices, one byte per pixel, when it has at most 256 distinct colours, for the
 * writers that store a palette (lossless WebP); null when it has more.
 */
export function paletteOf(r: RgbaRaster): { pixels: Uint8Array; palette: Rgba[] } | null {
  const indexed = indexInKernel(r, r.width, 0);
  if (!indexed) return null;
  const { k, lines, palette } = indexed;
  return { pixels: new Uint8Array(k.memory.buffer).slice(lines, lines + r.width * r.height), palette };
}
