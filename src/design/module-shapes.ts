import { type FormattedLoop, formatLoop, placementsPath } from './geometry/path.js';
import { neighbourBits, selectModules, type ModuleGrid, type Selection } from './grid.js';
import { unitHash } from './hash.js';
import type { ModuleShapeFn } from './shapes/module/cell.js';
import * as connected from './shapes/module/connected.js';
import * as standalone from './shapes/module/standalone.js';
import type { Placements } from '../model/layer.js';
import type { ModuleShape } from '../model/vocabulary.js';

/** Every module shape by name (the names and what they mean: model/vocabulary.ts). */
const SHAPES = {
  square: standalone.square,
  dots: standalone.dot,
  rounded: connected.rounded,
  'extra-rounded': connected.extraRounded,
  classy: connected.classy,
  'classy-rounded': connected.classyRounded,
  circle: standalone.dot,
  kite: standalone.kite,
  'left-diamond': standalone.leftDiamond,
  'right-diamond': standalone.rightDiamond,
  'thin-square': standalone.thinSquare,
  'smooth-round': connected.smoothRound,
  'smooth-sharp': connected.smoothSharp,
  diamond: standalone.diamond,
  star: standalone.starShape,
  squircle: standalone.squircleShape,
  leaf: standalone.leaf,
  mosaic: standalone.mosaic,
  cross: standalone.cross,
  plus: standalone.plus,
  hexagon: standalone.hexagon,
  octagon: standalone.octagon,
  heart: standalone.heartShape,
  horizontal: connected.horizontal,
  vertical: connected.vertical,
  row: connected.row,
  column: connected.column,
} satisfies Record<ModuleShape, ModuleShapeFn>;

/** Shapes that read the cell's seeded value `r`: each module can differ even among equal neighbourhoods. */
const SEEDED: ReadonlySet<ModuleShape> = new Set(['mosaic']);

export interface ModuleStyle {
  shape: ModuleShape;
  /** 0.5–1.0: the drawn size of a module relative to its cell. */
  scale: number;
  /** 0–0.15: seeded random shrink per module. */
  variation: number;
  /** Seed for `variation`, so one request always renders the same bytes. */
  seed: number;
}

/**
 * Formatted outlines by style ("shape scale") and neighbour bits, kept across renders: without variation a
 * module's outline depends only on these (modulesPath), so each render of a style after the first formats
 * none. A style holds at most 256 outlines; the least recently used styles go past STYLES_KEPT.
 */
const outlines = new Map<string, Map<number, FormattedLoop[]>>();
const STYLES_KEPT = 16;

function outlinesOf(shape: ModuleShape, scale: number): Map<number, FormattedLoop[]> {
  const key = `${shape} ${scale}`;
  const kept = outlines.get(key) ?? new Map<number, FormattedLoop[]>();
  outlines.delete(key);
  outlines.set(key, kept);
  if (outlines.size > STYLES_KEPT) outlines.delete(outlines.keys().next().value!);
  return kept;
}

/** Salts of the per-module draws, kept apart so a module's size does not predict its rotation. */
const SIZE_DRAW = 0;
const SHAPE_DRAW = 1;

/**
 * SVG path data, in module units, for every dark module `select` accepts (by index y * size + x), to be
 * filled with the nonzero rule. Each module is drawn at `scale` less a seeded shrink in [0, variation],
 * about its cell centre.
 */
export function modulesPath(grid: ModuleGrid, select: (i: number) => boolean, style: ModuleStyle): string {
  const placed = modulesPlaced(grid, select, style);
  return typeof placed === 'string' ? placed : placementsPath(placed);
}

/**
 * The modules of modulesPath as outlines and their places, or, for full-size squares, as path data (one
 * rectangle per run).
 */
export function modulesPlaced(
  grid: ModuleGrid,
  select: (i: number) => boolean,
  style: ModuleStyle,
): Placements | string {
  const sel = selectModules(grid, select);
  if (style.shape === 'square' && style.scale >= 1 && style.variation <= 0) return squareRuns(sel);
  const { size, on } = sel;
  const sizes = new Float64Array(on.length);
  for (let i = 0; i < on.length; i++)
    if (on[i]) sizes[i] = style.scale - style.variation * unitHash(style.seed, i, SIZE_DRAW);
  const draw: ModuleShapeFn = SHAPES[style.shape];
  // Without variation every module has the same size, so a module's outline depends only on which
  // neighbours it has (and its seeded value, for the shapes that read one): format each such outline once.
  const memo = style.variation <= 0 && !SEEDED.has(style.shape) ? outlinesOf(style.shape, style.scale) : undefined;
  const placed = { loops: [] as FormattedLoop[], moves: [] as number[] };
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = y * size + x;
      if (!on[i]) continue;
      const n = neighbourBits(sel, x, y);
      let loops = memo?.get(n);
      if (!loops) {
        const cell = {
          s: sizes[i],
          n,
          r: unitHash(style.seed, i, SHAPE_DRAW),
          sizeAt: (dx: number, dy: number) => sizes[i + dy * size + dx],
        };
        loops = draw(cell).map(formatLoop);
        memo?.set(n, loops);
      }
      for (const l of loops) {
        placed.loops.push(l);
        placed.moves.push(x, y);
      }
    }
  }
  return placed;
}

/** Full-size squares merged into one rectangle per horizontal run: a fraction of the path data of one square each. */
function squareRuns({ size, on }: Selection): string {
  const parts: string[] = [];
  for (let y = 0; y < size; y++) {
    let x = 0;
    while (x < size) {
      if (!on[y * size + x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < size && on[y * size + x]) x++;
      parts.push(`M${start} ${y}h${x - start}v1h${start - x}z`);
    }
  }
  return parts.join('');
}
