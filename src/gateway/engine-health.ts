import type { Counter } from 'prom-client';
import { Client, errors, Pool } from 'undici';
import { socketPathOf } from '../config.js';
import { engineRelays, engineUp } from '../observe/metrics.js';

/** How often an engine's `GET /readyz` is asked while it is up: a draining engine is seen within this. */
export const PROBE_UP_MS = 500;
/** How often while it is down: a restarted engine takes traffic again within this of its first `200`. */
export const PROBE_DOWN_MS = 250;
/** A probe whose answer takes longer changes nothing: an engine busy rendering is not a dead one. */
const PROBE_TIMEOUT_MS = 2_000;
/** A connection to an engine not made within this fails, and the call goes to another engine. */
const CONNECT_TIMEOUT_MS = 2_000;
/** Keep-alive connections to each engine. */
const CONNECTIONS = 64;

/** One engine as the site sees it. */
export interface Upstream {
  /** As configured (an entry of QR_ENGINE_URL): the `engine` label of the metrics. */
  readonly name: string;
  /** The relays' connections. */
  readonly pool: Pool;
  /** The probes' own connection, so a probe never waits behind relays. */
  readonly probe: Client;
  /** Its series of qrfarm_engine_relays_total, looked up once. */
  readonly relays: Counter.Internal;
  up: boolean;
  /** Relays sent to it whose answer's head has not come yet. */
  inFlight: number;
  /** Counts the times a relay took it down: a probe sent before the latest says nothing of it now. */
  downs: number;
  timer: NodeJS.Timeout | undefined;
}

/**
 * The engines the site relays to, and which of them it may send to. An engine is taken out at once when a
 * relay cannot reach it (a refused or failed connection, a connection lost), and by its probe when its
 * `GET /readyz` answers anything but `200` (workers not loaded, draining) or it cannot be connected to; the
 * probe puts it back on its first `200`. Probes run every PROBE_UP_MS while an engine is up and every
 * PROBE_DOWN_MS while it is down, on a connection of their own.
 */
export class EngineHealth {
  readonly upstreams: readonly Upstream[];
  /** Where the next pick starts looking, so equally loaded engines take turns. */
  private next = 0;
  private closed = false;

  /** `engines`: http(s) origins, or `unix:` and the path of an engine's socket on this host. */
  constructor(engines: readonly string[]) {
    let sockets = 0;
    this.upstreams = engines.map((name) => {
      const socketPath = socketPathOf(name);
      // Each socket gets an origin of its own, which is also the Host the engine sees (it builds no link
      // from it: the site's own host travels as x-forwarded-host).
      const origin = socketPath === undefined ? name : `http://engine-${sockets++}.localhost`;
      const connect = { timeout: CONNECT_TIMEOUT_MS, ...(socketPath !== undefined && { socketPath }) };
      const upstream: Upstream = {
        name,
        pool: new Pool(origin, { connections: CONNECTIONS, pipelining: 1, connect }),
        probe: new Client(origin, { connect, headersTimeout: PROBE_TIMEOUT_MS, bodyTimeout: PROBE_TIMEOUT_MS }),
        relays: engineRelays.labels(name),
        up: true,
        inFlight: 0,
        downs: 0,
        timer: undefined,
      };
      engineUp.labels(name).set(1);
      this.schedule(upstream);
      return upstream;
    });
  }

  /** The up engine with the fewest relays in flight, not one of `excluded`; undefined when none is left. */
  pick(excluded: ReadonlySet<Upstream>): Upstream | undefined {
    const all = this.upstreams;
    let best: Upstream | undefined;
    for (let i = 0; i < all.length; i++) {
      const u = all[(this.next + i) % all.length]!;
      if (u.up && !excluded.has(u) && (best === undefined || u.inFlight < best.inFlight)) best = u;
    }
    this.next = (this.next + 1) % all.length;
    return best;
  }

  /** A relay could not reach `upstream`: no more calls go to it until its probe answers `200`. */
  down(upstream: Upstream): void {
    upstream.downs++;
    if (!upstream.up) return;
    this.set(upstream, false);
    // Probed again soon, not at the next tick of the slower interval.
    this.schedule(upstream);
  }

  private set(upstream: Upstream, up: boolean): void {
    upstream.up = up;
    engineUp.labels(upstream.name).set(up ? 1 : 0);
  }

  private schedule(upstream: Upstream): void {
    if (this.closed) return;
    clearTimeout(upstream.timer);
    upstream.timer = setTimeout(() => void this.probe(upstream), upstream.up ? PROBE_UP_MS : PROBE_DOWN_MS);
    // The probes never keep a process alive that has nothing else to do.
    upstream.timer.unref();
  }

  private async probe(upstream: Upstream): Promise<void> {
    const downs = upstream.downs;
    try {
      const answer = await upstream.probe.request({ method: 'GET', path: '/readyz' });
      await answer.body.dump();
      // A 200 the engine sent just before it died may be read after a relay found it dead.
      if (upstream.downs === downs) this.set(upstream, answer.statusCode === 200);
    } catch (e) {
      const slow = e instanceof errors.HeadersTimeoutError || e instanceof errors.BodyTimeoutError;
      if (!slow) this.set(upstream, false);
    }
    this.schedule(upstream);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const u of this.upstreams) clearTimeout(u.timer);
    await Promise.all(this.upstreams.flatMap((u) => [u.pool.close(), u.probe.destroy()]));
  }
}
