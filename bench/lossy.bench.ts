/**
 * `npm run bench:lossy`: the JPEG and WebP encode stage of issue 17, ours beside the encoders it
 * replaced (bench/previous-encoders.ts) and beside sharp (libvips with libjpeg-turbo and libwebp, native,
 * one thread), each encoding the same raster at the same quality, in alternation within every round; file
 * sizes beside the times. Cases: the standard request plain (flat, black on white) and styled (rounded
 * modules and eyes, navy on cream), at 800 px. `BENCH_ROUNDS` (default 30), `BENCH_CLOCK=cpu` as in
 * stages.bench.ts. `BENCH_PEER=<another build's dist/>` adds that build's JPEG and WebP writers.
 */
import { loadavg } from 'node:os';
import sharp from 'sharp';
import type { Raster } from '../src/model/raster.js';
import type { RenderConfig } from '../src/model/render-config.js';
import { encodeJpg, JPEG_QUALITY } from '../src/render/formats/jpeg.js';
import { encodeWebpImage } from '../src/render/formats/webp.js';
import { designScene } from '../src/render/pipeline.js';
import { rasterizeFlat, rasterizeScene, toRgba } from '../src/render/raster.js';
import { QR_DEFAULTS } from '../src/schema/qr-config.js';
import { initWasm } from '../wasm/index.js';
import { CPU, clock, median, STANDARD_PREFIX, STYLED } from './cases.js';
import { previousJpg, previousWebp } from './previous-encoders.js';

await initWasm();
sharp.concurrency(1);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);

interface Case {
  raster: Raster;
  flat: boolean;
  /** The raster's RGBA, made before the clock starts: sharp's input. */
  rgba: Uint8ClampedArray;
}

async function caseOf(config: RenderConfig): Promise<Case> {
  const d = await designScene({ config, assets: {} });
  if (d.scene.flat) {
    const raster = rasterizeFlat(d.grid, d.scene);
    return { raster, flat: true, rgba: toRgba(raster) };
  }
  const drawn = rasterizeScene(d.scene);
  const raster: Raster = { kind: 'rgba', width: drawn.width, height: drawn.height, pixels: drawn.pixels.slice() };
  drawn.release();
  return { raster, flat: false, rgba: toRgba(raster) };
}

const base: RenderConfig = { ...QR_DEFAULTS, content: `${STANDARD_PREFIX}12345`, outputWidth: 800 };
const cases = {
  plain: await caseOf(base),
  styled: await caseOf({ ...base, ...STYLED }),
};

/** sharp reading the case's RGBA; flattened onto white for JPEG by libvips itself. */
const raw = ({ raster, rgba }: Case) =>
  sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), {
    raw: { width: raster.width, height: raster.height, channels: 4 },
  });
const WHITE_BG = { background: '#ffffff' };

type Writers = { encodeJpg: typeof encodeJpg; encodeWebpImage: typeof encodeWebpImage };
/** Another build's writers (its kernel instance its own), to run beside ours. */
async function peerWriters(dist: string): Promise<Writers> {
  const jpg = (await import(`${dist}/src/render/formats/jpeg.js`)) as Writers;
  const webp = (await import(`${dist}/src/render/formats/webp.js`)) as Writers;
  return { encodeJpg: jpg.encodeJpg, encodeWebpImage: webp.encodeWebpImage };
}
const peer = process.env.BENCH_PEER ? await peerWriters(process.env.BENCH_PEER) : undefined;

const ENCODERS: Record<string, (c: Case) => Promise<Uint8Array>> = {
  'jpg: ours (baseline, 4:4:4 or grey, luma q90, chroma q85)': async (c) => encodeJpg(c.raster),
  'jpg: before (mozjpeg q90: progressive, trellis; flattened in JS)': (c) => previousJpg(c.raster),
  'jpg: sharp (libjpeg-turbo q90, 4:4:4)': (c) =>
    raw(c).flatten(WHITE_BG).jpeg({ quality: JPEG_QUALITY.luma, chromaSubsampling: '4:4:4' }).toBuffer(),
  'jpg: sharp (libjpeg-turbo q90, its default 4:2:0)': (c) => raw(c).flatten(WHITE_BG).jpeg({ quality: 90 }).toBuffer(),
  'webp: ours (lossless ≤ 256 colours, else libwebp lossy q90)': (c) => encodeWebpImage(c.raster),
  'webp: before (libwebp lossless m2 if flat, else lossy q90 m4)': (c) => previousWebp(c.raster, c.flat),
  ...(peer && {
    'jpg: peer build (BENCH_PEER)': async (c: Case) => peer.encodeJpg(c.raster),
    'webp: peer build (BENCH_PEER)': (c: Case) => peer.encodeWebpImage(c.raster),
  }),
  'webp: sharp (libwebp lossless, effort 0)': (c) => raw(c).webp({ lossless: true, effort: 0 }).toBuffer(),
  'webp: sharp (libwebp lossless, effort 2)': (c) => raw(c).webp({ lossless: true, effort: 2 }).toBuffer(),
  'webp: sharp (libwebp lossy q90, effort 4)': (c) => raw(c).webp({ quality: 90 }).toBuffer(),
};

const times = new Map<string, number[]>();
const sizes = new Map<string, number>();
const load = [loadavg()[0]!];
for (let round = -2; round < ROUNDS; round++) {
  for (const [name, c] of Object.entries(cases))
    for (const [encoder, encode] of Object.entries(ENCODERS)) {
      const t = clock();
      const file = await encode(c);
      const ms = clock() - t;
      if (round < 0) continue;
      const key = `${name}|${encoder}`;
      (times.get(key) ?? times.set(key, []).get(key)!).push(ms);
      sizes.set(key, file.byteLength);
    }
  if (round % 10 === 0) load.push(loadavg()[0]!);
}
load.push(loadavg()[0]!);

console.log(`| encoder (median ${CPU ? 'CPU' : 'wall-clock'} ms over ${ROUNDS} rounds; bytes) | plain | styled |`);
console.log('| --- | ---: | ---: |');
for (const encoder of Object.keys(ENCODERS))
  console.log(
    `| ${encoder} | ${Object.keys(cases)
      .map((name) => `${median(times.get(`${name}|${encoder}`)!).toFixed(2)} ms, ${sizes.get(`${name}|${encoder}`)} B`)
      .join(' | ')} |`,
  );
console.log(`load average (1 min) during the run: ${load.map((l) => l.toFixed(2)).join(', ')}`);
