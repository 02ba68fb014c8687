import { placedStart } from '../design/geometry/path.js';
import type { Affine, Placements } from '../model/layer.js';
import { EdgeStamp, type EdgeSink, type Edges } from './edges.js';

/** Largest distance, in pixels, a flattened curve may stray from the true one: what 8-bit coverage barely shows. */
const TOLERANCE = 0.05;

// Path commands by their upper-case letter's code; a lower-case letter (code + 32) is the relative form.
const MOVE = 77; // M
const LINE = 76; // L
const HORIZONTAL = 72; // H
const VERTICAL = 86; // V
const CUBIC = 67; // C
const SMOOTH_CUBIC = 83; // S
const QUAD = 81; // Q
const SMOOTH_QUAD = 84; // T
const ARC = 65; // A
const CLOSE = 90; // Z
const RELATIVE = 32;

/** Reads SVG path data a token at a time: separators skipped, numbers parsed in place, arc flags. */
class PathReader {
  private readonly n: number;

  /** Reads `d` from `i` on. */
  constructor(
    private readonly d: string,
    public i = 0,
  ) {
    this.n = d.length;
  }

  /** Skips separators; whether anything is left. */
  more(): boolean {
    this.skip();
    return this.i < this.n;
  }

  private skip(): void {
    const { d, n } = this;
    while (this.i < n) {
      const c = d.charCodeAt(this.i);
      if (c === 32 || c === 44 || c === 9 || c === 10 || c === 13) this.i++;
      else break;
    }
  }

  /** Whether a number comes next (after separators). */
  hasNumber(): boolean {
    this.skip();
    if (this.i >= this.n) return false;
    const c = this.d.charCodeAt(this.i);
    return (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46;
  }

  /** The command letter next, consumed; 0 when a number comes instead (the previous command repeats). */
  letter(): number {
    const c = this.d.charCodeAt(this.i);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      this.i++;
      return c;
    }
    return 0;
  }

  /** The next number. Digits are read as they come; only a number with an exponent goes through the slower parseFloat. */
  number(): number {
    this.skip();
    const d = this.d;
    const start = this.i;
    let c = d.charCodeAt(this.i);
    let sign = 1;
    if (c === 45 || c === 43) {
      if (c === 45) sign = -1;
      c = d.charCodeAt(++this.i);
    }
    let v = 0;
    let digits = 0;
    while (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      digits++;
      c = d.charCodeAt(++this.i);
    }
    if (c === 46) {
      c = d.charCodeAt(++this.i);
      let scale = 1;
      while (c >= 48 && c <= 57) {
        v = v * 10 + (c - 48);
        scale *= 10;
        digits++;
        c = d.charCodeAt(++this.i);
      }
      v /= scale;
    }
    if (digits === 0) throw new Error(`bad path data at ${start}`);
    if (c === 101 || c === 69) {
      c = d.charCodeAt(++this.i);
      if (c === 45 || c === 43) c = d.charCodeAt(++this.i);
      while (c >= 48 && c <= 57) c = d.charCodeAt(++this.i);
      return parseFloat(d.slice(start, this.i));
    }
    return sign * v;
  }

  /** An arc flag, 0 or 1; flags may be written without separators ("a1 1 0 01 1 1"). */
  flag(): number {
    this.skip();
    const c = this.d.charCodeAt(this.i++);
    if (c !== 48 && c !== 49) throw new Error(`bad arc flag at ${this.i - 1}`);
    return c - 48;
  }
}

/**
 * What walkPath draws with: SVG path commands made absolute, in the path's user space. A pen keeps the
 * current point (relative commands count from it) and the last control point of a curve (S and T reflect
 * it). The rasterizer's pen flattens into edges (Pen, below); the PDF writer's writes operators.
 */
export interface PathPen {
  readonly cx: number;
  readonly cy: number;
  readonly qx: number;
  readonly qy: number;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  cubicTo(x1: number, y1: number, x2: number, y2: number, x: number, y: number): void;
  quadTo(x1: number, y1: number, x: number, y: number): void;
  arcTo(rx: number, ry: number, rotation: number, large: number, sweep: number, x: number, y: number): void;
  close(): void;
  /** The path ends: a subpath left open is filled as if closed. */
  closeIfOpen(): void;
}

