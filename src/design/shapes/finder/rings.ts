import { chamferBox, ellipse, mapCorners, roundedBox, type Corners } from '../../geometry/outlines.js';
import { arc, hole, line, loop, mirrorIn, transform, type Loop } from '../../geometry/path.js';

/**
 * Outer finder rings are drawn in eye-local coordinates [0, 7]². A ring is an outline plus the same
 * outline offset one module inward as a hole, so its width stays one module and a scan across the eye
 * keeps the 1:1:3:1:1 ratio decoders look for.
 */
export const ring = (outer: Loop, inner: Loop): Loop[] => [outer, hole(inner)];

export const roundedRing = (r: Corners): Loop[] =>
  ring(
    roundedBox(0, 0, 7, 7, r),
    roundedBox(
      1,
      1,
      6,
      6,
      mapCorners(r, (v) => Math.max(v - 1, 0)),
    ),
  );

/** Offsetting a 45° cut one module inward shortens it by 2 − √2 along each side. */
export const chamferRing = (cut: Corners): Loop[] =>
  ring(
    chamferBox(0, 0, 7, 7, cut),
    chamferBox(
      1,
      1,
      6,
      6,
      mapCorners(cut, (v) => Math.max(v - (2 - Math.SQRT2), 0)),
    ),
  );

/** `pieces` drawn for the top-left quarter of the box [0, side]², and their mirror images in the other three. */
export const fourfold = (side: number, pieces: readonly Loop[]): Loop[] =>
  [false, true].flatMap((fx) =>
    [false, true].flatMap((fy) => pieces.map((p) => transform(p, mirrorIn(fx, fy, side, side)))),
  );

/**
 * The box [0, 7]² shrunk by `inset` on every side, its corners bitten out by quarter circles of radius
 * `r + inset` centred on the corners of [0, 7]²: with inset 1 it is the hole of a one-module ring.
 */
export function ticket(r: number, inset: number): Loop {
  const R = r + inset;
  const a = Math.sqrt(R * R - inset * inset);
  const [lo, hi] = [inset, 7 - inset];
  return loop([
    line(7 - a, lo),
    arc(hi, a, 7, 0, R),
    line(hi, 7 - a),
    arc(7 - a, hi, 7, 7, R),
    line(a, hi),
    arc(lo, 7 - a, 0, 7, R),
    line(lo, a),
    arc(a, lo, 0, 0, R),
  ]);
}

/**
 * One circle per module of the ring, slightly overlapping its neighbours so the ring stays one dark run.
 * The circles are larger than a module, so each sits `DOT` from the ring's outer edge rather than on its
 * module's centre: nothing may reach past the 7×7 square into the quiet zone.
 */
const DOT = 0.53;
export const dotRing = (): Loop[] => {
  const at = (i: number) => Math.min(Math.max(i + 0.5, DOT), 7 - DOT);
  const dots: Loop[] = [];
  for (let i = 0; i < 7; i++) {
    dots.push(ellipse(at(i), DOT, DOT), ellipse(at(i), 7 - DOT, DOT));
    if (i > 0 && i < 6) dots.push(ellipse(DOT, at(i), DOT), ellipse(7 - DOT, at(i), DOT));
  }
  return dots;
};
