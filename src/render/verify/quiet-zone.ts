import type { Layout } from '../../model/layout.js';
import { kernelFor } from '../kernel.js';

/** The quiet zone every code must keep, in modules: the ISO 18004 minimum. */
export const MIN_QUIET_ZONE = 4;

/**
 * Checks that every pixel of the required quiet zone (MIN_QUIET_ZONE modules around the symbol) reads as
 * background to a scanner: it sits on the background's side of the midpoint between the two colours.
 * Compression noise (JPEG ringing) that stays on that side is harmless and passes.
 */
export function quietZoneClean(grey: Uint8Array, layout: Layout, bgGrey: number, fgGrey: number): boolean {
  const { width, height, modulePx, size } = layout;
  const q = MIN_QUIET_ZONE * modulePx;
  // A scaled raster puts the symbol's edge mid-pixel; those anti-aliased edge pixels belong to the symbol.
  const sx0 = Math.floor(layout.originX),
    sy0 = Math.floor(layout.originY);
  const sx1 = Math.ceil(layout.originX + size * modulePx),
    sy1 = Math.ceil(layout.originY + size * modulePx);
  const x0 = Math.max(0, Math.ceil(layout.originX - q)),
    y0 = Math.max(0, Math.ceil(layout.originY - q));
  const x1 = Math.min(width, Math.floor(layout.originX + size * modulePx + q)),
    y1 = Math.min(height, Math.floor(layout.originY + size * modulePx + q));
  const { k, base } = kernelFor(grey.length);
  new Uint8Array(k.memory.buffer).set(grey, base);
  return (
    k.quietZoneClear(base, width, x0, y0, x1, y1, sx0, sy0, sx1, sy1, (bgGrey + fgGrey) / 2, bgGrey > fgGrey) === 1
  );
}

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
