import { finderInnerPath, finderOuterPath } from '../../src/design/finder-eyes.js';
import type { ModuleGrid } from '../../src/design/grid.js';
import { modulesPath, type ModuleStyle } from '../../src/design/module-shapes.js';
import type { FinderInnerShape, FinderOuterShape } from '../../src/model/vocabulary.js';
import { notFinder } from './grid-fixture.js';

/** The whole symbol as one path, assembled as the scene builder does: data modules, then the three eyes. */
export function symbolPath(
  grid: ModuleGrid,
  style: ModuleStyle,
  outer: FinderOuterShape = 'square',
  inner: FinderInnerShape = 'square',
): string {
  const origins = [
    [0, 0],
    [grid.size - 7, 0],
    [0, grid.size - 7],
  ] as const;
  const eyes = origins.map(
    ([x, y], eye) =>
      finderOuterPath(outer, x, y, eye as 0 | 1 | 2) + finderInnerPath(inner, x + 2, y + 2, eye as 0 | 1 | 2),
  );
  return modulesPath(grid, notFinder(grid), style) + eyes.join('');
}
