/**
 * Loads every WASM module a render worker uses, once per worker, from the bytes shipped in node_modules:
 * no network, no CDN. Each codec's own loader would otherwise try to fetch its .wasm by URL.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { initWasm as initResvg } from '@resvg/resvg-wasm';
import { init as initJpegDecode } from '@jsquash/jpeg/decode.js';
import { init as initJpegEncode } from '@jsquash/jpeg/encode.js';
import { init as initPngDecode } from '@jsquash/png/decode.js';
import { init as initWebpDecode } from '@jsquash/webp/decode.js';
import { init as initWebpEncode } from '@jsquash/webp/encode.js';
import { prepareZXingModule } from 'zxing-wasm/reader';

const require = createRequire(import.meta.url);
const bytes = (specifier: string): Uint8Array<ArrayBuffer> => new Uint8Array(readFileSync(require.resolve(specifier)));
const compile = (specifier: string): Promise<WebAssembly.Module> => WebAssembly.compile(bytes(specifier));

let ready: Promise<void> | undefined;
let codecs: Promise<void> | undefined;

/**
 * The image codecs alone (jsquash JPEG, WebP and PNG), idempotent like initWasm: for a process that sets up
 * resvg and zxing its own way, such as a test that both makes images and decodes them with its own helpers.
 */
export function initCodecs(): Promise<void> {
  codecs ??= (async () => {
    // The webp encoder picks its SIMD or plain build by feature detection; give it the matching bytes.
    const { simd } = await import('wasm-feature-detect');
    const webpEncoder = (await simd()) ? '@jsquash/webp/codec/enc/webp_enc_simd.wasm' : '@jsquash/webp/codec/enc/webp_enc.wasm';
    await Promise.all([
      compile('@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm').then((m) => initJpegEncode(m)),
      compile('@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm').then((m) => initJpegDecode(m)),
      compile(webpEncoder).then((m) => initWebpEncode(m)),
      compile('@jsquash/webp/codec/dec/webp_dec.wasm').then((m) => initWebpDecode(m)),
      compile('@jsquash/png/codec/pkg/squoosh_png_bg.wasm').then((m) => initPngDecode(m)),
    ]);
  })();
  return codecs;
}

/** Idempotent: the first call instantiates everything, later calls share that promise. */
export function initWasm(): Promise<void> {
  ready ??= (async () => {
    await Promise.all([
      initResvg(bytes('@resvg/resvg-wasm/index_bg.wasm')),
      prepareZXingModule({ overrides: { wasmBinary: bytes('zxing-wasm/reader/zxing_reader.wasm').buffer }, fireImmediately: true }),
      initCodecs(),
    ]);
  })();
  return ready;
}