/** An SVG endpoint arc as its ellipse: centre (ox, oy), radii, rotation's cos and sin, start angle and sweep. */
export interface ArcEllipse {
  ox: number;
  oy: number;
  rx: number;
  ry: number;
  cos: number;
  sin: number;
  t0: number;
  dt: number;
}

/**
 * SVG's endpoint arc from the current point (cx, cy) to (x, y), as its ellipse (implementation notes
 * F.6.5, radii scaled up when too small); null when the arc is a straight line (a zero radius, or no move).
 */
export function arcEllipse(
  cx: number,
  cy: number,
  rxIn: number,
  ryIn: number,
  rotation: number,
  large: number,
  sweep: number,
  x: number,
  y: number,
): ArcEllipse | null {
  let rx = Math.abs(rxIn),
    ry = Math.abs(ryIn);
  if (rx === 0 || ry === 0 || (x === cx && y === cy)) return null;
  const phi = (rotation * Math.PI) / 180;
  const cos = Math.cos(phi),
    sin = Math.sin(phi);
  const hx = (cx - x) / 2,
    hy = (cy - y) / 2;
  const x1 = cos * hx + sin * hy,
    y1 = -sin * hx + cos * hy;
  const lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry);
  if (lambda > 1) {
    rx *= Math.sqrt(lambda);
    ry *= Math.sqrt(lambda);
  }
  const num2 = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1;
  const root = Math.sqrt(Math.max(0, num2 / (rx * rx * y1 * y1 + ry * ry * x1 * x1))) * (large === sweep ? -1 : 1);
  const ccx = (root * rx * y1) / ry,
    ccy = (-root * ry * x1) / rx;
  const ox = cos * ccx - sin * ccy + (cx + x) / 2,
    oy = sin * ccx + cos * ccy + (cy + y) / 2;
  const angle = (ux: number, uy: number) => Math.atan2(uy, ux);
  const t0 = angle((x1 - ccx) / rx, (y1 - ccy) / ry);
  let dt = angle((-x1 - ccx) / rx, (-y1 - ccy) / ry) - t0;
  if (sweep && dt < 0) dt += 2 * Math.PI;
  if (!sweep && dt > 0) dt -= 2 * Math.PI;
  return { ox, oy, rx, ry, cos, sin, t0, dt };
}

/**
 * Draws in a path's user space and emits line edges in pixels through the affine `m`. It keeps the current
 * point and the subpath's start in user space (relative commands count from them) and in pixels (edges
 * run between those), and the last control point, which S and T reflect.
 */
class Pen implements PathPen {
  /** Current point, subpath start and last control point, in user space. */
  cx = 0;
  cy = 0;
  private sx = 0;
  private sy = 0;
  qx = 0;
  qy = 0;
  /** Current point and subpath start in pixels. */
  private px: number;
  private py: number;
  private spx: number;
  private spy: number;
  private readonly a: number;
  private readonly b: number;
  private readonly c: number;
  private readonly d: number;
  private readonly e: number;
  private readonly f: number;
  /** How many pixels a user-space unit spans (the affine's area scale, square-rooted). */
  private readonly scale: number;

  constructor(
    m: Affine,
    private readonly out: EdgeSink,
  ) {
    [this.a, this.b, this.c, this.d, this.e, this.f] = m;
    this.scale = Math.sqrt(Math.abs(this.a * this.d - this.b * this.c));
    this.px = this.spx = this.e;
    this.py = this.spy = this.f;
  }

  /** Starts a subpath at (x, y), closing the one before if it was left open. */
  moveTo(x: number, y: number): void {
    this.closeIfOpen();
    this.cx = this.sx = x;
    this.cy = this.sy = y;
    this.px = this.spx = this.a * x + this.c * y + this.e;
    this.py = this.spy = this.b * x + this.d * y + this.f;
  }

  lineTo(x: number, y: number): void {
    const nx = this.a * x + this.c * y + this.e;
    const ny = this.b * x + this.d * y + this.f;
    this.out.add(this.px, this.py, nx, ny);
    this.px = nx;
    this.py = ny;
    this.cx = x;
    this.cy = y;
  }

  /** Back to the subpath's start with a closing edge. */
  close(): void {
    this.out.add(this.px, this.py, this.spx, this.spy);
    this.px = this.spx;
    this.py = this.spy;
    this.cx = this.sx;
    this.cy = this.sy;
  }

