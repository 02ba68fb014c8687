/**
 * `npm run bench:print`: what the print-ready options cost. The print check (printCheck at 30 cm) alone,
 * for the standard request plain and for the bench's styled case with its logo, at 800 px; and a whole
 * verified 800 px PNG render of the standard request without any print option, this build beside
 * BENCH_PEER=<another build's dist/> when it is set, in turns within every round. `BENCH_ROUNDS` (default
 * 12), `BENCH_CLOCK=cpu` as in stages.bench.ts. In-process, one thread: what one core spends.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { RenderConfig } from '../src/model/render-config.js';
import { renderOnce } from '../src/render/pipeline.js';
import { printCheck } from '../src/render/print-check.js';
import type { RenderTask } from '../src/render/types.js';
import { QR_DEFAULTS } from '../src/schema/qr-config.js';
import { initWasm } from '../wasm/index.js';
import { benchLogo, CPU, clock, median, STANDARD_PREFIX, STYLED_WITH_LOGO } from './cases.js';

await initWasm();
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);

const task = (id: number, design: Partial<RenderConfig>, logo = false): RenderTask => ({
  config: { ...QR_DEFAULTS, content: `${STANDARD_PREFIX}${id}`, outputWidth: 800, ...design } as RenderConfig,
  assets: logo ? { logo: benchLogo() } : {},
});

type Render = (t: RenderTask) => Promise<unknown>;
const renders: [string, Render][] = [['this build', renderOnce]];
if (process.env.BENCH_PEER) {
  await (await import(join(process.env.BENCH_PEER, 'wasm/index.js'))).initWasm();
  renders.push(['BENCH_PEER', (await import(join(process.env.BENCH_PEER, 'src/render/pipeline.js'))).renderOnce]);
}

const times = new Map<string, number[]>();
const time = async (name: string, run: () => Promise<unknown>) => {
  const t = clock();
  await run();
  times.set(name, [...(times.get(name) ?? []), clock() - t]);
};

// A warm-up round, not counted: every module loaded, every WASM instance made.
for (const [, render] of renders) await render(task(0, {}));
await printCheck(task(0, {}), 30);
times.clear();

for (let round = 1; round <= ROUNDS; round++) {
  for (const [name, render] of renders) await time(`plain PNG render: ${name}`, () => render(task(round, {})));
  await time('print check at 30 cm: plain', () => printCheck(task(round, {}), 30));
  await time('print check at 30 cm: styled with logo', () => printCheck(task(round, STYLED_WITH_LOGO, true), 30));
}

console.log(`${ROUNDS} rounds, ${CPU ? 'CPU' : 'wall'} ms, load ${loadavg()[0]!.toFixed(1)}`);
console.table(
  [...times].map(([name, ms]) => ({
    case: name,
    median: median(ms).toFixed(1),
    min: Math.min(...ms).toFixed(1),
    max: Math.max(...ms).toFixed(1),
  })),
);
