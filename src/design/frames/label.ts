import { corners, roundedBox } from '../geometry/outlines.js';
import { polygon } from '../geometry/path.js';
import { insetsOf, U, type Frame } from './parts.js';

/** Ribbon and pill height, in u. */
const HEIGHT = 12;
/** Space between the code box and a label, in u. */
const SPACE = 2;
/** How far the ribbon reaches past the code on each side, and how deep its swallowtail notches cut, in u. */
const REACH = 4;
const NOTCH = 3.5;

/** A ribbon under the code, wider than it, its ends cut into swallowtails; the caption on it. */
export const bannerBottom: Frame = {
  slot: true,
  insets: ({ u }) =>
    insetsOf(U.margin * u, (U.margin + REACH) * u, (U.margin + SPACE + HEIGHT) * u, (U.margin + REACH) * u),
  draw: (box, { u }) => {
    const [x0, x1] = [box.x - REACH * u, box.x + box.side + REACH * u];
    const y0 = box.y + box.side + SPACE * u;
    const [y1, mid, n] = [y0 + HEIGHT * u, y0 + (HEIGHT * u) / 2, NOTCH * u];
    const ribbon = polygon([
      [x0, y0],
      [x1, y0],
      [x1 - n, mid],
      [x1, y1],
      [x0, y1],
      [x0 + n, mid],
    ]);
    return {
      shapes: [ribbon],
      caption: { kind: 'line', box: { x: x0 + n, y: y0, w: x1 - x0 - 2 * n, h: HEIGHT * u }, filled: true },
    };
  },
};

/** A pill-shaped button under the code, as wide as it, with the caption on it. */
export const pillBottom: Frame = {
  slot: true,
  insets: ({ u }) => insetsOf(U.margin * u, U.margin * u, (U.margin + SPACE + HEIGHT) * u, U.margin * u),
  draw: (box, { u }) => {
    const [x0, w] = [box.x, box.side];
    const y0 = box.y + box.side + SPACE * u;
    const h = HEIGHT * u;
    return {
      shapes: [roundedBox(x0, y0, x0 + w, y0 + h, corners(h / 2))],
      caption: { kind: 'line', box: { x: x0 + h / 3, y: y0, w: w - (2 * h) / 3, h }, filled: true },
    };
  },
};
