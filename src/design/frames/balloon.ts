import { corners, roundedBox } from '../geometry/outlines.js';
import { polygon } from '../geometry/path.js';
import { insetsOf, U, type Frame } from './parts.js';

/** Sizes in u: the bubble's height and corner radius, and its pointer's height and base width. */
const BUBBLE = 13;
const RADIUS = 3;
const POINTER = 4;
const POINTER_BASE = 8;

/** A speech bubble under the code, its pointer aimed at the code, the caption inside. */
export const balloonBottom: Frame = {
  slot: true,
  insets: ({ u }) => insetsOf(U.margin * u, U.margin * u, (U.margin + U.gap + POINTER + BUBBLE) * u, U.margin * u),
  draw: (box, { u }) => {
    const tip = box.y + box.side + U.gap * u;
    const y0 = tip + POINTER * u;
    const cx = box.x + box.side / 2;
    const half = (POINTER_BASE * u) / 2;
    const bubble = roundedBox(box.x, y0, box.x + box.side, y0 + BUBBLE * u, corners(RADIUS * u));
    // The pointer's base sinks into the bubble so the two fill as one shape, without a hairline between them.
    const pointer = polygon([
      [cx, tip],
      [cx + half, y0 + u],
      [cx - half, y0 + u],
    ]);
    return {
      shapes: [bubble, pointer],
      caption: { kind: 'line', box: { x: box.x, y: y0, w: box.side, h: BUBBLE * u }, filled: true },
    };
  },
};