  /** Closes the subpath unless it already ends where it started: SVG fills open subpaths as if closed. */
  closeIfOpen(): void {
    if (this.px !== this.spx || this.py !== this.spy) this.close();
  }

  // Wang's bound: n equal steps keep a degree-k curve within the tolerance when
  // n ≥ sqrt(k(k−1)/8 · M / tolerance), M the largest second difference of its control points.
  private segmentsFor(coefficient: number, secondDifference: number): number {
    return Math.min(256, Math.max(1, Math.ceil(Math.sqrt((coefficient * secondDifference * this.scale) / TOLERANCE))));
  }

  cubicTo(x1: number, y1: number, x2: number, y2: number, x: number, y: number): void {
    this.qx = x2;
    this.qy = y2;
    const x0 = this.cx,
      y0 = this.cy;
    const dd = Math.max(Math.hypot(x0 - 2 * x1 + x2, y0 - 2 * y1 + y2), Math.hypot(x1 - 2 * x2 + x, y1 - 2 * y2 + y));
    const segs = this.segmentsFor(0.75, dd);
    for (let k = 1; k <= segs; k++) {
      const t = k / segs,
        u = 1 - t;
      const a = u * u * u,
        b = 3 * u * u * t,
        c = 3 * u * t * t,
        e = t * t * t;
      this.lineTo(a * x0 + b * x1 + c * x2 + e * x, a * y0 + b * y1 + c * y2 + e * y);
    }
  }

  quadTo(x1: number, y1: number, x: number, y: number): void {
    this.qx = x1;
    this.qy = y1;
    const x0 = this.cx,
      y0 = this.cy;
    const segs = this.segmentsFor(0.25, Math.hypot(x0 - 2 * x1 + x, y0 - 2 * y1 + y));
    for (let k = 1; k <= segs; k++) {
      const t = k / segs,
        u = 1 - t;
      this.lineTo(u * u * x0 + 2 * u * t * x1 + t * t * x, u * u * y0 + 2 * u * t * y1 + t * t * y);
    }
  }

  /** SVG's endpoint arc, stepped along its ellipse. */
  arcTo(rxIn: number, ryIn: number, rotation: number, large: number, sweep: number, x: number, y: number): void {
    const arc = arcEllipse(this.cx, this.cy, rxIn, ryIn, rotation, large, sweep, x, y);
    if (!arc) {
      this.lineTo(x, y);
      return;
    }
    const { ox, oy, rx, ry, cos, sin, t0, dt } = arc;
    const r = Math.max(rx, ry) * this.scale;
    const step = r > TOLERANCE ? 2 * Math.acos(1 - TOLERANCE / r) : Math.PI;
    const segs = Math.min(256, Math.max(1, Math.ceil(Math.abs(dt) / step)));
    // Chords cut inside the arc by up to its sagitta, by two thirds of it on average: pushing the inner
    // vertices out by that much keeps the filled area true (a dot keeps its size).
    const outward = 1 + (2 / 3) * (1 - Math.cos(dt / segs / 2));
    for (let k = 1; k < segs; k++) {
      const t = t0 + (dt * k) / segs;
      const ex = outward * rx * Math.cos(t),
        ey = outward * ry * Math.sin(t);
      this.lineTo(cos * ex - sin * ey + ox, sin * ex + cos * ey + oy);
    }
    this.lineTo(x, y); // exactly on the end point, so relative commands that follow do not drift
  }
}

/**
 * The command to run next: the letter at the cursor, else the previous command again (numbers after M
 * are an implicit L).
 */
function nextCommand(path: PathReader, previous: number): number {
  const letter = path.letter();
  if (letter !== 0) {
    if (previous === 0 && letter !== MOVE && letter !== MOVE + RELATIVE) throw new Error('path data must start with M');
    return letter;
  }
  if (previous === 0) throw new Error(`path data must start with a command`);
  if (previous === MOVE) return LINE;
  if (previous === MOVE + RELATIVE) return LINE + RELATIVE;
  return previous;
}

/**
 * Reads one command's arguments and draws it. `command` is upper case; relative coordinates count from
 * the current point as it was when the command began. `previous` (upper case) tells S and T whether
 * there is a control point to reflect.
 */
