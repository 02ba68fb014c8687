/**
 * zbar as the verifier read it before our build (wasm/zbar/): @undecaf/zbar-wasm 0.11 (zbar 0.23.90, built
 * for size), with the same calls, kept to measure the two in the same run (bench/zbar.bench.ts) and as the
 * oracle our build's verdicts are tested against (test/render/verify-zbar-build.test.ts).
 */
import { getInstance, ZBarConfigType, ZBarSymbol, ZBarSymbolType } from '@undecaf/zbar-wasm';
import type { GreyPixels } from '../src/render/verify/zbar.js';

/** zbar's four-character code for an image of one grey byte per pixel. */
const Y800 = 0x30303859;

/** The payloads @undecaf/zbar-wasm finds in `image` (255 − grey when `invert`), by a scanner of its own. */
export async function packageZbarPayloads(image: GreyPixels, invert = false): Promise<Uint8Array[]> {
  const z = await getInstance();
  const scanner = z._ImageScanner_create();
  try {
    z._ImageScanner_set_config(scanner, ZBarSymbolType.ZBAR_NONE, ZBarConfigType.ZBAR_CFG_ENABLE, 0);
    z._ImageScanner_set_config(scanner, ZBarSymbolType.ZBAR_QRCODE, ZBarConfigType.ZBAR_CFG_ENABLE, 1);
    z._ImageScanner_set_config(scanner, ZBarSymbolType.ZBAR_NONE, ZBarConfigType.ZBAR_CFG_BINARY, 1);
    const n = image.width * image.height;
    const data = z._malloc(n);
    z.HEAPU8.set(image.pixels.subarray(0, n), data);
    if (invert) for (let i = data; i < data + n; i++) z.HEAPU8[i] = 255 - z.HEAPU8[i]!;
    // The image owns `data` from here: zbar frees it with the image.
    const img = z._Image_create(image.width, image.height, Y800, data, n, 0);
    try {
      if (z._ImageScanner_scan(scanner, img) < 0) throw new Error('zbar could not scan a grey image');
      return ZBarSymbol.createSymbolsFromPtr(z._Image_get_symbols(img), z.HEAPU8.buffer as ArrayBuffer).map(
        (s) => new Uint8Array(s.data.buffer),
      );
    } finally {
      z._Image_destory(img);
    }
  } finally {
    z._ImageScanner_destory(scanner);
  }
}
