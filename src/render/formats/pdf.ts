import { deflateSync } from 'node:zlib';
import type { Affine, Layer } from '../../model/layer.js';
import type { Rgba } from '../../model/color.js';
import { type ColorStop, type GradientPaint, linearEnds, type Paint, radialCircle } from '../../model/paint.js';
import type { RgbaRaster } from '../../model/raster.js';
import { type PrintSize, PT_PER_INCH, widthInInches } from '../../model/print-size.js';
import { arcEllipse, type PathPen, walkPath } from '../flatten.js';
import { multiply, type Scene } from '../scene.js';
import { concat } from './png.js';

/*
 * The PDF export, written directly: one page whose content stream is the scene's paths as PDF path
 * operators, in the same order and spaces the SVG document and the raster kernel draw them. A QR page needs
 * only filled paths, gradients (shadings through a clip), constant alpha and images, so the file is a
 * handful of objects: catalog, page tree, page, content stream, document info, and one per image and mask.
 * Text, frames and logos reach the scene as paths and images already (no fonts are embedded).
 */

/** CSS reference pixel: 96 per inch, so one pixel is 0.75 PDF points. */
export const PT_PER_PX = 0.75;
/**
 * zlib level 3 for the streams: on the styled benchmark page's path operators a third of level 6's time
 * for a stream 14 % larger; the file is still smaller than pdf-lib's was (docs/design-decisions.md, "PDF:
 * our writer").
 */
const deflate = (data: Uint8Array) => deflateSync(data, { level: 3 });
/** Fixed metadata dates keep the same request byte-identical. */
const EPOCH = 'D:19700101000000Z';

/**
 * Coordinates to 1/10,000 of a unit: in module units (where most paths live) a quarter of a thousandth of
 * a pixel at 24 px per module, 0.015 px at the largest modules a 5120 px canvas allows.
 */
const num = (n: number): string => String(Math.round(n * 10_000) / 10_000);

/** The page's y axis points up; the scene's points down. This maps scene pixels to page points. */
/** Canvas pixels (y down) to page points (y up), `scale` points a pixel. */
const canvasToPage = (height: number, scale: number): Affine => [scale, 0, 0, -scale, 0, height * scale];
const cm = (m: Affine) => `${m.map(num).join(' ')} cm\n`;

/**
 * Writes SVG path data (read by flatten.ts's walkPath, every SVG 1.1 command) as PDF path operators in the
 * same user space: lines and cubics as they are, quadratics raised to cubics (exactly), arcs as one cubic
 * per quarter turn or less. Subpaths left open stay open: PDF's fill closes them, as SVG's does.
 */
