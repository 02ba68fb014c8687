/**
 * `npm run bench:stages`: where one whole verified render spends its time, format by format (issue 17).
 * Each round renders every case once stage by stage, timing each stage, and once through `render` (the
 * guarantee, as a request runs it), each with content of its own (the standard 52-character URL with a
 * unique id), so nothing is cached anywhere. Cases alternate within a round, so a busy minute weighs on
 * all of them alike. Medians over the rounds; `BENCH_ROUNDS` sets how many (default 40).
 *
 * The JPEG and WebP cases also run with the encoders issue 17 replaced (bench/previous-encoders.ts), and
 * the SVG and PDF cases as they were before issue 17 (the PDF written by pdf-lib, bench/previous-vector.ts;
 * both checked by resvg drawing the SVG document), as cases of their own in the same rounds: their
 * "stages, summed" row is the whole render as it was.
 *
 * `BENCH_PEER=<another build's dist/>` (main's, say) renders every case of ours once more through that
 * build's `render`, in the same rounds: its "WHOLE … peer build" row and file size sit beside ours.
 *
 * The verify row is `judgeRaster` itself; the rows under it time its steps again, one by one, on the same
 * raster (as judgeRaster runs them: verify/index.ts), to show what the verify row is made of.
 */
import { loadavg } from 'node:os';
import { composite, greyLevel, WHITE } from '../src/model/color.js';
import { weakestContrast } from '../src/model/contrast.js';
import type { Raster } from '../src/model/raster.js';
import type { RenderConfig } from '../src/model/render-config.js';
import type { FileFormat } from '../src/model/vocabulary.js';
import { decodeLossy } from '../src/images/decode.js';
import { encodeJpg } from '../src/render/formats/jpeg.js';
import { sceneToEps } from '../src/render/formats/eps.js';
import { sceneToPdf } from '../src/render/formats/pdf.js';
import { encodePng } from '../src/render/formats/png.js';
import { encodeWebpImage } from '../src/render/formats/webp.js';
import { render } from '../src/render/guarantee.js';
import type { ResidentRaster } from '../src/render/kernel.js';
import { designScene, type Designed, readBack } from '../src/render/pipeline.js';
import { rasterizeFlat, rasterizeScene } from '../src/render/raster.js';
import { loadResvg, rasterizeSvg } from '../src/render/resvg.js';
import { sceneToSvg } from '../src/render/svg.js';
import { judgeRaster } from '../src/render/verify/index.js';
import { decodes, decodesAsDelivered, FAST, planReads, zbarDecodedAt } from '../src/render/verify/plan.js';
import { quietZoneOf } from '../src/render/verify/quiet-zone.js';
import { READ_AS_FILE, scan } from '../src/render/verify/read.js';
import { scanTrials } from '../src/render/verify/score.js';
import { ZbarImage } from '../src/render/verify/zbar.js';
import { QR_DEFAULTS } from '../src/schema/qr-config.js';
import { initCodecs, initWasm } from '../wasm/index.js';
import { CPU, clock, median, STANDARD_PREFIX, STYLED } from './cases.js';
import { previousJpg, previousWebp } from './previous-encoders.js';
import { previousPdf } from './previous-vector.js';

await initWasm();
await initCodecs();
await loadResvg();

type Render = typeof render;
/** Another build's `render`, its kernel and codecs initialised as ours are. */
async function peerRender(dist: string): Promise<Render> {
  const wasm = (await import(`${dist}/wasm/index.js`)) as typeof import('../wasm/index.js');
  // A build from before resvg left the workers loads it in initWasm; beside ours it shares our node_modules,
  // whose resvg refuses a second initialisation: the rest is ready.
  await wasm.initWasm().catch(() => undefined);
  // Builds from before the codecs became Reloadable (wasm/reloadable.ts) export each as its init function.
  const codecs = Object.values(wasm.codecs) as unknown[];
  await Promise.all(codecs.map((c) => (typeof c === 'function' ? c() : (c as { ready(): Promise<void> }).ready())));
  return ((await import(`${dist}/src/render/guarantee.js`)) as { render: Render }).render;
}
const peer = process.env.BENCH_PEER ? await peerRender(process.env.BENCH_PEER) : undefined;

const FORMATS: FileFormat[] = ['png', 'jpg', 'webp', 'svg', 'pdf'];
type Encoder = 'ours' | 'before';
const CASES = (['plain', 'styled'] as const).flatMap((style) => [
  ...FORMATS.map((format) => ({ style, format, encoder: 'ours' as Encoder })),
  ...(['jpg', 'webp', 'svg', 'pdf'] as const).map((format) => ({ style, format, encoder: 'before' as Encoder })),
]);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const utf8 = new TextEncoder();

