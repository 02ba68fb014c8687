import type { FinderInnerShape } from '../../../model/vocabulary.js';
import {
  chamferBox,
  corners,
  ellipse,
  heart,
  notchedBox,
  roundedBox,
  scalloped,
  shield,
  squircle,
  star,
  type Corners,
} from '../../geometry/outlines.js';
import { polygon } from '../../geometry/path.js';
import type { EyePart } from './part.js';

const box = (r: Corners) => [roundedBox(0, 0, 3, 3, r)];
const cut = (c: Corners, e = 0) => [chamferBox(-e, -e, 3 + e, 3 + e, c)];
const disc = [ellipse(1.5, 1.5, 1.5)];

/**
 * Finder centres by name, in eye-local coordinates [0, 3]². `dot` is qr-code-styling's name and
 * `circle` Uniqode's for the same disc. Decoders measure the centre as the 3 of the 1:1:3:1:1 run along
 * rows, columns and diagonals, so a centre that is short along some of them reaches past the 3×3 square
 * into the gap to make up for it: the diamond and star along the diagonals, the plus a little (its arms
 * are the rows and columns, its notches cut the diagonals), and the half-diamonds, which lose two corners.
 */
export const INNER = {
  square: { loops: box(corners(0)) },
  dot: { loops: disc },
  circle: { loops: disc },
  rounded: { loops: box(corners(0.75)) },
  'extra-rounded': { loops: box(corners(1.2)) },
  'left-leaf': { loops: box(corners(0, 1.5, 0, 1.5)), directional: true },
  'right-leaf': { loops: box(corners(1.5, 0, 1.5, 0)), directional: true },
  'left-diamond': { loops: cut(corners(0, 1.3, 0, 1.3), 0.2), directional: true },
  'right-diamond': { loops: cut(corners(1.3, 0, 1.3, 0), 0.2), directional: true },
  drop: { loops: box(corners(0, 1.5, 1.5, 1.5)), directional: true },
  classy: { loops: box(corners(1.2, 0.3, 1.2, 0.3)), directional: true },
  'cut-corner': { loops: cut(corners(1.2, 0, 0, 0)), directional: true },
  octagon: { loops: cut(corners(0.88)) },
  diamond: {
    loops: [
      polygon([
        [1.5, -0.55],
        [3.55, 1.5],
        [1.5, 3.55],
        [-0.55, 1.5],
      ]),
    ],
  },
  plus: { loops: [notchedBox(-0.15, -0.15, 3.15, 3.15, 0.75)] },
  star: { loops: [star(1.5, 1.5, 2, 1.45, 8)] },
  heart: { loops: [heart(-0.23, -0.17, 3.46, 3.37)] },
  flower: { loops: [scalloped(1.5, 1.5, 1.6, 1.25, 8)] },
  shield: { loops: [shield(0, 0, 3, 3)] },
  squircle: { loops: [squircle(1.5, 1.5, 1.5)] },
} satisfies Record<FinderInnerShape, EyePart>;
