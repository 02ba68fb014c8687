import type { EccLevel } from '../model/vocabulary.js';

export const MIN_VERSION = 1;
export const MAX_VERSION = 40;

/** Index of an ECC level in the per-level tables below. */
export const ECC_INDEX: Readonly<Record<EccLevel, number>> = { L: 0, M: 1, Q: 2, H: 3 };

// ISO/IEC 18004 Table 9, indexed [ecc][version]; index 0 is unused so versions index directly.
const EC_CODEWORDS_PER_BLOCK: readonly (readonly number[])[] = [
  [
    0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30,
    30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
  ],
  [
    0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28,
    28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  ],
  [
    0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30, 30,
    30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
  ],
  [
    0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30, 30,
    30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
  ],
];

const EC_BLOCKS: readonly (readonly number[])[] = [
  [
    0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19,
    19, 20, 21, 22, 24, 25,
  ],
  [
    0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33,
    35, 37, 38, 40, 43, 45, 47, 49,
  ],
  [
    0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43,
    45, 48, 51, 53, 56, 59, 62, 65, 68,
  ],
  [
    0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51,
    54, 57, 60, 63, 66, 70, 74, 77, 81,
  ],
];

export const symbolSize = (version: number): number => version * 4 + 17;

export const alignmentCount = (version: number): number => (version === 1 ? 0 : Math.floor(version / 7) + 2);

/**
 * Modules left for codewords once every function pattern is placed (ISO 18004 Table 1, "data modules
 * except" column plus remainder bits), derived arithmetically so capacity checks never build a matrix.
 */
function rawDataModules(version: number): number {
  let n = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const a = alignmentCount(version);
    n -= (25 * a - 10) * a - 55;
    if (version >= 7) n -= 36;
  }
  return n;
}

export const totalCodewords = (version: number): number => rawDataModules(version) >>> 3;

export const ecCodewordsPerBlock = (version: number, ecc: EccLevel): number =>
  EC_CODEWORDS_PER_BLOCK[ECC_INDEX[ecc]][version];

export const ecBlockCount = (version: number, ecc: EccLevel): number => EC_BLOCKS[ECC_INDEX[ecc]][version];

export const dataCodewords = (version: number, ecc: EccLevel): number =>
  totalCodewords(version) - ecCodewordsPerBlock(version, ecc) * ecBlockCount(version, ecc);

/**
 * Versions 1–9, 10–26 and 27–40 share character-count field widths, so a segmentation's bit length is a
 * property of the class, not of the single version.
 */
export const versionClass = (version: number): 0 | 1 | 2 => (version <= 9 ? 0 : version <= 26 ? 1 : 2);

/** First and last version of each class. */
export const CLASS_RANGES: readonly (readonly [number, number])[] = [
  [1, 9],
  [10, 26],
  [27, 40],
];
