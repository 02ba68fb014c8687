import type { HttpResponse } from '@trufflesuite/uws-js-unofficial';
import type { ApiError, ErrorBody } from '../errors.js';
import { ALWAYS_HEADERS, STATUS_TEXT } from './answer-headers.js';
import { ClientGone } from './client-gone.js';

/**
 * The lingering close of an answer sent while the request body is still coming in (a 413, a 408, an
 * unknown path): the rest of the body is read and dropped for up to this long and this much, so a client
 * still writing can finish and read the answer. Closing at once made Node's clients (fetch, undici,
 * node:http) fail with EPIPE instead of reading it. A client that stops sending (it read the answer and
 * gave up the body) ends the linger after LINGER_IDLE_MS.
 */
const LINGER_MS = 5_000;
const LINGER_IDLE_MS = 1_000;
const LINGER_BYTES = 32 * 1024 * 1024;

/**
 * One response in flight. uWS invalidates `res` once the client aborts, so every write checks `aborted`;
 * writes after an await are corked into one syscall; large bodies are streamed with tryEnd/onWritable so
 * a slow reader applies backpressure instead of growing our buffers.
 */
export class Reply {
  aborted = false;
  done = false;
  /** The status sent; 0 until an answer has started (and for a client gone before it). */
  status = 0;
  /** Fires when the client goes away; for listeners on every request's path. */
  readonly gone = new ClientGone();
  private controller: AbortController | undefined;
  private readonly extraHeaders: [string, string][] = [];
  /** While an answer sent before the whole body lingers: body bytes it may still drop, and its time limits. */
  private linger: { bytesLeft: number; until: NodeJS.Timeout; idle: NodeJS.Timeout } | undefined;
  /** The body stopped arriving in time (body-deadline.ts): an answer does not wait for it. */
  private bodyIsLate = false;
  /** What continues the body when the socket drains; see whenWritable. */
  private writable: ((offset: number) => boolean) | undefined;

  /**
   * @param bodyPending the request still has body bytes on the wire; a reply sent before they are read
   *   lingers (LINGER_MS) and then closes the connection, so the unread rest is never parsed as the next
   *   request.
   */
  constructor(
    readonly res: HttpResponse,
    public bodyPending = false,
    /** Headers every answer of this server carries (ALWAYS_HEADERS, and the site's HSTS over https). */
    private readonly fixedHeaders: readonly (readonly [string, string])[] = ALWAYS_HEADERS,
  ) {
    res.onAborted(() => {
      this.aborted = true;
      this.endLinger();
      this.gone.fire();
      this.controller?.abort();
    });
  }

