/**
 * `npm run bench:zbar`: zbar's read of the verifier's grey images, our build (wasm/zbar/) beside
 * @undecaf/zbar-wasm (bench/previous-zbar.ts), taking turns within every round (which goes first alternates
 * by round), so a busy minute weighs on both alike. Cases: the styled export of `npm run bench` (rounded,
 * gradient, logo, ECC H) at its own size, 800 and 2048 px; the issue 17 styled case (navy on cream) at
 * 800 px; and a plain export's 3 px-per-module reduction, all a flat code's zbar read costs. Each read's
 * payloads are compared too: a case whose two readings differ stops the bench. Medians over
 * `BENCH_ROUNDS` (default 40); `BENCH_CLOCK=cpu` as in stages.bench.ts.
 */
import { loadavg } from 'node:os';
import type { RenderConfig } from '../src/model/render-config.js';
import { designScene } from '../src/render/pipeline.js';
import { rasterizeFlat, rasterizeScene } from '../src/render/raster.js';
import { planReads } from '../src/render/verify/plan.js';
import { pixelsOf, scan } from '../src/render/verify/read.js';
import { type GreyPixels, zbarPayloads } from '../src/render/verify/zbar.js';
import { QR_DEFAULTS } from '../src/schema/qr-config.js';
import { initWasm } from '../wasm/index.js';
import { benchLogo, CPU, clock, median, STANDARD_PREFIX, STYLED, STYLED_WITH_LOGO } from './cases.js';
import { packageZbarPayloads } from './previous-zbar.js';

await initWasm();
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const logo = benchLogo();

/** zbar's grey of a design (with the logo, if asked), as the verifier hands it: at its own size, or reduced. */
async function greyOf(
  over: Partial<RenderConfig>,
  width: number,
  withLogo: boolean,
  reduced = false,
): Promise<GreyPixels> {
  const config = { ...QR_DEFAULTS, content: `${STANDARD_PREFIX}12345`, outputWidth: width, ...over } as RenderConfig;
  const { grid, scene, layout } = await designScene({ config, assets: withLogo ? { logo } : {} });
  const raster = scene.flat ? rasterizeFlat(grid, scene) : rasterizeScene(scene);
  const plan = planReads(layout, raster.width, raster.height, scene.flat, false);
  const { zbarGrey, reduced: layers } = scan(raster, true, plan.boxes, true);
  if ('release' in raster) raster.release();
  const far = layers[plan.boxes.findIndex((b) => b.zbar)]!;
  return reduced
    ? { width: far.width, height: far.height, pixels: pixelsOf(far) }
    : { width: raster.width, height: raster.height, pixels: zbarGrey! };
}

const CASES: [string, GreyPixels][] = [
  ['styled (gradient, logo), 800 px, own size', await greyOf(STYLED_WITH_LOGO, 800, true)],
  ['styled (navy on cream), 800 px, own size', await greyOf(STYLED, 800, false)],
  ['styled (gradient, logo), 2048 px, own size', await greyOf(STYLED_WITH_LOGO, 2048, true)],
  ['plain, 800 px, its 3 px reduction', await greyOf({}, 800, false, true)],
];
const READERS = { ours: zbarPayloads, package: packageZbarPayloads };
const laps = new Map(CASES.map(([name]) => [name, { ours: [] as number[], package: [] as number[] }]));
const key = (ps: Uint8Array[]) => JSON.stringify(ps.map((p) => Buffer.from(p).toString('hex')));

const loadBefore = loadavg()[0]!;
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, image] of CASES) {
    const order = round % 2 ? (['package', 'ours'] as const) : (['ours', 'package'] as const);
    const found: Record<string, string> = {};
    for (const reader of order) {
      const t = clock();
      const payloads = await READERS[reader](image);
      laps.get(name)![reader].push(clock() - t);
      found[reader] = key(payloads);
    }
    if (found.ours !== found.package) throw new Error(`${name}: ours read ${found.ours}, the package ${found.package}`);
  }
}
const loadAfter = loadavg()[0]!;

console.table(
  CASES.map(([name, image]) => {
    const { ours, package: pkg } = laps.get(name)!;
    return {
      case: `${name} (${image.width}×${image.height})`,
      'ours ms': median(ours).toFixed(2),
      '@undecaf/zbar-wasm ms': median(pkg).toFixed(2),
      'package / ours': (median(pkg) / median(ours)).toFixed(2),
    };
  }),
);
console.log(
  `${ROUNDS} rounds, ${CPU ? 'CPU time' : 'wall clock'}; load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`,
);
