import { ellipse } from '../geometry/outlines.js';
import { hole } from '../geometry/path.js';
import { U, type Frame } from './parts.js';

/** Ring thickness in u: wide enough for the caption along it, or a plain outline without one. */
const RING = 12;
const OUTLINE = 2.5;

/** Distance from the centre of a rounded square (corner radius `corner` × side) to its farthest point, per unit of side. */
const reach = (corner: number) => (0.5 - corner) * Math.SQRT2 + corner;

/**
 * A ring around the code, the caption set along its lower half and reading left to right. The ring is
 * drawn around the circle that holds the code box, so a square code shrinks by √2 and a round one
 * (qrShapeRadius 50) fills it.
 */
export const circular: Frame = {
  slot: true,
  insets: ({ width, height, u, caption, corner }) => {
    const ring = (caption ? RING : OUTLINE) * u;
    const inner = Math.min(width, height) / 2 - U.margin * u - ring - U.gap * u;
    const side = inner / reach(corner);
    return {
      top: (height - side) / 2,
      bottom: (height - side) / 2,
      left: (width - side) / 2,
      right: (width - side) / 2,
    };
  },
  draw: (box, { u, caption }) => {
    const ring = (caption ? RING : OUTLINE) * u;
    const [cx, cy] = [box.x + box.side / 2, box.y + box.side / 2];
    const inner = box.side * reach(box.corner / box.side) + U.gap * u;
    const shapes = [ellipse(cx, cy, inner + ring), hole(ellipse(cx, cy, inner))];
    return caption ? { shapes, caption: { kind: 'arc', cx, cy, radius: inner + ring / 2, height: ring } } : { shapes };
  },
};
