import { Nb } from '../../grid.js';
import type { Corners } from '../../geometry/outlines.js';
import { arc, line, loop, type Loop, type Pt, type Seg } from '../../geometry/path.js';
import type { ModuleCell, ModuleShapeFn } from './cell.js';

/** Per corner (top-left, top-right, bottom-right, bottom-left): true when neither side at that corner joins a neighbour. */
type Free = readonly boolean[];

interface Join {
  /** Join left/right neighbours by running the module to the cell edge. */
  readonly x: boolean;
  /** Join up/down neighbours likewise. */
  readonly y: boolean;
  /** Extent across x and y of an unjoined module, as a fraction of its size (bars are thinner than they are long). */
  readonly ex: number;
  readonly ey: number;
}

const BOTH: Join = { x: true, y: true, ex: 1, ey: 1 };

/**
 * Corners in clockwise order. `h`/`v`/`d`: the neighbour bits beside, above-or-below and diagonal to the
 * corner. `vertIn`: a clockwise walk reaches the corner along a vertical edge.
 */
const CORNERS = [
  { dx: -1, dy: -1, h: Nb.W, v: Nb.N, d: Nb.NW, vertIn: true },
  { dx: 1, dy: -1, h: Nb.E, v: Nb.N, d: Nb.NE, vertIn: false },
  { dx: 1, dy: 1, h: Nb.E, v: Nb.S, d: Nb.SE, vertIn: true },
  { dx: -1, dy: 1, h: Nb.W, v: Nb.S, d: Nb.SW, vertIn: false },
] as const;

/**
 * At a bend (both neighbours beside corner (dx, dy) drawn, the diagonal cell not): how far the
 * vertical neighbour's edge facing the empty cell is inset across x, and the horizontal neighbour's across y.
 */
const bendInsets = (c: ModuleCell, dx: number, dy: number, j: Join): [number, number] => [
  (1 - c.sizeAt(0, dy) * j.ex) / 2,
  (1 - c.sizeAt(dx, 0) * j.ey) / 2,
];

/**
 * A module as a box that reaches the cell edge on every side it joins and is inset to the module size
 * elsewhere, so shrunk modules still meet their neighbours edge to edge, with no seam or sliver. Where
 * both sides of a corner join but the diagonal cell is empty, the corner steps in to the neighbours'
 * edges instead of poking a square tooth into the bend.
 */
function joinedBox(c: ModuleCell, j: Join, radii: (free: Free, s: number, w: number, h: number) => Corners): Loop {
  const mx = (1 - c.s * j.ex) / 2;
  const my = (1 - c.s * j.ey) / 2;
  const joins = CORNERS.map(({ h, v }) => [j.x && (c.n & h) !== 0, j.y && (c.n & v) !== 0] as const);
  const edge = (joined: boolean, dir: number, m: number) => (joined ? (dir > 0 ? 1 : 0) : dir > 0 ? 1 - m : m);
  const x0 = edge(joins[0][0], -1, mx);
  const x1 = edge(joins[2][0], 1, mx);
  const y0 = edge(joins[0][1], -1, my);
  const y1 = edge(joins[2][1], 1, my);
  const r = radii(
    joins.map(([hj, vj]) => !hj && !vj),
    c.s,
    x1 - x0,
    y1 - y0,
  );
  const segs: Seg[] = [];
  CORNERS.forEach(({ dx, dy, d, vertIn }, k) => {
    const [hj, vj] = joins[k];
    const X = dx > 0 ? x1 : x0;
    const Y = dy > 0 ? y1 : y0;
    // `a` lies on the corner's horizontal edge, `b` on its vertical edge.
    const inOrder = (a: Pt, b: Pt): Pt[] => (vertIn ? [b, a] : [a, b]);
    if (!hj && !vj && r[k] > 0) {
      const [p, q] = inOrder([X - dx * r[k], Y], [X, Y - dy * r[k]]);
      segs.push(line(...p), arc(...q, X - dx * r[k], Y - dy * r[k], r[k]));
    } else if (hj && vj && !(c.n & d)) {
      const [mv, mh] = bendInsets(c, dx, dy, j);
      const [p, q] = inOrder([X - dx * mv, Y], [X, Y - dy * mh]);
      segs.push(line(...p), line(X - dx * mv, Y - dy * mh), line(...q));
    } else {
      segs.push(line(X, Y));
    }
  });
  return loop(segs);
}

