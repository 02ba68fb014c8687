import { type Dispatcher, errors } from 'undici';
import { ApiError } from '../errors.js';
import type { ClientGone } from '../http/client-gone.js';
import type { Method } from '../http/router.js';
import type { Relayed } from '../http/upstream.js';
import { engineErrors, engineRetries, relayDuration, since } from '../observe/metrics.js';
import { bodySha256, RELAY_ID_HEADERS, signRelay, VISITOR_CUSTOMER_ID } from '../relay/signature.js';
import { EngineHealth, type Upstream } from './engine-health.js';
import { FORWARDED_REQUEST_HEADERS, RelayHandler } from './relay-handler.js';

/**
 * Whom a relayed call acts for: a customer the site has checked (a key's owner, a signed-in account); a
 * visitor, the Studio's calls without an account, which the site limits by client address; or nobody,
 * for the engine's public routes, relayed unsigned.
 */
export type RelayCaller = { customerId: string } | 'visitor' | 'public';

const signedIdOf = (caller: RelayCaller): string | undefined =>
  caller === 'public' ? undefined : caller === 'visitor' ? VISITOR_CUSTOMER_ID : caller.customerId;

export interface RelayCall {
  method: Method;
  /** Engine path with the query string. */
  path: string;
  headers: Record<string, string>;
  body: Uint8Array;
  /** bodySha256(body), made by relayCall: hashed once per call, for the relay signature and the edge cache key. */
  bodySha256: string;
  caller: RelayCaller;
  /** The client's going away (`ctx.reply.gone`) abandons the call. */
  signal: ClientGone | AbortSignal;
}

const EMPTY_SHA256 = bodySha256(new Uint8Array(0));

/** A call to relay, its body's hash made from its body. */
export const relayCall = (call: Omit<RelayCall, 'bodySha256'>): RelayCall => ({
  ...call,
  bodySha256: call.body.byteLength === 0 ? EMPTY_SHA256 : bodySha256(call.body),
});

/**
 * Failures that show a call never reached the engine: the connection was refused or could not be made.
 * Such a call goes to another engine, whatever its method.
 */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ENOENT']);
const neverSent = (e: unknown): boolean =>
  e instanceof errors.ConnectTimeoutError || NOT_CONNECTED.has((e as { code?: string }).code ?? '');

/**
 * The site's connection to the engines: keep-alive pools to every engine origin, the call given to the up
 * engine with the fewest in flight (engine-health.ts), each request signed for its customer. A call that
 * never reached an engine is sent to another; so is a GET whose engine went away mid-call (the engine's
 * GETs change nothing). A POST an engine may have received is not sent twice: it fails with 503
 * engine_unavailable, as do all calls when no engine is up. Transport failures become the gateway's
 * 503/504, never a hanging request.
 */
export class EngineClient {
  private readonly health: EngineHealth;

  /** `engines`: http(s) origins, or `unix:` and the path of an engine's socket on this host. */
  constructor(
    engines: string[],
    private readonly secrets: readonly string[],
    private readonly timeoutMs: number,
  ) {
    this.health = new EngineHealth(engines);
  }

  async relay(call: RelayCall): Promise<Relayed> {
    const started = performance.now();
    let tried: Set<Upstream> | undefined;
    try {
      for (;;) {
        if (call.signal.aborted) throw new errors.RequestAbortedError();
        const upstream = this.health.pick(tried ?? NONE);
        if (upstream === undefined) throw new Error('no engine is up');
        try {
          // Headers made and signed per attempt: a second engine must not take a call sent again for a
          // replay of the first.
          const answer = await this.send(upstream, call, this.headersOf(call));
          relayDuration.labels('answered').observe(since(started));
          return answer;
        } catch (e) {
          if (call.signal.aborted || isTimeout(e)) throw e;
          this.health.down(upstream);
          if (!neverSent(e) && call.method !== 'GET') throw e;
          tried ??= new Set();
          tried.add(upstream);
          engineRetries.inc();
        }
      }
    } catch (e) {
      if (call.signal.aborted) {
        relayDuration.labels('abandoned').observe(since(started));
        throw e;
      }
      const timedOut = isTimeout(e);
      relayDuration.labels(timedOut ? 'timeout' : 'unavailable').observe(since(started));
      const error = timedOut
        ? new ApiError('engine_timeout', { cause: e })
        : new ApiError('engine_unavailable', { cause: e });
      engineErrors.labels(error.code).inc();
      throw error;
    }
  }

  /** The headers of one attempt of `call`: signed for its caller, a fresh object each time. */
  private headersOf(call: RelayCall): Record<string, string> {
    const customerId = signedIdOf(call.caller);
    // The front end has put the request's id into its headers, and left a traceparent only if well formed.
    const requestId = call.headers[RELAY_ID_HEADERS.requestId];
    const traceparent = call.headers[RELAY_ID_HEADERS.traceparent];
    const headers: Record<string, string> =
      customerId === undefined
        ? {}
        : signRelay({
            secret: this.secrets,
            method: call.method,
            pathWithQuery: call.path,
            bodySha256: call.bodySha256,
            customerId,
            requestId,
            traceparent,
          });
    if (customerId === undefined) {
      if (requestId !== undefined) headers[RELAY_ID_HEADERS.requestId] = requestId;
      if (traceparent !== undefined) headers[RELAY_ID_HEADERS.traceparent] = traceparent;
    }
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const v = call.headers[name];
      if (v !== undefined) headers[name] = v;
    }
    // Links the engine writes (template previews) must point at the site the client called.
    if (call.headers.host !== undefined) headers['x-forwarded-host'] = call.headers.host;
    return headers;
  }

  /**
   * One attempt of `call` on `upstream`, until the answer's head (or, for a small answer, its end): one
   * promise, settled by the handler, which also ends the attempt's count in `inFlight`.
   */
  private send(upstream: Upstream, call: RelayCall, headers: Record<string, string>): Promise<Relayed> {
    upstream.relays.inc();
    upstream.inFlight++;
    return new Promise<Relayed>((resolve, reject) => {
      const options: Dispatcher.DispatchOptions = {
        method: call.method,
        path: call.path,
        headers,
        body: call.method === 'GET' ? undefined : call.body,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      };
      // The handler settles once: with the answer (its head, for a stream) or with the failure.
      const handler = new RelayHandler(
        call.signal,
        (answer) => {
          upstream.inFlight--;
          resolve(answer);
        },
        (error) => {
          upstream.inFlight--;
          reject(error);
        },
      );
      upstream.pool.dispatch(options, handler);
    });
  }

  close(): Promise<void> {
    return this.health.close();
  }
}

const NONE: ReadonlySet<Upstream> = new Set();

const isTimeout = (e: unknown): boolean =>
  e instanceof errors.HeadersTimeoutError || e instanceof errors.BodyTimeoutError;
