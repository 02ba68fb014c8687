import type { Loop } from '../../geometry/path.js';

/** What a module shape may know about the module it draws. Coordinates are cell-local: the cell is [0, 1]². */
export interface ModuleCell {
  /** Drawn size as a fraction of the cell: the style's scale less this module's seeded shrink. */
  readonly s: number;
  /** Which neighbours are drawn, as `Nb` bits. */
  readonly n: number;
  /** Seeded value in [0, 1) for shapes that vary per module beyond their size. */
  readonly r: number;
  /** `s` of the neighbour at (dx, dy); only meaningful where `n` says that neighbour is drawn. */
  sizeAt(dx: number, dy: number): number;
}

export type ModuleShapeFn = (cell: ModuleCell) => readonly Loop[];