function drawCommand(command: number, relative: boolean, previous: number, path: PathReader, pen: PathPen): void {
  const ox = relative ? pen.cx : 0,
    oy = relative ? pen.cy : 0;
  switch (command) {
    case MOVE: {
      const x = path.number() + ox,
        y = path.number() + oy;
      pen.moveTo(x, y);
      break;
    }
    case LINE:
      pen.lineTo(path.number() + ox, path.number() + oy);
      break;
    case HORIZONTAL:
      pen.lineTo(path.number() + ox, pen.cy);
      break;
    case VERTICAL:
      pen.lineTo(pen.cx, path.number() + oy);
      break;
    case CUBIC: {
      const x1 = path.number() + ox,
        y1 = path.number() + oy,
        x2 = path.number() + ox,
        y2 = path.number() + oy;
      pen.cubicTo(x1, y1, x2, y2, path.number() + ox, path.number() + oy);
      break;
    }
    case SMOOTH_CUBIC: {
      // The first control point is the last one reflected through the current point after a C or S,
      // else the current point; T after Q or T likewise.
      const reflect = previous === CUBIC || previous === SMOOTH_CUBIC;
      const x1 = reflect ? 2 * pen.cx - pen.qx : pen.cx,
        y1 = reflect ? 2 * pen.cy - pen.qy : pen.cy;
      const x2 = path.number() + ox,
        y2 = path.number() + oy;
      pen.cubicTo(x1, y1, x2, y2, path.number() + ox, path.number() + oy);
      break;
    }
    case QUAD: {
      const x1 = path.number() + ox,
        y1 = path.number() + oy;
      pen.quadTo(x1, y1, path.number() + ox, path.number() + oy);
      break;
    }
    case SMOOTH_QUAD: {
      const reflect = previous === QUAD || previous === SMOOTH_QUAD;
      const x1 = reflect ? 2 * pen.cx - pen.qx : pen.cx,
        y1 = reflect ? 2 * pen.cy - pen.qy : pen.cy;
      pen.quadTo(x1, y1, path.number() + ox, path.number() + oy);
      break;
    }
    case ARC: {
      const rx = path.number(),
        ry = path.number(),
        rotation = path.number(),
        large = path.flag(),
        sweep = path.flag();
      pen.arcTo(rx, ry, rotation, large, sweep, path.number() + ox, path.number() + oy);
      break;
    }
    case CLOSE:
      pen.close();
      break;
    default:
      throw new Error(`unknown path command ${String.fromCharCode(command)}`);
  }
}

/**
 * Reads SVG path data and draws it with `pen`, command by command, made absolute. Every command of SVG 1.1
 * is read (absolute and relative, shorthand curves, arcs); malformed data throws rather than drawing
 * something else.
 */
export function walkPath(d: string, pen: PathPen): void {
  const path = new PathReader(d);
  let command = 0;
  let previous = 0;
  while (path.more()) {
    command = nextCommand(path, command);
    const relative = command >= 97;
    const upper = relative ? command - RELATIVE : command;
    drawCommand(upper, relative, previous, path, pen);
    previous = upper;
    if (upper === CLOSE && path.hasNumber()) throw new Error('numbers after z');
  }
  pen.closeIfOpen();
}

/**
 * Subpaths flattened once, by the linear part of the affine they were drawn through and then by their path
 * data after the opening "M x y": a styled scene places one module outline at hundreds of cells
 * (design/module-shapes.ts, placeLoop), and data that moves only relative to its start flattens to the same
 * edges wherever it starts, moved. Kept across renders, as the outlines are; emptied past STAMPS_KEPT.
 */
const stamps = new Map<string, Map<string, EdgeStamp>>();
let stampCount = 0;
const STAMPS_KEPT = 4096;

function stampsFor(m: Affine): Map<string, EdgeStamp> {
  const key = `${m[0]} ${m[1]} ${m[2]} ${m[3]}`;
  const kept = stamps.get(key);
  if (kept) return kept;
  const made = new Map<string, EdgeStamp>();
  stamps.set(key, made);
  return made;
}

/** The edges of `body` (path data after an "M") drawn from the origin through the linear part of `m`. */
function stampOf(body: string, m: Affine): EdgeStamp {
  if (stampCount >= STAMPS_KEPT) {
    stamps.clear();
    stampCount = 0;
  }
  stampCount++;
  const stamp = new EdgeStamp();
  walkPath(`M0 0${body}`, new Pen([m[0], m[1], m[2], m[3], 0, 0], stamp));
  return stamp;
}

