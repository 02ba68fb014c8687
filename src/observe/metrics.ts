import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { CounterFamily, HistogramFamily } from './series.js';

/*
 * The service's metrics (issue 29), in the Prometheus text format at GET /metrics. One registry per
 * process: the roles of QR_ROLE=all started in one process (the tests) share it, told apart by the `role`
 * label of the HTTP metrics. Render workers keep no registry: the main thread counts from what each
 * render returns. Every label takes a bounded set of values (route patterns, not paths; error codes;
 * formats), so the series stay few whatever the traffic.
 */
export const registry = new Registry();

/**
 * Whether this process counts (QR_METRICS, on unless `off`). Off, every metric below ignores what it is
 * told and GET /metrics is not served: what the metrics cost is then measured by the same build with and
 * without them (`npm run loadtest:observe`, bench/README.md).
 */
let recording = true;
let defaultsStarted = false;

/**
 * Turns counting on or off for this process (both roles of one process share it). On, it also starts
 * prom-client's default metrics, once: the process's memory, CPU, event-loop delay and GC, named
 * qrfarm_process_… and qrfarm_nodejs_….
 */
export function recordMetrics(on: boolean): void {
  recording = on;
  if (!on || defaultsStarted) return;
  defaultsStarted = true;
  collectDefaultMetrics({ register: registry, prefix: 'qrfarm_' });
}

/** What a metric's series is told while counting is off. */
const IGNORED = { inc() {}, dec() {}, set() {}, observe() {} };

const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** A counter in the registry, with the labels named. */
function counter(name: string, help: string, labelNames: readonly string[]) {
  const family = new CounterFamily(name, help, labelNames, registry);
  return {
    labels: (...values: string[]): { inc(by?: number): void } => (recording ? family.labels(...values) : IGNORED),
    inc: (by?: number): void => {
      if (recording) family.labels().inc(by);
    },
  };
}

/** A histogram in the registry, of seconds unless `buckets` says otherwise. */
function histogram(name: string, help: string, labelNames: readonly string[], buckets = SECONDS_BUCKETS) {
  const family = new HistogramFamily(name, help, labelNames, buckets, registry);
  return {
    labels: (...values: string[]): { observe(value: number): void } => (recording ? family.labels(...values) : IGNORED),
    observe: (value: number): void => {
      if (recording) family.labels().observe(value);
    },
  };
}

/** A gauge in the registry, set by the code that knows its value. */
function gauge<L extends string>(name: string, help: string, labelNames: readonly L[]) {
  const metric = new Gauge<L>({ name, help, labelNames, registers: [registry] });
  return {
    labels: (...values: string[]): Pick<Gauge.Internal<L>, 'inc' | 'dec' | 'set'> =>
      recording ? metric.labels(...values) : IGNORED,
  };
}

export const httpRequests = counter(
  'qrfarm_http_requests_total',
  'HTTP requests answered, by role, route pattern, method and status.',
  ['role', 'route', 'method', 'status'],
);
export const httpDuration = histogram(
  'qrfarm_http_request_duration_seconds',
  'Time from a request to its answer (its handler done), by role, route pattern and method.',
  ['role', 'route', 'method'],
);
/** What the in-flight gauge reads at each scrape: each front end's count, by its role (several in one test process add up). */
const inFlightSources = new Map<{ readonly count: number }, string>();
new Gauge<'role'>({
  name: 'qrfarm_http_requests_in_flight',
  help: 'Requests accepted (their headers read) and not yet answered, by role: what a drain waits for.',
  labelNames: ['role'],
  registers: [registry],
  collect() {
    this.reset();
    for (const [source, role] of inFlightSources) this.inc({ role }, source.count);
  },
});

/** Shows `source`'s count in qrfarm_http_requests_in_flight under `role` until the returned function is called. */
export function watchInFlight(role: string, source: { readonly count: number }): () => void {
  inFlightSources.set(source, role);
  return () => inFlightSources.delete(source);
}
export const renderDuration = histogram(
  'qrfarm_render_duration_seconds',
  'A render in its worker, verification and auto-fix included, wait for a worker excluded.',
  ['format', 'styled', 'outcome'],
);
export const poolWait = histogram(
  'qrfarm_pool_wait_seconds',
  'Time a render waited for a free render worker.',
  [],
  [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10],
);
export const verifications = counter(
  'qrfarm_verify_total',
  "Decoder families' readings of rendered exports (the last attempt of each render): read or unread.",
  ['decoder', 'outcome'],
);
export const autofixSteps = counter(
  'qrfarm_autofix_corrections_total',
  'Corrections the scannability guarantee made to delivered renders, by the field corrected.',
  ['field'],
);
export const renderCacheLookups = counter(
  'qrfarm_render_cache_total',
  "Lookups in the engine's render cache: hit or miss.",
  ['outcome'],
);
export const edgeCacheLookups = counter('qrfarm_edge_cache_total', "Lookups in the site's edge cache: hit or miss.", [
  'outcome',
]);
export const relayDuration = histogram(
  'qrfarm_relay_duration_seconds',
  "The site's relayed calls to an engine until the answer's head: outcome answered, timeout, unavailable or abandoned.",
  ['outcome'],
);
export const engineErrors = counter(
  'qrfarm_engine_errors_total',
  'Relayed calls the site could not complete: engine_timeout or engine_unavailable.',
  ['code'],
);
export const engineRelays = counter(
  'qrfarm_engine_relays_total',
  "The site's relayed calls sent to each engine (QR_ENGINE_URL's entry), retries on another engine included.",
  ['engine'],
);
export const engineRetries = counter(
  'qrfarm_engine_retries_total',
  'Relayed calls sent again to another engine after the first could not be reached (the call never left the site).',
  [],
);
export const engineUp = gauge(
  'qrfarm_engine_up',
  '1 while the site sends to the engine, 0 while it holds it down (unreachable, not ready or draining).',
  ['engine'],
);
export const credits = counter(
  'qrfarm_credits_total',
  'Credits of the AI calls that cost one: reserved, spent, released (given back by the call) and expired (given back by the sweeper, the call never settled).',
  ['event'],
);
export const aiCalls = counter(
  'qrfarm_ai_calls_total',
  "AI design calls on the engine, by chain (managed, server: the server's keys; caller: the caller's), the provider that designed (none when none did) and outcome (designed, abandoned, or the error's code).",
  ['chain', 'provider', 'outcome'],
);

