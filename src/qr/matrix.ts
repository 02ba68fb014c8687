import { versionBits } from './format.js';
import { maskTable, packMaskPatterns } from './mask.js';
import { alignmentCount, symbolSize } from './version.js';
import { ModuleRole } from './types.js';

/**
 * Everything about a symbol that depends on its version alone, built once per version and shared by every
 * encode: function patterns, the data-module placement order, the per-module mask table and where the two
 * format-information copies go.
 */
export interface VersionTemplate {
  version: number;
  size: number;
  /** Function patterns drawn (format areas left light: they depend on ECC and mask); data modules 0. */
  modules: Uint8Array;
  roles: Uint8Array;
  /** Data-module indices in ISO 18004 7.7.3 placement order (the two-column zigzag from bottom right). */
  order: Uint16Array;
  /** Bit k set where mask pattern k inverts the module; 0 on function modules. */
  masks: Uint8Array;
  /** The same patterns packed by rows and by columns for the penalty scorer (see mask.ts). */
  maskRows: Int32Array;
  maskCols: Int32Array;
  /** Module index of format bit i (bit 0 the least significant), first and second copy. */
  formatA: Uint16Array;
  formatB: Uint16Array;
}

/** Alignment-pattern centre coordinates along one axis (ISO 18004 Annex E), ascending. */
export function alignmentPositions(version: number): number[] {
  const count = alignmentCount(version);
  if (count === 0) return [];
  const size = symbolSize(version);
  const step = Math.floor((version * 8 + count * 3 + 5) / (count * 4 - 4)) * 2;
  const positions = [6];
  for (let pos = size - 7; positions.length < count; pos -= step) positions.splice(1, 0, pos);
  return positions;
}

const templates: (VersionTemplate | undefined)[] = [];

export function versionTemplate(version: number): VersionTemplate {
  templates[version] ??= buildTemplate(version);
  return templates[version];
}

function buildTemplate(version: number): VersionTemplate {
  const size = symbolSize(version);
  const modules = new Uint8Array(size * size);
  const roles = new Uint8Array(size * size);
  const set = (x: number, y: number, dark: boolean, role: ModuleRole): void => {
    modules[y * size + x] = dark ? 1 : 0;
    roles[y * size + x] = role;
  };

  // Timing first: the alignment patterns on row/column 6 of larger versions overlap it (with the same
  // colours) and the alignment role is the more useful one for the design layer.
  for (let i = 8; i < size - 8; i++) {
    set(i, 6, i % 2 === 0, ModuleRole.Timing);
    set(6, i, i % 2 === 0, ModuleRole.Timing);
  }

  for (const [fx, fy] of [
    [3, 3],
    [size - 4, 3],
    [3, size - 4],
  ]) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const x = fx + dx;
        const y = fy + dy;
        if (x < 0 || y < 0 || x >= size || y >= size) continue;
        const ring = Math.max(Math.abs(dx), Math.abs(dy));
        if (ring === 4) set(x, y, false, ModuleRole.Separator);
        else set(x, y, ring !== 2, ModuleRole.Finder);
      }
    }
  }

  const align = alignmentPositions(version);
  const last = align.length - 1;
  for (let i = 0; i <= last; i++) {
    for (let j = 0; j <= last; j++) {
      // The three corners are occupied by finder patterns.
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) continue;
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          set(align[i] + dx, align[j] + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1, ModuleRole.Alignment);
        }
      }
    }
  }

  const formatA = new Uint16Array(15);
  const formatB = new Uint16Array(15);
  const at = (x: number, y: number): number => y * size + x;
  for (let i = 0; i <= 5; i++) formatA[i] = at(8, i);
  formatA[6] = at(8, 7);
  formatA[7] = at(8, 8);
  formatA[8] = at(7, 8);
  for (let i = 9; i < 15; i++) formatA[i] = at(14 - i, 8);
  for (let i = 0; i < 8; i++) formatB[i] = at(size - 1 - i, 8);
  for (let i = 8; i < 15; i++) formatB[i] = at(8, size - 15 + i);
  for (let i = 0; i < 15; i++) {
    roles[formatA[i]] = ModuleRole.Format;
    roles[formatB[i]] = ModuleRole.Format;
  }
  set(8, size - 8, true, ModuleRole.DarkModule);

  if (version >= 7) {
    const bits = versionBits(version);
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      set(a, b, dark, ModuleRole.Version);
      set(b, a, dark, ModuleRole.Version);
    }
  }

  const order: number[] = [];
  for (let right = size - 1; right >= 1; right -= 2) {
    // Column 6 is the vertical timing pattern; the zigzag steps over it.
    if (right === 6) right = 5;
    const upward = ((right + 1) & 2) === 0;
    for (let vert = 0; vert < size; vert++) {
      const y = upward ? size - 1 - vert : vert;
      for (let j = 0; j < 2; j++) {
        const idx = y * size + right - j;
        if (roles[idx] === ModuleRole.Data) order.push(idx);
      }
    }
  }

  const masks = maskTable(size, roles);
  const packed = packMaskPatterns(masks, size);
  return {
    version,
    size,
    modules,
    roles,
    order: Uint16Array.from(order),
    masks,
    maskRows: packed.rows,
    maskCols: packed.cols,
    formatA,
    formatB,
  };
}

/** Writes codeword bits MSB first along the placement order; trailing remainder modules stay light. */
export function placeCodewords(target: Uint8Array, order: Uint16Array, codewords: Uint8Array): void {
  let k = 0;
  for (let i = 0; i < codewords.length; i++) {
    const cw = codewords[i];
    for (let b = 7; b >= 0; b--, k++) target[order[k]] = (cw >>> b) & 1;
  }
}

export function drawFormat(target: Uint8Array, t: VersionTemplate, bits: number): void {
  for (let i = 0; i < 15; i++) {
    const bit = (bits >>> i) & 1;
    target[t.formatA[i]] = bit;
    target[t.formatB[i]] = bit;
  }
}
