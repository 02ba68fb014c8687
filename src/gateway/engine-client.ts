import { BalancedPool, type Dispatcher, errors, Pool } from 'undici';
import { socketPathOf } from '../config.js';
import { ApiError } from '../errors.js';
import type { ClientGone } from '../http/client-gone.js';
import type { Method } from '../http/router.js';
import type { Relayed } from '../http/upstream.js';
import { engineErrors, relayDuration, since } from '../observe/metrics.js';
import { bodySha256, RELAY_ID_HEADERS, signRelay, VISITOR_CUSTOMER_ID } from '../relay/signature.js';
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
 * The site's connection to the engines: keep-alive pools balanced over every engine origin, each request
 * signed for its customer. Transport failures become the gateway's 503/504, never a hanging request.
 */
export class EngineClient {
  private readonly pool: BalancedPool;

  /** `engines`: http(s) origins, or `unix:` and the path of an engine's socket on this host. */
  constructor(
    engines: string[],
    private readonly secrets: readonly string[],
    private readonly timeoutMs: number,
  ) {
    // The pool tells its upstreams apart by origin: each socket gets a name of its own, which is also the
    // Host the engine sees (it builds no link from it: the site's own host travels as x-forwarded-host).
    const sockets = new Map<string, string>();
    const origins = engines.map((engine) => {
      const socketPath = socketPathOf(engine);
      if (socketPath === undefined) return engine;
      const origin = `http://engine-${sockets.size}.localhost`;
      sockets.set(origin, socketPath);
      return origin;
    });
    this.pool = new BalancedPool(origins, {
      connections: 64,
      pipelining: 1,
      // undici passes the origin as a string, its types say a URL: either reads back the same origin.
      factory: (origin: URL | string, options: Pool.Options) => {
        const socketPath = sockets.get(new URL(String(origin)).origin);
        return new Pool(origin, socketPath === undefined ? options : { ...options, connect: { socketPath } });
      },
    });
  }

  async relay(call: RelayCall): Promise<Relayed> {
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
    const started = performance.now();
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const v = call.headers[name];
      if (v !== undefined) headers[name] = v;
    }
    // Links the engine writes (template previews) must point at the site the client called.
    if (call.headers.host !== undefined) headers['x-forwarded-host'] = call.headers.host;
    try {
      if (call.signal.aborted) throw new errors.RequestAbortedError();
      const answer = await new Promise<Relayed>((resolve, reject) => {
        const options: Dispatcher.DispatchOptions = {
          method: call.method,
          path: call.path,
          headers,
          body: call.method === 'POST' ? call.body : undefined,
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
        };
        this.pool.dispatch(options, new RelayHandler(call.signal, resolve, reject));
      });
      relayDuration.labels('answered').observe(since(started));
      return answer;
    } catch (e) {
      if (call.signal.aborted) {
        relayDuration.labels('abandoned').observe(since(started));
        throw e;
      }
      const timedOut = e instanceof errors.HeadersTimeoutError || e instanceof errors.BodyTimeoutError;
      relayDuration.labels(timedOut ? 'timeout' : 'unavailable').observe(since(started));
      const error = timedOut
        ? new ApiError('engine_timeout', { cause: e })
        : new ApiError('engine_unavailable', { cause: e });
      engineErrors.labels(error.code).inc();
      throw error;
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