const each = (free: Free, r: number): Corners => [free[0] ? r : 0, free[1] ? r : 0, free[2] ? r : 0, free[3] ? r : 0];

/** qr-code-styling "rounded": every corner with no neighbour on either side becomes a half-size radius. */
export const rounded: ModuleShapeFn = (c) => [joinedBox(c, BOTH, (f, s) => each(f, s / 2))];

/** qr-code-styling "extra-rounded": as rounded, but a lone free corner (an elbow) gets the full size as radius. */
export const extraRounded: ModuleShapeFn = (c) => [
  joinedBox(c, BOTH, (f, s) => each(f, f.filter(Boolean).length === 1 ? s : s / 2)),
];

/** qr-code-styling "classy": only the top-left and bottom-right corners ever round. */
export const classy: ModuleShapeFn = (c) => [joinedBox(c, BOTH, (f, s) => [f[0] ? s / 2 : 0, 0, f[2] ? s / 2 : 0, 0])];

/** qr-code-styling "classy-rounded": classy with full-size radii unless both diagonal corners round. */
export const classyRounded: ModuleShapeFn = (c) => [
  joinedBox(c, BOTH, (f, s) => {
    const r = f[0] && f[2] ? s / 2 : s;
    return [f[0] ? r : 0, 0, f[2] ? r : 0, 0];
  }),
];

/**
 * The inside corner where the cell (dx, dy) is empty but both cells between it and this module are
 * drawn, filled with a concave arc: Uniqode's smooth patterns flow round bends instead of stepping.
 * Emitted by the module diagonally opposite the empty cell, so each bend is filled exactly once.
 */
function fillet(c: ModuleCell, dx: number, dy: number, k: number): Loop {
  const r = k * c.s;
  const [mv, mh] = bendInsets(c, dx, dy, BOTH);
  // (u, v) measured from the bend's corner into the empty cell.
  const at = (u: number, v: number) => [(dx > 0 ? 1 : 0) + dx * u, (dy > 0 ? 1 : 0) + dy * v] as const;
  const [cx, cy] = at(r, r);
  return loop([line(...at(-mv, -mh)), line(...at(-mv, r)), arc(...at(r, -mh), cx, cy, r + mv, r + mh)]);
}

/** Uniqode's smooth patterns: rounded outside corners of radius k and concave fillets of the same radius in bends. */
const smooth =
  (k: number): ModuleShapeFn =>
  (c) => {
    const loops = [joinedBox(c, BOTH, (f, s) => each(f, k * s))];
    for (const { dx, dy, h, v, d } of CORNERS) if (c.n & h && c.n & v && !(c.n & d)) loops.push(fillet(c, dx, dy, k));
    return loops;
  };
export const smoothRound = smooth(3 / 7);
export const smoothSharp = smooth(1 / 4);

/** Bars along one axis joining runs of modules: rounded (pill) ends, or square ends on a thinner line. */
const bars = (axis: 'x' | 'y', thickness: number, roundEnds: boolean): ModuleShapeFn => {
  const j: Join =
    axis === 'x' ? { x: true, y: false, ex: 1, ey: thickness } : { x: false, y: true, ex: thickness, ey: 1 };
  return (c) => [joinedBox(c, j, (f, _s, w, h) => each(f, roundEnds ? Math.min(w, h) / 2 : 0))];
};
export const horizontal = bars('x', 0.8, true);
export const vertical = bars('y', 0.8, true);
export const row = bars('x', 0.55, false);
export const column = bars('y', 0.55, false);
