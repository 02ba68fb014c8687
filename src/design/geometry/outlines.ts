import { arc, cubic, line, loop, polygon, type Loop, type Pt, type Seg } from './path.js';

/** Per-corner values in the order top-left, top-right, bottom-right, bottom-left. */
export type Corners = readonly [number, number, number, number];

export const corners = (tl: number, tr = tl, br = tl, bl = tr): Corners => [tl, tr, br, bl];
export const mapCorners = (c: Corners, f: (v: number) => number): Corners => [f(c[0]), f(c[1]), f(c[2]), f(c[3])];

/** Rectangle with a circular radius per corner (0 = sharp); radii are the caller's to keep within the sides. */
export function roundedBox(x0: number, y0: number, x1: number, y1: number, [tl, tr, br, bl]: Corners): Loop {
  const segs: Seg[] = [line(x1 - tr, y0)];
  if (tr > 0) segs.push(arc(x1, y0 + tr, x1 - tr, y0 + tr, tr));
  segs.push(line(x1, y1 - br));
  if (br > 0) segs.push(arc(x1 - br, y1, x1 - br, y1 - br, br));
  segs.push(line(x0 + bl, y1));
  if (bl > 0) segs.push(arc(x0, y1 - bl, x0 + bl, y1 - bl, bl));
  segs.push(line(x0, y0 + tl));
  if (tl > 0) segs.push(arc(x0 + tl, y0, x0 + tl, y0 + tl, tl));
  return loop(segs);
}

/** Rectangle with each corner cut off at 45°, `cut` measured along each side. */
export function chamferBox(x0: number, y0: number, x1: number, y1: number, [tl, tr, br, bl]: Corners): Loop {
  const pts: Pt[] = [
    [x0 + tl, y0],
    [x1 - tr, y0],
    [x1, y0 + tr],
    [x1, y1 - br],
    [x1 - br, y1],
    [x0 + bl, y1],
    [x0, y1 - bl],
    [x0, y0 + tl],
  ];
  return polygon(pts.filter((p, i) => i === 0 || p[0] !== pts[i - 1][0] || p[1] !== pts[i - 1][1]));
}

/**
 * Disc of radius `r` about (cx, cy) with whatever lies beyond the square [c − half, c + half]² cut off
 * (r > half): round at the corners, flat across the middle of each side.
 */
export function boxedDisc(cx: number, cy: number, half: number, r: number): Loop {
  const a = Math.sqrt(r * r - half * half); // half the length of each flat
  return loop([
    line(cx + a, cy - half),
    arc(cx + half, cy - a, cx, cy, r),
    line(cx + half, cy + a),
    arc(cx + a, cy + half, cx, cy, r),
    line(cx - a, cy + half),
    arc(cx - half, cy + a, cx, cy, r),
    line(cx - half, cy - a),
    arc(cx - a, cy - half, cx, cy, r),
  ]);
}

export function ellipse(cx: number, cy: number, rx: number, ry = rx): Loop {
  return loop([
    arc(cx + rx, cy, cx, cy, rx, ry),
    arc(cx, cy + ry, cx, cy, rx, ry),
    arc(cx - rx, cy, cx, cy, rx, ry),
    arc(cx, cy - ry, cx, cy, rx, ry),
  ]);
}

/**
 * Superellipse |x|⁴ + |y|⁴ = 1 (a squircle) from four cubics: the handle length puts each curve's
 * midpoint on the true curve at 2^-¼ of the half-size.
 */
export function squircle(cx: number, cy: number, rx: number, ry = rx): Loop {
  const k = 0.909;
  return loop([
    cubic(cx + rx, cy - ry * k, cx + rx * k, cy - ry, cx, cy - ry),
    cubic(cx - rx * k, cy - ry, cx - rx, cy - ry * k, cx - rx, cy),
    cubic(cx - rx, cy + ry * k, cx - rx * k, cy + ry, cx, cy + ry),
    cubic(cx + rx * k, cy + ry, cx + rx, cy + ry * k, cx + rx, cy),
  ]);
}

