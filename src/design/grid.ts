import type { QrSymbol } from '../qr/types.js';

/**
 * The module grid the design layer draws from: the encoded symbol plus the cells a design element
 * (a logo, a centre-text band) has cleared. Coordinates are in module units, origin at the symbol's
 * top-left corner, quiet zone excluded.
 */
export interface ModuleGrid {
  size: number;
  modules: QrSymbol['modules'];
  roles: QrSymbol['roles'];
  /** 1 where a module must not be drawn (under a logo); absent when nothing is cleared. */
  cleared?: Uint8Array;
}

export const gridFromSymbol = (s: QrSymbol): ModuleGrid => ({ size: s.size, modules: s.modules, roles: s.roles });

/** The modules one path draws: dark in the symbol and accepted by the caller's filter (index y * size + x). */
export interface Selection {
  readonly size: number;
  /** 1 where a module is drawn. */
  readonly on: Uint8Array;
}

export function selectModules(grid: ModuleGrid, select: (i: number) => boolean): Selection {
  const on = new Uint8Array(grid.size * grid.size);
  for (let i = 0; i < on.length; i++) on[i] = grid.modules[i] === 1 && select(i) ? 1 : 0;
  return { size: grid.size, on };
}

export const isOn = (sel: Selection, x: number, y: number): boolean =>
  x >= 0 && y >= 0 && x < sel.size && y < sel.size && sel.on[y * sel.size + x] === 1;

/** Bits of `neighbourBits`: the eight neighbours of a module, named by compass direction (north = up). */
export const Nb = { N: 1, E: 2, S: 4, W: 8, NE: 16, SE: 32, SW: 64, NW: 128 } as const;

/** Which of the eight neighbours of (x, y) are drawn, as a sum of `Nb` bits; outside the symbol counts as not drawn. */
export function neighbourBits(sel: Selection, x: number, y: number): number {
  return (
    (isOn(sel, x, y - 1) ? Nb.N : 0) |
    (isOn(sel, x + 1, y) ? Nb.E : 0) |
    (isOn(sel, x, y + 1) ? Nb.S : 0) |
    (isOn(sel, x - 1, y) ? Nb.W : 0) |
    (isOn(sel, x + 1, y - 1) ? Nb.NE : 0) |
    (isOn(sel, x + 1, y + 1) ? Nb.SE : 0) |
    (isOn(sel, x - 1, y + 1) ? Nb.SW : 0) |
    (isOn(sel, x - 1, y - 1) ? Nb.NW : 0)
  );
}
