import { inflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { initWasm } from '../../wasm/index.js';
import { kernelFor, reserve } from '../../src/render/kernel.js';
import { seededRandom } from '../helpers/seeded-random.js';

beforeAll(initWasm);

/** The kernel's zlib stream of `data` (wasm/assembly/deflate.ts): input, 16 zeroed bytes, work area, output, in that order, as the PNG writer lays them out. */
function compress(data: Uint8Array, bpp = 3, stride = 2401, dirt = 0, ways = 1): Uint8Array {
  const padded = data.length + 16 + ((8 - ((data.length + 16) % 8)) % 8);
  const { k, base: src } = kernelFor(padded);
  const work = src + padded;
  const out = work + k.DEFLATE_WORK_BYTES.value;
  reserve(k, out + k.deflateBound(data.length));
  const memory = new Uint8Array(k.memory.buffer);
  memory.set(data, src);
  memory.fill(0, src + data.length, src + data.length + 16);
  // Whatever an earlier job left in the work area must not change the output.
  memory.fill(dirt, work, out);
  const n = k.zlibCompress(src, data.length, bpp, stride, ways, work, out);
  expect(n).toBeLessThanOrEqual(k.deflateBound(data.length));
  return memory.slice(out, out + n);
}

function adler32(data: Uint8Array): number {
  let a = 1,
    b = 0;
  for (const v of data) {
    a = (a + v) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

const random = (n: number, seed: number, alphabet = 256) => {
  const next = seededRandom(seed);
  return Uint8Array.from({ length: n }, () => Math.floor(next() * alphabet));
};

/** Scanlines of a synthetic image: a diagonal gradient, blocks repeated for their height, a noisy patch. */
function image(width: number, height: number, seed: number): Uint8Array {
  const next = seededRandom(seed);
  const stride = width * 3 + 1;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = y * stride + 1 + x * 3;
      const dark = ((x >> 3) + (y >> 3)) % 3 === 0;
      const g = Math.floor(((x + y) * 255) / (width + height));
      const noisy = x > width / 2 && y > height / 2 && x < width * 0.7 && y < height * 0.7;
      out[o] = noisy ? Math.floor(next() * 256) : dark ? g : 255;
      out[o + 1] = noisy ? Math.floor(next() * 256) : dark ? 40 : 255;
      out[o + 2] = noisy ? Math.floor(next() * 256) : dark ? 255 - g : 255;
    }
  }
  return out;
}

describe("the kernel's deflate", () => {
  const cases: [string, Uint8Array][] = [
    ['nothing', new Uint8Array(0)],
    ['one byte', Uint8Array.of(7)],
    ['two bytes', Uint8Array.of(7, 7)],
    ['a long run (matches capped at 258, one distance)', new Uint8Array(100_000).fill(9)],
    ['random bytes (stored blocks)', random(200_000, 1)],
    ['four symbols (short codes, many blocks of literals and matches)', random(300_000, 2, 4)],
    [
      'text (matches found through the hash table only)',
      new TextEncoder().encode('Scan me to see the menu, the hours and the map. '.repeat(4000)),
    ],
    ["an image's scanlines", image(400, 300, 3)],
    ["an image's scanlines, 16 bytes short of a whole vector at the end", image(401, 7, 4)],
  ];

  it.each(cases)('inflates back to the input, byte for byte, with an independent inflater: %s', (_, data) => {
    for (const ways of [1, 2, 4])
      expect(Buffer.compare(inflateSync(compress(data, 3, 2401, 0, ways)), Buffer.from(data))).toBe(0);
  });

  it('finds with a deeper hash table what repeats further back than the newest occurrence', () => {
    // Four words, each a different sequence of the same eight 4-byte tokens, in random order: where a
    // word starts, the newest occurrence of its first bytes is usually inside another word, and the
    // same word is a few occurrences back, as an anti-aliased dot's edge is a few modules back.
    const next = seededRandom(8);
    const tokens = Array.from({ length: 8 }, () => Uint8Array.from({ length: 4 }, () => Math.floor(next() * 256)));
    const words = Array.from({ length: 4 }, () => Array.from({ length: 16 }, () => tokens[Math.floor(next() * 8)]!));
    const data = new Uint8Array(64 * 2000);
    for (let w = 0; w < 2000; w++) {
      for (const [i, t] of words[Math.floor(next() * 4)]!.entries()) data.set(t, w * 64 + i * 4);
    }
    const one = compress(data, 3, 1000, 0, 1);
    const four = compress(data, 3, 1000, 0, 4);
    expect(Buffer.compare(inflateSync(four), Buffer.from(data))).toBe(0);
    expect(four.length * 4).toBeLessThan(one.length);
    expect(Buffer.from(compress(data, 3, 1000, 0xff, 4)).equals(Buffer.from(four))).toBe(true);
  });

  it('also with other pixel and row sizes, and whatever the work area held before', () => {
    const data = image(256, 64, 5);
    for (const [bpp, stride] of [
      [1, 101],
      [4, 3201],
      [3, 769],
      [2, 32768],
    ]) {
      const z = compress(data, bpp, stride, 0xa5);
      expect(Buffer.compare(inflateSync(z), Buffer.from(data))).toBe(0);
    }
    expect(Buffer.from(compress(data, 3, 769, 0x00)).equals(Buffer.from(compress(data, 3, 769, 0xff)))).toBe(true);
  });

  it('keeps every Huffman code within 15 bits when the frequencies would make a deeper tree', () => {
    // Literal counts along the Fibonacci sequence give an unlimited Huffman tree 25 levels deep.
    const counts = [1, 1];
    while (counts.length < 26) counts.push(counts.at(-1)! + counts.at(-2)!);
    const bytes: number[] = [];
    counts.forEach((c, symbol) => {
      for (let i = 0; i < c; i++) bytes.push(symbol * 7);
    });
    const next = seededRandom(6);
    for (let i = bytes.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [bytes[i], bytes[j]] = [bytes[j]!, bytes[i]!];
    }
    const data = Uint8Array.from(bytes);
    expect(Buffer.compare(inflateSync(compress(data)), Buffer.from(data))).toBe(0);
  });

  it('stores what it cannot compress: 5 bytes over the input per block of 32 K symbols, and the frame', () => {
    const data = random(300_000, 7);
    expect(compress(data).length).toBeLessThanOrEqual(data.length + 5 * Math.ceil(data.length / 32768) + 6);
  });

  it('ends with the Adler-32 of its input, summed 16 bytes at a time in any length', () => {
    for (const n of [0, 1, 15, 16, 17, 5535, 5536, 5537, 11_073, 70_000]) {
      const data = random(n, n, 256);
      const z = compress(data);
      expect(Buffer.from(z).readUInt32BE(z.length - 4)).toBe(adler32(data));
    }
    // All 0xFF: the largest sums, where 32-bit lanes would overflow first.
    const full = new Uint8Array(100_000).fill(255);
    const z = compress(full);
    expect(Buffer.from(z).readUInt32BE(z.length - 4)).toBe(adler32(full));
  });
});
