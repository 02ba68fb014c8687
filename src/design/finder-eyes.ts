import { compose, emitLoop, mirrorIn, transform, translate } from './geometry/path.js';
import { INNER } from './shapes/finder/inner.js';
import { OUTER } from './shapes/finder/outer.js';
import type { EyePart } from './shapes/finder/part.js';
import type { FinderInnerShape, FinderOuterShape } from '../model/vocabulary.js';

/** Which of the three finder patterns: top-left, top-right, bottom-left. */
export type EyeIndex = 0 | 1 | 2;

function eyePath(part: EyePart, side: number, x: number, y: number, eye: EyeIndex): string {
  const place = part.directional
    ? compose(translate(x, y), mirrorIn(eye === 1, eye === 2, side, side))
    : translate(x, y);
  const out: string[] = [];
  for (const l of part.loops) emitLoop(out, transform(l, place));
  return out.join('');
}

/** SVG path data (module units; nonzero or even-odd fill) of the 7×7 outer ring whose top-left corner is (x, y). */
export function finderOuterPath(shape: FinderOuterShape, x: number, y: number, eye: EyeIndex): string {
  return eyePath(OUTER[shape], 7, x, y, eye);
}

/** SVG path data (module units) of the 3×3 centre whose top-left corner is (x, y). */
export function finderInnerPath(shape: FinderInnerShape, x: number, y: number, eye: EyeIndex): string {
  return eyePath(INNER[shape], 3, x, y, eye);
}
