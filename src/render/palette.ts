import type { Rgba } from '../model/color.js';
import type { IndexedRaster, Raster } from '../model/raster.js';
import { isResident, type Kernel, kernelFor, kernelWith } from './kernel.js';

/** A raster's palette indices, laid out by the kernel (wasm/assembly/palette.ts, paletteIndex). */
export interface KernelIndices {
  k: Kernel;
  /** Where row y's indices start, at `lines + y × stride + (stride − width)`, in `k`'s memory. */
  lines: number;
  palette: Rgba[];
}

/** Rows apart that a probe for a 257th colour reads first: 64 rows spread over the image (wasm/assembly/palette.ts). */
const probeStep = (height: number) => Math.max(1, Math.floor(height / 64));

/**
 * A cheap proof that an RGBA image has more than 256 colours: more than 256 among the probe's rows. The
 * kernel reads these rows first itself (paletteIndex); this is for a raster not in the kernel's memory,
 * which would be copied in first (4 bytes a pixel; 67 MB at 4096 px), only to be refused there.
 */
function over256Colours(rgba: Uint8Array, width: number, height: number): boolean {
  const words = new Int32Array(rgba.buffer, rgba.byteOffset, width * height);
  const seen = new Set<number>();
  const step = probeStep(height);
  for (let y = step >> 1; y < height; y += step) {
    let last = ~words[y * width]!;
    for (let i = y * width, end = i + width; i < end; i++) {
      if (words[i] === last) continue;
      last = words[i]!;
      seen.add(last);
      if (seen.size > 256) return true;
    }
  }
  return false;
}

/**
 * Indexes a raster in the kernel when it has at most 256 distinct colours (every solid-colour design,
 * anti-aliasing included); null when it has more. Each row's indices take the last `width` of `stride`
 * bytes, the bytes before them zero (a PNG scanline's filter byte), with `slack` bytes free after the last
 * row. An RGBA raster is indexed by its colours; an indexed one keeps only the palette entries it uses
 * (compactInKernel). The indices are the caller's until it yields (kernel.ts, Lease).
 */
export function indexInKernel(r: Raster, stride: number, slack: number): KernelIndices | null {
  if (r.kind === 'indexed') return compactInKernel(r, stride, slack);
  const { width, height } = r;
  if (!isResident(r) && over256Colours(r.pixels, width, height)) return null;
  const tableBytes = kernelFor(0).k.PALETTE_TABLE_BYTES.value;
  // The palette (256 RGBA words), the hash table, then the rows.
  const { k, pixels, base } = kernelWith(r, 1024 + tableBytes + stride * height + slack);
  const lines = base + 1024 + tableBytes;
  const colours = k.paletteIndex(pixels, width, height, lines, stride, base, base + 1024, probeStep(height));
  if (colours < 0) return null;
  const words = new Uint32Array(k.memory.buffer, base, colours);
  const palette = Array.from(words, (w) => ({ r: w & 0xff, g: (w >>> 8) & 0xff, b: (w >>> 16) & 0xff, a: w >>> 24 }));
  return { k, lines, palette };
}

/**
 * An indexed raster's indices renumbered to the palette entries its pixels use, in palette order (a level
 * raster uses a few dozen of its 256 levels: the file stores those, in 4 bits when they are 16 or fewer),
 * laid out as indexInKernel lays them.
 */
function compactInKernel(r: IndexedRaster, stride: number, slack: number): KernelIndices {
  const { width, height } = r;
  // 256 bytes that first mark the indices used, then map each to its new index; then the rows.
  const { k, pixels, base } = kernelWith(r, 256 + stride * height + slack);
  const map = new Uint8Array(k.memory.buffer, base, 256).fill(0);
  k.markUsed(pixels, width * height, base);
  const palette: Rgba[] = [];
  r.palette.forEach((colour, i) => {
    if (map[i] === 0) return;
    map[i] = palette.length;
    palette.push(colour);
  });
  const lines = base + 256;
  k.remapIndices(pixels, width, height, base, lines, stride);
  return { k, lines, palette };
}

/**
 * Whether an indexed raster's palette is stored as it is, every entry one its pixels may use (a flat code's
 * two colours), unlike a level raster's (`sparse`), which the writers compact first.
 */
export const storedAsIs = (r: Raster): r is IndexedRaster & { sparse?: false } => r.kind === 'indexed' && !r.sparse;

/**
 * A raster as palette indices, one byte per pixel, when it has at most 256 distinct colours, for the
 * writers that store a palette (lossless WebP); null when it has more. An indexed raster stored as it is
 * (storedAsIs) is its own.
 */
export function paletteOf(r: Raster): { pixels: Uint8Array; palette: Rgba[] } | null {
  if (storedAsIs(r)) return r;
  const indexed = indexInKernel(r, r.width, 0);
  if (!indexed) return null;
  const { k, lines, palette } = indexed;
  return { pixels: new Uint8Array(k.memory.buffer).slice(lines, lines + r.width * r.height), palette };
}
