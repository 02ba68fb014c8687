import { Readable } from 'node:stream';
import { type Dispatcher, errors } from 'undici';
import { ApiError } from '../errors.js';
import type { ClientGone } from '../http/response.js';
import type { Relayed } from '../http/upstream.js';
import { engineErrors, engineRetries, relayDuration, since } from '../observe/metrics.js';
import { EngineHealth, type Upstream } from './engine-health.js';
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
  method: 'GET' | 'POST';
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
