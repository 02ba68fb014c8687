import { kernelModule } from '../../wasm/index.js';
import type { Rgba } from '../model/color.js';
import type { Raster } from '../model/raster.js';

/**
 * What the kernel paints with (fill, paintTiles): the paint's kind (PAINT_SOLID, PAINT_LINEAR, PAINT_RADIAL,
 * or PAINT_LEVEL on a canvas of levels), a premultiplied solid colour, or a gradient table and where t runs
 * in pixels, linear t = a·x + b·y + c, radial t = |(x, y) − (a, b)| · c.
 */
export type PaintArgs = [kind: number, color: number, lut: number, a: number, b: number, c: number];

/**
 * The exports of our WASM kernel (wasm/assembly/): raster.ts draws, grey.ts reads for the verifier,
 * palette.ts indexes a raster of few colours, scanlines.ts and deflate.ts write the PNG, jpeg.ts the JPEG
 * (jpeg-grey.ts reads its grey back for the verifier), webp.ts the lossless WebP.
 */
export interface Kernel {
  memory: WebAssembly.Memory;
  accumulate(edges: number, n: number, acc: number, width: number, height: number): void;
  addPatches(acc: number, patches: number, n: number): void;
  coverageTile(acc: number, width: number, height: number, out: number): void;
  paintTiles(canvas: number, width: number, tiles: number, n: number, ...paint: PaintArgs): void;
  fill(
    acc: number,
    canvas: number,
    width: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    ...paint: PaintArgs
  ): void;
  clear(canvas: number, n: number, color: number): void;
  premultiply(pixels: number, n: number): void;
  unpremultiply(pixels: number, n: number, under: number): void;
  drawImage(
    src: number,
    sw: number,
    sh: number,
    canvas: number,
    width: number,
    height: number,
    bx: number,
    by: number,
    bw: number,
    bh: number,
    opacity: number,
  ): void;
  scan(
    src: number,
    rgba: boolean,
    formula: number,
    table: number,
    colours: number,
    width: number,
    height: number,
    grey: number,
    boxes: number,
    nBoxes: number,
    zbarTable: number,
    zbarGrey: number,
    zbarStride: number,
  ): void;
  quietZoneClear(
    grey: number,
    width: number,
    x0: number,
    y0: number,
    x1: number,
    y1: number,
    sx0: number,
    sy0: number,
    sx1: number,
    sy1: number,
    mid: number,
    light: boolean,
  ): number;
  blurDim(src: number, w: number, h: number, blurred: boolean, dimmed: boolean, rows: number, out: number): void;
  rgbScanlines(src: number, width: number, height: number, out: number): boolean;
  rgbaScanlines(src: number, width: number, height: number, out: number): void;
  paletteIndex(
    src: number,
    width: number,
    height: number,
    out: number,
    stride: number,
    palette: number,
    table: number,
    probe: number,
  ): number;
  packIndices(lines: number, width: number, height: number, bitDepth: number): void;
  markUsed(src: number, n: number, used: number): void;
  remapIndices(src: number, width: number, height: number, map: number, out: number, stride: number): void;
  zlibCompress(
    src: number,
    n: number,
    bpp: number,
    stride: number,
    hashWays: number,
    work: number,
    out: number,
  ): number;
  deflateBound(n: number): number;
  jpegWorkBytes(width: number, height: number): number;
  jpegAnalyze(
    src: number,
    rgba: boolean,
    palette: number,
    width: number,
    height: number,
    quant: number,
    work: number,
  ): number;
  jpegComponents(): number;
  vp8lWorkBytes(width: number, height: number, colours: number): number;
  vp8lOutputBytes(width: number, height: number, colours: number): number;
  vp8lEncode(
    indices: number,
    width: number,
    height: number,
    palette: number,
    colours: number,
    work: number,
    out: number,
  ): number;
  jpegOutputBytes(bits: number): number;
  jpegWrite(out: number): number;
  jpegHuffman(table: number): number;
  jpegGrey(
    start: number,
    stop: number,
    width: number,
    height: number,
    components: number,
    specs: number,
    work: number,
    out: number,
  ): number;
  JPEG_GREY_QUANT: WebAssembly.Global;
  JPEG_GREY_SELECT: WebAssembly.Global;
  JPEG_GREY_HUFFMAN: WebAssembly.Global;
  JPEG_GREY_HUFFMAN_BYTES: WebAssembly.Global;
  JPEG_GREY_WORK_BYTES: WebAssembly.Global;
  DEFLATE_WORK_BYTES: WebAssembly.Global;
  PALETTE_TABLE_BYTES: WebAssembly.Global;
  BOX_BYTES: WebAssembly.Global;
  BOX_MAX_FACTOR: WebAssembly.Global;
  BOX_INVERT: WebAssembly.Global;
  BOX_ZBAR: WebAssembly.Global;
  GREY_STB: WebAssembly.Global;
  GREY_ZXING: WebAssembly.Global;
  GREY_ZBAR: WebAssembly.Global;
  PAINT_SOLID: WebAssembly.Global;
  PAINT_LINEAR: WebAssembly.Global;
  PAINT_RADIAL: WebAssembly.Global;
  PAINT_LEVEL: WebAssembly.Global;
  LUT_SIZE: WebAssembly.Global;
}

