import qrcode from 'qrcode-generator';
import type { ModuleGrid } from '../../src/design/grid.js';

const FINDER = 1; // ModuleRole.Finder; the enum is const, so tests spell the value.
const DATA = 0;

/**
 * A grid encoded by qrcode-generator (a stand-in until the project's own encoder lands), with the three
 * 7×7 finder squares marked as finder and everything else as data. ASCII content only: the package
 * encodes Byte mode as Latin-1.
 */
export function gridFor(text: string, ecc: 'L' | 'M' | 'Q' | 'H' = 'M'): ModuleGrid {
  const q = qrcode(0, ecc);
  q.addData(text, 'Byte');
  q.make();
  const size = q.getModuleCount();
  const modules = new Uint8Array(size * size);
  const roles = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      modules[y * size + x] = q.isDark(y, x) ? 1 : 0;
      const inFinder = (x < 7 && y < 7) || (x >= size - 7 && y < 7) || (x < 7 && y >= size - 7);
      roles[y * size + x] = inFinder ? FINDER : DATA;
    }
  }
  return { size, modules, roles };
}

/** A grid of the given rows ('#' dark, anything else light), all data: for checking how neighbours join. */
export function gridOf(rows: readonly string[]): ModuleGrid {
  const size = Math.max(rows.length, ...rows.map((r) => r.length));
  const modules = new Uint8Array(size * size);
  for (const [y, r] of rows.entries()) {
    for (const [x, ch] of [...r].entries()) modules[y * size + x] = ch === '#' ? 1 : 0;
  }
  return { size, modules, roles: new Uint8Array(size * size) };
}

export const notFinder =
  (grid: ModuleGrid) =>
  (i: number): boolean =>
    grid.roles[i] !== FINDER;