/** What the pool metrics read at each scrape; an engine registers its pool (several in one test process add up). */
export interface PoolSource {
  stats(): { workers: number; ready: number; running: number; queued: number; recycled: number };
}
const pools = new Set<PoolSource>();
const poolSum = (key: keyof ReturnType<PoolSource['stats']>) => {
  let sum = 0;
  for (const p of pools) sum += p.stats()[key];
  return sum;
};
const poolGauge = (name: string, help: string, key: keyof ReturnType<PoolSource['stats']>) =>
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(poolSum(key));
    },
  });
poolGauge('qrfarm_pool_workers', 'Render worker threads.', 'workers');
poolGauge('qrfarm_pool_workers_ready', 'Render workers that have loaded their modules.', 'ready');
poolGauge('qrfarm_pool_running', 'Renders holding a worker.', 'running');
poolGauge('qrfarm_pool_queue_depth', 'Renders waiting for a free worker.', 'queued');
new Counter({
  name: 'qrfarm_worker_recycles_total',
  help: 'Render workers retired by the recycler and replaced.',
  registers: [registry],
  collect() {
    this.reset();
    this.inc(poolSum('recycled'));
  },
});

/** Counts `pool` in the pool metrics until the returned function is called. */
export function watchPool(pool: PoolSource): () => void {
  pools.add(pool);
  return () => pools.delete(pool);
}

/** The exposition of every metric, and its content type. */
export async function exposition(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}

/** Seconds since `startMs` (a performance.now() reading). */
export const since = (startMs: number): number => (performance.now() - startMs) / 1000;

/** What observeRender reads of a render task and its outcome (render/types.ts), without importing them. */
interface RenderFacts {
  config: {
    fileFormat: string;
    moduleShape: string;
    finderOuterShape: string;
    finderInnerShape: string;
    frameStyle: string;
    foregroundGradient?: unknown;
    backgroundGradient?: unknown;
    centerText?: unknown;
  };
  assets: { logo?: unknown; background?: unknown };
}
interface OutcomeFacts {
  ok: boolean;
  code?: string;
  verification?: { decoders: Record<string, { decoded: boolean }> };
  failedDecoders?: readonly string[];
  corrections?: readonly { field: string }[];
}

/** A design other than square modules on a plain background: `styled="yes"`. */
const isStyled = ({ config: c, assets }: RenderFacts): boolean =>
  c.moduleShape !== 'square' ||
  c.finderOuterShape !== 'square' ||
  c.finderInnerShape !== 'square' ||
  c.frameStyle !== 'none' ||
  c.foregroundGradient !== undefined ||
  c.backgroundGradient !== undefined ||
  c.centerText !== undefined ||
  assets.logo !== undefined ||
  assets.background !== undefined;

/** A correction's field as a label: a config field name (bounded by the ladder's code), else `other`. */
const FIELD = /^[A-Za-z.]{1,40}$/;

/**
 * Counts one render that held a worker: its time by format, styled and outcome (`ok`, the refusal's code,
 * `timeout`, `failed`, `abandoned`); on an answer, each decoder family's reading and the corrections made.
 */
export function observeRender(task: RenderFacts, outcome: OutcomeFacts | string, seconds: number): void {
  const label = typeof outcome === 'string' ? outcome : outcome.ok ? 'ok' : (outcome.code ?? 'failed');
  renderDuration.labels(task.config.fileFormat, isStyled(task) ? 'yes' : 'no', label).observe(seconds);
  if (typeof outcome === 'string') return;
  if (outcome.verification !== undefined) {
    for (const [decoder, reading] of Object.entries(outcome.verification.decoders))
      verifications.labels(decoder, reading.decoded ? 'read' : 'unread').inc();
  } else if (outcome.failedDecoders !== undefined) {
    for (const decoder of outcome.failedDecoders) verifications.labels(decoder, 'unread').inc();
  }
  for (const c of outcome.corrections ?? []) autofixSteps.labels(FIELD.test(c.field) ? c.field : 'other').inc();
}
