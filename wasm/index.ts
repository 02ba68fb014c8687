/**
 * Loads every WASM module a render worker uses, once per worker, from the bytes shipped in node_modules:
 * no network, no CDN. Each codec's own loader would otherwise try to fetch its .wasm by URL.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { initWasm as initResvg } from '@resvg/resvg-wasm';
import { init as initJpegDecode } from '@jsquash/jpeg/decode.js';
import { init as initPngDecode } from '@jsquash/png/decode.js';
import { init as initWebpDecode } from '@jsquash/webp/decode.js';
import { init as initWebpEncode } from '@jsquash/webp/encode.js';
import { getInstance as loadZbar } from '@undecaf/zbar-wasm';
import { prepareZXingModule } from 'zxing-wasm/reader';

const require = createRequire(import.meta.url);
const bytes = (specifier: string): Uint8Array<ArrayBuffer> => new Uint8Array(readFileSync(require.resolve(specifier)));
const compile = (specifier: string): Promise<WebAssembly.Module> => WebAssembly.compile(bytes(specifier));

/** Memoises an initialiser: the first call starts it, every later call shares its promise. */
const once = (init: () => Promise<unknown>) => {
  let started: Promise<void> | undefined;
  return (): Promise<void> => (started ??= init().then(() => undefined));
};

/**
 * Each image codec is instantiated on first use, not at worker start: a worker that never reads a JPEG
 * never holds mozjpeg's memory (about 20–40 MB of WASM heap per codec and worker). JPEGs, and WebPs of
 * up to 256 colours, are written by our kernel.
 */
export const codecs = {
  jpegDecoder: once(() => compile('@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm').then((m) => initJpegDecode(m))),
  webpEncoder: once(async () => {
    // The webp encoder picks its SIMD or plain build by feature detection; give it the matching bytes.
    const { simd } = await import('wasm-feature-detect');
    const module = await compile(
      (await simd()) ? '@jsquash/webp/codec/enc/webp_enc_simd.wasm' : '@jsquash/webp/codec/enc/webp_enc.wasm',
    );
    await initWebpEncode(module);
  }),
  webpDecoder: once(() => compile('@jsquash/webp/codec/dec/webp_dec.wasm').then((m) => initWebpDecode(m))),
  pngDecoder: once(() => compile('@jsquash/png/codec/pkg/squoosh_png_bg.wasm').then((m) => initPngDecode(m))),
};

/** Every image codec at once: for a process (a test) that makes and reads images with its own helpers. */
export const initCodecs = (): Promise<void> =>
  Promise.all(Object.values(codecs).map((init) => init())).then(() => undefined);

/**
 * Our own kernel (wasm/assembly/), compiled by `npm run build` next to this module in dist/wasm; when this
 * module runs from source (under vitest) it is found in dist all the same.
 */
function kernelBytes(): Uint8Array<ArrayBuffer> {
  const built = new URL('./kernel.wasm', import.meta.url);
  const fromSource = new URL('../dist/wasm/kernel.wasm', import.meta.url);
  return new Uint8Array(readFileSync(existsSync(built) ? built : fromSource));
}

let kernel: WebAssembly.Module | undefined;

/**
 * The compiled kernel, compiled on first use if initWasm has not done it already: it is small (under
 * 20 KB), and anything that writes a PNG needs it, on any thread.
 */
export function kernelModule(): WebAssembly.Module {
  kernel ??= new WebAssembly.Module(kernelBytes());
  return kernel;
}

let ready: Promise<void> | undefined;

/**
 * Idempotent: resvg, both decoder families (zxing and zbar) and our kernel, which every render uses, loaded
 * once per worker at start. zbar's Node build reads its .wasm from its own package directory.
 */
export function initWasm(): Promise<void> {
  ready ??= Promise.all([
    Promise.resolve().then(kernelModule),
    initResvg(bytes('@resvg/resvg-wasm/index_bg.wasm')),
    prepareZXingModule({
      overrides: { wasmBinary: bytes('zxing-wasm/reader/zxing_reader.wasm').buffer },
      fireImmediately: true,
    }),
    loadZbar(),
  ]).then(() => undefined);
  return ready;
}
