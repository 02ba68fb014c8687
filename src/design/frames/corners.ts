import type { Box } from '../../model/paint.js';
import { arc, line, loop, polygon, transform, type Loop } from '../geometry/path.js';
import { insetsOf, U, type Frame } from './parts.js';

/** Sizes in u: stroke, arm length, space between the marks and what they enclose, and the rounded marks' radius. */
const STROKE = 2.2;
const ARM = 10;
const SPACE = 1.5;
const RADIUS = 4;

/** One corner mark drawn for the top-left corner (outer corner at the origin), as `draw` makes it. */
type Mark = (stroke: number, arm: number) => Loop;

const bracket: Mark = (t, a) =>
  polygon([
    [0, 0],
    [a, 0],
    [a, t],
    [t, t],
    [t, a],
    [0, a],
  ]);

const roundedMark =
  (radius: number): Mark =>
  (t, a) => {
    const r = Math.min(radius, a);
    return loop([
      line(a, 0),
      line(a, t),
      line(r, t),
      arc(t, r, r, r, r - t),
      line(t, a),
      line(0, a),
      line(0, r),
      arc(r, 0, r, r, r),
    ]);
  };

/** The mark at each corner of `box`, its outer corner `stroke` outside it. */
function marksAround(box: Box, mark: Mark, stroke: number, arm: number): Loop[] {
  const [x0, y0, x1, y1] = [box.x - stroke, box.y - stroke, box.x + box.w + stroke, box.y + box.h + stroke];
  const m = mark(stroke, arm);
  return [
    transform(m, { ax: 1, bx: x0, ay: 1, by: y0 }),
    transform(m, { ax: -1, bx: x1, ay: 1, by: y0 }),
    transform(m, { ax: -1, bx: x1, ay: -1, by: y1 }),
    transform(m, { ax: 1, bx: x0, ay: -1, by: y1 }),
  ];
}

/** Both mark styles take a margin, the gap and the stroke on every side, and the caption's band below. */
const markInsets: Frame['insets'] = ({ u, caption }) => {
  const side = (U.margin + SPACE + STROKE) * u;
  return insetsOf(side, side, side + (caption ? U.caption * u : 0), side);
};

/** A camera's focus brackets around the code and the caption under it. */
export const focus: Frame = {
  slot: false,
  insets: markInsets,
  draw: (box, { u, caption }) => {
    const g = SPACE * u;
    const below = caption ? U.caption * u : 0;
    const area = { x: box.x - g, y: box.y - g, w: box.side + 2 * g, h: box.side + 2 * g + below };
    const shapes = marksAround(area, bracket, STROKE * u, Math.min(ARM * u, area.w / 3));
    return caption
      ? {
          shapes,
          caption: {
            kind: 'line',
            box: { x: box.x, y: box.y + box.side + g, w: box.side, h: below - g },
            filled: false,
          },
        }
      : { shapes };
  },
};

/** Rounded viewfinder marks at the code's corners; a caption, if any, under them. */
export const scanCorners: Frame = {
  slot: false,
  insets: markInsets,
  draw: (box, { u, caption }) => {
    const g = SPACE * u;
    const t = STROKE * u;
    const area = { x: box.x - g, y: box.y - g, w: box.side + 2 * g, h: box.side + 2 * g };
    const shapes = marksAround(area, roundedMark(RADIUS * u), t, Math.min(ARM * u, area.w / 3));
    return caption
      ? {
          shapes,
          caption: {
            kind: 'line',
            box: { x: box.x, y: box.y + box.side + g + t, w: box.side, h: U.caption * u },
            filled: false,
          },
        }
      : { shapes };
  },
};
