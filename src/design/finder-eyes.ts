/** Names accepted by `finderOuterShape` (the 7×7 ring) and `finderInnerShape` (the 3×3 centre). */
export const FINDER_OUTER_SHAPES = ['square'] as const;
export const FINDER_INNER_SHAPES = ['square'] as const;
export type FinderOuterShape = (typeof FINDER_OUTER_SHAPES)[number];
export type FinderInnerShape = (typeof FINDER_INNER_SHAPES)[number];

/** Which of the three finder patterns: top-left, top-right, bottom-left. */
export type EyeIndex = 0 | 1 | 2;

/** SVG path data (module units, even-odd fill) of the 7×7 outer ring whose top-left corner is (x, y). */
export function finderOuterPath(_shape: FinderOuterShape, x: number, y: number, _eye: EyeIndex): string {
  return `M${x} ${y}h7v7h-7zM${x + 1} ${y + 1}v5h5v-5z`;
}

/** SVG path data (module units) of the 3×3 centre whose top-left corner is (x, y). */
export function finderInnerPath(_shape: FinderInnerShape, x: number, y: number, _eye: EyeIndex): string {
  return `M${x} ${y}h3v3h-3z`;
}
