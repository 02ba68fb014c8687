import type { Box } from '../model/paint.js';
import type { RgbaRaster } from '../model/raster.js';

/**
 * For each output column (or row), the source columns it covers and how much of each: an output pixel is
 * the exact area average of the source pixels under it, fractional edges included. Weights are in source
 * pixels, so each output pixel's weights sum to the scale factor.
 */
function spans(
  srcStart: number,
  srcLen: number,
  outLen: number,
): { first: Int32Array; count: Int32Array; weights: Float32Array; offsets: Int32Array } {
  const scale = srcLen / outLen;
  const first = new Int32Array(outLen);
  const count = new Int32Array(outLen);
  const offsets = new Int32Array(outLen);
  const weights: number[] = [];
  for (let o = 0; o < outLen; o++) {
    const a = srcStart + o * scale;
    // Clamped: float rounding must never reach a pixel past the rectangle.
    const z = Math.min(srcStart + srcLen, srcStart + (o + 1) * scale);
    first[o] = Math.floor(a);
    offsets[o] = weights.length;
    for (let s = Math.floor(a); s < z; s++) weights.push(Math.min(z, s + 1) - Math.max(a, s));
    count[o] = weights.length - offsets[o]!;
  }
  return { first, count, weights: Float32Array.from(weights), offsets };
}

/**
 * Area-average resampling of the part `rect` of `src` (whole source pixels) down to outW × outH: the
 * filter that loses nothing and rings nowhere when shrinking. Colours are averaged premultiplied by alpha,
 * so transparent pixels lend no colour to their neighbours. One output row of accumulators at a time, so
 * a 40-megapixel source costs no more than its own bytes.
 */
export function resample(src: RgbaRaster, rect: Box, outW: number, outH: number): RgbaRaster {
  if (
    rect.x === 0 &&
    rect.y === 0 &&
    rect.w === src.width &&
    rect.h === src.height &&
    outW === src.width &&
    outH === src.height
  )
    return src;
  const cols = spans(rect.x, rect.w, outW);
  const rows = spans(rect.y, rect.h, outH);
  const area = (rect.w / outW) * (rect.h / outH);
  const p = src.pixels;
  const line = new Float32Array(outW * 4);
  const acc = new Float32Array(outW * 4);
  const out = new Uint8Array(outW * outH * 4);
  for (let oy = 0; oy < outH; oy++) {
    acc.fill(0);
    for (let k = 0; k < rows.count[oy]!; k++) {
      const wy = rows.weights[rows.offsets[oy]! + k]!;
      const sy = rows.first[oy]! + k;
      // The source row, shrunk horizontally, premultiplied.
      line.fill(0);
      for (let ox = 0, q = 0; ox < outW; ox++, q += 4) {
        let r = 0,
          g = 0,
          b = 0,
          a = 0;
        let i = (sy * src.width + cols.first[ox]!) * 4;
        for (let j = cols.offsets[ox]!, end = j + cols.count[ox]!; j < end; j++, i += 4) {
          const w = cols.weights[j]! * p[i + 3]!;
          r += p[i]! * w;
          g += p[i + 1]! * w;
          b += p[i + 2]! * w;
          a += w;
        }
        line[q] = r;
        line[q + 1] = g;
        line[q + 2] = b;
        line[q + 3] = a;
      }
      for (let q = 0; q < acc.length; q++) acc[q]! += line[q]! * wy;
    }
    for (let ox = 0, q = 0, o = oy * outW * 4; ox < outW; ox++, q += 4, o += 4) {
      const a = acc[q + 3]!;
      if (a === 0) continue;
      out[o] = Math.round(acc[q]! / a);
      out[o + 1] = Math.round(acc[q + 1]! / a);
      out[o + 2] = Math.round(acc[q + 2]! / a);
      out[o + 3] = Math.round(a / area);
    }
  }
  return { kind: 'rgba', width: outW, height: outH, pixels: out };
}

/**
 * Longest side, in pixels, of an image embedded in an export. Every export is first written as an SVG
 * with the image inline (base64), which must stay far below the 20 MB vector budget; 1280 px is sharper
 * than any logo or soft background needs at the largest output (4096 px).
 */
export const EMBED_MAX_SIDE = 1280;

/** `rect` of `src` shrunk (never enlarged) to fit within maxW × maxH and EMBED_MAX_SIDE, aspect ratio kept. */
export function shrinkToFit(src: RgbaRaster, rect: Box, maxW: number, maxH: number): RgbaRaster {
  const f = Math.min(1, maxW / rect.w, maxH / rect.h, EMBED_MAX_SIDE / Math.max(rect.w, rect.h));
  return resample(src, rect, Math.max(1, Math.round(rect.w * f)), Math.max(1, Math.round(rect.h * f)));
}
