import { Pool } from 'undici';
import { STANDARD_PREFIX, STYLED } from '../bench/cases.js';

import stored from './mix.json' with { type: 'json' };

/** One kind of render request: `<format> plain`, `<format> styled`, `template` or `content helper`. */
export type Kind = string;
export const FORMATS = ['png', 'jpg', 'webp', 'svg', 'pdf'] as const;
/** Every kind a request can be built for, in the order reports list them. */
export const RENDER_KINDS: readonly Kind[] = [
  ...FORMATS.flatMap((f) => [`${f} plain`, `${f} styled`]),
  'template',
  'content helper',
];

/**
 * The traffic mix (loadtest/mix.json, which the k6 scenarios read too): each kind's share of 100 render
 * requests, the percent of them through the site's gateway, server-AI calls per 100 render requests.
 */
export interface Mix {
  requests: { kind: Kind; share: number }[];
  throughGateway: number;
  serverAi: number;
}

/** A mix as read from JSON, checked: known kinds, shares that are numbers ≥ 0 adding up to more than 0. */
export function checkMix(value: unknown, source: string): Mix {
  const m = value as Partial<Mix>;
  const fail = (why: string): never => {
    throw new Error(`${source}: ${why}`);
  };
  if (!Array.isArray(m.requests) || m.requests.length === 0) fail('requests must be a list');
  for (const r of m.requests!) {
    if (!RENDER_KINDS.includes(r.kind)) fail(`unknown kind "${r.kind}" (known: ${RENDER_KINDS.join(', ')})`);
    if (typeof r.share !== 'number' || !(r.share >= 0)) fail(`the share of "${r.kind}" must be a number ≥ 0`);
  }
  if (m.requests!.reduce((s, r) => s + r.share, 0) <= 0) fail('the shares add up to nothing');
  const percent = (v: unknown, name: string) =>
    typeof v === 'number' && v >= 0 && v <= 100 ? v : fail(`${name} must be a percentage`);
  const throughGateway = percent(m.throughGateway ?? 0, 'throughGateway');
  const serverAi =
    typeof (m.serverAi ?? 0) === 'number' && (m.serverAi ?? 0) >= 0 ? (m.serverAi ?? 0) : fail('serverAi must be ≥ 0');
  return { requests: m.requests!, throughGateway, serverAi };
}

/** The repository's mix. */
export const MIX: Mix = checkMix(stored, 'loadtest/mix.json');

export interface MixRequest {
  kind: Kind;
  path: string;
  body: string;
  /** Besides Content-Type (the gateway's X-API-Key). */
  headers?: Record<string, string>;
}

/**
 * The kinds of 100 requests in a fixed shuffled order (a seeded generator), so any stretch of traffic has
 * the mix's shares, and a run can be repeated exactly.
 */
function schedule(mix: Mix): Kind[] {
  const kinds = mix.requests.flatMap(({ kind, share }) => Array<Kind>(Math.round(share)).fill(kind));
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
const HELPERS = ['wifi', 'vcard', 'geo'] as const;

/**
 * The `i`th request of `kind` on the engine's paths (`prefix` '/api/v1' for the gateway's), with content no
 * other `i` has; `templates` are the ids a template request renders, in turn.
 */
export function requestOf(kind: Kind, i: number, templates: string[], prefix = '/api'): MixRequest {
  const content = STANDARD_PREFIX + i;
  if (kind === 'template') return json(kind, `${prefix}/qr/templates/${templates[i % templates.length]}`, { content });
  if (kind === 'content helper') {
    const helper = HELPERS[i % HELPERS.length]!;
    const body =
      helper === 'wifi'
        ? { ssid: `guest-${i}`, password: `passphrase-${i}` }
        : helper === 'vcard'
          ? { firstName: 'Ada', lastName: `Lovelace ${i}`, email: `ada${i}@example.com` }
          : { latitude: ((i % 1800) - 900) / 10, longitude: ((i * 7) % 3600) / 10 - 180 };
    return json(kind, `${prefix}/qr/content/${helper}`, body);
  }
  const [format, look] = kind.split(' ');
  return json(kind, `${prefix}/qr/generate`, {
    content,
    ...(format !== 'png' && { fileFormat: format }),
    ...(look === 'styled' && STYLED),
  });
}

/** The mix's requests, one after another, each with content no earlier request had; `templates` are ids to render. */
export function mixedRequests(templates: string[], mix: Mix = MIX): () => MixRequest {
  const kinds = schedule(mix);
  let n = 0;
  return () => {
    const i = n++;
    return requestOf(kinds[i % kinds.length]!, i, templates);
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
  const { path, body, headers } = next();
  const start = performance.now();
  try {
    const res = await pool.request({
      path,
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
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
