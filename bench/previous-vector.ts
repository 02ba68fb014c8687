/**
 * The PDF writer as it was before issue 17, kept for the benchmarks only, to measure before and after in
 * the same run: pdf-lib building the document, parsing each layer's SVG path data back into operators and
 * deflating the content stream in JavaScript. (Before issue 17 the vector exports were also checked by
 * resvg drawing the SVG document: bench/stages.bench.ts calls rasterizeSvg for that.)
 */
import { createRequire } from 'node:module';
import {
  closePath,
  concatTransformationMatrix,
  endPath,
  fill,
  lineTo,
  moveTo,
  PDFDocument,
  type PDFOperator,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFillingRgbColor,
  clip,
  appendBezierCurve,
} from 'pdf-lib';
import type { Affine, Layer } from '../src/model/layer.js';
import { colorAt, linearEnds, radialCircle, type GradientPaint } from '../src/model/paint.js';
import { PT_PER_PX } from '../src/render/formats/pdf.js';
import { encodePng } from '../src/render/formats/png.js';
import type { Scene } from '../src/render/scene.js';

// pdf-lib parses SVG path data into PDF operators but does not export the parser from its index.
const { svgPathToOperators } = createRequire(import.meta.url)('pdf-lib/cjs/api/svgPath.js') as {
  svgPathToOperators: (d: string) => PDFOperator[];
};

/** Fixed metadata dates keep the same request byte-identical. */
const EPOCH = new Date(0);
/** Colour bands per gradient: finer than 8-bit colour steps across any code, and still small. */
const BANDS = 128;

/** The page's y axis points up; the scene's points down. This maps scene pixels to page points. */
const canvasToPage = (height: number): Affine => [PT_PER_PX, 0, 0, -PT_PER_PX, 0, height * PT_PER_PX];

/** Gradient bands, drawn in the gradient's own user space after the path has been made the clip. */
function gradientBands(p: GradientPaint): PDFOperator[] {
  const ops: PDFOperator[] = [];
  const band = (t: number) => {
    const c = colorAt(p.stops, t);
    return setFillingRgbColor(c.r / 255, c.g / 255, c.b / 255);
  };
  if (p.kind === 'linear') {
    const [x1, y1, x2, y2] = linearEnds(p.box, p.rotation);
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
    // Bands run across the gradient line, wide enough to cover the box whatever the angle; each runs on to
    // the far end and the next paints over it, so anti-aliasing leaves no seams between bands.
    const reach = Math.hypot(p.box.w, p.box.h);
    const s1 = len + reach;
    for (let i = 0; i < BANDS; i++) {
      const s0 = (i / BANDS) * len - (i === 0 ? reach : 0);
      const corner = (s: number, side: number): [number, number] => [
        x1 + ux * s - uy * side * reach,
        y1 + uy * s + ux * side * reach,
      ];
      const pts = [corner(s0, -1), corner(s1, -1), corner(s1, 1), corner(s0, 1)];
      ops.push(
        band((i + 0.5) / BANDS),
        moveTo(...pts[0]!),
        ...pts.slice(1).map((q) => lineTo(...q)),
        closePath(),
        fill(),
      );
    }
    return ops;
  }
  const [cx, cy, r] = radialCircle(p.box);
  const k = 0.5523; // cubic Bézier approximation of a quarter circle
  for (let i = BANDS; i > 0; i--) {
    const rr = (i / BANDS) * r * (i === BANDS ? 1.5 : 1);
    ops.push(band((i - 0.5) / BANDS), moveTo(cx + rr, cy));
    for (const [ax, ay, bx, by, ex, ey] of [
      [1, k, k, 1, 0, 1],
      [-k, 1, -1, k, -1, 0],
      [-1, -k, -k, -1, 0, -1],
      [k, -1, 1, -k, 1, 0],
    ] as const) {
      ops.push(appendBezierCurve(cx + ax * rr, cy + ay * rr, cx + bx * rr, cy + by * rr, cx + ex * rr, cy + ey * rr));
    }
    ops.push(closePath(), fill());
  }
  return ops;
}

function drawLayer(
  page: PDFPage,
  layer: Layer,
  scene: Scene,
  images: Map<Layer, Awaited<ReturnType<PDFDocument['embedPng']>>>,
): void {
  const { height, originX, originY, modulePx } = scene.layout;
  const space: Affine[] = [canvasToPage(height)];
  if (layer.space === 'symbol') space.push([modulePx, 0, 0, modulePx, originX, originY]);
  if (layer.kind === 'path' && layer.transform) space.push(layer.transform);
  const enter = [pushGraphicsState(), ...space.map((m) => concatTransformationMatrix(...m))];

  if (layer.kind === 'image') {
    const { x, y, w, h } = layer.box;
    // drawImage paints the unit square upright; place it in the flipped space by mirroring it back.
    page.pushOperators(...enter, concatTransformationMatrix(1, 0, 0, -1, 0, 2 * y + h));
    page.drawImage(images.get(layer)!, { x, y, width: w, height: h, opacity: layer.opacity });
    page.pushOperators(popGraphicsState());
    return;
  }
  if (!layer.d) return;
  if (layer.paint.kind === 'solid') {
    const c = layer.paint.color;
    // drawSvgPath flips y itself (scale 1, -1); flipping first leaves the path in our space as drawn.
    page.pushOperators(...enter, concatTransformationMatrix(1, 0, 0, -1, 0, 0));
    page.drawSvgPath(layer.d, {
      x: 0,
      y: 0,
      scale: 1,
      color: rgb(c.r / 255, c.g / 255, c.b / 255),
      opacity: c.a / 255,
      borderWidth: 0,
    });
    page.pushOperators(popGraphicsState());
    return;
  }
  page.pushOperators(
    ...enter,
    ...svgPathToOperators(layer.d),
    clip(),
    endPath(),
    ...gradientBands(layer.paint),
    popGraphicsState(),
  );
}

/**
 * One vector page sized to the output (width × height pixels at 96 dpi), drawn from the scene's layers:
 * paths as paths, gradients as fine colour bands clipped to their shapes, images as embedded PNGs.
 */
export async function previousPdf(scene: Scene): Promise<Uint8Array> {
  const { width, height } = scene.layout;
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setCreationDate(EPOCH);
  doc.setModificationDate(EPOCH);
  doc.setProducer('qrfarm');
  doc.setCreator('qrfarm');
  const page = doc.addPage([width * PT_PER_PX, height * PT_PER_PX]);
  const images = new Map<Layer, Awaited<ReturnType<PDFDocument['embedPng']>>>();
  for (const layer of scene.layers)
    if (layer.kind === 'image') images.set(layer, await doc.embedPng(encodePng(layer.image)));

  const bg: Layer = { kind: 'path', space: 'canvas', d: `M0 0h${width}v${height}h-${width}z`, paint: scene.background };
  for (const layer of [bg, ...scene.layers]) drawLayer(page, layer, scene, images);
  return doc.save({ addDefaultPage: false });
}
