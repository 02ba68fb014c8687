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
