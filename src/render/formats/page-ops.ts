import type { Rgba } from '../../model/color.js';
import { type ColorSpace, toCmyk } from '../../model/cmyk.js';
import type { Affine, Layer } from '../../model/layer.js';
import { type ColorStop, type GradientPaint, linearEnds, type Paint, radialCircle } from '../../model/paint.js';
import type { RgbaRaster } from '../../model/raster.js';
import { arcEllipse, type PathPen, walkPath } from '../flatten.js';
import { multiply, type Scene } from '../scene.js';

/*
 * A page's drawing operators, written from the scene in the same order and spaces the SVG document and the
 * raster kernel draw it: PDF's content-stream operators, which the EPS export's prolog defines in
 * PostScript (eps.ts), so both print formats draw the same page from one writer.
 */

/**
 * Coordinates to 1/10,000 of a unit: in module units (where most paths live) a quarter of a thousandth of
 * a pixel at 24 px per module, 0.015 px at the largest modules a 5120 px canvas allows.
 */
export const num = (n: number): string => String(Math.round(n * 10_000) / 10_000);

/** Canvas pixels (y down) to page points (y up), `scale` points a pixel. */
export const canvasToPage = (height: number, scale: number): Affine => [scale, 0, 0, -scale, 0, height * scale];
export const cm = (m: Affine) => `${m.map(num).join(' ')} cm\n`;

/**
 * Writes SVG path data (read by flatten.ts's walkPath, every SVG 1.1 command) as PDF path operators in the
 * same user space: lines and cubics as they are, quadratics raised to cubics (exactly), arcs as one cubic
 * per quarter turn or less. Subpaths left open stay open: PDF's fill closes them, as SVG's does.
 */
class PagePathPen implements PathPen {
  cx = 0;
  cy = 0;
  qx = 0;
  qy = 0;
  private sx = 0;
  private sy = 0;
  out = '';

  moveTo(x: number, y: number): void {
    this.cx = this.sx = x;
    this.cy = this.sy = y;
    this.out += `${num(x)} ${num(y)} m\n`;
  }

  lineTo(x: number, y: number): void {
    this.cx = x;
    this.cy = y;
    this.out += `${num(x)} ${num(y)} l\n`;
  }

  cubicTo(x1: number, y1: number, x2: number, y2: number, x: number, y: number): void {
    this.qx = x2;
    this.qy = y2;
    this.cx = x;
    this.cy = y;
    this.out += `${num(x1)} ${num(y1)} ${num(x2)} ${num(y2)} ${num(x)} ${num(y)} c\n`;
  }

  quadTo(x1: number, y1: number, x: number, y: number): void {
    const [x0, y0] = [this.cx, this.cy];
    this.cubicTo(
      x0 + (2 / 3) * (x1 - x0),
      y0 + (2 / 3) * (y1 - y0),
      x + (2 / 3) * (x1 - x),
      y + (2 / 3) * (y1 - y),
      x,
      y,
    );
    this.qx = x1;
    this.qy = y1;
  }

  arcTo(rx: number, ry: number, rotation: number, large: number, sweep: number, x: number, y: number): void {
    const arc = arcEllipse(this.cx, this.cy, rx, ry, rotation, large, sweep, x, y);
    if (!arc) {
      this.lineTo(x, y);
      return;
    }
    const n = Math.max(1, Math.ceil(Math.abs(arc.dt) / (Math.PI / 2) - 1e-9));
    const step = arc.dt / n;
    // A cubic from angle a to b on the unit circle has its control points along the tangents, 4/3·tan(step/4) out.
    const k = (4 / 3) * Math.tan(step / 4);
    const at = (ux: number, uy: number): [number, number] => {
      const ex = arc.rx * ux,
        ey = arc.ry * uy;
      return [arc.cos * ex - arc.sin * ey + arc.ox, arc.sin * ex + arc.cos * ey + arc.oy];
    };
    for (let i = 0; i < n; i++) {
      const a = arc.t0 + i * step,
        b = a + step;
      const [ca, sa, cb, sb] = [Math.cos(a), Math.sin(a), Math.cos(b), Math.sin(b)];
      const [x1, y1] = at(ca - k * sa, sa + k * ca);
      const [x2, y2] = at(cb + k * sb, sb - k * cb);
      // The last piece ends exactly on the end point, so relative commands that follow do not drift.
      const [ex, ey] = i === n - 1 ? [x, y] : at(cb, sb);
      this.cubicTo(x1, y1, x2, y2, ex, ey);
    }
  }

  close(): void {
    this.cx = this.sx;
    this.cy = this.sy;
    this.out += 'h\n';
  }

  /** Nothing to write: `f` fills an open subpath as if closed, as SVG does. */
  closeIfOpen(): void {}
}

export const pathOps = (d: string): string => {
  const pen = new PagePathPen();
  walkPath(d, pen);
  return pen.out;
};

/** A colour's components as the page's colour space takes them, 0–1: DeviceRGB's three or DeviceCMYK's four. */
export const components = (c: Rgba, space: ColorSpace): string =>
  space === 'cmyk' ? toCmyk(c).map(num).join(' ') : `${num(c.r / 255)} ${num(c.g / 255)} ${num(c.b / 255)}`;
/** The fill colour: `rg` in DeviceRGB, `k` in DeviceCMYK. */
const fillColour = (c: Rgba, space: ColorSpace) => `${components(c, space)} ${space === 'cmyk' ? 'k' : 'rg'}\n`;

