import type { Rgba } from './color.js';

/** The colour space a print export (PDF, EPS) is written in. */
export type ColorSpace = 'rgb' | 'cmyk';

/**
 * sRGB to CMYK by the device formula, PostScript's own for a CMYK device (PLRM 7.2.4) with full black
 * generation and undercolour removal: K = 1 − max(R, G, B), each ink the rest of its complement. No ICC
 * profile: no maintained npm package ships a CMYK output profile, and the formula's inverse is exact, so
 * a reader converting back by the device formula shows the colours verified (README, "Print-ready files").
 */
export function toCmyk(c: Rgba): [number, number, number, number] {
  const [r, g, b] = [c.r / 255, c.g / 255, c.b / 255];
  const k = 1 - Math.max(r, g, b);
  if (k >= 1) return [0, 0, 0, 1];
  return [(1 - r - k) / (1 - k), (1 - g - k) / (1 - k), (1 - b - k) / (1 - k), k];
}
