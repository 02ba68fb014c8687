import type { Affine } from '../model/layer.js';

/**
 * Line edges in pixels, four f32 per edge (x0, y0, x1, y1), with their bounding box: what the raster
 * kernel accumulates. One instance is reused across layers and renders; `reset` empties it.
 */
export class Edges {
  data = new Float32Array(1 << 14);
  count = 0;
  minX = Infinity;
  minY = Infinity;
  maxX = -Infinity;
  maxY = -Infinity;

  reset(): void {
    this.count = 0;
    this.minX = this.minY = Infinity;
    this.maxX = this.maxY = -Infinity;
  }

  add(x0: number, y0: number, x1: number, y1: number): void {
    if (y0 === y1) return; // horizontal edges cover no area
    if (this.count * 4 + 4 > this.data.length) {
      const grown = new Float32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const o = this.count++ * 4;
    this.data[o] = x0;
    this.data[o + 1] = y0;
    this.data[o + 2] = x1;
    this.data[o + 3] = y1;
    if (x0 < this.minX) this.minX = x0;
    if (x1 < this.minX) this.minX = x1;
    if (x0 > this.maxX) this.maxX = x0;
    if (x1 > this.maxX) this.maxX = x1;
    if (y0 < this.minY) this.minY = y0;
    if (y1 < this.minY) this.minY = y1;
    if (y0 > this.maxY) this.maxY = y0;
    if (y1 > this.maxY) this.maxY = y1;
  }
}

/** Largest distance, in pixels, a flattened curve may stray from the true one: what 8-bit coverage barely shows. */
const TOLERANCE = 0.05;

/**
 * Flattens SVG path data into line edges in pixels, through the affine `m` from the path's user space.
 * Every command of SVG 1.1 is read (absolute and relative, shorthand curves, arcs); each subpath is closed
 * for filling, as SVG fills open subpaths. Curves are cut into as many lines as keep them within
 * TOLERANCE pixels at the scale `m` draws them.
 */
export function flattenPath(d: string, m: Affine, out: Edges): void {
  const [ma, mb, mc, md, me, mf] = m;
  const scale = Math.sqrt(Math.abs(ma * md - mb * mc));
  const n = d.length;
  let i = 0;

  // Current point, subpath start and last control point, in user space; pixel-space copies of the
  // current point and subpath start, for emitting edges.
  let cx = 0,
    cy = 0,
    sx = 0,
    sy = 0,
    qx = 0,
    qy = 0;
  let px = me,
    py = mf,
    spx = me,
    spy = mf;
  let prev = 0; // previous command, upper case, to know whether S/T reflect a control point

  const skip = () => {
    while (i < n) {
      const c = d.charCodeAt(i);
      if (c === 32 || c === 44 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const hasNumber = (): boolean => {
    skip();
    if (i >= n) return false;
    const c = d.charCodeAt(i);
    return (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46;
  };
  // Digits are read as they come; only a number with an exponent goes through the slower parseFloat.
  const num = (): number => {
    skip();
    const start = i;
    let c = d.charCodeAt(i);
    let sign = 1;
    if (c === 45 || c === 43) {
      if (c === 45) sign = -1;
      c = d.charCodeAt(++i);
    }
    let v = 0;
    let digits = 0;
    while (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      digits++;
      c = d.charCodeAt(++i);
    }
    if (c === 46) {
      c = d.charCodeAt(++i);
      let scale = 1;
      while (c >= 48 && c <= 57) {
        v = v * 10 + (c - 48);
        scale *= 10;
        digits++;
        c = d.charCodeAt(++i);
      }
      v /= scale;
    }
    if (digits === 0) throw new Error(`bad path data at ${start}`);
    if (c === 101 || c === 69) {
      c = d.charCodeAt(++i);
      if (c === 45 || c === 43) c = d.charCodeAt(++i);
      while (c >= 48 && c <= 57) c = d.charCodeAt(++i);
      return parseFloat(d.slice(start, i));
    }
    return sign * v;
  };
  // Arc flags may be written without separators ("a1 1 0 01 1 1").
  const flag = (): number => {
    skip();
    const c = d.charCodeAt(i++);
    if (c !== 48 && c !== 49) throw new Error(`bad arc flag at ${i - 1}`);
    return c - 48;
  };

  const lineTo = (x: number, y: number) => {
    const nx = ma * x + mc * y + me;
    const ny = mb * x + md * y + mf;
    out.add(px, py, nx, ny);
    px = nx;
    py = ny;
    cx = x;
    cy = y;
  };
  const closeSubpath = () => {
    out.add(px, py, spx, spy);
    px = spx;
    py = spy;
    cx = sx;
    cy = sy;
  };
  // Wang's bound: n equal steps keep a degree-k curve within the tolerance when
  // n ≥ sqrt(k(k−1)/8 · M / tolerance), M the largest second difference of its control points.
  const segmentsFor = (coefficient: number, m: number) =>
    Math.min(256, Math.max(1, Math.ceil(Math.sqrt((coefficient * m * scale) / TOLERANCE))));
  const cubicTo = (x1: number, y1: number, x2: number, y2: number, x: number, y: number) => {
    const dd = Math.max(Math.hypot(cx - 2 * x1 + x2, cy - 2 * y1 + y2), Math.hypot(x1 - 2 * x2 + x, y1 - 2 * y2 + y));
    const segs = segmentsFor(0.75, dd);
    const x0 = cx,
      y0 = cy;
    for (let k = 1; k <= segs; k++) {
      const t = k / segs,
        u = 1 - t;
      const a = u * u * u,
        b = 3 * u * u * t,
        c = 3 * u * t * t,
        e = t * t * t;
      lineTo(a * x0 + b * x1 + c * x2 + e * x, a * y0 + b * y1 + c * y2 + e * y);
    }
  };
  const quadTo = (x1: number, y1: number, x: number, y: number) => {
    const segs = segmentsFor(0.25, Math.hypot(cx - 2 * x1 + x, cy - 2 * y1 + y));
    const x0 = cx,
      y0 = cy;
    for (let k = 1; k <= segs; k++) {
      const t = k / segs,
        u = 1 - t;
      lineTo(u * u * x0 + 2 * u * t * x1 + t * t * x, u * u * y0 + 2 * u * t * y1 + t * t * y);
    }
  };
  // SVG's endpoint arc (implementation notes F.6.5): find the centre, then step the angle.
  const arcTo = (rxIn: number, ryIn: number, rotation: number, large: number, sweep: number, x: number, y: number) => {
    let rx = Math.abs(rxIn),
      ry = Math.abs(ryIn);
    if (rx === 0 || ry === 0 || (x === cx && y === cy)) return lineTo(x, y);
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
    const r = Math.max(rx, ry) * scale;
    const step = r > TOLERANCE ? 2 * Math.acos(1 - TOLERANCE / r) : Math.PI;
    const segs = Math.min(256, Math.max(1, Math.ceil(Math.abs(dt) / step)));
    // Chords cut inside the arc by up to its sagitta, by two thirds of it on average: pushing the inner
    // vertices out by that much keeps the filled area true (a dot keeps its size).
    const out = 1 + (2 / 3) * (1 - Math.cos(dt / segs / 2));
    for (let k = 1; k < segs; k++) {
      const t = t0 + (dt * k) / segs;
      const ex = out * rx * Math.cos(t),
        ey = out * ry * Math.sin(t);
      lineTo(cos * ex - sin * ey + ox, sin * ex + cos * ey + oy);
    }
    lineTo(x, y); // exactly on the end point, so relative commands that follow do not drift
  };

  let cmd = 0;
  while (true) {
    skip();
    if (i >= n) break;
    const c = d.charCodeAt(i);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) {
      if (cmd === 0 && c !== 77 && c !== 109) throw new Error('path data must start with M');
      cmd = c;
      i++;
    } else if (cmd === 0) throw new Error(`path data must start with a command`);
    else if (cmd === 77)
      cmd = 76; // numbers after M are implicit L
    else if (cmd === 109) cmd = 108;
    const rel = cmd >= 97;
    const C = rel ? cmd - 32 : cmd;
    const ox = rel ? cx : 0,
      oy = rel ? cy : 0;
    switch (C) {
      case 77: {
        if (px !== spx || py !== spy) closeSubpath();
        const x = num() + ox,
          y = num() + oy;
        cx = sx = x;
        cy = sy = y;
        px = spx = ma * x + mc * y + me;
        py = spy = mb * x + md * y + mf;
        break;
      }
      case 76:
        lineTo(num() + ox, num() + oy);
        break;
      case 72:
        lineTo(num() + ox, cy);
        break;
      case 86:
        lineTo(cx, num() + oy);
        break;
      case 67: {
        const x1 = num() + ox,
          y1 = num() + oy,
          x2 = num() + ox,
          y2 = num() + oy;
        qx = x2;
        qy = y2;
        cubicTo(x1, y1, x2, y2, num() + ox, num() + oy);
        break;
      }
      case 83: {
        const x1 = prev === 67 || prev === 83 ? 2 * cx - qx : cx,
          y1 = prev === 67 || prev === 83 ? 2 * cy - qy : cy;
        const x2 = num() + ox,
          y2 = num() + oy;
        qx = x2;
        qy = y2;
        cubicTo(x1, y1, x2, y2, num() + ox, num() + oy);
        break;
      }
      case 81: {
        const x1 = num() + ox,
          y1 = num() + oy;
        qx = x1;
        qy = y1;
        quadTo(x1, y1, num() + ox, num() + oy);
        break;
      }
      case 84: {
        const x1 = prev === 81 || prev === 84 ? 2 * cx - qx : cx,
          y1 = prev === 81 || prev === 84 ? 2 * cy - qy : cy;
        qx = x1;
        qy = y1;
        quadTo(x1, y1, num() + ox, num() + oy);
        break;
      }
      case 65: {
        const rx = num(),
          ry = num(),
          rot = num(),
          large = flag(),
          sweep = flag();
        arcTo(rx, ry, rot, large, sweep, num() + ox, num() + oy);
        break;
      }
      case 90:
        closeSubpath();
        break;
      default:
        throw new Error(`unknown path command ${String.fromCharCode(cmd)}`);
    }
    prev = C;
    if (C === 90 && hasNumber()) throw new Error('numbers after z');
  }
  if (px !== spx || py !== spy) closeSubpath();
}
