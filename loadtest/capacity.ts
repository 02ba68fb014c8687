/**
 * `npm run capacity`: what one core of this machine sustains for each request class at a target p99, and
 * how many cores, engines and sites a mix needs at a rate. Starts `npm start`'s process tree (the engine
 * with one render worker, a site process relaying to it) on a fresh data directory, a customer with a key
 * and credits made by the operator CLI, and a loopback LLM speaking OpenAI's wire (Groq's chain) for
 * server AI, so no vendor is called. Each class (every format plain and styled, templates, content
 * helpers straight to the engine; the gateway's relay and server AI through the site) is stepped through
 * closed-loop concurrency until its p99 passes the target; the highest step within it gives the CPU ms a
 * request costs the engine's and the site's processes (from /proc), and one core sustains 1000 over that.
 * Writes capacity.md, capacity.json and capacity.svg (loadtest/capacity-report.ts) into --out.
 *
 *   --quick              two short steps a class: done within 3 minutes
 *   --out DIR            default capacity/ (ignored by git)
 *   --mix FILE           default loadtest/mix.json;  --rate N  requests a second to plan for (default 1000)
 *   --p99 MS             the target p99 (default 250);  --seconds S  a step's length (default 5, quick 1.5)
 *   --utilisation F      share of a core planned busy (default 0.7)
 *   --cores-per-engine N, --cores-per-site N   (default 4 and 2)
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { GATEWAY_RELAY, measureOf, plan, SERVER_AI, type Step } from './capacity-plan.js';
import { type CapacityReport, markdown, writeReport } from './capacity-report.js';
import { checkMix, MIX, type MixRequest, peakRate, RENDER_KINDS, requestOf, templateIds } from './mix.js';
import { type BuildTree, startBuildTree } from './engine.js';
import { processCpuMs } from './proc-cpu.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    out: { type: 'string', default: 'capacity' },
    mix: { type: 'string' },
    rate: { type: 'string', default: '1000' },
    p99: { type: 'string', default: '250' },
    seconds: { type: 'string' },
    utilisation: { type: 'string', default: '0.7' },
    'cores-per-engine': { type: 'string', default: '4' },
    'cores-per-site': { type: 'string', default: '2' },
  },
});
const number = (name: string, value: string | undefined, min: number): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new Error(`--${name} must be a number ≥ ${min}, got "${value}"`);
  return n;
};
const quick = args.quick!;
const targetP99Ms = number('p99', args.p99, 1);
const seconds = number('seconds', args.seconds ?? (quick ? '1.5' : '5'), 0.2);
const warmSeconds = quick ? 0.5 : 2;
const CONCURRENCY = quick ? [1, 4] : [1, 2, 4, 8, 16];
const mix = args.mix === undefined ? MIX : checkMix(JSON.parse(readFileSync(args.mix, 'utf8')), args.mix);
const planOptions = {
  rate: number('rate', args.rate, 0.001),
  utilisation: number('utilisation', args.utilisation, 0.01),
  coresPerEngine: number('cores-per-engine', args['cores-per-engine'], 1),
  coresPerSite: number('cores-per-site', args['cores-per-site'], 1),
};

/** A loopback OpenAI-style vendor answering every chat completion at once with the same design. */
async function loopbackLlm(): Promise<{ url: string; close(): void }> {
  const content = JSON.stringify({
    config: { primaryColor: '#1a237e', backgroundColor: '#fff8e1', moduleShape: 'rounded' },
    explanation: 'Navy on cream.',
  });
  const body = JSON.stringify({
    id: 'chatcmpl-capacity',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => server.close() };
}

/** `npm start`'s process tree with one render worker, and a customer's key with credits for every AI call. */
const startTree = (llmUrl: string): Promise<BuildTree> =>
  startBuildTree(fileURLToPath(new URL('..', import.meta.url)), {
    env: {
      QR_WORKERS: '1',
      QR_LOG_FORMAT: 'text',
      QR_LIMIT_AI: '100000000',
      QR_LLM_GROQ_BASE_URL: llmUrl,
      QR_MANAGED_GROQ_API_KEY: 'gsk_capacity0123456789',
      QR_SERVER_CHAIN: 'groq',
    },
    quickstartArgs: ['--credits', '1000000'],
  });

let serial = 0;
/** Where a class is sent and how its requests are built, each unique. */
function target(kind: string, tree: BuildTree, templates: string[]): { url: string; next: () => MixRequest } {
  const key = { 'x-api-key': tree.key };
  if (kind === GATEWAY_RELAY)
    return {
      url: tree.site,
      next: () => ({ ...requestOf('png plain', serial++, templates, '/api/v1'), headers: key }),
    };
  if (kind === SERVER_AI)
    return {
      url: tree.site,
      next: () => ({
        kind,
        path: '/api/v1/qr/ai/generate/server',
        body: JSON.stringify({ content: `https://example.com/ai?id=${serial++}`, prompt: 'navy on cream, rounded' }),
        headers: key,
      }),
    };
  return { url: tree.engine, next: () => requestOf(kind, serial++, templates) };
}

/** One step: the closed loop's rate and latency, and the CPU each process spent per answered request. */
async function step(tree: BuildTree, url: string, next: () => MixRequest, concurrency: number): Promise<Step> {
  const cpu = () => ({ engine: processCpuMs(tree.process.pid!), site: processCpuMs(tree.sitePid) });
  const before = cpu();
  const tally = await peakRate(url, next, seconds, concurrency);
  const after = cpu();
  const ok = Math.max(1, tally.ok);
  return {
    concurrency,
    seconds,
    ok: tally.ok,
    failed: [...tally.statuses.entries()].filter(([s]) => s !== 200).reduce((n, [, c]) => n + c, 0),
    rate: tally.ok / seconds,
    p50: tally.quantile(0.5),
    p99: tally.quantile(0.99),
    engineCpuMs: (after.engine - before.engine) / ok,
    siteCpuMs: (after.site - before.site) / ok,
  };
}

const llm = await loopbackLlm();
const tree = await startTree(llm.url);
const loadBefore = loadavg();
try {
  const templates = await templateIds(tree.engine);
  // The render worker's and both processes' code warmed up on every class before anything is measured.
  const every = [...RENDER_KINDS, GATEWAY_RELAY, SERVER_AI];
  for (const kind of every) {
    const { url, next } = target(kind, tree, templates);
    await peakRate(url, next, warmSeconds, 2);
  }
  const classes = [];
  for (const kind of every) {
    const { url, next } = target(kind, tree, templates);
    await peakRate(url, next, warmSeconds / 2, 2);
    const steps: Step[] = [];
    for (const concurrency of CONCURRENCY) {
      const s = await step(tree, url, next, concurrency);
      steps.push(s);
      console.log(
        `${kind}, ${concurrency} at once: ${s.rate.toFixed(0)} req/s, p99 ${s.p99} ms, CPU ms engine ${s.engineCpuMs.toFixed(2)} site ${s.siteCpuMs.toFixed(2)}${s.failed ? `, ${s.failed} not 200` : ''}`,
      );
      if (s.p99 > targetP99Ms || s.failed > 0) break;
    }
    classes.push(measureOf(kind, steps, targetP99Ms));
  }
  const report: CapacityReport = {
    measuredAt: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.versions.node,
      loadBefore,
      loadAfter: loadavg(),
    },
    targetP99Ms,
    quick,
    mix,
    classes,
    plan: plan(classes, mix, planOptions),
  };
  const files = writeReport(args.out!, report);
  console.log(`\n${markdown(report)}\nwritten: ${files.join(', ')}`);
} finally {
  llm.close();
  await tree.stop();
}
