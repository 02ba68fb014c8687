import type { EdgeStamp, Edges } from './edges.js';
import { canvasRaster, KERNEL_BASE, kernelForCanvas, reserve, type Kernel, type ResidentRaster } from './kernel.js';
import type { Affine } from '../model/layer.js';
import { type ColorStop, colorAt, linearEnds, radialCircle, type Paint } from '../model/paint.js';
import type { RgbaRaster } from '../model/raster.js';

/** A stamp's accumulated cells (Canvas.patchOf): each one's offset from the cell it is placed at, and its value. */
interface Patch {
  offsets: Int32Array;
  values: Float32Array;
}

/** Patches by stamp, then by where in a pixel the stamp starts and the canvas width; they go with their stamps. */
const patches = new WeakMap<EdgeStamp, Map<number | string, Patch>>();

/** Entries in a gradient table; the kernel indexes its tables by the same constant. */
const LUT_SIZE = 1024;

/** Premultiplied RGBA of a straight colour, packed little-endian (R in the low byte) as the kernel reads it. */
function premultiplied(c: { r: number; g: number; b: number; a: number }): number {
  const m = (v: number) => Math.round((v * c.a) / 255);
  return (m(c.r) | (m(c.g) << 8) | (m(c.b) << 16) | (c.a << 24)) >>> 0;
}

/**
 * Gradient tables by their stops, kept across layers and renders: every layer of a design's gradient (its
 * modules, each eye, a decoration) has the same one, and 1,024 colours interpolated and premultiplied cost
 * more than the layer's own painting of a module or eye. The least recently used go past TABLES_KEPT.
 */
const tables = new Map<string, Uint32Array>();
const TABLES_KEPT = 16;

function gradientTable(stops: ColorStop[]): Uint32Array {
  const key = stops.map((s) => `${s.offset} ${s.color.r} ${s.color.g} ${s.color.b} ${s.color.a}`).join(',');
  let table = tables.get(key);
  if (table) tables.delete(key);
  else {
    table = new Uint32Array(LUT_SIZE);
    for (let i = 0; i < LUT_SIZE; i++) table[i] = premultiplied(colorAt(stops, i / (LUT_SIZE - 1)));
    if (tables.size >= TABLES_KEPT) tables.delete(tables.keys().next().value!);
  }
  tables.set(key, table);
  return table;
}

const apply = (m: Affine, x: number, y: number): [number, number] => [
  m[0] * x + m[2] * y + m[4],
  m[1] * x + m[3] * y + m[5],
];

/**
 * A canvas drawn by the WASM raster kernel: paths filled with exact-area anti-aliasing, solid or gradient
 * paint, images composited with bilinear sampling, all in premultiplied RGBA as SVG renderers work.
 * Memory layout (bytes from KERNEL_BASE): the canvas, the coverage accumulation buffer, one gradient table, then
 * scratch space for the current layer's edges or image.
 */
