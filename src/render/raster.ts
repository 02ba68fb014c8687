import type { ModuleGrid } from '../design/grid.js';
import type { Affine, PathLayer } from '../model/layer.js';
import { samePaint, type SolidPaint } from '../model/paint.js';
import type { IndexedRaster, Raster } from '../model/raster.js';
import { Canvas, type Levels } from './canvas.js';
import { Edges } from './edges.js';
import { flattenPath, flattenPlaced, placedApart } from './flatten.js';
import type { ResidentRaster } from './kernel.js';
import { multiply, type Scene } from './scene.js';

/**
 * Rasterizes a flat scene (whole-module squares, two solid colours) by filling pixel runs: each module
 * row is drawn once and copied down `modulePx` times. Pixel-identical to what resvg draws for the same
 * SVG, at a small fraction of the cost, and it stays two colours, so the PNG can be 1-bit.
 */
export function rasterizeFlat(grid: ModuleGrid, scene: Scene): IndexedRaster {
  const { width, height, originX, originY, modulePx: mp } = scene.layout;
  const { size, modules } = grid;
  const pixels = new Uint8Array(width * height);
  for (let my = 0; my < size; my++) {
    const rowStart = (originY + my * mp) * width + originX;
    let mx = 0;
    while (mx < size) {
      if (!modules[my * size + mx]) {
        mx++;
        continue;
      }
      const run = mx;
      while (mx < size && modules[my * size + mx]) mx++;
      pixels.fill(1, rowStart + run * mp, rowStart + mx * mp);
    }
    for (let k = 1; k < mp; k++) pixels.copyWithin(rowStart + k * width, rowStart, rowStart + size * mp);
  }
  // A flat scene has one solid paint for the code and a solid background (Scene.flat says so).
  const fg = (scene.layers[0] as PathLayer).paint as SolidPaint;
  return { kind: 'indexed', width, height, pixels, palette: [(scene.background as SolidPaint).color, fg.color] };
}

const IDENTITY: Affine = [1, 0, 0, 1, 0, 0];
const inside = (e: Edges, width: number, height: number) =>
  e.minX >= 0 && e.minY >= 0 && e.maxX <= width && e.maxY <= height;
const edges = new Edges();

/**
 * The two colours of a scene drawn in one opaque colour over an opaque background, paths only (most styled
 * codes: rounded modules, eyes of the same colour), which the kernel draws as levels between them
 * (canvas.ts, Levels); null for anything else (gradients, images, a second colour, translucency).
 */
export function levelsOf(scene: Scene): Levels | null {
  const { background, layers } = scene;
  const first = layers[0];
  if (background.kind !== 'solid' || background.color.a !== 255) return null;
  if (first?.kind !== 'path' || first.paint.kind !== 'solid' || first.paint.color.a !== 255) return null;
  const foreground = first.paint;
  if (!layers.every((l) => l.kind === 'path' && samePaint(l.paint, foreground))) return null;
  return { background: background.color, foreground: foreground.color };
}

/**
 * Rasterizes any scene with our WASM kernel (canvas.ts): anti-aliased like an SVG renderer, drawn from the
 * same layers the SVG document and the PDF page are written from, at a fraction of resvg's cost (no XML,
 * no base64 images, no general-purpose path pipeline). The raster exports are written from it; PNG, SVG
 * and PDF are verified from it (pipeline.ts). A scene of two colours is drawn as levels between them
 * (levelsOf), any other, or any with `levels` null, in RGBA. The raster stays in the kernel's memory,
 * where its readers find it in place: the caller releases it when they are done (kernel.ts, ResidentRaster).
 */
export function rasterizeScene(scene: Scene, levels: Levels | null = levelsOf(scene)): ResidentRaster {
  const { width, height, originX, originY, modulePx } = scene.layout;
  const symbol: Affine = [modulePx, 0, 0, modulePx, originX, originY];
  const canvas = new Canvas(width, height, levels ?? undefined);
  canvas.background(scene.background);
  for (const layer of scene.layers) {
    const space = layer.space === 'symbol' ? symbol : IDENTITY;
    if (layer.kind === 'image') {
      const [a, , , d, e, f] = space;
      const { x, y, w, h } = layer.box;
      canvas.drawImage(layer.image, { x: a * x + e, y: d * y + f, w: a * w, h: d * h }, layer.opacity);
      continue;
    }
    const m = layer.transform ? multiply(space, layer.transform) : space;
    edges.reset();
    if (layer.placed) flattenPlaced(layer.placed, m, edges);
    else flattenPath(layer.d, m, edges);
    // Shapes apart, each inside the canvas, are painted each from its own coverage; anything else is filled.
    if (layer.placed && inside(edges, width, height) && placedApart(layer.placed, m))
      canvas.paintApart(edges, layer.paint, m);
    else canvas.fillPath(edges, layer.paint, m);
  }
  return canvas.toRaster();
}

/** RGBA bytes of any raster, as the lossy codecs and the decoder want them. */
export function toRgba(r: Raster): Uint8ClampedArray {
  if (r.kind === 'rgba') return new Uint8ClampedArray(r.pixels.buffer, r.pixels.byteOffset, r.pixels.byteLength);
  const lut = new Uint32Array(r.palette.length);
  const view = new DataView(lut.buffer);
  for (const [i, c] of r.palette.entries())
    view.setUint32(i * 4, ((c.r << 24) | (c.g << 16) | (c.b << 8) | c.a) >>> 0, false);
  const out = new Uint32Array(r.pixels.length);
  for (let i = 0; i < out.length; i++) out[i] = lut[r.pixels[i]!]!;
  return new Uint8ClampedArray(out.buffer);
}
