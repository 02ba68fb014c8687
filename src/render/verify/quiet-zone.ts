import type { Layout } from '../../model/layout.js';
import type { Kernel } from '../kernel.js';

/** The quiet zone every code must keep, in modules: the ISO 18004 minimum. */
export const MIN_QUIET_ZONE = 4;

/**
 * Where the quiet zone lies on a raster drawn at `layout`, and how its pixels are judged: the band of
 * MIN_QUIET_ZONE modules around the symbol (x0–x1 × y0–y1 less the symbol's sx0–sx1 × sy0–sy1, pixels), whose
 * every pixel must read as background to a scanner, on the background's side of `mid`, the midpoint between
 * the two colours' greys. Compression noise (JPEG ringing) that stays on that side is harmless and passes.
 */
export interface QuietZone {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  sx0: number;
  sy0: number;
  sx1: number;
  sy1: number;
  mid: number;
  lightBackground: boolean;
}

export function quietZoneOf(layout: Layout, bgGrey: number, fgGrey: number): QuietZone {
  const { width, height, modulePx, size } = layout;
  const q = MIN_QUIET_ZONE * modulePx;
  // A scaled raster puts the symbol's edge mid-pixel; those anti-aliased edge pixels belong to the symbol.
  return {
    sx0: Math.floor(layout.originX),
    sy0: Math.floor(layout.originY),
    sx1: Math.ceil(layout.originX + size * modulePx),
    sy1: Math.ceil(layout.originY + size * modulePx),
    x0: Math.max(0, Math.ceil(layout.originX - q)),
    y0: Math.max(0, Math.ceil(layout.originY - q)),
    x1: Math.min(width, Math.floor(layout.originX + size * modulePx + q)),
    y1: Math.min(height, Math.floor(layout.originY + size * modulePx + q)),
    mid: (bgGrey + fgGrey) / 2,
    lightBackground: bgGrey > fgGrey,
  };
}

/**
 * Whether the quiet zone `q` of the grey image of `width` px a row at `grey` in `k`'s memory is clear (read.ts
 * checks it there, where it made the image).
 */
export const quietZoneClearIn = (k: Kernel, grey: number, width: number, q: QuietZone): boolean =>
  k.quietZoneClear(grey, width, q.x0, q.y0, q.x1, q.y1, q.sx0, q.sy0, q.sx1, q.sy1, q.mid, q.lightBackground) === 1;

/** Width of the light margin around the symbol, in whole modules: the narrowest of its four sides. */
export const quietZoneModules = (layout: Layout): number =>
  Math.floor(
    Math.min(
      layout.originX,
      layout.originY,
      layout.width - layout.originX - layout.size * layout.modulePx,
      layout.height - layout.originY - layout.size * layout.modulePx,
    ) / layout.modulePx,
  );
