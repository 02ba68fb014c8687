import { Readable } from 'node:stream';
import { BalancedPool, type Dispatcher, errors, Pool } from 'undici';
import { socketPathOf } from '../config.js';
import { ApiError } from '../errors.js';
import type { ClientGone } from '../http/response.js';
import type { Method } from '../http/router.js';
import type { Relayed } from '../http/upstream.js';
import { engineErrors, relayDuration, since } from '../observe/metrics.js';
import { bodySha256, RELAY_ID_HEADERS, signRelay, VISITOR_CUSTOMER_ID } from '../relay/signature.js';

/** Request headers the engine may see: never the key, cookies or anything else of the caller's identity. */
const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept', 'if-none-match'] as const;
/** Response headers that belong to one hop, or that the site's own server writes. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'date',
  'uwebsockets',
  'x-content-type-options',
  'strict-transport-security',
  // The site's front end writes its own, the same id.
  'x-request-id',
]);

/**
 * Answers of known length up to this size are read whole before `relay` returns: most answers are a few
 * kilobytes, and undici's `request` (a stream, an async iterator and an AbortSignal listener per call)
 * costs more CPU a call than `dispatch` (bench/README.md, "Per-item costs of a relay"). Larger answers,
 * and those of unknown length, come as a stream read as it arrives.
 */
export const WHOLE_UP_TO_BYTES = 64 * 1024;

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

/** Calls `listener` once when `signal` fires; returns what stops listening. */
function onAbort(signal: RelayCall['signal'], listener: () => void): () => void {
  if ('addEventListener' in signal) {
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  }
  signal.once('abort', listener);
  return () => signal.removeListener('abort', listener);
}

/** The engine's headers of one answer without those of the hop (repeated ones joined), and its length. */
function readHead(raw: Buffer[]): { headers: Record<string, string>; length: number | undefined } {
  const headers: Record<string, string> = {};
  let length: number | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toString('latin1').toLowerCase();
    const value = raw[i + 1]!.toString('latin1');
    if (name === 'content-length') length = Number(value);
    // A plain object keeps V8's fast properties; the one name that would reach its prototype is dropped.
    if (HOP_HEADERS.has(name) || name === '__proto__') continue;
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  return { headers, length };
}

/**
 * One relayed call on undici's dispatch interface, which hands over the answer's bytes as they arrive:
 * a small answer is gathered here, a large one pushed into a stream that pauses the connection while
 * its reader is behind.
 */
class RelayHandler implements Dispatcher.DispatchHandler {
  private abortCall: ((reason: Error) => void) | undefined;
  private abandoned = false;
  private complete = false;
  private answer: Omit<Relayed, 'body'> | undefined;
  private readonly chunks: Buffer[] = [];
  private stream: Readable | undefined;
  private readonly stopListening: () => void;

  constructor(
    signal: RelayCall['signal'],
    private readonly resolve: (r: Relayed) => void,
    private readonly reject: (e: Error) => void,
  ) {
    this.stopListening = onAbort(signal, () => this.abandon());
  }

  private abandon(): void {
    if (this.complete) return;
    this.abandoned = true;
    const reason = new errors.RequestAbortedError();
    if (this.stream) this.stream.destroy(reason);
    else this.abortCall?.(reason);
  }

  onConnect(abort: (reason: Error) => void): void {
    if (this.abandoned) abort(new errors.RequestAbortedError());
    else this.abortCall = abort;
  }

  onHeaders(status: number, raw: Buffer[], resume: () => void): boolean {
    // An interim answer (1xx) is followed by the real one.
    if (status < 200) return true;
    const { headers, length } = readHead(raw);
    this.answer = { status, headers, length };
    if (length !== undefined && length <= WHOLE_UP_TO_BYTES) return true;
    this.stream = new Readable({
      read: () => resume(),
      destroy: (error, done) => {
        // The reader gave up before the end: the connection is of no further use for this answer.
        if (!this.complete) this.abortCall?.(error ?? new errors.RequestAbortedError());
        done(error);
      },
    });
    this.resolve({ ...this.answer, body: this.stream });
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.stream) return this.stream.push(chunk);
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    this.complete = true;
    this.stopListening();
    if (this.stream) {
      this.stream.push(null);
      return;
    }
    const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.resolve({ ...this.answer!, body });
  }

  onError(error: Error): void {
    this.stopListening();
    if (this.stream) this.stream.destroy(error);
    else this.reject(error);
  }
}

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
