import type { EdgeStamp, Edges } from './edges.js';
import {
  canvasRaster,
  KERNEL_BASE,
  kernelForCanvas,
  type Kernel,
  type PaintArgs,
  type ResidentRaster,
  reserve,
} from './kernel.js';
import type { Rgba } from '../model/color.js';
import type { Affine } from '../model/layer.js';
import { type ColorStop, colorAt, linearEnds, radialCircle, type Paint } from '../model/paint.js';
import type { RgbaRaster } from '../model/raster.js';

/** A stamp's accumulated cells (Canvas.patchOf): each one's offset from the cell it is placed at, and its value. */
interface Patch {
  offsets: Int32Array;
  values: Float32Array;
}

/**
 * A stamp's coverage (Canvas.tileOf) on a tile at (x, y) from the pixel the stamp starts in: its runs of
 * one coverage, four i32 each (row, first pixel, last + 1, coverage), as the kernel's paintTiles reads them.
 */
interface Tile {
  x: number;
  y: number;
  runs: Int32Array;
}

/**
 * What `store` keeps for the stamp under `key`, made the first time. A stamp keeps at most KEYS_KEPT: it
 * lives as long as its path data is drawn (flatten.ts, stamps), and canvas widths or starts between pixels
 * that keep changing must not pile up under it.
 */
function kept<T>(
  store: WeakMap<EdgeStamp, Map<number | string, T>>,
  stamp: EdgeStamp,
  key: number | string,
  make: () => T,
): T {
  const byKey = store.get(stamp) ?? store.set(stamp, new Map()).get(stamp)!;
  const known = byKey.get(key);
  if (known) return known;
  if (byKey.size >= KEYS_KEPT) byKey.clear();
  const made = make();
  byKey.set(key, made);
  return made;
}
const KEYS_KEPT = 8;

/** Tiles by stamp, then by where in a pixel the stamp starts; they go with their stamps. */
const tiles = new WeakMap<EdgeStamp, Map<number | string, Tile>>();

/** Patches by stamp, then by where in a pixel the stamp starts and the canvas width; they go with their stamps. */
const patches = new WeakMap<EdgeStamp, Map<number | string, Patch>>();

/**
 * A scene of one opaque colour over another (raster.ts, levelsOf). Its canvas holds a byte per pixel, the
 * pixel's level from background (0) to foreground (255), composited as the RGBA canvas composites the
 * colours: a quarter of the bytes to draw and read, and a raster its writers index as it is.
 */
export interface Levels {
  background: Rgba;
  foreground: Rgba;
}

/** Rounded x / 255, as the kernel divides (wasm/assembly/raster.ts, div255). */
const div255 = (x: number) => (x + 128 + ((x + 128) >> 8)) >> 8;

/**
 * The colour of each level: the foreground at coverage L over the background, as the RGBA canvas blends
 * it channel by channel, so a level raster shows what the RGBA one shows for a single layer (and within a
 * level where layers overlap on an edge pixel).
 */
