import { corners, roundedBox } from './geometry/outlines.js';
import { emitLoop, hole } from './geometry/path.js';
import type { ModuleGrid } from './grid.js';
import { unitHash } from './hash.js';
import { modulesPath } from './module-shapes.js';
import type { PathLayer } from '../model/layer.js';
import type { Layout } from '../model/layout.js';
import { paintOf } from '../model/paint.js';
import type { RenderConfig } from '../model/render-config.js';

/** Room for the outline ring and the space inside it, per side, as a share of the code block's side. */
const EDGE = 0.05;
/** The least depth of decoration along the middle of each side, as a share of the code block's side. */
const DEPTH = 0.08;
/** Outline ring and the space inside it, in modules, at most. */
const RING = 1;
const SPACE = 1;
/** Share of the decoration cells that are drawn. */
const DENSITY = 0.5;
/** Salt of the decoration draws, apart from the module shapes' own. */
const DECORATION_DRAW = 7;

/**
 * The outline around a code block of side `block` (symbol and quiet zone), in the block's units; null when
 * qrShapeRadius is 0 and nothing is drawn. The decoration's rounded square (corner radius qrShapeRadius %
 * of its side) must hold the block with the block's corners on its corner arcs (a rounded square of side 1
 * and corner radius t holds a centred square of side 1 − 2t(1 − 1/√2)) and leave DEPTH along the sides;
 * the outline runs EDGE outside it, concentric.
 */
export function roundOutline(radius: number, block: number): { side: number; corner: number; edge: number } | null {
  if (radius <= 0) return null;
  const t = radius / 100;
  const inner = block * Math.max(1 / (1 - 2 * t * (1 - Math.SQRT1_2)), 1 + 2 * DEPTH);
  const edge = EDGE * block;
  return { side: inner + 2 * edge, corner: t * inner + edge, edge };
}

/** A seed for the decoration from the symbol itself, so each code gets its own pattern and the same request the same bytes. */
function seedOf(grid: ModuleGrid): number {
  let h = grid.size;
  for (let i = 0; i < grid.modules.length; i++) if (grid.modules[i]) h = Math.imul(h ^ i, 0x01000193);
  return h >>> 0;
}

/** Whether the point is inside the rounded square centred on `c` with half-side `half` and corner radius `r`. */
function inside(x: number, y: number, c: number, half: number, r: number): boolean {
  const dx = Math.abs(x - c) - (half - r);
  const dy = Math.abs(y - c) - (half - r);
  if (Math.abs(x - c) > half || Math.abs(y - c) > half) return false;
  return dx <= 0 || dy <= 0 || dx * dx + dy * dy <= r * r;
}

/**
 * How qrShapeRadius rounds a code without touching it: the symbol and its quiet zone stay as they are, and
 * a rounded square (a circle at 50) is drawn around them, outlined by a ring, the space between the quiet
 * zone and the ring filled with decoration modules in the code's own style and colours, about as dense as
 * data. The light quiet zone separates them from the symbol, so decoders ignore them. One layer, in module
 * units, below the code.
 */
export function roundShapeLayers(cfg: RenderConfig, grid: ModuleGrid, layout: Layout): PathLayer[] {
  const { size } = grid;
  const q = layout.quietZone;
  const block = size + 2 * q;
  const outline = roundOutline(cfg.qrShapeRadius, block);
  if (!outline) return [];
  const { side, corner: radius, edge } = outline;
  const ring = Math.min(RING, edge / 2);
  const space = Math.min(SPACE, edge / 2);

  // Decoration cells live on the symbol's own module grid, extended by `reach` cells beyond the quiet zone.
  const reach = Math.ceil((side - block) / 2);
  const offset = q + reach;
  const n = size + 2 * offset;
  const c = n / 2;
  const half = side / 2 - ring - space;
  const r = Math.max(0, radius - ring - space);
  const seed = seedOf(grid);
  const modules = new Uint8Array(n * n);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const quiet = x >= reach && x < n - reach && y >= reach && y < n - reach;
      if (quiet || unitHash(seed, y * n + x, DECORATION_DRAW) >= DENSITY) continue;
      if (
        inside(x, y, c, half, r) &&
        inside(x + 1, y, c, half, r) &&
        inside(x, y + 1, c, half, r) &&
        inside(x + 1, y + 1, c, half, r)
      )
        modules[y * n + x] = 1;
    }
  }
  const decoration = modulesPath({ size: n, modules, roles: new Uint8Array(n * n) }, () => true, {
    shape: cfg.moduleShape,
    scale: cfg.moduleScale,
    variation: cfg.moduleSizeVariation,
    seed,
  });
  const rim: string[] = [];
  const o = c - side / 2;
  emitLoop(rim, roundedBox(o, o, o + side, o + side, corners(radius)));
  emitLoop(
    rim,
    hole(roundedBox(o + ring, o + ring, o + side - ring, o + side - ring, corners(Math.max(0, radius - ring)))),
  );
  return [
    {
      kind: 'path',
      space: 'symbol',
      d: decoration + rim.join(''),
      paint: paintOf(cfg.primaryColor, cfg.foregroundGradient, { x: offset, y: offset, w: size, h: size }),
      transform: [1, 0, 0, 1, -offset, -offset],
    },
  ];
}
