import type { Decorations } from './decorations.js';
import { coverageRecoverable } from './ecc-budget.js';
import { corners, roundedBox } from './geometry/outlines.js';
import { emitLoop } from './geometry/path.js';
import type { ModuleGrid } from './grid.js';
import { decodeImage } from '../images/decode.js';
import { shrinkToFit } from '../images/resample.js';
import { parseHex } from '../model/color.js';
import type { Layer } from '../model/layer.js';
import type { Layout } from '../model/layout.js';
import { LIMITS } from '../model/limits.js';
import { solid, type Box } from '../model/paint.js';
import type { Correction, RenderConfig } from '../model/render-config.js';
import { ModuleRole } from '../qr/types.js';

/**
 * The area a logo takes, in module units: a square of `side` (the logo plus its padding on every side)
 * centred on the symbol, its corners rounded by `radius` (half the side makes a circle). The plate fills
 * it; every data module it touches is cleared.
 */
export interface LogoArea {
  centre: number;
  side: number;
  radius: number;
  logoSide: number;
}

const CORNER_SHARE = { none: 0, square: 0, rounded: 0.2, circle: 0.5 } as const;

export function logoArea(cfg: RenderConfig, size: number, percent: number): LogoArea {
  const logoSide = (size * percent) / 100;
  const side = logoSide * (1 + (2 * cfg.logoPaddingPercent) / 100);
  return { centre: size / 2, side, radius: side * CORNER_SHARE[cfg.logoPlateShape], logoSide };
}

const EPS = 1e-9;

/** Whether cell (x, y) overlaps the area's interior (touching its edge does not count). */
function overlaps(a: LogoArea, x: number, y: number): boolean {
  const core = a.side / 2 - a.radius;
  const gx = Math.abs(x + 0.5 - a.centre) - 0.5 - core;
  const gy = Math.abs(y + 0.5 - a.centre) - 0.5 - core;
  return (gx < -EPS && gy < -EPS) || Math.hypot(Math.max(gx, 0), Math.max(gy, 0)) < a.radius - EPS;
}

/** Data modules under the area; function patterns are never cleared. */
export function clearedModules(grid: ModuleGrid, a: LogoArea): Uint8Array {
  const cleared = new Uint8Array(grid.size * grid.size);
  for (let y = 0; y < grid.size; y++) {
    for (let x = 0; x < grid.size; x++)
      if (grid.roles[y * grid.size + x] === ModuleRole.Data && overlaps(a, x, y)) cleared[y * grid.size + x] = 1;
  }
  return cleared;
}

/**
 * Whether the area would hide a function pattern a decoder needs: finders, separators, timing, format and
 * version information, and the bottom-right alignment pattern (the one decoders use to correct perspective).
 * The other alignment patterns may be hidden: from version 7 on one sits at the very centre, under any logo.
 */
export function hidesNeededPattern(grid: ModuleGrid, a: LogoArea): boolean {
  const corner = grid.size - 9;
  for (let y = 0; y < grid.size; y++) {
    for (let x = 0; x < grid.size; x++) {
      const role = grid.roles[y * grid.size + x];
      if (role === ModuleRole.Data || (role === ModuleRole.Alignment && (x < corner || y < corner))) continue;
      if (overlaps(a, x, y)) return true;
    }
  }
  return false;
}

/**
 * The centred logo, drawn over the code on its plate, with every data module under it cleared. Function
 * patterns are never cleared; the logo is shrunk step by step (1 percentage point) until it hides none a
 * decoder needs (hidesNeededPattern) and every error-correction block can recover the codewords it hides
 * with the design-wide margin (ecc-budget.ts). The smallest logo (3 %) passes both in every version at H
 * (the tests check all forty).
 */
export async function logoDecoration(
  cfg: RenderConfig,
  bytes: Uint8Array,
  grid: ModuleGrid,
  layout: Layout,
  field = 'logo',
): Promise<Decorations> {
  const image = await decodeImage(bytes, field);
  const fits = (a: LogoArea, cleared: Uint8Array) =>
    !hidesNeededPattern(grid, a) && coverageRecoverable(grid.size, cfg.eccLevel, cleared);
  let percent = cfg.logoSizePercent;
  let area = logoArea(cfg, grid.size, percent);
  let cleared = clearedModules(grid, area);
  while (percent > LIMITS.logoSizePercent.min && !fits(area, cleared)) {
    percent = Math.max(LIMITS.logoSizePercent.min, percent - 1);
    area = logoArea(cfg, grid.size, percent);
    cleared = clearedModules(grid, area);
  }

  const layers: Layer[] = [];
  const { centre: c, side, radius } = area;
  if (cfg.logoPlateShape !== 'none') {
    const d: string[] = [];
    emitLoop(d, roundedBox(c - side / 2, c - side / 2, c + side / 2, c + side / 2, corners(radius)));
    layers.push({
      kind: 'path',
      space: 'symbol',
      d: d.join(''),
      paint: solid(parseHex(cfg.logoPlateColor ?? cfg.backgroundColor)),
    });
  }
  // On a round plate the logo is the square inscribed in the circle of its size.
  const inner = cfg.logoPlateShape === 'circle' ? area.logoSide / Math.SQRT2 : area.logoSide;
  const w = inner * Math.min(1, image.width / image.height);
  const h = inner * Math.min(1, image.height / image.width);
  const box: Box = { x: c - w / 2, y: c - h / 2, w, h };
  // Twice the drawn pixels: sharp on high-density screens and when a vector export is zoomed.
  const pixels = shrinkToFit(
    image,
    { x: 0, y: 0, w: image.width, h: image.height },
    2 * w * layout.modulePx,
    2 * h * layout.modulePx,
  );
  layers.push({ kind: 'image', space: 'symbol', box, image: pixels, opacity: 1 });

  const corrections: Correction[] = [];
  const warnings: string[] = [];
  if (percent !== cfg.logoSizePercent) {
    corrections.push({
      field: 'logoSizePercent',
      from: cfg.logoSizePercent,
      to: percent,
      reason: `a larger logo would hide more of this code than ECC ${cfg.eccLevel} can safely recover, or a pattern decoders need`,
    });
    warnings.push(
      `The logo was shrunk from ${cfg.logoSizePercent} % to ${percent} % of the code width so the code stays scannable.`,
    );
  }
  return { layers: { below: [], above: layers }, cleared, corrections, warnings };
}
