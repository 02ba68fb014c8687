import type { Insets } from '../../model/layout.js';
import type { Box } from '../../model/paint.js';
import { roundedBox, type Corners } from '../geometry/outlines.js';
import { transform, type Loop } from '../geometry/path.js';

/**
 * The code as a frame sees it, in canvas pixels: the square the symbol and its quiet zone occupy, or the
 * rounded shape around them (qrShapeRadius). Frames are drawn outside it, so they never touch the quiet zone.
 */
export interface CodeBox {
  x: number;
  y: number;
  side: number /** Corner radius in pixels; side / 2 is a circle. */;
  corner: number;
}

/** What a frame is sized from, before the code is placed. */
export interface FrameSpace {
  width: number;
  height: number;
  /** 1 % of the canvas's shorter side: frames scale with the canvas, whatever the symbol's module count. */
  u: number;
  /** Whether there is a caption to make room for. */
  caption: boolean;
  /** Corner radius of the code box as a fraction of its side (0 square … 0.5 circle). */
  corner: number;
}

/** Where the caption goes: a straight line centred in a box, or along the bottom of a ring. */
export type Caption =
  | {
      kind: 'line';
      box: Box /** On a filled band (text in the background colour) rather than on the canvas. */;
      filled: boolean;
    }
  | {
      kind: 'arc';
      cx: number;
      cy: number /** Radius of the middle of the ring. */;
      radius: number /** Ring thickness. */;
      height: number;
    };

export interface FrameDrawing {
  /** Outlines filled with the frame colour. */
  shapes: Loop[];
  caption?: Caption;
}

export interface Frame {
  /** Has a place for text: shows DEFAULT_CAPTION when ctaText is absent. */
  slot: boolean;
  /** Canvas space the frame takes on each side; the code box is placed in what remains. */
  insets(s: FrameSpace): Insets;
  draw(box: CodeBox, s: FrameSpace): FrameDrawing;
}

export const DEFAULT_CAPTION = 'SCAN ME';

/** Sizes in units of FrameSpace.u. */
export const U = {
  /** Between the frame and the canvas edge. */
  margin: 2,
  /** Between the code box and the frame's inner edge. */
  gap: 1,
  /** Border stroke. */
  border: 2.2,
  /** A filled caption band, border included. */
  band: 15,
  /** A caption on the canvas (no band). */
  caption: 11,
} as const;

export const insetsOf = (top: number, right: number, bottom: number, left: number): Insets => ({
  top,
  right,
  bottom,
  left,
});

/**
 * The largest corner radius a rounded box `gap` outside the code box may have and still contain it: a box
 * with a larger radius would cut across the code box's corners, which are quiet zone.
 */
export function clearRadius(box: CodeBox, gap: number): number {
  const r = box.corner;
  return Math.min(((gap + r) * Math.SQRT2 - r) / (Math.SQRT2 - 1), box.side / 2 + gap);
}

/** The code box grown by `gap` on every side and by `below` more at the bottom, with the given corner radii. */
export const around = (box: CodeBox, gap: number, radii: Corners, below = 0): Loop =>
  roundedBox(box.x - gap, box.y - gap, box.x + box.side + gap, box.y + box.side + gap + below, radii);

/** The same frame with its caption side above the code instead of below: everything mirrored about the code box's centre. */
export function flipped(frame: Frame): Frame {
  return {
    slot: frame.slot,
    insets: (s) => {
      const i = frame.insets(s);
      return { ...i, top: i.bottom, bottom: i.top };
    },
    draw: (box, s) => {
      const d = frame.draw(box, s);
      const axis = 2 * box.y + box.side;
      const shapes = d.shapes.map((l) => transform(l, { ax: 1, bx: 0, ay: -1, by: axis }));
      if (d.caption?.kind !== 'line') return { ...d, shapes };
      const c = d.caption.box;
      return { shapes, caption: { ...d.caption, box: { ...c, y: axis - c.y - c.h } } };
    },
  };
}
