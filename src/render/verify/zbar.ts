import { zbarInstance } from '../../../wasm/index.js';

/*
 * The second decoder family: zbar (C, its own finder and line scanner), independent of zxing's lineage, in
 * WebAssembly: our build of it (wasm/zbar/), made for speed. It is handed grey bytes the verifier has
 * already made (read.ts), by zbar's own formula, dark on light.
 */

/** A grey image of one byte per pixel, row by row. */
export interface GreyPixels {
  width: number;
  height: number;
  pixels: Uint8Array;
}

/**
 * The payloads zbar finds in `image`, as bytes; `invert` reads it as 255 − grey (a light-on-dark code,
 * handed to zbar dark on light as scanner apps that read such codes do). Only the QR reader is enabled, in
 * binary mode (the payload's bytes, not zbar's guess at their text encoding), scanning every row and
 * column, by a scanner made for this read (wasm/zbar/qr-read.c says why).
 */
export async function zbarPayloads(image: GreyPixels, invert = false): Promise<Uint8Array[]> {
  const z = await zbarInstance();
  const n = image.width * image.height;
  const grey = z.malloc(n);
  if (grey === 0) throw new Error(`zbar could not allocate a ${image.width}×${image.height} image`);
  try {
    new Uint8Array(z.memory.buffer, grey, n).set(image.pixels.subarray(0, n));
    const found = z.qr_read(grey, image.width, image.height, invert ? 1 : 0);
    if (found === 0) throw new Error('zbar could not scan a grey image');
    try {
      // Views made after the read: the memory may have grown during it, detaching earlier ones.
      const words = new DataView(z.memory.buffer, found);
      const payloads: Uint8Array[] = [];
      for (let i = 0, at = 4; i < words.getUint32(0, true); i++) {
        const length = words.getUint32(at, true);
        payloads.push(new Uint8Array(z.memory.buffer, found + at + 4, length).slice());
        at += 4 + length;
      }
      return payloads;
    } finally {
      z.free(found);
    }
  } finally {
    z.free(grey);
  }
}

/** Whether zbar finds a QR code in `image` whose payload is `expected`, byte for byte (see zbarPayloads). */
export async function zbarReads(image: GreyPixels, expected: Uint8Array, invert = false): Promise<boolean> {
  return (await zbarPayloads(image, invert)).some(
    (p) => p.length === expected.length && p.every((v, i) => v === expected[i]),
  );
}