/** Regular star (or polygon when inner = outer) with its first point straight up. */
export function star(cx: number, cy: number, outer: number, inner: number, points: number): Loop {
  const pts: Pt[] = [];
  for (let i = 0; i < points * 2; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = -Math.PI / 2 + (i * Math.PI) / points;
    pts.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return polygon(inner === outer ? pts.filter((_, i) => i % 2 === 0) : pts);
}

/** Rectangle with a square notch of `notch` taken out of every corner: a plus sign whose arms fill the box. */
export function notchedBox(x0: number, y0: number, x1: number, y1: number, notch: number): Loop {
  const a = notch;
  return polygon([
    [x0 + a, y0],
    [x1 - a, y0],
    [x1 - a, y0 + a],
    [x1, y0 + a],
    [x1, y1 - a],
    [x1 - a, y1 - a],
    [x1 - a, y1],
    [x0 + a, y1],
    [x0 + a, y1 - a],
    [x0, y1 - a],
    [x0, y0 + a],
    [x0 + a, y0 + a],
  ]);
}

/** A diagonal cross (×) filling the box, each arm ending where it meets the box edges `t` from the corner. */
export function saltire(x0: number, y0: number, x1: number, y1: number, t: number): Loop {
  const mx = (x0 + x1) / 2;
  const my = (y0 + y1) / 2;
  return polygon([
    [x0 + t, y0],
    [mx, my - t],
    [x1 - t, y0],
    [x1, y0 + t],
    [mx + t, my],
    [x1, y1 - t],
    [x1 - t, y1],
    [mx, my + t],
    [x0 + t, y1],
    [x0, y1 - t],
    [mx - t, my],
    [x0, y0 + t],
  ]);
}

/**
 * Lens between the bottom-left and top-right corners of a square: two arcs of radius `r` (from half the
 * diagonal, fattest, to the side, thinnest) bulging towards the other two corners.
 */
export function lens(x0: number, y0: number, side: number, r: number): Loop {
  const h = side / 2;
  const off = Math.sqrt(r * r - h * h * 2) / Math.SQRT2; // arc centre's offset from the square's centre, per axis
  const [mx, my] = [x0 + h, y0 + h];
  return loop([arc(x0 + side, y0, mx + off, my + off, r), arc(x0, y0 + side, mx - off, my - off, r)]);
}

/**
 * Flat top, straight sides down to `shoulder` of the height, then curving in to a blunt point at the
 * bottom centre or, with `base` > 0, to a flat base that wide (a round-bottomed shield).
 */
export function shield(x0: number, y0: number, w: number, h: number, shoulder = 0.5, base = 0): Loop {
  const x1 = x0 + w;
  const mx = x0 + w / 2;
  const ys = y0 + h * shoulder;
  const y1 = y0 + h;
  if (base > 0) {
    // The curves leave the sides vertically and meet the base horizontally, so the outline stays smooth.
    const [bend, reach] = [(y1 - ys) * 0.6, w * 0.12];
    const [l, r] = [mx - base / 2, mx + base / 2];
    return loop([
      line(x1, y0),
      line(x1, ys),
      cubic(x1, ys + bend, r + reach, y1, r, y1),
      line(l, y1),
      cubic(l - reach, y1, x0, ys + bend, x0, ys),
      line(x0, y0),
    ]);
  }
  const bend = (h - h * shoulder) * 0.7;
  return loop([
    line(x1, y0),
    line(x1, ys),
    cubic(x1, ys + bend, mx + w * 0.25, y1 - h * 0.08, mx, y1),
    cubic(mx - w * 0.25, y1 - h * 0.08, x0, ys + bend, x0, ys),
    line(x0, y0),
  ]);
}

/**
 * Heart filling the box, point down. Drawn in a design space whose curves reach a little past [0, 1]²
 * (the lobes' sides and tops): these bounds map it onto the box exactly, so a heart drawn in a cell
 * stays in it.
 */
const HEART_U: readonly [number, number] = [-0.02472, 1.02472];
const HEART_V: readonly [number, number] = [-0.02171, 1];
export function heart(x0: number, y0: number, w: number, h: number): Loop {
  const sx = w / (HEART_U[1] - HEART_U[0]);
  const sy = h / (HEART_V[1] - HEART_V[0]);
  const p = (u: number, v: number): [number, number] => [x0 + (u - HEART_U[0]) * sx, y0 + (v - HEART_V[0]) * sy];
  const c = (a: number, b: number, c1: number, d: number, e: number, f: number) =>
    cubic(...p(a, b), ...p(c1, d), ...p(e, f));
  return loop([
    c(0.5, 0.12, 0.64, -0.04, 0.86, -0.02),
    c(1.04, 0.02, 1.06, 0.3, 0.98, 0.44),
    c(0.9, 0.64, 0.62, 0.86, 0.5, 1),
    c(0.38, 0.86, 0.1, 0.64, 0.02, 0.44),
    c(-0.06, 0.3, -0.04, 0.02, 0.14, -0.02),
    c(0.36, -0.04, 0.5, 0.12, 0.5, 0.22),
  ]);
}

/**
 * Round outline of `petals` bumps peaking at radius `peak` (first one on the +x axis), dipping to `valley`
 * between. With `half`, the petals on the axes that reach past the square [c − half, c + half]² are cut
 * flat by its sides (`petals` a multiple of 4).
 */
export function scalloped(
  cx: number,
  cy: number,
  peak: number,
  valley: number,
  petals: number,
  half = Number.POSITIVE_INFINITY,
): Loop {
  const step = Math.PI / petals;
  // Distance from the centre to the centre of the circle through two valleys and the peak between them.
  const d = (peak * peak - valley * valley) / (2 * peak - 2 * valley * Math.cos(step));
  const r = peak - d;
  const segs: Seg[] = [];
  for (let k = 0; k < petals; k++) {
    const a = 2 * k * step;
    const [ux, uy] = [Math.cos(a), Math.sin(a)];
    const [ox, oy] = [cx + d * ux, cy + d * uy];
    const next = arc(cx + valley * Math.cos(a + step), cy + valley * Math.sin(a + step), ox, oy, r);
    if (peak > half && k % (petals / 4) === 0) {
      // The petal's circle crosses the side at ±w about the side's midpoint (px, py).
      const w = Math.sqrt(r * r - (half - d) ** 2);
      const [px, py] = [cx + half * ux, cy + half * uy];
      segs.push(arc(px + uy * w, py - ux * w, ox, oy, r), line(px - uy * w, py + ux * w), next);
    } else {
      // Through the peak in two halves: a petal can span more than the half turn one arc command may.
      segs.push(arc(cx + peak * ux, cy + peak * uy, ox, oy, r), next);
    }
  }
  return loop(segs);
}

/** Square of side `side` centred on (cx, cy), turned by `angle` radians. */
export function turnedSquare(cx: number, cy: number, side: number, angle: number): Loop {
  const h = side / 2;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const pts: Pt[] = [
    [-h, -h],
    [h, -h],
    [h, h],
    [-h, h],
  ].map(([u, v]) => [cx + u * cos - v * sin, cy + u * sin + v * cos]);
  return polygon(pts);
}