class PdfPathPen implements PathPen {
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

const pathOps = (d: string): string => {
  const pen = new PdfPathPen();
  walkPath(d, pen);
  return pen.out;
};

/** A colour's red, green and blue as PDF's DeviceRGB takes them, 0–1. */
const components = (c: Rgba) => `${num(c.r / 255)} ${num(c.g / 255)} ${num(c.b / 255)}`;
const rg = (c: Rgba) => `${components(c)} rg\n`;

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
 * A gradient as a PDF shading in the user space of the layer it fills, extended past its ends (SVG's pad):
 * its colours (DeviceRGB), or its alpha (DeviceGray, for the soft mask of a gradient with a translucent stop).
 */
function shading(p: GradientPaint, of: 'colour' | 'alpha'): string {
  const coords =
    p.kind === 'linear'
      ? `/ShadingType 2 /Coords [${linearEnds(p.box, p.rotation).map(num).join(' ')}]`
      : (([cx, cy, r]) => `/ShadingType 3 /Coords [${num(cx)} ${num(cy)} 0 ${num(cx)} ${num(cy)} ${num(r)}]`)(
          radialCircle(p.box),
        );
  const [space, value] = of === 'colour' ? ['DeviceRGB', components] : ['DeviceGray', (c: Rgba) => num(c.a / 255)];
  return `<< ${coords} /ColorSpace /${space} /Function ${gradientFunction(p.stops, value)} /Extend [true true] >>`;
}

/** The page's resources as the content stream names them: constant alphas, shadings, alpha masks, images. */
class Resources {
  readonly alphas = new Map<number, string>();
  readonly images: { name: string; image: RgbaRaster }[] = [];
  readonly shadings = new Map<string, string>();
  /** Soft masks by their alpha shading and the box they cover: the graphics state's name for each. */
  readonly masks = new Map<string, { name: string; alpha: string; bbox: string }>();

  /** `gs` selecting a fill alpha, or nothing when opaque. */
  alpha(a: number): string {
    if (a >= 1) return '';
    const key = Math.round(a * 10_000) / 10_000;
    const name = this.alphas.get(key) ?? `A${this.alphas.size}`;
    this.alphas.set(key, name);
    return `/${name} gs\n`;
  }

  /** The name of the gradient's shading; layers that share a gradient (the code and its eyes) share one. */
  shading(p: GradientPaint): string {
    const dict = shading(p, 'colour');
    const name = this.shadings.get(dict) ?? `S${this.shadings.size}`;
    this.shadings.set(dict, name);
    return name;
  }

  /**
   * `gs` selecting a soft mask of the gradient's alpha when a stop is translucent, else nothing. The mask
   * covers the gradient's box and as much again on every side (the box is the symbol or the canvas, which
   * the shapes it fills stay inside); outside it a soft mask hides everything.
   */
  gradientAlpha(p: GradientPaint): string {
    if (p.stops.every((s) => s.color.a === 255)) return '';
    const alpha = shading(p, 'alpha');
    const { x, y, w, h } = p.box;
    const bbox = [x - w, y - h, x + 2 * w, y + 2 * h].map(num).join(' ');
    const key = `${alpha} ${bbox}`;
    const mask = this.masks.get(key) ?? { name: `M${this.masks.size}`, alpha, bbox };
    this.masks.set(key, mask);
    return `/${mask.name} gs\n`;
  }

  image(image: RgbaRaster): string {
    const name = `I${this.images.length}`;
    this.images.push({ name, image });
    return name;
  }
}

/**
 * Fills `d` with `paint`: a solid colour directly, a gradient as its shading painted through the path as a
 * clip. One paint through one clip: the edges are anti-aliased once, as the SVG's and the raster's are.
 */
function fillOps(d: string, paint: Paint, res: Resources): string {
  if (paint.kind === 'solid') return `${rg(paint.color)}${res.alpha(paint.color.a / 255)}${pathOps(d)}f\n`;
  return `${pathOps(d)}W n\n${res.gradientAlpha(paint)}/${res.shading(paint)} sh\n`;
}

function layerOps(layer: Layer, scene: Scene, toPage: Affine, res: Resources): string {
  const { originX, originY, modulePx } = scene.layout;
  let m = toPage;
  if (layer.space === 'symbol') m = multiply(m, [modulePx, 0, 0, modulePx, originX, originY]);
  if (layer.kind === 'image') {
    const { x, y, w, h } = layer.box;
    // An image fills the unit square, its first row at the top (y = 1): mapped onto the box, top row at y.
    const place = multiply(m, [w, 0, 0, -h, x, y + h]);
    return `q\n${res.alpha(layer.opacity)}${cm(place)}/${res.image(layer.image)} Do\nQ\n`;
  }
  if (!layer.d) return '';
  if (layer.transform) m = multiply(m, layer.transform);
  return `q\n${cm(m)}${fillOps(layer.d, layer.paint, res)}Q\n`;
}

const latin1 = (s: string) => Buffer.from(s, 'latin1');

/** Objects numbered from 1 in the order added, then written with their cross-reference table. */
class PdfObjects {
  private readonly bodies: Uint8Array[][] = [];

  /** Reserves the next object number, to be referenced before its body is known. */
  reserve(): number {
    this.bodies.push([]);
    return this.bodies.length;
  }

  /** Object `n`: a dictionary of `entries`, and the stream after it if there is one. */
  set(n: number, entries: string, stream?: Uint8Array): void {
    this.bodies[n - 1] = stream
      ? [
          latin1(`${n} 0 obj\n<< ${entries} /Length ${stream.length} >>\nstream\n`),
          stream,
          latin1('\nendstream\nendobj\n'),
        ]
      : [latin1(`${n} 0 obj\n<< ${entries} >>\nendobj\n`)];
  }

  add(entries: string, stream?: Uint8Array): number {
    const n = this.reserve();
    this.set(n, entries, stream);
    return n;
  }

  /** The whole file: header (with a binary comment, so transfer tools keep it binary), objects, xref, trailer. */
  file(root: number, info: number): Uint8Array {
    const parts: Uint8Array[] = [latin1('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n')];
    let offset = parts[0]!.length;
    const offsets: number[] = [];
    for (const body of this.bodies) {
      offsets.push(offset);
      for (const b of body) {
        parts.push(b);
        offset += b.length;
      }
    }
    const size = this.bodies.length + 1;
    const xref = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
    parts.push(
      latin1(
        `xref\n0 ${size}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${size} /Root ${root} 0 R /Info ${info} 0 R >>\nstartxref\n${offset}\n%%EOF\n`,
      ),
    );
    // One array of its own, not Buffer.concat's: a small Buffer is a view into Node's shared pool, and the
    // worker transfers the buffer of what it returns (worker.ts).
    return concat(parts);
  }
}

/** An image as a DeviceRGB XObject, with its alpha as a soft mask when any pixel is not opaque. */
function imageObject(objects: PdfObjects, image: RgbaRaster): number {
  const { width, height, pixels } = image;
  const rgb = new Uint8Array(width * height * 3);
  const alpha = new Uint8Array(width * height);
  let opaque = true;
  for (let i = 0, j = 0; i < alpha.length; i++, j += 3) {
    rgb[j] = pixels[i * 4]!;
    rgb[j + 1] = pixels[i * 4 + 1]!;
    rgb[j + 2] = pixels[i * 4 + 2]!;
    alpha[i] = pixels[i * 4 + 3]!;
    if (alpha[i] !== 255) opaque = false;
  }
  const common = `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /BitsPerComponent 8 /Filter /FlateDecode`;
  const mask = opaque ? '' : ` /SMask ${objects.add(`${common} /ColorSpace /DeviceGray`, deflate(alpha))} 0 R`;
  return objects.add(`${common} /ColorSpace /DeviceRGB${mask}`, deflate(rgb));
}

/**
 * One vector page sized to the output (width × height pixels at 96 dpi), drawn from the scene's layers:
 * paths as paths, gradients as shadings clipped to their shapes, images as embedded RGB with a soft mask,
 * constant alpha through graphics states.
 */
export function sceneToPdf(scene: Scene, print?: PrintSize): Uint8Array {
  const { width, height } = scene.layout;
  // A print size makes the page exactly its width; the pixels are then a little off the dpi's.
  const scale = print ? (widthInInches(print) * PT_PER_INCH) / width : PT_PER_PX;
  const toPage = canvasToPage(height, scale);
  const res = new Resources();
  const background: Layer = {
    kind: 'path',
    space: 'canvas',
    d: `M0 0h${width}v${height}h-${width}z`,
    paint: scene.background,
  };
  const content = [background, ...scene.layers].map((l) => layerOps(l, scene, toPage, res)).join('');

  const objects = new PdfObjects();
  const catalog = objects.reserve();
  const pages = objects.reserve();
  const page = objects.reserve();
  const contents = objects.add('/Filter /FlateDecode', deflate(latin1(content)));
  const info = objects.add(`/Producer (qrfarm) /Creator (qrfarm) /CreationDate (${EPOCH}) /ModDate (${EPOCH})`);
  const xobjects = res.images.map(({ name, image }) => `/${name} ${imageObject(objects, image)} 0 R`).join(' ');
  const masks = [...res.masks.values()].map(({ name, alpha, bbox }) => {
    // The mask is a form painting the alpha shading in grey; its luminosity is the alpha.
    const form = objects.add(
      `/Type /XObject /Subtype /Form /BBox [${bbox}] /Group << /S /Transparency /CS /DeviceGray >> /Resources << /Shading << /A ${alpha} >> >>`,
      latin1('/A sh\n'),
    );
    return `/${name} << /Type /ExtGState /SMask << /Type /Mask /S /Luminosity /G ${form} 0 R >> >>`;
  });
  const alphas = [...[...res.alphas].map(([a, name]) => `/${name} << /Type /ExtGState /ca ${a} >>`), ...masks].join(
    ' ',
  );
  const shadings = [...res.shadings].map(([dict, name]) => `/${name} ${dict}`).join(' ');
  const resources = [
    xobjects && `/XObject << ${xobjects} >>`,
    alphas && `/ExtGState << ${alphas} >>`,
    shadings && `/Shading << ${shadings} >>`,
  ]
    .filter(Boolean)
    .join(' ');
  objects.set(catalog, `/Type /Catalog /Pages ${pages} 0 R`);
  objects.set(pages, `/Type /Pages /Kids [${page} 0 R] /Count 1`);
  objects.set(
    page,
    `/Type /Page /Parent ${pages} 0 R /MediaBox [0 0 ${num(width * scale)} ${num(height * scale)}] /Resources << ${resources} >> /Contents ${contents} 0 R`,
  );
  return objects.file(catalog, info);
}
