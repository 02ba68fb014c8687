import { kernelModule } from '../../wasm/index.js';

/**
 * The exports of our WASM kernel (wasm/assembly/): raster.ts draws, grey.ts reads for the verifier,
 * scanlines.ts and deflate.ts write the PNG.
 */
export interface Kernel {
  memory: WebAssembly.Memory;
  accumulate(edges: number, n: number, acc: number, width: number, height: number): void;
  fill(acc: number, canvas: number, width: number, x0: number, y0: number, x1: number, y1: number, kind: number, color: number, lut: number, a: number, b: number, c: number): void;
  clear(canvas: number, n: number, color: number): void;
  premultiply(pixels: number, n: number): void;
  unpremultiply(pixels: number, n: number): void;
  drawImage(src: number, sw: number, sh: number, canvas: number, width: number, height: number, bx: number, by: number, bw: number, bh: number, opacity: number): void;
  scan(src: number, rgba: boolean, zxing: boolean, table: number, width: number, height: number, grey: number, boxes: number, nBoxes: number): void;
  quietZoneClear(grey: number, width: number, x0: number, y0: number, x1: number, y1: number, sx0: number, sy0: number, sx1: number, sy1: number, mid: number, light: boolean): number;
  blurDim(src: number, w: number, h: number, blurred: boolean, dimmed: boolean, rows: number, out: number): void;
  rgbScanlines(src: number, width: number, height: number, out: number): boolean;
  rgbaScanlines(src: number, width: number, height: number, out: number): void;
  zlibCompress(src: number, n: number, bpp: number, stride: number, work: number, out: number): number;
  deflateBound(n: number): number;
  DEFLATE_WORK_BYTES: WebAssembly.Global;
  BOX_BYTES: WebAssembly.Global;
  BOX_MAX_FACTOR: WebAssembly.Global;
  PAINT_SOLID: WebAssembly.Global;
  PAINT_LINEAR: WebAssembly.Global;
  PAINT_RADIAL: WebAssembly.Global;
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

let shared: Kernel | undefined;

const instantiate = (): Kernel => new WebAssembly.Instance(kernelModule(), {}).exports as unknown as Kernel;

/** Grows the kernel's memory to hold `end` bytes. Growing detaches earlier views of it: make them after. */
export function reserve(k: Kernel, end: number): void {
  const have = k.memory.buffer.byteLength;
  if (have < end) k.memory.grow(Math.ceil((end - have) / PAGE));
}

/**
 * The kernel, with memory for `bytes` past KERNEL_BASE: the worker's shared instance, or for a large job
 * one of its own. Its memory belongs to the caller only until the caller yields (no await in between):
 * every user lays its buffers out from KERNEL_BASE.
 */
export function kernelFor(bytes: number): Kernel {
  const k = bytes > SHARED_BYTES ? instantiate() : (shared ??= instantiate());
  reserve(k, KERNEL_BASE + bytes);
  return k;
}
