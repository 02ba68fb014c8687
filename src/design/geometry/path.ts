import type { Placements } from '../../model/layer.js';

/**
 * Closed outlines and their SVG path data. Shapes are built as loops of vertices joined by straight
 * lines, axis-aligned elliptical arcs (given by their centre) or cubic curves; the emitter then fixes
 * every loop's winding, so a shape author never has to reason about SVG sweep flags or subpath
 * direction, and mirrored shapes stay correct.
 */

export type Pt = readonly [number, number];

/** How a loop reaches vertex `to` from the previous vertex (loops are cyclic: the first segment starts at the last vertex). */
export type Seg =
  | { readonly to: Pt }
  /** An arc of less than 180° of the axis-aligned ellipse centred on `c`, the short way round. */
  | { readonly to: Pt; readonly c: Pt; readonly rx: number; readonly ry: number }
  | { readonly to: Pt; readonly c1: Pt; readonly c2: Pt };

type ArcSeg = Extract<Seg, { c: Pt }>;

export interface Loop {
  readonly segs: readonly Seg[];
  /** Cut out of whatever encloses it: emitted with the opposite winding, so nonzero and even-odd fills agree. */
  readonly hole?: boolean;
}

/** x' = ax·x + bx, y' = ay·y + by: scaling about a point, translation and mirroring, all a shape ever needs. */
export interface Affine {
  readonly ax: number;
  readonly bx: number;
  readonly ay: number;
  readonly by: number;
}

export const line = (x: number, y: number): Seg => ({ to: [x, y] });
export const arc = (x: number, y: number, cx: number, cy: number, rx: number, ry = rx): Seg => ({
  to: [x, y],
  c: [cx, cy],
  rx,
  ry,
});
export const cubic = (x1: number, y1: number, x2: number, y2: number, x: number, y: number): Seg => ({
  to: [x, y],
  c1: [x1, y1],
  c2: [x2, y2],
});

export const loop = (segs: readonly Seg[]): Loop => ({ segs });
export const hole = (l: Loop): Loop => ({ segs: l.segs, hole: true });
export const polygon = (pts: readonly Pt[]): Loop => loop(pts.map(([x, y]) => line(x, y)));

/** Scale by k about (cx, cy). */
export const scaleAbout = (k: number, cx: number, cy: number): Affine => ({
  ax: k,
  bx: cx * (1 - k),
  ay: k,
  by: cy * (1 - k),
});
/** Mirror x and/or y within the box [0, w] × [0, h]. */
export const mirrorIn = (flipX: boolean, flipY: boolean, w: number, h: number): Affine => ({
  ax: flipX ? -1 : 1,
  bx: flipX ? w : 0,
  ay: flipY ? -1 : 1,
  by: flipY ? h : 0,
});
export const translate = (dx: number, dy: number): Affine => ({ ax: 1, bx: dx, ay: 1, by: dy });
/** `outer` applied after `inner`. */
export const compose = (outer: Affine, inner: Affine): Affine => ({
  ax: outer.ax * inner.ax,
  bx: outer.ax * inner.bx + outer.bx,
  ay: outer.ay * inner.ay,
  by: outer.ay * inner.by + outer.by,
});

const apply = (t: Affine, [x, y]: Pt): Pt => [t.ax * x + t.bx, t.ay * y + t.by];

export function transform(l: Loop, t: Affine): Loop {
  const segs = l.segs.map((s): Seg => {
    if ('c' in s) return { to: apply(t, s.to), c: apply(t, s.c), rx: s.rx * Math.abs(t.ax), ry: s.ry * Math.abs(t.ay) };
    if ('c1' in s) return { to: apply(t, s.to), c1: apply(t, s.c1), c2: apply(t, s.c2) };
    return { to: apply(t, s.to) };
  });
  return { segs, hole: l.hole };
}

/** The point halfway along an arc segment from `from`; used only to judge a loop's winding. */
function arcMid(from: Pt, s: ArcSeg): Pt {
  const ux = (from[0] - s.c[0]) / s.rx + (s.to[0] - s.c[0]) / s.rx;
  const uy = (from[1] - s.c[1]) / s.ry + (s.to[1] - s.c[1]) / s.ry;
  const n = Math.hypot(ux, uy);
  return [s.c[0] + (ux / n) * s.rx, s.c[1] + (uy / n) * s.ry];
}

/** Twice the signed area of the loop's control polygon; positive when clockwise on screen (y down). */
function windingArea(segs: readonly Seg[]): number {
  const pts: Pt[] = [];
  let prev = segs[segs.length - 1].to;
  for (const s of segs) {
    if ('c' in s) pts.push(arcMid(prev, s));
    else if ('c1' in s) pts.push(s.c1, s.c2);
    pts.push(s.to);
    prev = s.to;
  }
  let a = 0;
  for (let i = 0; i < pts.length; i++) {
    const [x0, y0] = pts[i];
    const [x1, y1] = pts[(i + 1) % pts.length];
    a += x0 * y1 - x1 * y0;
  }
  return a;
}

function reversed(segs: readonly Seg[]): Seg[] {
  const n = segs.length;
  const out: Seg[] = [];
  for (let k = n - 1; k >= 0; k--) {
    const s = segs[k];
    const to = segs[(k - 1 + n) % n].to;
    if ('c' in s) out.push({ to, c: s.c, rx: s.rx, ry: s.ry });
    else if ('c1' in s) out.push({ to, c1: s.c2, c2: s.c1 });
    else out.push({ to });
  }
  return out;
}

const q = (v: number): number => Math.round(v * 1000);

