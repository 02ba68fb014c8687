import type { FinderOuterShape } from '../../../model/vocabulary.js';
import { boxedDisc, corners, notchedBox, scalloped, shield, squircle } from '../../geometry/outlines.js';
import { polygon, type Loop } from '../../geometry/path.js';
import type { EyePart } from './part.js';
import { chamferRing, dotRing, fourfold, ring, roundedRing, ticket } from './rings.js';

const LEAF = 7 / 3; // Uniqode's leaf radius: a third of the eye

/** Dashes of a dashed ring stop `gap` short of each other, but never at a side's centre or a corner, where scans cross. */
const dashed = (gap: number): Loop[] => {
  const arm = 2.8 - gap;
  return fourfold(7, [
    polygon([
      [0, 0],
      [arm, 0],
      [arm, 1],
      [1, 1],
      [1, arm],
      [0, arm],
    ]),
    polygon([
      [2.8, 0],
      [3.5, 0],
      [3.5, 1],
      [2.8, 1],
    ]),
    polygon([
      [0, 2.8],
      [1, 2.8],
      [1, 3.5],
      [0, 3.5],
    ]),
  ]);
};

/**
 * Outer finder rings by name, in eye-local coordinates [0, 7]². Scanners measure an eye along the rows
 * and columns through its centre and fit straight lines to where those runs begin and end (zbar does,
 * and takes the module size from them): so every ring keeps its outer edge straight, on the 7×7 square,
 * across the middle of each side, and shapes only its corners. `circle` is a disc with its sides
 * flattened over the middle third, `flower` has its four side petals cut flat, `shield` has a round,
 * flat-based bottom rather than a point.
 */
export const OUTER = {
  square: { loops: roundedRing(corners(0)) },
  rounded: { loops: roundedRing(corners(1.75)) },
  'extra-rounded': { loops: roundedRing(corners(2.5)) },
  circle: { loops: ring(boxedDisc(3.5, 3.5, 3.5, 3.65), boxedDisc(3.5, 3.5, 2.5, 2.65)) },
  'left-leaf': { loops: roundedRing(corners(0, LEAF, 0, LEAF)), directional: true },
  'right-leaf': { loops: roundedRing(corners(LEAF, 0, LEAF, 0)), directional: true },
  drop: { loops: roundedRing(corners(0, 2.5, 2.5, 2.5)), directional: true },
  classy: { loops: roundedRing(corners(2.5, 0.6, 2.5, 0.6)), directional: true },
  octagon: { loops: chamferRing(corners(2)) },
  'cut-corner': { loops: chamferRing(corners(1.5, 0, 0, 0)), directional: true },
  plus: { loops: ring(notchedBox(0, 0, 7, 7, 0.6), notchedBox(1, 1, 6, 6, 0.6)) },
  ticket: { loops: ring(ticket(1, 0), ticket(1, 1)) },
  squircle: { loops: ring(squircle(3.5, 3.5, 3.5), squircle(3.5, 3.5, 2.5)) },
  flower: { loops: ring(scalloped(3.5, 3.5, 4.2, 3.35, 8, 3.5), boxedDisc(3.5, 3.5, 2.5, 2.7)) },
  shield: { loops: ring(shield(0, 0, 7, 7, 0.65, 2.6), shield(1, 1, 5, 5, 0.65, 1.8)) },
  dots: { loops: dotRing() },
  dashed: { loops: dashed(0.45) },
} satisfies Record<FinderOuterShape, EyePart>;
