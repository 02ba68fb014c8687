/**
 * Decodes what the service returned, independently of the service's own pipeline: zxing-wasm reads PNG
 * and JPEG files with its own image decoder, WebP goes through the jsquash decoder, SVG through resvg,
 * PDF through a small reader of the page's content stream (test/helpers/pdf-to-svg.ts), and EPS through
 * Ghostscript. The second family, zbar, is handed the same pixels (PNG and JPEG through the jsquash decoders).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-wasm';
import decodeJpeg, { init as initJpegDecode } from '@jsquash/jpeg/decode.js';
import decodePng, { init as initPngDecode } from '@jsquash/png/decode.js';
import decodeWebp, { init as initWebpDecode } from '@jsquash/webp/decode.js';
import { scanRGBABuffer, ZBarConfigType, ZBarScanner, ZBarSymbolType } from '@undecaf/zbar-wasm';
import { prepareZXingModule, type ReaderOptions, readBarcodes, type ReadResult } from 'zxing-wasm/reader';
import { loadResvg } from '../../src/render/resvg.js';
import { pdfToSvg } from './pdf-to-svg.js';

const require = createRequire(import.meta.url);
const bytesOf = (spec: string) => new Uint8Array(readFileSync(require.resolve(spec)));

// svgToImage draws at once, whenever a test calls it: resvg is loaded with this module.
await loadResvg();

let ready: Promise<void> | undefined;
function init(): Promise<void> {
  ready ??= (async () => {
    await prepareZXingModule({
      overrides: { wasmBinary: bytesOf('zxing-wasm/reader/zxing_reader.wasm').buffer },
      fireImmediately: true,
    });
    await initWebpDecode(await WebAssembly.compile(bytesOf('@jsquash/webp/codec/dec/webp_dec.wasm')));
    await initPngDecode(await WebAssembly.compile(bytesOf('@jsquash/png/codec/pkg/squoosh_png_bg.wasm')));
    await initJpegDecode(await WebAssembly.compile(bytesOf('@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm')));
  })();
  return ready;
}

const OPTIONS: ReaderOptions = { formats: ['QRCode'], tryHarder: true };

/**
 * An EPS (or a PDF) as Ghostscript draws it, a PNG at `dpi` (96: one pixel of the render per pixel), cropped to the
 * bounding box: anti-aliased as a viewer draws it, or (`samples`) unsmoothed with the pixel-centre fill
 * rule, for averaging several samples a pixel. Debian's ghostscript, which .ci/run installs.
 */
export const ghostscriptPng = (eps: Uint8Array, dpi = 96, as: 'viewer' | 'samples' = 'viewer'): Uint8Array =>
  new Uint8Array(
    execFileSync(
      'gs',
      [
        '-q',
        '-dSAFER',
        '-dBATCH',
        '-dNOPAUSE',
        '-dEPSCrop',
        '-sDEVICE=png16m',
        `-r${dpi}`,
        '-sOutputFile=-',
        ...(as === 'viewer' ? ['-dGraphicsAlphaBits=4'] : ['-c', '0 0 .setfilladjust2']),
        '-f',
        '-',
      ],
      { input: eps, maxBuffer: 512 * 1024 * 1024 },
    ),
  );

export function svgToImage(svg: string, width?: number): ImageData {
  const r = new Resvg(svg, {
    fitTo: width ? { mode: 'width', value: width } : { mode: 'original' },
    font: { loadSystemFonts: false },
  });
  const img = r.render();
  const out = {
    data: new Uint8ClampedArray(img.pixels),
    width: img.width,
    height: img.height,
    colorSpace: 'srgb',
  } as ImageData;
  img.free();
  r.free();
  return out;
}

/** Every QR code found in a file of the given format. */
export async function decodeFile(format: string, file: Uint8Array): Promise<ReadResult[]> {
  await init();
  switch (format) {
    case 'png':
    case 'jpg':
      return readBarcodes(file, OPTIONS);
    case 'webp':
      return readBarcodes(await decodeWebp(file.slice().buffer), OPTIONS);
    case 'svg':
      return readBarcodes(svgToImage(new TextDecoder().decode(file)), OPTIONS);
    case 'pdf':
      return readBarcodes(svgToImage(await pdfToSvg(file)), OPTIONS);
    case 'eps':
      return readBarcodes(ghostscriptPng(file), OPTIONS);
    default:
      throw new Error(`no decoder for ${format}`);
  }
}

/** Decodes one QR code and returns its payload bytes and text. */
export async function decodeOne(
  format: string,
  file: Uint8Array,
): Promise<{ text: string; bytes: Uint8Array; result: ReadResult }> {
  const results = (await decodeFile(format, file)).filter((r) => r.isValid);
  if (results.length !== 1) throw new Error(`expected one QR code in the ${format}, found ${results.length}`);
  return { text: results[0]!.text, bytes: results[0]!.bytes, result: results[0]! };
}

/** The pixels of a file of the given format, as a viewer shows them. */
export async function fileToImage(format: string, file: Uint8Array): Promise<ImageData> {
  await init();
  switch (format) {
    case 'png':
      return decodePng(file.slice().buffer);
    case 'jpg':
      return decodeJpeg(file.slice().buffer);
    case 'webp':
      return decodeWebp(file.slice().buffer);
    case 'svg':
      return svgToImage(new TextDecoder().decode(file));
    case 'pdf':
      return svgToImage(await pdfToSvg(file));
    case 'eps':
      return decodePng(ghostscriptPng(file).slice().buffer);
    default:
      throw new Error(`no decoder for ${format}`);
  }
}

/** The payloads zbar finds in an RGBA image, read by a scanner of its own. */
async function zbarPayloads(rgba: Uint8ClampedArray, width: number, height: number): Promise<Uint8Array[]> {
  const scanner = await ZBarScanner.create();
  try {
    scanner.setConfig(ZBarSymbolType.ZBAR_NONE, ZBarConfigType.ZBAR_CFG_BINARY, 1);
    const symbols = await scanRGBABuffer(rgba.slice().buffer as ArrayBuffer, width, height, scanner);
    return symbols.filter((s) => s.typeName === 'ZBAR_QRCODE').map((s) => new Uint8Array(s.data.buffer));
  } finally {
    scanner.destroy();
  }
}

/**
 * The payloads zbar (the second decoder family, not zxing's lineage) finds in a file, as bytes: read at the
 * file's own size, every row and column, as it is and, when that finds nothing, with every colour inverted
 * (a light-on-dark code, as scanner apps that read those invert the frame). Each read has a scanner of its
 * own: zbar's QR reader carries a random-number generator from one scan to the next, so a shared scanner
 * would make one file's reading depend on the files read before; for the same reason zbar's own
 * inverted retry (ZBAR_CFG_TEST_INVERTED, a second pass in the same scanner) is not used: it missed 4 of
 * the corpus's light-on-dark codes that a fresh scanner reads inverted, whichever grey formula is used.
 */
export async function decodeWithZbar(format: string, file: Uint8Array): Promise<Uint8Array[]> {
  const { data, width, height } = await fileToImage(format, file);
  const found = await zbarPayloads(data, width, height);
  if (found.length > 0) return found;
  const inverted = data.map((v, i) => (i % 4 === 3 ? v : 255 - v));
  return zbarPayloads(inverted, width, height);
}
