import { Pool } from 'undici';
import { STANDARD_PREFIX, STYLED } from '../bench/cases.js';

/**
 * Issue 17's mixed workload: what real traffic asks of the engine, every request unique (nothing is served
 * from the render cache). Shares in percent of requests.
 */
const MIX = [
  { kind: 'png plain', share: 25 },
  { kind: 'png styled', share: 15 },
  { kind: 'svg', share: 15 },
  { kind: 'pdf', share: 10 },
  { kind: 'jpg', share: 4 },
  { kind: 'webp', share: 4 },
  { kind: 'template', share: 15 },
  { kind: 'content helper', share: 12 },
] as const;
export type Kind = (typeof MIX)[number]['kind'];

export interface MixRequest {
  kind: Kind;
  path: string;
  body: string;
}

/**
 * The kinds of 100 requests in a fixed shuffled order (a seeded generator), so any stretch of traffic has
 * the mix's shares, and a run can be repeated exactly.
 */
function schedule(): Kind[] {
  const kinds = MIX.flatMap(({ kind, share }) => Array<Kind>(share).fill(kind));
  let seed = 17;
  const next = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
  }
  return kinds;
}

const json = (kind: Kind, path: string, body: object): MixRequest => ({ kind, path, body: JSON.stringify(body) });
const GENERATE = '/api/qr/generate';
const HELPERS = ['wifi', 'vcard', 'geo'] as const;

/** The mix's requests, one after another, each with content no earlier request had; `templates` are ids to render. */
export function mixedRequests(templates: string[]): () => MixRequest {
  const kinds = schedule();
  let n = 0;
  return () => {
    const i = n++;
    const content = STANDARD_PREFIX + i;
    const kind = kinds[i % kinds.length]!;
    switch (kind) {
      case 'png plain':
        return json(kind, GENERATE, { content });
      case 'png styled':
        return json(kind, GENERATE, { content, ...STYLED });
      case 'svg':
      case 'pdf':
      case 'jpg':
      case 'webp':
        return json(kind, GENERATE, { content, fileFormat: kind });
      case 'template':
        return json(kind, `/api/qr/templates/${templates[i % templates.length]}`, { content });
      case 'content helper': {
        const helper = HELPERS[i % HELPERS.length]!;
        const body =
          helper === 'wifi'
            ? { ssid: `guest-${i}`, password: `passphrase-${i}` }
            : helper === 'vcard'
              ? { firstName: 'Ada', lastName: `Lovelace ${i}`, email: `ada${i}@example.com` }
              : { latitude: ((i % 1800) - 900) / 10, longitude: ((i * 7) % 3600) / 10 - 180 };
        return json(kind, `/api/qr/content/${helper}`, body);
      }
    }
  };
}

/** The ids of the engine's templates, every one of them rendered in turn by the mix. */
export async function templateIds(url: string): Promise<string[]> {
  const res = await fetch(`${url}/api/qr/templates`);
  const { templates } = (await res.json()) as { templates: { id: string }[] };
  return templates.map((t) => t.id);
}

/** What came back over a stretch of traffic. */
export class Tally {
  readonly statuses = new Map<number | string, number>();
  readonly latencies: number[] = [];
  ok = 0;

  record(status: number | string, ms: number): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (status === 200) {
      this.ok++;
      this.latencies.push(ms);
    }
  }

  /** The latency of the successful requests at quantile `q` (0–1), in ms. */
  quantile(q: number): number {
    const s = [...this.latencies].sort((a, b) => a - b);
    return s.length ? Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]!) : Number.NaN;
  }

  statusMix(): string {
    return [...this.statuses.entries()].map(([s, n]) => `${s}×${n}`).join(' ');
  }
}

/** Sends one request of the mix and records its status (or its error's code) and latency. */
async function send(pool: Pool, next: () => MixRequest, tally: Tally): Promise<void> {
  const { path, body } = next();
  const start = performance.now();
  try {
    const res = await pool.request({ path, method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.body.arrayBuffer();
    tally.record(res.statusCode, performance.now() - start);
  } catch (e) {
    tally.record((e as { code?: string }).code ?? 'error', performance.now() - start);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A request unanswered this long is counted (UND_ERR_HEADERS_TIMEOUT) rather than waited for: undici's own
 * limit is 300 s, and one request the server never answers would hold a run that long.
 */
const CLIENT_TIMEOUTS = { headersTimeout: 30_000, bodyTimeout: 30_000 };

/**
 * Open model: requests start at `rate` a second for `seconds` whether or not earlier ones have finished,
 * as independent clients arrive (a closed loop would slow down with the server and hide its queueing).
 * `onTick` is called about once a second with the seconds elapsed.
 */
export async function openLoad(
  url: string,
  next: () => MixRequest,
  rate: number,
  seconds: number,
  onTick?: (elapsed: number) => void,
): Promise<Tally> {
  const pool = new Pool(url, { connections: 256, ...CLIENT_TIMEOUTS });
  const tally = new Tally();
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  let lastTick = 0;
  try {
    for (let i = 0; i < rate * seconds; i++) {
      const due = start + (i * 1000) / rate;
      const now = performance.now();
      if (due > now) await sleep(due - now);
      const p = send(pool, next, tally).finally(() => inFlight.delete(p));
      inFlight.add(p);
      const elapsed = Math.floor((performance.now() - start) / 1000);
      for (; lastTick < elapsed; lastTick++) onTick?.(lastTick + 1);
    }
    await Promise.all(inFlight);
  } finally {
    await pool.close();
  }
  return tally;
}

/**
 * Closed loop: `connections` clients each send the next request as soon as the last is answered, for
 * `seconds`; the rate of 200s is the most the server sustains on this mix.
 */
export async function peakRate(url: string, next: () => MixRequest, seconds: number, connections = 16): Promise<Tally> {
  const pool = new Pool(url, { connections, ...CLIENT_TIMEOUTS });
  const tally = new Tally();
  const end = performance.now() + seconds * 1000;
  const client = async () => {
    while (performance.now() < end) await send(pool, next, tally);
  };
  try {
    await Promise.all(Array.from({ length: connections }, client));
  } finally {
    await pool.close();
  }
  return tally;
}

/** The peak on the mix after a 3 s warm-up (the workers load their WASM modules), and 70 % of it. */
export async function findPeak(url: string, next: () => MixRequest, seconds: number) {
  await peakRate(url, next, 3);
  const tally = await peakRate(url, next, seconds);
  const rps = tally.ok / seconds;
  return { tally, rps, rate: Math.max(1, Math.round(rps * 0.7)) };
}