/** ".001" … ".999" without trailing zeros, and "" for 0: formatting is the hot path of a large symbol. */
const FRACTIONS = Array.from({ length: 1000 }, (_, f) =>
  f === 0 ? '' : `.${String(f).padStart(3, '0')}`.replace(/0+$/, ''),
);

/** A length in thousandths as path data: no trailing zeros, no leading zero ("-.25", "3", ".125"). */
function thousandths(n: number): string {
  const a = n < 0 ? -n : n;
  const int = Math.floor(a / 1000);
  const frac = a - int * 1000;
  return (n < 0 ? '-' : '') + (int === 0 && frac !== 0 ? '' : String(int)) + FRACTIONS[frac];
}

/** Numbers (in thousandths) separated by spaces, except where a minus sign already separates them. */
function nums(...ns: number[]): string {
  let s = thousandths(ns[0]);
  for (let i = 1; i < ns.length; i++) s += (ns[i] < 0 ? '' : ' ') + thousandths(ns[i]);
  return s;
}

/** A loop's path data as its start point and the relative commands that follow it. */
export interface FormattedLoop {
  readonly x: number;
  readonly y: number;
  readonly body: string;
}

/**
 * Formats one loop as a closed subpath: clockwise, or anticlockwise for holes. Coordinates are rounded
 * to thousandths once, absolutely, and written as exact differences after the first, so relative
 * commands stay short without drift. Only the start point is absolute, so one shape drawn at many
 * places is formatted once (placeLoop).
 */
export function formatLoop(l: Loop): FormattedLoop {
  const cw = windingArea(l.segs) > 0;
  const segs = cw === !l.hole ? l.segs : reversed(l.segs);
  const n = segs.length;
  const start = segs[n - 1].to;
  let prev = start;
  let px = q(prev[0]);
  let py = q(prev[1]);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = segs[i];
    if (i === n - 1 && isLine(s)) break; // 'z' draws the closing line
    if (isArc(s)) {
      // Runs of arcs on one circle (the quarters of a dot) go out as one arc of up to a half turn.
      let a = s;
      let turn = arcTurn(prev, a);
      while (i + 1 < n) {
        const next = segs[i + 1];
        if (!isArc(next) || !sameCircle(a, next)) break;
        const more = arcTurn(a.to, next);
        if (Math.sign(more) !== Math.sign(turn) || Math.abs(turn + more) > Math.PI + 1e-9) break;
        turn += more;
        a = next;
        i++;
      }
      const x = q(a.to[0]);
      const y = q(a.to[1]);
      if (x !== px || y !== py) out.push(`a${nums(q(a.rx), q(a.ry))} 0 0 ${turn > 0 ? 1 : 0} ${nums(x - px, y - py)}`);
      px = x;
      py = y;
      prev = a.to;
      continue;
    }
    const x = q(s.to[0]);
    const y = q(s.to[1]);
    if ('c1' in s) {
      out.push(`c${nums(q(s.c1[0]) - px, q(s.c1[1]) - py, q(s.c2[0]) - px, q(s.c2[1]) - py, x - px, y - py)}`);
    } else if (y === py && x !== px) {
      out.push(`h${thousandths(x - px)}`);
    } else if (x === px && y !== py) {
      out.push(`v${thousandths(y - py)}`);
    } else if (x !== px || y !== py) {
      out.push(`l${nums(x - px, y - py)}`);
    }
    px = x;
    py = y;
    prev = s.to;
  }
  out.push('z');
  return { x: start[0], y: start[1], body: out.join('') };
}

/** Appends a formatted loop moved by (dx, dy). */
export function placeLoop(out: string[], f: FormattedLoop, dx = 0, dy = 0): void {
  const [x, y] = placedStart(f, dx, dy);
  out.push(`M${nums(x, y)}${f.body}`);
}

/** Where a formatted loop moved by (dx, dy) starts, in thousandths, as its path data writes it. */
export const placedStart = (f: FormattedLoop, dx: number, dy: number): [number, number] => [q(f.x + dx), q(f.y + dy)];

/**
 * The path data of formatted loops placed (model/layer.ts, Placements): what placeLoop writes for each.
 * Kept as shapes and places, a renderer draws each shape once wherever it is placed (render/flatten.ts,
 * flattenPlaced) instead of reading it back from text, and the text is written only for a document.
 */
export function placementsPath(p: Placements): string {
  const out: string[] = [];
  p.loops.forEach((l, i) => {
    placeLoop(out, l, p.moves[2 * i], p.moves[2 * i + 1]);
  });
  return out.join('');
}

/** Appends one loop as a closed subpath, moved by (dx, dy). */
export function emitLoop(out: string[], l: Loop, dx = 0, dy = 0): void {
  placeLoop(out, formatLoop(l), dx, dy);
}

const isLine = (s: Seg): boolean => !('c' in s) && !('c1' in s);
const isArc = (s: Seg): s is ArcSeg => 'c' in s;
const sameCircle = (a: ArcSeg, b: ArcSeg): boolean =>
  a.c[0] === b.c[0] && a.c[1] === b.c[1] && a.rx === b.rx && a.ry === b.ry;

/** Signed angle an arc turns through from `from`, in the ellipse's own unit-circle space; positive is clockwise on screen. */
function arcTurn(from: Pt, s: ArcSeg): number {
  const a0 = Math.atan2((from[1] - s.c[1]) / s.ry, (from[0] - s.c[0]) / s.rx);
  const a1 = Math.atan2((s.to[1] - s.c[1]) / s.ry, (s.to[0] - s.c[0]) / s.rx);
  let d = a1 - a0;
  if (d > Math.PI) d -= 2 * Math.PI;
  if (d <= -Math.PI) d += 2 * Math.PI;
  return d;
}
