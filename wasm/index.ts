/**
 * Loads every WASM module a render worker uses, once per worker, from the bytes shipped in node_modules:
 * no network, no CDN. Each codec's own loader would otherwise try to fetch its .wasm by URL.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { init as initJpegDecode } from '@jsquash/jpeg/decode.js';
import { init as initPngDecode } from '@jsquash/png/decode.js';
import { init as initWebpDecode } from '@jsquash/webp/decode.js';
import { init as initWebpEncode } from '@jsquash/webp/encode.js';
import { prepareZXingModule, purgeZXingModule } from 'zxing-wasm/reader';
import { exportedMemory, instantiateReporting, Reloadable } from './reloadable.js';

const require = createRequire(import.meta.url);
const bytes = (specifier: string): Uint8Array<ArrayBuffer> => new Uint8Array(readFileSync(require.resolve(specifier)));
const compile = (specifier: string): Promise<WebAssembly.Module> => WebAssembly.compile(bytes(specifier));

/** Memoises an initialiser: the first call starts it, every later call shares its promise. */
const once = <T>(init: () => Promise<T>) => {
  let started: Promise<T> | undefined;
  return (): Promise<T> => (started ??= init());
};

/**
 * A module's memory grown past this is renewed after the render that grew it (see Reloadable): an 800 px
 * render needs a few MB in each, a 4096 px one up to hundreds. Above what every module takes when it
 * starts (zxing: 21 MB).
 */
const RENEW_ABOVE_BYTES = 32 * 1024 * 1024;

type EmscriptenInit = (module: WebAssembly.Module, overrides: object) => Promise<unknown>;

/**
 * A jSquash codec (Emscripten) as a Reloadable: compiled once, instantiated afresh when renewed; its loader
 * keeps the module object to itself, so its memory is seen as it is instantiated.
 */
const jsquashCodec = (compiled: () => Promise<WebAssembly.Module>, init: EmscriptenInit) =>
  new Reloadable(async () => {
    const module = await compiled();
    let memory: WebAssembly.Memory | undefined;
    await init(module, { instantiateWasm: instantiateReporting(module, (m) => (memory = m)) });
    return () => memory?.buffer.byteLength ?? 0;
  }, RENEW_ABOVE_BYTES);

const webpEncoderCode = once(async () => {
  // The webp encoder picks its SIMD or plain build by feature detection; give it the matching bytes.
  const { simd } = await import('wasm-feature-detect');
  return compile(
    (await simd()) ? '@jsquash/webp/codec/enc/webp_enc_simd.wasm' : '@jsquash/webp/codec/enc/webp_enc.wasm',
  );
});

/**
 * Each image codec is instantiated on first use, not at worker start: a worker that never reads a JPEG
 * never holds mozjpeg's memory (about 20–40 MB of WASM heap per codec and worker). JPEGs, and WebPs of
 * up to 256 colours, are written by our kernel. The PNG decoder (wasm-bindgen) can be instantiated only
 * once per thread: it is never renewed.
 */
export const codecs = {
  jpegDecoder: jsquashCodec(
    once(() => compile('@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm')),
    initJpegDecode as EmscriptenInit,
  ),
  webpEncoder: jsquashCodec(webpEncoderCode, initWebpEncode as EmscriptenInit),
  webpDecoder: jsquashCodec(
    once(() => compile('@jsquash/webp/codec/dec/webp_dec.wasm')),
    initWebpDecode as EmscriptenInit,
  ),
  pngDecoder: new Reloadable(async () => {
    const exports = (await initPngDecode(await compile('@jsquash/png/codec/pkg/squoosh_png_bg.wasm'))) as unknown;
    const memory = exportedMemory(exports as WebAssembly.Exports);
    return () => memory.buffer.byteLength;
  }, Number.POSITIVE_INFINITY),
};

/** Every image codec at once: for a process (a test) that makes and reads images with its own helpers. */
export const initCodecs = (): Promise<void> =>
  Promise.all(Object.values(codecs).map((c) => c.ready())).then(() => undefined);

/**
 * One of our own WASM modules, put next to this module in dist/wasm by `npm run build` (the kernel compiled
 * from wasm/assembly/, zbar copied from wasm/zbar/); when this module runs from source (under vitest) it is
 * found in dist all the same.
 */
function builtBytes(name: string): Uint8Array<ArrayBuffer> {
  const built = new URL(`./${name}`, import.meta.url);
  const fromSource = new URL(`../dist/wasm/${name}`, import.meta.url);
  return new Uint8Array(readFileSync(existsSync(built) ? built : fromSource));
}

let kernel: WebAssembly.Module | undefined;

