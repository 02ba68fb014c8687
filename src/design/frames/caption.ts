import { insetsOf, U, type Frame } from './parts.js';

/** A caption line of `height` u under the code, on the canvas; nothing at all without a caption. */
const captionBelow = (height: number, slot: boolean): Frame => ({
  slot,
  insets: ({ u, caption }) => insetsOf(0, 0, caption ? (height + U.margin) * u : 0, 0),
  draw: (box, { u, caption }) =>
    caption
      ? {
          shapes: [],
          caption: { kind: 'line', box: { x: box.x, y: box.y + box.side, w: box.side, h: height * u }, filled: false },
        }
      : { shapes: [] },
});

/** No frame: ctaText, when given, is a plain caption under the code. */
export const plain = captionBelow(U.caption, false);
/** Only a caption under the code, as large as a frame's band. */
export const textOnly = captionBelow(U.band, true);