let id = 10_000;
const configOf = (style: 'plain' | 'styled', format: FileFormat): RenderConfig => ({
  ...QR_DEFAULTS,
  ...(style === 'styled' ? STYLED : {}),
  content: `${STANDARD_PREFIX}${id++}`,
  outputWidth: 800,
  fileFormat: format,
});

type Laps = Record<string, number>;

/**
 * The raster a file is written from, or that checks a vector file, as the pipeline makes it (pipeline.ts,
 * writeFile); before issue 17 a vector file was checked by resvg drawing the SVG document.
 */
function drawn(d: Designed, format: FileFormat, svg: string, encoder: Encoder): Raster | ResidentRaster {
  if (d.scene.flat) return rasterizeFlat(d.grid, d.scene);
  const vector = format === 'svg' || format === 'pdf' || format === 'eps';
  return vector && encoder === 'before' ? rasterizeSvg(svg, d.layout.width) : rasterizeScene(d.scene);
}

async function fileOf(d: Designed, format: FileFormat, r: Raster, svg: string, encoder: Encoder): Promise<Uint8Array> {
  if (encoder === 'before' && format === 'jpg') return previousJpg(r);
  if (encoder === 'before' && format === 'webp') return previousWebp(r, d.scene.flat);
  if (encoder === 'before' && format === 'pdf') return previousPdf(d.scene);
  switch (format) {
    case 'png':
      return encodePng(r);
    case 'jpg':
      return encodeJpg(r);
    case 'webp':
      return encodeWebpImage(r);
    case 'svg':
      return utf8.encode(svg);
    case 'pdf':
      return sceneToPdf(d.scene);
    case 'eps':
      return sceneToEps(d.scene);
  }
}

/** One render, stage by stage. */
async function staged(cfg: RenderConfig, encoder: Encoder): Promise<{ laps: Laps; bytes: number }> {
  const laps: Laps = {};
  let t = clock();
  const lap = (name: string) => {
    const now = clock();
    laps[name] = (laps[name] ?? 0) + now - t;
    t = now;
  };
  const format = cfg.fileFormat;
  const weakest = weakestContrast(cfg);
  const d = await designScene({ config: cfg, assets: {} }, (stage) => lap(`design: ${stage}`));
  const vector = format === 'svg' || format === 'pdf' || format === 'eps';
  const svg = vector ? sceneToSvg(d.scene) : '';
  if (vector) lap('svg document');
  const bytes = format === 'svg' ? utf8.encode(svg) : undefined;
  // A raster format is drawn, then written; a vector one is written, then drawn to check it.
  const r0 = vector ? undefined : drawn(d, format, svg, encoder);
  if (r0) lap('raster (draw)');
  const file = bytes ?? (await fileOf(d, format, r0!, svg, encoder));
  lap(`file: ${format}`);
  const r1 = r0 ?? drawn(d, format, svg, encoder);
  if (!r0) lap('raster (check the vector file)');
  // The previous encoders' files were read back by mozjpeg's and libwebp's decoders, as the pipeline did.
  const lossy = format === 'jpg' || format === 'webp';
  const checked = lossy ? await (encoder === 'before' ? decodeLossy : readBack)(format, file) : r1;
  if (checked !== r1) lap('decode the file again');
  const expected = utf8.encode(cfg.content);
  const input = {
    raster: checked,
    exact: d.scene.flat,
    format,
    layout: d.layout,
    expected,
    foreground: weakest.foreground,
    background: weakest.background,
  };
  const verdict = await judgeRaster(input);
  if (!verdict.verification.decoded) throw new Error(`${format} did not verify: ${verdict.verification.failures}`);
  lap('verify (judgeRaster)');

  // judgeRaster's steps again, one by one (verify/index.ts).
  const bg = composite(weakest.background, WHITE);
  const bgGrey = greyLevel(bg);
  const fgGrey = greyLevel(composite(weakest.foreground, bg));
  const { width, height } = checked;
  const plan = planReads(d.layout, width, height, input.exact, fgGrey > bgGrey);
  t = clock();
  const quiet = input.exact ? undefined : quietZoneOf(d.layout, bgGrey, fgGrey);
  const zbarImage = plan.zbarNative ? await ZbarImage.alloc(width, height) : undefined;
  const { grey, reduced } = scan(checked, READ_AS_FILE[format], plan.boxes, plan.zbarNative, quiet, zbarImage);
  lap('  of which: grey + box filters + quiet zone (one pass)');
  const farOk = await decodes(reduced[0]!, FAST, expected);
  lap('  of which: zxing, reduced image');
  if (!(plan.farProvesNative && farOk)) await decodesAsDelivered(reduced[3] ?? null, grey, width, height, expected);
  lap('  of which: zxing, as delivered (pyramid layer or full size)');
  if (farOk) await scanTrials(reduced[0]!, reduced[1]!, expected);
  lap('  of which: scanScore trials');
  await zbarDecodedAt(reduced[2]!, zbarImage ?? null, fgGrey > bgGrey, expected);
  zbarImage?.free();
  lap('  of which: zbar, reduced image, then at its own size when anti-aliased');
  if ('release' in r1) (r1 as ResidentRaster).release();
  return { laps, bytes: file.byteLength };
}

