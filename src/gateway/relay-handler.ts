import { Readable } from 'node:stream';
import { type Dispatcher, errors } from 'undici';
import type { ClientGone } from '../http/client-gone.js';
import type { Relayed } from '../http/upstream.js';

/*
 * How one relayed call's answer is read off undici's dispatch interface: which headers cross the hop, and
 * whether the body is gathered whole or streamed. The engine client (engine-client.ts) signs, sends and
 * counts the call; this module only receives it.
 */

/** Request headers the engine may see: never the key, cookies or anything else of the caller's identity. */
export const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept', 'if-none-match'] as const;
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

/** What abandons a call: the client's going away (`ctx.reply.gone`), or an AbortSignal. */
export type CallSignal = ClientGone | AbortSignal;

/** Calls `listener` once when `signal` fires; returns what stops listening. */
function onAbort(signal: CallSignal, listener: () => void): () => void {
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
export class RelayHandler implements Dispatcher.DispatchHandler {
  private abortCall: ((reason: Error) => void) | undefined;
  private abandoned = false;
  private complete = false;
  private answer: Omit<Relayed, 'body'> | undefined;
  private readonly chunks: Buffer[] = [];
  private stream: Readable | undefined;
  private readonly stopListening: () => void;

  constructor(
    signal: CallSignal,
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
