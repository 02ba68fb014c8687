import { getInstance, ZBarConfigType, ZBarSymbol, ZBarSymbolType } from '@undecaf/zbar-wasm';

/*
 * The second decoder family: zbar (C, its own finder and line scanner), independent of zxing's lineage, in
 * WebAssembly. It is handed grey bytes the verifier has already made (read.ts), by zbar's own formula, dark on
 * light.
 */

/** zbar's four-character code for an image of one grey byte per pixel. */
const Y800 = 0x30303859;

/** A grey image of one byte per pixel, row by row. */
export interface GreyPixels {
  width: number;
  height: number;
  pixels: Uint8Array;
}

const sameBytes = (a: Int8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => (v & 0xff) === b[i]);

/**
 * Whether zbar finds a QR code in `image` whose payload is `expected`, byte for byte; `invert` reads it as
 * 255 − grey (a light-on-dark code, handed to zbar dark on light as scanner apps that read such codes do).
 * Only the QR reader is enabled, in binary mode (the payload's bytes, not zbar's guess at their text
 * encoding), scanning every row and column.
 *
 * Each read has a scanner of its own: zbar's QR reader draws on a random-number generator seeded when the
 * scanner is made, so a scanner kept across reads would make a verdict depend on what the worker read
 * before (measured: marginal codes change verdicts), and the same request must get the same answer.
 * Making one costs microseconds; the scan itself, milliseconds.
 */
export async function zbarReads(image: GreyPixels, expected: Uint8Array, invert = false): Promise<boolean> {
  const z = await getInstance();
  const scanner = z._ImageScanner_create();
  try {
    z._ImageScanner_set_config(scanner, ZBarSymbolType.ZBAR_NONE, ZBarConfigType.ZBAR_CFG_ENABLE, 0);
    z._ImageScanner_set_config(scanner, ZBarSymbolType.ZBAR_QRCODE, ZBarConfigType.ZBAR_CFG_ENABLE, 1);
    z._ImageScanner_set_config(scanner, ZBarSymbolType.ZBAR_NONE, ZBarConfigType.ZBAR_CFG_BINARY, 1);
    const n = image.width * image.height;
    const data = z._malloc(n);
    if (data === 0) throw new Error(`zbar could not allocate a ${image.width}×${image.height} image`);
    z.HEAPU8.set(image.pixels.subarray(0, n), data);
    if (invert) invertInPlace(z.HEAPU8, data, n);
    // The image owns `data` from here: zbar frees it with the image.
    const img = z._Image_create(image.width, image.height, Y800, data, n, 0);
    try {
      const found = z._ImageScanner_scan(scanner, img);
      if (found < 0) throw new Error('zbar could not scan a grey image');
      return (
        found > 0 &&
        ZBarSymbol.createSymbolsFromPtr(z._Image_get_symbols(img), z.HEAPU8.buffer as ArrayBuffer).some((s) =>
          sameBytes(s.data, expected),
        )
      );
    } finally {
      z._Image_destory(img);
    }
  } finally {
    z._ImageScanner_destory(scanner);
  }
}

/** 255 − v for `n` bytes at `at`, four at a time (malloc's blocks are 8-byte aligned). */
function invertInPlace(heap: Uint8Array, at: number, n: number): void {
  const words = new Uint32Array(heap.buffer, at, n >> 2);
  for (let i = 0; i < words.length; i++) words[i] = ~words[i]!;
  for (let i = at + (n & ~3); i < at + n; i++) heap[i] = 255 - heap[i]!;
}