const PAGE = 65536;
/** The kernel keeps no data of its own past its first page: callers lay out their buffers from here. */
export const KERNEL_BASE = PAGE;
/**
 * A job needing more memory than this gets an instance of its own, dropped afterwards, so one 4096 px
 * render does not leave every worker holding 130 MB for the rest of its life (16 MB covers a canvas of
 * about 1400 px).
 */
const SHARED_BYTES = 16 * 1024 * 1024;

/**
 * A raster the kernel drew (rasterizeScene, Canvas.toRaster), RGBA or levels (canvas.ts), which may be left
 * in the kernel's memory (`resident`, below): whoever holds one must call release() once its last reader is
 * done with it. Until then every other job in the worker lays its buffers out after it. release() on a
 * resident raster frees its memory for the next job and empties its pixels (so a late reader fails loudly
 * instead of reading another job's bytes); a raster already copied out of the kernel keeps its pixels.
 */
export type ResidentRaster = Raster & { release(): void };

/** Bytes of a raster's pixels. */
const pixelBytes = (r: Raster) => r.width * r.height * (r.kind === 'rgba' ? 4 : 1);

let shared: Kernel | undefined;
/**
 * The raster whose pixels are a view of the shared instance's memory at KERNEL_BASE: the canvas
 * rasterizeScene drew, left where it was drawn so that the PNG writer and the verifier read it in place
 * instead of copying 2.5 MB (an 800 px canvas) out and twice back in. Every other user of the shared
 * memory lays out after it, until it is released or a new canvas needs the space (then it is copied out).
 */
let resident: ResidentRaster | undefined;

const instantiate = (): Kernel => new WebAssembly.Instance(kernelModule(), {}).exports as unknown as Kernel;
const align16 = (n: number) => (n + 15) & ~15;
const residentBytes = () => (resident ? align16(pixelBytes(resident)) : 0);

/**
 * Grows the kernel's memory to hold `end` bytes. Growing detaches earlier views of it: make them after
 * (the resident raster's view is made anew here).
 */
export function reserve(k: Kernel, end: number): void {
  const have = k.memory.buffer.byteLength;
  if (have >= end) return;
  k.memory.grow(Math.ceil((end - have) / PAGE));
  if (k === shared && resident) resident.pixels = new Uint8Array(k.memory.buffer, KERNEL_BASE, pixelBytes(resident));
}

/** Memory in a kernel for one job, from `base` on: the caller's only until it yields (no await in between). */
export interface Lease {
  k: Kernel;
  base: number;
}

function lease(bytes: number, base: number): Lease {
  if (base - KERNEL_BASE + bytes > SHARED_BYTES) {
    const k = instantiate();
    reserve(k, KERNEL_BASE + bytes);
    return { k, base: KERNEL_BASE };
  }
  shared ??= instantiate();
  const k = shared;
  reserve(k, base + bytes);
  return { k, base };
}

/** Memory for `bytes`: in the worker's shared instance after the resident raster, or for a large job an instance of its own. */
export const kernelFor = (bytes: number): Lease => lease(bytes, KERNEL_BASE + residentBytes());

/** Whether the raster's pixels are in the kernel's memory already, where kernelWith finds them without a copy. */
export const isResident = (r: Raster): boolean => r === resident;

/** Memory for `bytes` with a raster's pixels at `pixels` before it: in place when it is the resident raster, else copied in. */
export function kernelWith(r: Raster, bytes: number): Lease & { pixels: number } {
  if (r === resident && residentBytes() + bytes <= SHARED_BYTES) return { ...kernelFor(bytes), pixels: KERNEL_BASE };
  const size = align16(r.pixels.length);
  const { k, base } = kernelFor(size + bytes);
  new Uint8Array(k.memory.buffer).set(r.pixels, base);
  return { k, base: base + size, pixels: base };
}

/** Memory for a new canvas at KERNEL_BASE; the resident raster, if any, is copied out of its way first. */
export function kernelForCanvas(bytes: number): Kernel {
  if (resident) {
    resident.pixels = resident.pixels.slice();
    resident = undefined;
  }
  return lease(bytes, KERNEL_BASE).k;
}

/**
 * The canvas drawn at `at` as a raster, RGBA or, given a `palette`, levels indexing it: left in place
 * (resident) in the shared instance, copied out of any other.
 */
export function canvasRaster(k: Kernel, at: number, width: number, height: number, palette?: Rgba[]): ResidentRaster {
  const drawn: Raster = palette
    ? { kind: 'indexed', width, height, pixels: new Uint8Array(0), palette, sparse: true }
    : { kind: 'rgba', width, height, pixels: new Uint8Array(0) };
  const pixels = new Uint8Array(k.memory.buffer, at, pixelBytes(drawn));
  const inPlace = k === shared && at === KERNEL_BASE;
  drawn.pixels = inPlace ? pixels : pixels.slice();
  const raster: ResidentRaster = Object.assign(drawn, {
    release(): void {
      if (raster !== resident) return;
      resident = undefined;
      raster.pixels = new Uint8Array(0);
    },
  });
  if (inPlace) resident = raster;
  return raster;
}

/** Bytes of the worker's shared kernel instance (instances for large jobs are dropped after them). */
export const kernelMemoryBytes = (): number => shared?.memory.buffer.byteLength ?? 0;