/**
 * The compiled kernel, compiled on first use if initWasm has not done it already: it is small (under
 * 20 KB), and anything that writes a PNG needs it, on any thread.
 */
export function kernelModule(): WebAssembly.Module {
  kernel ??= new WebAssembly.Module(builtBytes('kernel.wasm'));
  return kernel;
}

/**
 * zxing's reader. zxing-wasm's readBarcodes (3.1.4) never deletes the embind vector its results come in,
 * leaking its WASM heap at every read (measured: 9.4 MB per 60 000 reads, never given back); the module's
 * read functions are wrapped here to copy the results out and delete the vector, before readBarcodes sees
 * them. Instantiated anew (purged, then prepared again) when renewed.
 */
export const zxing = new Reloadable(async () => {
  purgeZXingModule();
  const module = (await prepareZXingModule({
    overrides: { wasmBinary: bytes('zxing-wasm/reader/zxing_reader.wasm').buffer },
    fireImmediately: true,
  })) as unknown as ZXingReads;
  for (const read of ['readBarcodesFromImage', 'readBarcodesFromPixmap'] as const) {
    const leaky = module[read].bind(module);
    module[read] = (...args) => ownedResults(leaky(...args));
  }
  return () => module.HEAPU8.buffer.byteLength;
}, RENEW_ABOVE_BYTES);

/** The part of zxing's module the wrapper touches: its two read functions return an embind vector. */
interface EmbindVector<T> {
  size(): number;
  get(i: number): T;
  delete(): void;
}
type ReadFn = (...args: unknown[]) => EmbindVector<{ bytes: Uint8Array }>;
interface ZXingReads {
  HEAPU8: Uint8Array;
  readBarcodesFromImage: ReadFn;
  readBarcodesFromPixmap: ReadFn;
}

/** The vector's results copied out of zxing's heap (their bytes too), the vector deleted. */
function ownedResults<T extends { bytes: Uint8Array }>(vector: EmbindVector<T>): EmbindVector<T> {
  const results: T[] = [];
  try {
    for (let i = 0; i < vector.size(); i++) {
      const r = vector.get(i);
      results.push({ ...r, bytes: r.bytes.slice() });
    }
  } finally {
    vector.delete();
  }
  return { size: () => results.length, get: (i) => results[i]!, delete: () => {} };
}

/** The exports of our zbar build (wasm/zbar/qr-read.c). */
export interface Zbar {
  memory: WebAssembly.Memory;
  malloc(bytes: number): number;
  free(at: number): void;
  /** A block the caller frees: the number of payloads, then each one's length and bytes; 0 on failure. */
  qr_read(grey: number, width: number, height: number, invert: number): number;
}

const zbarCode = once(() => WebAssembly.compile(builtBytes('zbar.wasm')));

/**
 * What zbar asks of its host: the clock (WASI), for a symbol's timestamp, and a call when its memory grows,
 * for hosts that keep views of it (zbar.ts makes its views after each call).
 */
const zbarImports = (memory: () => WebAssembly.Memory): WebAssembly.Imports => ({
  wasi_snapshot_preview1: {
    clock_time_get: (_id: number, _precision: bigint, at: number) => {
      new DataView(memory().buffer).setBigUint64(at, BigInt(Date.now()) * 1_000_000n, true);
      return 0;
    },
  },
  env: { emscripten_notify_memory_growth: () => {} },
});

let zbarNow: Zbar | undefined;

/**
 * zbar, the second decoder family: our build of it (wasm/zbar/README.md), instantiated anew when renewed.
 */
export const zbar = new Reloadable(async () => {
  let exports: (Zbar & { _initialize(): void }) | undefined;
  const instance = await WebAssembly.instantiate(
    await zbarCode(),
    zbarImports(() => exports!.memory),
  );
  exports = instance.exports as unknown as Zbar & { _initialize(): void };
  exports._initialize();
  zbarNow = exports;
  const { memory } = exports;
  return () => memory.buffer.byteLength;
}, RENEW_ABOVE_BYTES);

/** zbar's current instance, instantiated on first use. */
export async function zbarInstance(): Promise<Zbar> {
  await zbar.ready();
  return zbarNow!;
}

/** Every module that can be renewed, by name, as the worker reports its memory. */
export const reloadables = { zxing, zbar, ...codecs };

let ready: Promise<void> | undefined;

/**
 * Idempotent: both decoder families (zxing and zbar) and our kernel, which every render uses, loaded once
 * per worker at start. resvg is not among them: no render draws with it (src/render/resvg.ts).
 */
export function initWasm(): Promise<void> {
  ready ??= Promise.all([Promise.resolve().then(kernelModule), zxing.ready(), zbar.ready()]).then(() => undefined);
  return ready;
}