export class Canvas {
  private readonly k: Kernel;
  private readonly canvas: number;
  private readonly acc: number;
  private readonly lut: number;
  private readonly scratch: number;
  private opaque = false;
  /**
   * The straight colour (0x00BBGGRR) left under wholly transparent pixels: the background's, so that a
   * reader ignoring alpha sees the code on its own background, not on black (a gradient's first stop).
   */
  private under = 0;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    const pixels = width * height * 4;
    const accBytes = (width + 2) * height * 4;
    this.canvas = KERNEL_BASE;
    this.acc = this.canvas + pixels;
    this.lut = this.acc + accBytes;
    this.scratch = this.lut + LUT_SIZE * 4;
    this.k = kernelForCanvas(this.scratch - KERNEL_BASE);
    if (this.k.LUT_SIZE.value !== LUT_SIZE)
      throw new Error(`the kernel's gradient tables have ${this.k.LUT_SIZE.value} entries, expected ${LUT_SIZE}`);
    // Every fill clears the cells it read; zeroing here also recovers from a render that failed midway.
    new Uint8Array(this.k.memory.buffer, this.acc, accBytes).fill(0);
  }

  private reserve(bytes: number): void {
    reserve(this.k, this.scratch + bytes);
  }

  /** Paints the whole canvas; a gradient spans its box in canvas pixels. */
  background(paint: Paint): void {
    // Source-over onto an opaque pixel leaves it opaque, so an opaque background keeps the whole canvas so.
    this.opaque = paint.kind === 'solid' ? paint.color.a === 255 : paint.stops.every((s) => s.color.a === 255);
    const { r, g, b } = paint.kind === 'solid' ? paint.color : paint.stops[0]!.color;
    this.under = r | (g << 8) | (b << 16);
    if (paint.kind === 'solid') this.k.clear(this.canvas, this.width * this.height, premultiplied(paint.color));
    else {
      this.k.clear(this.canvas, this.width * this.height, 0);
      const { width: w, height: h } = this;
      this.fillRect(w, h, paint);
    }
  }

  private fillRect(w: number, h: number, paint: Paint): void {
    this.reserve(32);
    new Float32Array(this.k.memory.buffer, this.scratch, 8).set([0, 0, 0, h, w, h, w, 0]);
    this.k.accumulate(this.scratch, 2, this.acc, this.width, this.height);
    this.paint(0, 0, w + 1, h, paint, [1, 0, 0, 1, 0, 0]);
  }

  /**
   * Fills the area the edges and placed stamps enclose (nonzero), with a paint whose coordinates `m` maps to
   * pixels. A stamp placed wholly inside the canvas adds its patch (patchOf); one reaching past an edge,
   * where the kernel clips, adds its edges.
   */
  fillPath(edges: Edges, paint: Paint, m: Affine): void {
    const placements: number[] = [];
    const cells: Patch[] = [];
    const { width, height } = this;
    edges.placed.forEach((stamp, i) => {
      const dx = edges.moves[2 * i]!;
      const dy = edges.moves[2 * i + 1]!;
      if (dx + stamp.minX < 0 || dy + stamp.minY < 0 || dx + stamp.maxX > width || dy + stamp.maxY > height)
        edges.addMoved(stamp, dx, dy);
      else {
        const x = Math.floor(dx);
        const y = Math.floor(dy);
        const patch = this.patchOf(stamp, dx - x, dy - y);
        cells.push(patch);
        placements.push(patch.offsets.length, y * (width + 2) + x);
      }
    });
    if (edges.count === 0 && cells.length === 0) return;
    this.reserve(Math.max(edges.count * 16, 12 * cells.length + 8 * cells.reduce((n, c) => n + c.offsets.length, 0)));
    if (edges.count > 0) {
      new Float32Array(this.k.memory.buffer, this.scratch, edges.count * 4).set(
        edges.data.subarray(0, edges.count * 4),
      );
      this.k.accumulate(this.scratch, edges.count, this.acc, this.width, this.height);
    }
    if (cells.length > 0) this.addPatches(cells, placements);
    const x0 = Math.max(0, Math.floor(edges.minX));
    const y0 = Math.max(0, Math.floor(edges.minY));
    const x1 = Math.min(this.width, Math.ceil(edges.maxX)) + 1;
    const y1 = Math.min(this.height, Math.ceil(edges.maxY));
    if (x0 < x1 && y0 < y1) this.paint(x0, y0, x1, y1, paint, m);
  }

  /**
   * A stamp's accumulated cells when its start falls (fx, fy) into a pixel: the stamp's edges accumulated
   * alone, on a tile of scratch, as cell offsets on this canvas and values. The kernel's accumulation is a
   * sum of each edge's share of each cell, so wherever the stamp is placed whole pixels away, inside the
   * canvas, it adds these cells there (to f32 rounding).
   */
  private patchOf(stamp: EdgeStamp, fx: number, fy: number): Patch {
    const kept = patches.get(stamp) ?? patches.set(stamp, new Map()).get(stamp)!;
    // Most stamps start on whole pixels: those go by the width alone, with no key to build.
    const key = fx === 0 && fy === 0 ? this.width : `${fx} ${fy} ${this.width}`;
    const known = kept.get(key);
    if (known) return known;
    const ox = Math.floor(fx + stamp.minX);
    const oy = Math.floor(fy + stamp.minY);
    const tw = Math.ceil(fx + stamp.maxX) - ox;
    const th = Math.ceil(fy + stamp.maxY) - oy;
    const n = stamp.data.length / 4;
    const tileBytes = (tw + 2) * th * 4;
    this.reserve(n * 16 + tileBytes);
    const buffer = this.k.memory.buffer;
    const edges = new Float32Array(buffer, this.scratch, n * 4);
    for (let i = 0; i < n * 4; i += 2) {
      edges[i] = stamp.data[i]! + fx - ox;
      edges[i + 1] = stamp.data[i + 1]! + fy - oy;
    }
    const tile = this.scratch + n * 16;
    new Uint8Array(buffer, tile, tileBytes).fill(0);
    this.k.accumulate(this.scratch, n, tile, tw, th);
    const bits = new Int32Array(buffer, tile, tileBytes / 4);
    const offsets: number[] = [];
    const values: number[] = [];
    bits.forEach((b, i) => {
      if (b === 0) return;
      const row = Math.floor(i / (tw + 2));
      offsets.push((row + oy) * (this.width + 2) + (i - row * (tw + 2)) + ox);
      values.push(i);
    });
    const floats = new Float32Array(buffer, tile, tileBytes / 4);
    const patch = { offsets: Int32Array.from(offsets), values: Float32Array.from(values, (i) => floats[i]!) };
    kept.set(key, patch);
    return patch;
  }

  /** Adds the patches to the accumulation buffer: `at` holds each one's cell count and the cell it counts from. */
  private addPatches(cells: Patch[], at: number[]): void {
    const buffer = this.k.memory.buffer;
    const list = new Int32Array(buffer, this.scratch, 3 * cells.length);
    const ints = new Int32Array(buffer);
    const floats = new Float32Array(buffer);
    let o = (this.scratch + 12 * cells.length + 7) & ~7;
    const written = new Map<Patch, number>();
    cells.forEach((patch, i) => {
      let where = written.get(patch);
      if (where === undefined) {
        where = o;
        written.set(patch, o);
        for (let j = 0; j < patch.offsets.length; j++) {
          ints[(o >> 2) + 2 * j] = patch.offsets[j]!;
          floats[(o >> 2) + 2 * j + 1] = patch.values[j]!;
        }
        o += 8 * patch.offsets.length;
      }
      list[3 * i] = where;
      list[3 * i + 1] = at[2 * i]!;
      list[3 * i + 2] = at[2 * i + 1]!;
    });
    this.k.addPatches(this.acc, this.scratch, cells.length);
  }

  private paint(x0: number, y0: number, x1: number, y1: number, paint: Paint, m: Affine): void {
    const k = this.k;
    if (paint.kind === 'solid') {
      k.fill(
        this.acc,
        this.canvas,
        this.width,
        x0,
        y0,
        x1,
        y1,
        k.PAINT_SOLID.value,
        premultiplied(paint.color),
        0,
        0,
        0,
        0,
      );
      return;
    }
    new Uint32Array(k.memory.buffer, this.lut, LUT_SIZE).set(gradientTable(paint.stops));
    if (paint.kind === 'linear') {
      const [ux0, uy0, ux1, uy1] = linearEnds(paint.box, paint.rotation);
      const [ax, ay] = apply(m, ux0, uy0);
      const [bx, by] = apply(m, ux1, uy1);
      const dx = bx - ax,
        dy = by - ay;
      const len2 = dx * dx + dy * dy || 1;
      k.fill(
        this.acc,
        this.canvas,
        this.width,
        x0,
        y0,
        x1,
        y1,
        k.PAINT_LINEAR.value,
        0,
        this.lut,
        dx / len2,
        dy / len2,
        -(ax * dx + ay * dy) / len2,
      );
    } else {
      const [ucx, ucy, r] = radialCircle(paint.box);
      const [cx, cy] = apply(m, ucx, ucy);
      const scale = Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
      k.fill(
        this.acc,
        this.canvas,
        this.width,
        x0,
        y0,
        x1,
        y1,
        k.PAINT_RADIAL.value,
        0,
        this.lut,
        cx,
        cy,
        1 / (r * scale || 1),
      );
    }
  }

  /** Draws straight-alpha RGBA pixels stretched over a box in canvas pixels. */
  drawImage(image: RgbaRaster, box: { x: number; y: number; w: number; h: number }, opacity: number): void {
    const bytes = image.width * image.height * 4;
    this.reserve(bytes);
    new Uint8Array(this.k.memory.buffer, this.scratch, bytes).set(image.pixels);
    this.k.premultiply(this.scratch, image.width * image.height);
    this.k.drawImage(
      this.scratch,
      image.width,
      image.height,
      this.canvas,
      this.width,
      this.height,
      box.x,
      box.y,
      box.w,
      box.h,
      Math.round(opacity * 255),
    );
  }

  /** The finished canvas as straight RGBA, left in the kernel's memory where it was drawn (kernel.ts, canvasRaster). */
  toRaster(): ResidentRaster {
    if (!this.opaque) this.k.unpremultiply(this.canvas, this.width * this.height, this.under);
    return canvasRaster(this.k, this.canvas, this.width, this.height);
  }
}
