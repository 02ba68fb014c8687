import type { ModuleGrid } from './grid.js';

/** Names accepted by `moduleShape`. */
export const MODULE_SHAPES = ['square'] as const;
export type ModuleShape = (typeof MODULE_SHAPES)[number];

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
 * SVG path data, in module units, for every dark module `select` accepts (by index y * size + x).
 * Square modules are merged into one rectangle per horizontal run: fewer path commands, and no
 * hairline seams between neighbours when rasterized.
 */
export function modulesPath(grid: ModuleGrid, select: (i: number) => boolean, _style: ModuleStyle): string {
  const { size, modules } = grid;
  const parts: string[] = [];
  for (let y = 0; y < size; y++) {
    let x = 0;
    while (x < size) {
      if (!(modules[y * size + x] && select(y * size + x))) { x++; continue; }
      const start = x;
      while (x < size && modules[y * size + x] && select(y * size + x)) x++;
      parts.push(`M${start} ${y}h${x - start}v1h${start - x}z`);
    }
  }
  return parts.join('');
}
