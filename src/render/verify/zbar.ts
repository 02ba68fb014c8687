import { type Zbar, zbarInstance } from '../../../wasm/index.js';

/*
 * The second decoder family: zbar (C, its own finder and line scanner), independent of zxing's lineage, in
 * WebAssembly: our build of it (wasm/zbar/), made for speed. It is handed grey bytes the verifier has
 * already made (read.ts), by zbar's own formula, dark on light: at full size, copied into its memory.
 */

/** A grey image of one byte per pixel, row by row. */
export interface GreyPixels {
  width: number;
  height: number;
  pixels: Uint8Array;
}

/**
 * A grey image in zbar's own memory, room for `width` × `height` bytes: the verifier's pass copies zbar's grey
 * into it from the kernel's memory (read.ts, scan; the two are separate WebAssembly memories), one copy fewer
 * than handing zbar an array of its own; `free` it once read.
 */
export class ZbarImage implements GreyPixels {
  private constructor(
    private readonly z: Zbar,
    private readonly at: number,
    readonly width: number,
    readonly height: number,
  ) {}

  static async alloc(width: number, height: number): Promise<ZbarImage> {
    const z = await zbarInstance();
    const at = z.malloc(width * height);
    if (at === 0) throw new Error(`zbar could not allocate a ${width}×${height} image`);
    return new ZbarImage(z, at, width, height);
  }

  /** The image's bytes, a view valid until zbar next runs (its memory may grow then). */
  get pixels(): Uint8Array {
    return new Uint8Array(this.z.memory.buffer, this.at, this.width * this.height);
  }

  /**
   * The payloads zbar finds in the image, as bytes; `invert` reads it as 255 − grey (a light-on-dark code,
   * handed to zbar dark on light as scanner apps that read such codes do), rewriting it so. Only the QR reader
   * is enabled, in binary mode (the payload's bytes, not zbar's guess at their text encoding), scanning every
   * row and column, by a scanner made for this read (wasm/zbar/qr-read.c says why).
   */
  payloads(invert = false): Uint8Array[] {
    const { z } = this;
    const found = z.qr_read(this.at, this.width, this.height, invert ? 1 : 0);
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
  }

  free(): void {
    this.z.free(this.at);
  }
}

/** The payloads zbar finds in `image` (ZbarImage.payloads), copied into zbar's memory for the read. */
export async function zbarPayloads(image: GreyPixels, invert = false): Promise<Uint8Array[]> {
  if (image instanceof ZbarImage) return image.payloads(invert);
  const held = await ZbarImage.alloc(image.width, image.height);
  try {
    held.pixels.set(image.pixels.subarray(0, image.width * image.height));
    return held.payloads(invert);
  } finally {
    held.free();
  }
}

/** Whether zbar finds a QR code in `image` whose payload is `expected`, byte for byte (see zbarPayloads). */
export async function zbarReads(image: GreyPixels, expected: Uint8Array, invert = false): Promise<boolean> {
  return (await zbarPayloads(image, invert)).some(
    (p) => p.length === expected.length && p.every((v, i) => v === expected[i]),
  );
}
