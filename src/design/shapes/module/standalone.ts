import {
  chamferBox,
  corners,
  ellipse,
  heart,
  lens,
  notchedBox,
  roundedBox,
  saltire,
  squircle,
  star,
  turnedSquare,
} from '../../geometry/outlines.js';
import { polygon, scaleAbout, transform, type Loop } from '../../geometry/path.js';
import type { ModuleShapeFn } from './cell.js';

/**
 * Module shapes that ignore their neighbours: one outline designed in the unit cell, shrunk about the
 * cell centre to the module's size. Every outline covers the cell centre (where decoders sample) and at
 * least 45 % of the cell at full size.
 */
const fixed =
  (outline: Loop): ModuleShapeFn =>
  (c) => [transform(outline, scaleAbout(c.s, 0.5, 0.5))];

export const square = fixed(roundedBox(0, 0, 1, 1, corners(0)));
export const dot = fixed(ellipse(0.5, 0.5, 0.5));
/** Uniqode's name, drawn as a true kite (cross-bar above centre) so it reads apart from `diamond`. */
export const kite = fixed(
  polygon([
    [0.5, 0],
    [1, 0.32],
    [0.5, 1],
    [0, 0.32],
  ]),
);
/** Uniqode's square with the top-right and bottom-left corners cut to the side midpoints. */
export const leftDiamond = fixed(chamferBox(0, 0, 1, 1, corners(0, 0.5, 0, 0.5)));
export const rightDiamond = fixed(chamferBox(0, 0, 1, 1, corners(0.5, 0, 0.5, 0)));
/** Uniqode draws thin squares at three quarters of the cell with a quarter-side corner radius. */
export const thinSquare = fixed(roundedBox(0.125, 0.125, 0.875, 0.875, corners(0.1875)));
export const diamond = fixed(chamferBox(0, 0, 1, 1, corners(0.5)));
/** Fat enough (inner radius 0.55 of outer) to keep half the cell; nudged down so its bounding box is centred. */
export const starShape = fixed(star(0.5, 0.545, 0.56, 0.31, 5));
export const squircleShape = fixed(squircle(0.5, 0.5, 0.5));
export const leaf = fixed(lens(0, 0, 1, 0.85));
export const cross = fixed(saltire(0, 0, 1, 1, 0.2));
export const plus = fixed(notchedBox(0, 0, 1, 1, 0.3));
export const hexagon = fixed(star(0.5, 0.5, 0.5, 0.5, 6));
/** Regular: the cut is 1 / (2 + √2) of the side. */
export const octagon = fixed(chamferBox(0, 0, 1, 1, corners(0.293)));
export const heartShape = fixed(heart(0, 0.01, 1, 0.98));

/** Tiles set slightly apart and each turned by up to ±8°, like hand-laid mosaic. */
export const mosaic: ModuleShapeFn = (c) => [turnedSquare(0.5, 0.5, 0.86 * c.s, (c.r - 0.5) * 0.28)];