const samples = new Map<string, Map<string, number[]>>();
const sizes = new Map<string, number>();
const peerSizes = new Map<string, number>();
const push = (name: string, stage: string, ms: number) => {
  const m = samples.get(name) ?? samples.set(name, new Map()).get(name)!;
  (m.get(stage) ?? m.set(stage, []).get(stage)!).push(ms);
};
const nameOf = (c: (typeof CASES)[number]) => `${c.format} ${c.style}${c.encoder === 'before' ? ' (before)' : ''}`;

const load = [loadavg()[0]!];
for (let round = -3; round < ROUNDS; round++) {
  for (const c of CASES) {
    const { laps, bytes } = await staged(configOf(c.style, c.format), c.encoder);
    const wholes: [string, number][] = [];
    const builds = [
      ['', render],
      [', peer build', peer],
    ] as const;
    // The first whole render after the staged one collects its garbage: ours and the peer's take turns.
    for (const [row, whose] of c.encoder === 'ours' ? (round % 2 ? [...builds].reverse() : builds) : []) {
      if (!whose) continue;
      const t = clock();
      const out = await whose({ config: configOf(c.style, c.format), assets: {} });
      wholes.push([row, clock() - t]);
      if (!out.ok || out.corrections.length) throw new Error(`${nameOf(c)} must render as given`);
      if (row) peerSizes.set(nameOf(c), out.bytes.byteLength);
    }
    if (round < 0) continue; // warm-up
    for (const [stage, ms] of Object.entries(laps)) push(nameOf(c), stage, ms);
    push(
      nameOf(c),
      'stages, summed',
      Object.entries(laps).reduce((s, [k, v]) => s + (k.startsWith(' ') ? 0 : v), 0),
    );
    for (const [row, ms] of wholes) push(nameOf(c), `WHOLE verified render (\`render\`${row})`, ms);
    sizes.set(nameOf(c), bytes);
  }
  if (round % 10 === 0) load.push(loadavg()[0]!);
}
load.push(loadavg()[0]!);

const names = CASES.map(nameOf);
const ORDER = [
  'design: encode',
  'design: decorate',
  'design: scene',
  'svg document',
  'raster (draw)',
  'file: png',
  'file: jpg',
  'file: webp',
  'file: svg',
  'file: pdf',
  'raster (check the vector file)',
  'decode the file again',
  'verify (judgeRaster)',
];
const stages = [...new Set(names.flatMap((n) => [...samples.get(n)!.keys()]))];
const rank = (s: string) => {
  if (s === 'stages, summed') return 100;
  if (s.startsWith('WHOLE')) return 101;
  if (s.startsWith(' ')) return 50 + stages.indexOf(s) / 100;
  return ORDER.indexOf(s);
};
stages.sort((a, b) => rank(a) - rank(b));
console.log(`| stage (median ${CPU ? 'CPU' : 'wall-clock'} ms over ${ROUNDS} rounds) | ${names.join(' | ')} |`);
console.log(`| --- | ${names.map(() => '---:').join(' | ')} |`);
for (const s of stages)
  console.log(
    `| ${s} | ${names
      .map((n) => {
        const v = samples.get(n)!.get(s);
        return v ? median(v).toFixed(2) : '';
      })
      .join(' | ')} |`,
  );
console.log(`| file size (bytes) | ${names.map((n) => sizes.get(n)).join(' | ')} |`);
if (peer) console.log(`| file size, peer build (bytes) | ${names.map((n) => peerSizes.get(n) ?? '').join(' | ')} |`);
console.log(`load average (1 min) during the run: ${load.map((l) => l.toFixed(2)).join(', ')}`);
