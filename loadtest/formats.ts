/**
 * `npm run loadtest:formats`: issue 17's table, one request at a time over HTTP (unique content: the
 * standard 50-character URL with a fresh id, 800 px), every format plain and styled (bench/cases.ts), the
 * median and 90th percentile of LOADTEST_SAMPLES (12) answers after 3 warm-ups (the default JSON answer, as
 * a client gets it), with the size of the file it carries.
 * LOADTEST_BASELINE=<another build>/dist starts that build's engine too and sends it the same requests
 * in turn, request by request, so both columns share the same minutes. Then the rate of unique styled
 * PNGs against plain ones with 32 connections, LOADTEST_SECONDS (10) each, twice in turn (issue 17: styled
 * at least 50 % of plain), on this build's engine. Loopback only.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { median, STANDARD_PREFIX, STYLED } from '../bench/cases.js';
import { type Engine, startEngine } from './engine.js';
import { type MixRequest, peakRate } from './mix.js';

const SAMPLES = Number(process.env.LOADTEST_SAMPLES ?? 12);
const SECONDS = Number(process.env.LOADTEST_SECONDS ?? 10);
/** Before each row; and before the first, a round of every row, so no row pays for the JIT's first minutes. */
const WARMUPS = 3;
const FORMATS = ['png', 'jpg', 'webp', 'svg', 'pdf'] as const;
const STYLES = { plain: {}, styled: STYLED } as const;

interface Timed {
  ms: number;
  bytes: number;
}

const engines: { name: string; engine: Engine; pool: Pool }[] = [];
const baseline = process.env.LOADTEST_BASELINE;
for (const [name, main] of [
  ['this build', undefined],
  ...(baseline ? [['baseline', join(baseline, 'src/main.js')] as const] : []),
] as const) {
  const engine = await startEngine({}, main);
  engines.push({ name, engine, pool: new Pool(engine.url, { connections: 1 }) });
}

let id = 0;
async function renderOnce(pool: Pool, body: object): Promise<Timed> {
  const start = performance.now();
  const res = await pool.request({
    path: '/api/qr/generate',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content: STANDARD_PREFIX + id++, ...body }),
  });
  const answer = (await res.body.json()) as { qrBase64?: string };
  const ms = performance.now() - start;
  if (res.statusCode !== 200 || !answer.qrBase64) throw new Error(`${JSON.stringify(body)} answered ${res.statusCode}`);
  return { ms, bytes: Buffer.from(answer.qrBase64, 'base64').byteLength };
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!;

/** Plain or styled PNGs, each with content no earlier request had. */
const pngs =
  (styled: boolean): (() => MixRequest) =>
  () => ({
    kind: styled ? 'png styled' : 'png plain',
    path: '/api/qr/generate',
    body: JSON.stringify({ content: STANDARD_PREFIX + id++, ...(styled ? STYLED : {}) }),
  });

try {
  for (const format of FORMATS)
    for (const design of Object.values(STYLES))
      for (const { pool } of engines)
        for (let i = 0; i < 10; i++) await renderOnce(pool, { fileFormat: format, ...design });
  const rows: Record<string, string | number>[] = [];
  for (const format of FORMATS) {
    for (const [style, design] of Object.entries(STYLES)) {
      const body = { fileFormat: format, ...design };
      const timed = engines.map(() => [] as Timed[]);
      for (let i = 0; i < WARMUPS + SAMPLES; i++) {
        for (const [e, { pool }] of engines.entries()) {
          const t = await renderOnce(pool, body);
          if (i >= WARMUPS) timed[e]!.push(t);
        }
      }
      const row: Record<string, string | number> = { format, style };
      for (const [e, { name }] of engines.entries()) {
        const ms = timed[e]!.map((t) => t.ms);
        row[`${name}: median ms`] = median(ms).toFixed(1);
        row[`${name}: p90 ms`] = quantile(ms, 0.9).toFixed(1);
        row[`${name}: bytes`] = median(timed[e]!.map((t) => t.bytes));
      }
      rows.push(row);
    }
  }
  console.table(rows);
  const url = engines[0]!.engine.url;
  const rates = { plain: [] as number[], styled: [] as number[] };
  for (let round = 0; round < 2; round++) {
    for (const style of ['plain', 'styled'] as const) {
      const tally = await peakRate(url, pngs(style === 'styled'), SECONDS, 32);
      if (tally.ok !== tally.latencies.length || tally.statuses.size !== 1) console.log(style, tally.statusMix());
      rates[style].push(tally.ok / SECONDS);
    }
  }
  const plain = median(rates.plain);
  const styled = median(rates.styled);
  console.log(
    `32 connections, unique PNGs: plain ${plain.toFixed(1)} req/s, styled ${styled.toFixed(1)} req/s: styled/plain ${(styled / plain).toFixed(2)} (target ≥ 0.5)`,
  );
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  for (const { engine, pool } of engines) {
    await pool.close();
    engine.process.kill('SIGTERM');
  }
}
