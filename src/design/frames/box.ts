import { corners } from '../geometry/outlines.js';
import { hole } from '../geometry/path.js';
import { around, clearRadius, insetsOf, U, type Frame } from './parts.js';

/**
 * The radius the frame's inner edge aims for, in u, beyond the code box's own corner radius (as far as
 * that keeps the quiet zone clear); a caption's side keeps this radius alone, so text is not cut by a
 * round code's wide corners.
 */
const INNER_RADIUS = 2.5;

/**
 * A rounded border around the code that thickens below it into a filled band carrying the caption: the
 * classic "scan me" sticker.
 */
export const boxBottom: Frame = {
  slot: true,
  insets: ({ u }) => {
    const side = (U.margin + U.gap + U.border) * u;
    return insetsOf(side, side, (U.margin + U.gap + U.band) * u, side);
  },
  draw: (box, { u }) => {
    const g = U.gap * u;
    const r = Math.min(INNER_RADIUS * u + box.corner, clearRadius(box, g));
    const b = U.border * u;
    const flat = INNER_RADIUS * u + b;
    const outer = around(box, g + b, corners(r + b, r + b, flat, flat), U.band * u - b);
    const inner = around(box, g, corners(r));
    const bandTop = box.y + box.side + g;
    return {
      shapes: [outer, hole(inner)],
      caption: { kind: 'line', box: { x: box.x - g, y: bandTop, w: box.side + 2 * g, h: U.band * u }, filled: true },
    };
  },
};

/** A thin rounded border around the code and, when there is one, the caption under it on the canvas. */
export const border: Frame = {
  slot: false,
  insets: ({ u, caption }) => {
    const side = (U.margin + U.gap + U.border) * u;
    return insetsOf(side, side, side + (caption ? U.caption * u : 0), side);
  },
  draw: (box, { u, caption }) => {
    const g = U.gap * u;
    const r = Math.min(INNER_RADIUS * u + box.corner, clearRadius(box, g));
    const b = U.border * u;
    const below = caption ? U.caption * u : 0;
    const low = caption ? INNER_RADIUS * u : r;
    const shapes = [
      around(box, g + b, corners(r + b, r + b, low + b, low + b), below),
      hole(around(box, g, corners(r, r, low, low), below)),
    ];
    if (!caption) return { shapes };
    return {
      shapes,
      caption: { kind: 'line', box: { x: box.x, y: box.y + box.side + g, w: box.side, h: below }, filled: false },
    };
  },
};