const levelPalette = ({ background: bg, foreground: fg }: Levels): Rgba[] =>
  Array.from({ length: 256 }, (_, l) => ({
    r: div255(fg.r * l) + div255(bg.r * (255 - l)),
    g: div255(fg.g * l) + div255(bg.g * (255 - l)),
    b: div255(fg.b * l) + div255(bg.b * (255 - l)),
    a: 255,
  }));

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
 * paint, images composited with bilinear sampling, all in premultiplied RGBA as SVG renderers work; or,
 * for a scene of two colours (`levels`), paths alone as levels between them.
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
    private readonly levels?: Levels,
  ) {
    const pixels = width * height * (levels ? 1 : 4);
    const accBytes = (width + 2) * height * 4;
    this.canvas = KERNEL_BASE;
    // The accumulation buffer's f32 cells, and the kernel's v128 loads of them, want it aligned.
    this.acc = this.canvas + ((pixels + 15) & ~15);
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
    if (this.levels) {
      // Level 0 is the background (the levels' own, which `paint` is).
      new Uint8Array(this.k.memory.buffer, this.canvas, this.width * this.height).fill(0);
      this.opaque = true;
      return;
    }
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
    // Room for the edges, or for the patch list, aligned to 8, and every patch's cells (addPatches).
    this.reserve(
      Math.max(edges.count * 16, 12 * cells.length + 8 + 8 * cells.reduce((n, c) => n + c.offsets.length, 0)),
    );
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
    // Most stamps start on whole pixels: those go by the width alone, with no key to build.
    const key = fx === 0 && fy === 0 ? this.width : `${fx} ${fy} ${this.width}`;
    return kept(patches, stamp, key, () => this.makePatch(stamp, fx, fy));
  }

  private makePatch(stamp: EdgeStamp, fx: number, fy: number): Patch {
    const { x: ox, y: oy, width: tw, height: th, acc: tile } = this.stampTile(stamp, fx, fy);
    const tileBytes = (tw + 2) * th * 4;
    const buffer = this.k.memory.buffer;
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
    return { offsets: Int32Array.from(offsets), values: Float32Array.from(values, (i) => floats[i]!) };
  }

  /**
   * The stamp accumulated alone (stampCells) on the smallest tile that holds it when it starts (fx, fy)
   * into a pixel, and where the tile sits from that pixel.
   */
  private stampTile(stamp: EdgeStamp, fx: number, fy: number) {
    const x = Math.floor(fx + stamp.minX);
    const y = Math.floor(fy + stamp.minY);
    const width = Math.ceil(fx + stamp.maxX) - x;
    const height = Math.ceil(fy + stamp.maxY) - y;
    return { x, y, width, height, acc: this.stampCells(stamp, fx - x, fy - y, width, height) };
  }

  /**
   * The stamp's edges moved by (dx, dy) and accumulated alone on a tile of scratch `width` × `height` pixels
   * (accumulate's layout: `width` + 2 cells a row), with room for as many bytes again after it; where it is.
   */
  private stampCells(stamp: EdgeStamp, dx: number, dy: number, width: number, height: number): number {
    const n = stamp.data.length / 4;
    const tileBytes = (width + 2) * height * 4;
    this.reserve(n * 16 + 2 * tileBytes);
    const buffer = this.k.memory.buffer;
    const edges = new Float32Array(buffer, this.scratch, n * 4);
    for (let i = 0; i < n * 4; i += 2) {
      edges[i] = stamp.data[i]! + dx;
      edges[i + 1] = stamp.data[i + 1]! + dy;
    }
    const tile = this.scratch + n * 16;
    new Uint8Array(buffer, tile, tileBytes).fill(0);
    this.k.accumulate(this.scratch, n, tile, width, height);
    return tile;
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

  /** Fills the cells accumulated in [x0, x1) × [y0, y1) with the paint (PaintArgs), clearing them. */
  private paint(x0: number, y0: number, x1: number, y1: number, paint: Paint, m: Affine): void {
    this.k.fill(this.acc, this.canvas, this.width, x0, y0, x1, y1, ...this.paintArgs(paint, m));
  }

  /** What the kernel paints `paint` with (kernel.ts, PaintArgs), its gradient table written to `lut`. */
  private paintArgs(paint: Paint, m: Affine): PaintArgs {
    const k = this.k;
    // A level canvas is painted with its foreground alone (levelsOf).
    if (this.levels) return [k.PAINT_LEVEL.value, 0, 0, 0, 0, 0];
    if (paint.kind === 'solid') return [k.PAINT_SOLID.value, premultiplied(paint.color), 0, 0, 0, 0];
    new Uint32Array(k.memory.buffer, this.lut, LUT_SIZE).set(gradientTable(paint.stops));
    if (paint.kind === 'linear') {
      const [ux0, uy0, ux1, uy1] = linearEnds(paint.box, paint.rotation);
      const [ax, ay] = apply(m, ux0, uy0);
      const [bx, by] = apply(m, ux1, uy1);
      const dx = bx - ax,
        dy = by - ay;
      const len2 = dx * dx + dy * dy || 1;
      return [k.PAINT_LINEAR.value, 0, this.lut, dx / len2, dy / len2, -(ax * dx + ay * dy) / len2];
    }
    const [ucx, ucy, r] = radialCircle(paint.box);
    const [cx, cy] = apply(m, ucx, ucy);
    const scale = Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
    return [k.PAINT_RADIAL.value, 0, this.lut, cx, cy, 1 / (r * scale || 1)];
  }

  /**
   * Paints stamps placed apart (no pixel under two: flatten.ts, placedApart), and nothing else, each from
   * its own coverage: made once per stamp (tileOf) and painted at each place, instead of accumulating every
   * place and walking the whole layer's cells. Every stamp must lie inside the canvas.
   */
  paintApart(edges: Edges, paint: Paint, m: Affine): void {
    const placed = edges.placed.map((stamp, i) => {
      const dx = edges.moves[2 * i]!;
      const dy = edges.moves[2 * i + 1]!;
      const x = Math.floor(dx);
      const y = Math.floor(dy);
      return { tile: this.tileOf(stamp, dx - x, dy - y), x, y };
    });
    const distinct = [...new Set(placed.map((t) => t.tile))];
    const listBytes = 16 * placed.length;
    this.reserve(listBytes + distinct.reduce((n, t) => n + t.runs.byteLength, 0));
    const words = new Int32Array(this.k.memory.buffer);
    const at = new Map<Tile, number>();
    let o = this.scratch + listBytes;
    for (const t of distinct) {
      words.set(t.runs, o >> 2);
      at.set(t, o);
      o += t.runs.byteLength;
    }
    const list = new Int32Array(this.k.memory.buffer, this.scratch, 4 * placed.length);
    placed.forEach(({ tile, x, y }, i) => {
      list.set([at.get(tile)!, tile.runs.length / 4, x + tile.x, y + tile.y], 4 * i);
    });
    this.k.paintTiles(this.canvas, this.width, this.scratch, placed.length, ...this.paintArgs(paint, m));
  }

  /**
   * A stamp's coverage when its start falls (fx, fy) into a pixel: its edges accumulated alone on a tile of
   * scratch, each pixel's coverage as fill would find it there, and where the tile sits from the pixel the
   * stamp starts in.
   */
  private tileOf(stamp: EdgeStamp, fx: number, fy: number): Tile {
    return kept(tiles, stamp, fx === 0 && fy === 0 ? 0 : `${fx} ${fy}`, () => this.makeTile(stamp, fx, fy));
  }

  private makeTile(stamp: EdgeStamp, fx: number, fy: number): Tile {
    const { x, y, width, height, acc } = this.stampTile(stamp, fx, fy);
    const out = acc + (width + 2) * height * 4;
    this.k.coverageTile(acc, width, height, out);
    const coverage = new Uint8Array(this.k.memory.buffer, out, width * height);
    const runs: number[] = [];
    for (let row = 0; row < height; row++)
      for (let i = 0, end = 1; i < width; i = end, end = i + 1) {
        const v = coverage[row * width + i]!;
        while (end < width && coverage[row * width + end] === v) end++;
        if (v !== 0) runs.push(row, i, end, v);
      }
    return { x, y, runs: Int32Array.from(runs) };
  }

  /** Draws straight-alpha RGBA pixels stretched over a box in canvas pixels. */
  drawImage(image: RgbaRaster, box: { x: number; y: number; w: number; h: number }, opacity: number): void {
    if (this.levels) throw new Error('a canvas of levels draws paths of its foreground only');
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

  /**
   * The finished canvas as straight RGBA, or as levels indexing their colours, left in the kernel's memory
   * where it was drawn (kernel.ts, canvasRaster).
   */
  toRaster(): ResidentRaster {
    if (this.levels) return canvasRaster(this.k, this.canvas, this.width, this.height, levelPalette(this.levels));
    if (!this.opaque) this.k.unpremultiply(this.canvas, this.width * this.height, this.under);
    return canvasRaster(this.k, this.canvas, this.width, this.height);
  }
}