  /**
   * Aborts work done on this request's behalf (LLM calls, queued renders, image fetches) when the client
   * goes away. Made on first use: most requests never need an AbortSignal.
   */
  get abort(): AbortController {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort();
    }
    return this.controller;
  }

  header(name: string, value: string): this {
    this.extraHeaders.push([name, value]);
    return this;
  }

  send(status: number, headers: Record<string, string>, body: Uint8Array | string, close = this.bodyPending): void {
    if (this.aborted || this.done) return;
    this.done = true;
    this.status = status;
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const res = this.res;
    res.cork(() => {
      this.writeHead(status, headers);
      if (status === 304) {
        res.endWithoutBody(0, close);
        return;
      }
      // uWS reads a view during the call (tryEnd writes what the socket takes, write copies what it keeps), so
      // the bytes go as they are: a copy would cost CPU on every answer (bench/README.md, "Per-item costs of
      // a relay").
      if (close) {
        this.answerBeforeBody(bytes);
        return;
      }
      const start = res.getWriteOffset();
      const [ok, responded] = res.tryEnd(bytes, bytes.byteLength);
      if (!ok && !responded) this.streamRest(bytes, start);
    });
  }

  /** The status line and headers: the answer's own, those added with `header`, then the server's fixed ones. */
  private writeHead(status: number, headers: Record<string, string>): void {
    const res = this.res;
    res.writeStatus(`${status} ${STATUS_TEXT[status] ?? ''}`);
    for (const [k, v] of Object.entries(headers)) res.writeHeader(k, v);
    for (const [k, v] of this.extraHeaders) res.writeHeader(k, v);
    for (const [k, v] of this.fixedHeaders) res.writeHeader(k, v);
  }

  /**
   * Sends a small answer (an error envelope) while the request body is still arriving, and keeps the
   * response open: the body reader passes on what still comes (bodyDropped), and the response ends once
   * the body is over, or when reading stops: after LINGER_MS, LINGER_IDLE_MS without data or LINGER_BYTES,
   * or at once for a late body.
   * The answer goes chunked, the one form uWS can send whole and end later; with `Connection: close`,
   * since the connection is of no further use. (uWS's `end(…, true)` cannot close it: after a write, it
   * puts its Connection header into the body.)
   */
  private answerBeforeBody(bytes: Uint8Array): void {
    // A draining server's fixed headers say so already.
    if (!this.fixedHeaders.some(([name]) => name === 'Connection')) this.res.writeHeader('Connection', 'close');
    this.res.write(bytes);
    if (this.bodyIsLate) {
      this.stopReading();
      return;
    }
    const end = () => this.endLinger();
    this.linger = { bytesLeft: LINGER_BYTES, until: setTimeout(end, LINGER_MS), idle: setTimeout(end, LINGER_IDLE_MS) };
  }

  /** Body bytes that arrived after the request was answered or its body refused, and were dropped. */
  bodyDropped(bytes: number): void {
    if (!this.linger) return;
    this.linger.bytesLeft -= bytes;
    if (!this.bodyPending || this.linger.bytesLeft < 0) this.endLinger();
    else this.linger.idle.refresh();
  }

  /**
   * The body has stopped arriving in time. uWS is about to close the connection of so slow a body, so an
   * answer lingering, or sent from now on, is ended at once.
   */
  bodyLate(): void {
    this.bodyIsLate = true;
    this.endLinger();
  }

  private endLinger(): void {
    const linger = this.linger;
    this.linger = undefined;
    if (!linger) return;
    clearTimeout(linger.until);
    clearTimeout(linger.idle);
    if (!this.aborted) this.res.cork(() => this.stopReading());
  }

  /**
   * Ends the lingering answer. A client still sending is read no further (paused): what it sends stays in
   * the socket buffers until uWS's idle timeout closes the connection, seconds after the answer arrived
   * whole.
   */
  private stopReading(): void {
    if (this.bodyPending) this.res.pause();
    this.res.end();
  }

  /**
   * Has `continueBody` called each time the socket drains, until it returns true. uWS keeps the first
   * handler given to a response's onWritable and ignores later ones, so a streamed body's second chunk
   * that had to wait was handed to the first chunk's handler, which had nothing left to write, and the
   * answer stalled (test/http/response.test.ts). One handler per response calls the current one.
   */
  private whenWritable(continueBody: (offset: number) => boolean): void {
    if (this.writable === undefined) this.res.onWritable((offset) => this.writable!(offset));
    this.writable = continueBody;
  }

  /** Continues a body the socket could not take at once, each time uWS says the socket drained. */
  private streamRest(bytes: Uint8Array, start: number): void {
    this.whenWritable((offset) => {
      if (this.aborted) return true;
      const [ok] = this.res.tryEnd(bytes.subarray(offset - start), bytes.byteLength);
      return ok;
    });
  }

  /**
   * Sends a body of known length as it arrives (a relayed file), holding each chunk until the socket takes
   * it, so a slow client slows the source instead of growing our buffers. Returns false if the client went
   * away first (the caller then drops the source).
   */
  async stream(
    status: number,
    headers: Record<string, string>,
    length: number,
    chunks: AsyncIterable<Uint8Array>,
  ): Promise<boolean> {
    if (this.aborted || this.done) return false;
    this.done = true;
    this.status = status;
    const res = this.res;
    res.cork(() => {
      this.writeHead(status, headers);
      if (length === 0) res.endWithoutBody(0);
    });
    if (length === 0) return true;
    for await (const chunk of chunks) {
      if (this.aborted) return false;
      if (!(await this.offer(chunk, length))) return false;
    }
    return !this.aborted;
  }

  /** Writes one chunk of a body of `length` bytes; resolves once the socket has taken all of it. */
  private offer(chunk: Uint8Array, length: number): Promise<boolean> {
    return new Promise((resolve) => {
      const res = this.res;
      let start = 0;
      let taken = false;
      res.cork(() => {
        start = res.getWriteOffset();
        const [ok, responded] = res.tryEnd(chunk, length);
        taken = ok || responded;
      });
      if (taken) {
        resolve(true);
        return;
      }
      const gone = () => resolve(false);
      this.gone.once('abort', gone);
      this.whenWritable((offset) => {
        if (this.aborted) return true;
        const [ok, responded] = res.tryEnd(chunk.subarray(offset - start), length);
        if (ok || responded) {
          this.gone.removeListener('abort', gone);
          resolve(true);
        }
        return ok;
      });
    });
  }

  /**
   * Starts an answer of unknown length (chunked: a ZIP assembled as it is sent, Server-Sent Events), to be
   * continued with `write` and finished with `end`.
   */
  open(status: number, headers: Record<string, string>, first: Uint8Array | string): Promise<boolean> {
    if (this.aborted || this.done) return Promise.resolve(false);
    this.done = true;
    this.status = status;
    const res = this.res;
    let ok = false;
    res.cork(() => {
      res.writeStatus(`${status} ${STATUS_TEXT[status] ?? ''}`);
      for (const [k, v] of Object.entries(headers)) res.writeHeader(k, v);
      for (const [k, v] of this.extraHeaders) res.writeHeader(k, v);
      for (const [k, v] of this.fixedHeaders) res.writeHeader(k, v);
      ok = res.write(first);
    });
    return ok ? Promise.resolve(true) : this.drained();
  }

  /** One more chunk of an `open` answer; resolves once the socket could take more (false: the client left). */
  write(chunk: Uint8Array | string): Promise<boolean> {
    if (this.aborted) return Promise.resolve(false);
    let ok = false;
    this.res.cork(() => {
      ok = this.res.write(chunk);
    });
    return ok ? Promise.resolve(true) : this.drained();
  }

  /** Ends an `open` answer. */
  end(): void {
    if (!this.aborted) this.res.cork(() => this.res.end());
  }

  /**
   * Closes the connection of an `open` answer that cannot be finished (its source failed), so the client
   * sees it cut short rather than ended as if whole.
   */
  cut(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.res.close();
  }

  /** Resolves once uWS has sent what it buffered (true), or the client has gone (false). */
  private drained(): Promise<boolean> {
    return new Promise((resolve) => {
      const gone = () => resolve(false);
      this.gone.once('abort', gone);
      this.whenWritable(() => {
        this.gone.removeListener('abort', gone);
        resolve(!this.aborted);
        return true;
      });
    });
  }

  json(status: number, body: unknown, headers: Record<string, string> = {}): void {
    this.send(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers }, JSON.stringify(body));
  }

  error(e: ApiError, extra: Record<string, unknown> = {}): void {
    const body: ErrorBody & Record<string, unknown> = { ...e.toBody(), ...extra };
    this.json(e.status, body, e.headers);
  }
}
