/**
 * `npm run bench:memory`: what a render worker holds, by part, after each kind of render (issue 16, item 3):
 * as the render leaves it, which is what a worker kept before the end-of-task step, and after that step
 * (src/render/worker-memory.ts: modules grown past 32 MB renewed, a full collection when much garbage is
 * left outside the heap). Run in this process as a worker runs them, one case after another. Then the
 * zxing-wasm leak: zxing's heap after BENCH_READS reads (60 000) through the library's readBarcodes as
 * shipped, then through the wrapped module (wasm/index.ts): the same image, the same options.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { prepareZXingModule, purgeZXingModule, readBarcodes } from 'zxing-wasm/reader';
import type { RenderConfig } from '../src/model/render-config.js';
import { render } from '../src/render/guarantee.js';
import { kernelMemoryBytes } from '../src/render/kernel.js';
import { designScene } from '../src/render/pipeline.js';
import { rasterizeScene } from '../src/render/raster.js';
import { FAST } from '../src/render/verify/plan.js';
import { scan } from '../src/render/verify/read.js';
import { afterTask } from '../src/render/worker-memory.js';
import { prepareRender } from '../src/schema/prepare-render.js';
import { initWasm, reloadables, zxing } from '../wasm/index.js';
import { STANDARD_PREFIX, STYLED } from './cases.js';

const READS = Number(process.env.BENCH_READS ?? 60_000);
const MB = 1024 * 1024;
const mb = (n: number) => (n / MB).toFixed(1);

let n = 0;
const renderOnce = async (body: Partial<RenderConfig>) => {
  const { config } = prepareRender({ content: `${STANDARD_PREFIX}${n++}`, ...body }, {});
  const out = await render({ config, assets: {} });
  if (!out.ok) throw new Error(`${out.code}: ${out.message}`);
};

/** The standard request's image reduced by 4 (about 5 px a module), as the verifier hands it to zxing. */
async function standardImage() {
  const { config } = prepareRender({ content: `${STANDARD_PREFIX}0` }, {});
  const raster = rasterizeScene((await designScene({ config, assets: {} })).scene);
  const [reduced] = scan(raster, true, [{ f: 4, invert: false }]).reduced;
  raster.release();
  return reduced!;
}

async function zxingHeapAfterReads(pgm: Uint8Array, heap: () => number): Promise<[number, number]> {
  const first = await readBarcodes(pgm, FAST);
  if (first[0]?.text !== `${STANDARD_PREFIX}0`) throw new Error('zxing did not read the image');
  for (let i = 0; i < 1000; i++) await readBarcodes(pgm, FAST); // the heap's working size
  const before = heap();
  for (let i = 0; i < READS; i++) await readBarcodes(pgm, FAST);
  return [before, heap()];
}

await initWasm();

/** Navy to red: every pixel between modules a colour of its own, so over 256 colours. */
const GRADIENT = {
  type: 'linear',
  rotation: 45,
  stops: ['#1a237e', '#b71c1c'].map((color, offset) => ({ offset, color })),
};
const CASES: [string, Partial<RenderConfig>, number][] = [
  ['200 mixed 800 px renders', {}, 200],
  ['4096 px JPEG', { outputWidth: 4096, fileFormat: 'jpg' }, 1],
  ['4096 px PNG, gradient', { outputWidth: 4096, foregroundGradient: GRADIENT } as Partial<RenderConfig>, 1],
  ['4096 px SVG', { outputWidth: 4096, fileFormat: 'svg' }, 1],
  ['4096 px PDF, styled', { outputWidth: 4096, fileFormat: 'pdf', ...STYLED }, 1],
];
const MIXED: Partial<RenderConfig>[] = [
  {},
  STYLED,
  { fileFormat: 'svg' },
  // More than 256 colours: libwebp's lossy encoder (which fails on such images from 2048 px, on main too).
  { fileFormat: 'webp', foregroundGradient: GRADIENT } as Partial<RenderConfig>,
  { fileFormat: 'pdf' },
  { fileFormat: 'jpg' },
  { fileFormat: 'webp' },
];

const parts = () => {
  const { heapUsed, external } = process.memoryUsage();
  const wasm = Object.entries(reloadables)
    .filter(([, m]) => m.bytes > 0)
    .map(([name, m]) => `${name} ${mb(m.bytes)}`);
  return `heap ${mb(heapUsed)}, external ${mb(external)} (kernel ${mb(kernelMemoryBytes())}, ${wasm.join(', ')})`;
};

console.log('\n| after | as the render left it (MB) | after the end-of-task step (MB) |\n|---|---|---|');
for (const [name, body, count] of CASES) {
  for (let i = 0; i < count; i++) await renderOnce(count > 1 ? { ...body, ...MIXED[i % MIXED.length] } : body);
  const left = parts();
  await afterTask();
  console.log(`| ${name} | ${left} | ${parts()} |`);
}

const image = await standardImage();
// As shipped: a module of zxing-wasm's own, its read functions untouched.
purgeZXingModule();
const wasmBinary = new Uint8Array(
  readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm')),
);
const shipped = await prepareZXingModule({ overrides: { wasmBinary: wasmBinary.buffer }, fireImmediately: true });
const [shippedBefore, shippedAfter] = await zxingHeapAfterReads(
  image.pgm,
  () => (shipped as unknown as { HEAPU8: Uint8Array }).HEAPU8.buffer.byteLength,
);
// Wrapped: the module as the workers load it.
await zxing.renew();
const [wrappedBefore, wrappedAfter] = await zxingHeapAfterReads(image.pgm, () => zxing.bytes);
console.log(
  `zxing heap over ${READS} reads of the standard request's image (MB): as shipped ${mb(shippedBefore)} → ${mb(shippedAfter)}; wrapped ${mb(wrappedBefore)} → ${mb(wrappedAfter)}`,
);

console.log(
  `\nload average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; rss ${mb(process.memoryUsage().rss)} MB`,
);