const EXPONENT = 69; // E, in a number

/** Whether the path data in [from, to) draws only relative to where it starts: lower-case commands, Z and numbers. */
function relativeOnly(d: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = d.charCodeAt(i);
    if (c >= 65 && c <= 90 && c !== CLOSE && c !== EXPONENT) return false;
  }
  return true;
}

/**
 * Flattens placed shapes (model/layer.ts, Placements), through the affine `m`: what flattenPath does with
 * their path data, without writing it or reading it back. Each body is a formatted loop's, drawn relative
 * to its start (design/geometry/path.ts, formatLoop), flattened once (stamps) and placed at each start as
 * the path data writes it, to the thousandth.
 */
export function flattenPlaced(p: Placements, m: Affine, out: Edges): void {
  eachPlaced(p, m, (stamp, x, y) => out.place(stamp, x, y));
}

/** Each placed shape's stamp through `m` and the pixel it starts at, the start as the path data writes it. */
function eachPlaced(p: Placements, m: Affine, use: (stamp: EdgeStamp, x: number, y: number, i: number) => void): void {
  const kept = stampsFor(m);
  p.loops.forEach((l, i) => {
    const [qx, qy] = placedStart(l, p.moves[2 * i]!, p.moves[2 * i + 1]!);
    const x = qx / 1000;
    const y = qy / 1000;
    let stamp = kept.get(l.body);
    if (!stamp) {
      stamp = stampOf(l.body, m);
      kept.set(l.body, stamp);
    }
    use(stamp, m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5], i);
  });
}

/**
 * Whether placed shapes keep apart in pixels, so that each can be painted from its own coverage
 * (canvas.ts, paintApart): `m` draws the unit cells of their moves as whole-pixel squares (a whole scale
 * and offset, no turn), each shape is moved by a whole cell, one to a cell, and none reaches past its
 * cell. Module outlines do so on a whole-pixel layout (design/module-shapes.ts, modulesPlaced).
 */
export function placedApart(p: Placements, m: Affine): boolean {
  const [s, b, c, d, e, f] = m;
  if (b !== 0 || c !== 0 || d !== s || !Number.isInteger(s) || !Number.isInteger(e) || !Number.isInteger(f))
    return false;
  const cells = new Set<number>();
  let apart = true;
  eachPlaced(p, m, (stamp, x, y, i) => {
    const dx = p.moves[2 * i]!;
    const dy = p.moves[2 * i + 1]!;
    if (!Number.isInteger(dx) || !Number.isInteger(dy) || cells.has(dy * 2 ** 26 + dx)) apart = false;
    cells.add(dy * 2 ** 26 + dx);
    const [x0, y0] = [e + dx * s, f + dy * s];
    if (x + stamp.minX < x0 || y + stamp.minY < y0 || x + stamp.maxX > x0 + s || y + stamp.maxY > y0 + s) apart = false;
  });
  return apart;
}

/**
 * Flattens SVG path data into line edges in pixels, through the affine `m` from the path's user space.
 * Each subpath is closed for filling, as SVG fills open subpaths. Curves are cut into as many lines as
 * keep them within TOLERANCE pixels at the scale `m` draws them. A subpath opened by an absolute M and
 * drawn relative to it from then on is flattened once and placed (stamps, above); any other is walked.
 */
export function flattenPath(d: string, m: Affine, out: Edges): void {
  const pen = new Pen(m, out);
  if (d.charCodeAt(0) !== MOVE) {
    walkPath(d, pen);
    return;
  }
  const kept = stampsFor(m);
  const reader = new PathReader(d);
  for (let start = 0; start < d.length; ) {
    const next = d.indexOf('M', start + 1);
    const end = next < 0 ? d.length : next;
    reader.i = start + 1;
    const x = reader.number();
    const y = reader.number();
    const body = reader.i;
    if (reader.hasNumber() || !relativeOnly(d, body, end)) walkPath(d.slice(start, end), pen);
    else {
      const data = d.slice(body, end);
      let stamp = kept.get(data);
      if (!stamp) {
        stamp = stampOf(data, m);
        kept.set(data, stamp);
      }
      out.place(stamp, m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]);
    }
    start = end;
  }
}