/**
 * One channel of a gradient along its axis as a PDF function of t in [0, 1] (`value` gives the channel's
 * components of a colour): linear interpolation between each pair of stops (type 2 functions, stitched by
 * a type 3 one), the end values held before the first stop and after the last, as colorAt and SVG do.
 */
function gradientFunction(stops: ColorStop[], value: (c: Rgba) => string): string {
  const ends = [
    ...(stops[0]!.offset > 0 ? [{ ...stops[0]!, offset: 0 }] : []),
    ...stops,
    ...(stops.at(-1)!.offset < 1 ? [{ ...stops.at(-1)!, offset: 1 }] : []),
  ];
  const pieces: { from: ColorStop; to: ColorStop }[] = [];
  for (let i = 1; i < ends.length; i++)
    if (ends[i]!.offset > ends[i - 1]!.offset) pieces.push({ from: ends[i - 1]!, to: ends[i]! });
  const interpolate = (a: Rgba, b: Rgba) =>
    `<< /FunctionType 2 /Domain [0 1] /C0 [${value(a)}] /C1 [${value(b)}] /N 1 >>`;
  if (pieces.length === 0) return interpolate(stops[0]!.color, stops[0]!.color);
  if (pieces.length === 1) return interpolate(pieces[0]!.from.color, pieces[0]!.to.color);
  const bounds = pieces.slice(1).map((p) => num(p.from.offset));
  return `<< /FunctionType 3 /Domain [0 1] /Functions [${pieces.map((p) => interpolate(p.from.color, p.to.color)).join(' ')}] /Bounds [${bounds.join(' ')}] /Encode [${pieces.map(() => '0 1').join(' ')}] >>`;
}

/**
 * A gradient as a shading dictionary in the user space of the layer it fills, extended past its ends (SVG's
 * pad): its colours (in the page's colour space), or its alpha (DeviceGray, for the soft mask of a gradient
 * with a translucent stop). PDF and PostScript LanguageLevel 3 read the same dictionary.
 */
export function shading(p: GradientPaint, of: 'colour' | 'alpha', space: ColorSpace): string {
  const coords =
    p.kind === 'linear'
      ? `/ShadingType 2 /Coords [${linearEnds(p.box, p.rotation).map(num).join(' ')}]`
      : (([cx, cy, r]) => `/ShadingType 3 /Coords [${num(cx)} ${num(cy)} 0 ${num(cx)} ${num(cy)} ${num(r)}]`)(
          radialCircle(p.box),
        );
  const [device, value] =
    of === 'alpha'
      ? ['DeviceGray', (c: Rgba) => num(c.a / 255)]
      : [space === 'cmyk' ? 'DeviceCMYK' : 'DeviceRGB', (c: Rgba) => components(c, space)];
  return `<< ${coords} /ColorSpace /${device} /Function ${gradientFunction(p.stops, value)} /Extend [true true] >>`;
}

/** What a page format adds to the shared operators: its colour space, and how it names shadings, alpha and images. */
export interface PageWriter {
  readonly space: ColorSpace;
  /** Operators selecting a constant fill alpha, or nothing when opaque. */
  alpha(a: number): string;
  /** The name `sh` paints the gradient's shading by. */
  shading(p: GradientPaint): string;
  /** Operators selecting the soft mask of a gradient with a translucent stop, or nothing. */
  gradientAlpha(p: GradientPaint): string;
  /** Operators painting the image over the unit square, its first row at the top (y = 1). */
  image(image: RgbaRaster): string;
}

/**
 * The shadings a page paints, by name: layers that share a gradient (the code and its eyes) share one.
 * The page formats' writers start from it.
 */
export class ShadingNames {
  readonly shadings = new Map<string, string>();
  constructor(readonly space: ColorSpace) {}

  shading(p: GradientPaint): string {
    const dict = shading(p, 'colour', this.space);
    const name = this.shadings.get(dict) ?? `S${this.shadings.size}`;
    this.shadings.set(dict, name);
    return name;
  }
}

/**
 * Fills `d` with `paint`: a solid colour directly, a gradient as its shading painted through the path as a
 * clip. One paint through one clip: the edges are anti-aliased once, as the SVG's and the raster's are.
 */
function fillOps(d: string, paint: Paint, w: PageWriter): string {
  if (paint.kind === 'solid')
    return `${fillColour(paint.color, w.space)}${w.alpha(paint.color.a / 255)}${pathOps(d)}f\n`;
  return `${pathOps(d)}W n\n${w.gradientAlpha(paint)}/${w.shading(paint)} sh\n`;
}

/** The layer's space (canvas or symbol, then its own transform) on the page. */
export function layerSpace(layer: Layer, scene: Scene, toPage: Affine): Affine {
  const { originX, originY, modulePx } = scene.layout;
  let m = toPage;
  if (layer.space === 'symbol') m = multiply(m, [modulePx, 0, 0, modulePx, originX, originY]);
  return layer.kind === 'path' && layer.transform ? multiply(m, layer.transform) : m;
}

export function layerOps(layer: Layer, scene: Scene, toPage: Affine, w: PageWriter): string {
  const m = layerSpace(layer, scene, toPage);
  if (layer.kind === 'image') {
    const { x, y, w: bw, h } = layer.box;
    // An image fills the unit square, its first row at the top (y = 1): mapped onto the box, top row at y.
    const place = multiply(m, [bw, 0, 0, -h, x, y + h]);
    return `q\n${w.alpha(layer.opacity)}${cm(place)}${w.image(layer.image)}Q\n`;
  }
  if (!layer.d) return '';
  return `q\n${cm(m)}${fillOps(layer.d, layer.paint, w)}Q\n`;
}
