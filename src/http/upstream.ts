import type { Readable } from 'node:stream';
import { ApiError } from '../errors.js';
import type { RequestContext } from './router.js';

/** An answer from the server a request was relayed to (the engine, for the site). */
export interface Relayed {
  status: number;
  headers: Record<string, string>;
  /** Its Content-Length; undefined when it streamed one of unknown length. */
  length: number | undefined;
  /** The whole answer, or a stream of it. */
  body: Uint8Array | Readable;
}

/**
 * A JSON answer carries the file in base64 (4 characters per 3 bytes) inside a small envelope, so the
 * file limit is applied to what the file would be.
 */
const fileBytesOf = (r: Relayed, length: number): number =>
  (r.headers['content-type'] ?? '').startsWith('application/json') ? Math.floor((length * 3) / 4) : length;

function tooLarge(r: Relayed, length: number, maxOutputBytes: number): boolean {
  return r.status === 200 && fileBytesOf(r, length) > maxOutputBytes;
}

const sizeOf = (bytes: number): string =>
  bytes % 1048576 === 0 ? `${bytes / 1048576} MB` : `${bytes.toLocaleString('en')} bytes`;

const outputTooLarge = (maxOutputBytes: number) =>
  new ApiError('output_too_large', {
    message: `The rendered file is larger than ${sizeOf(maxOutputBytes)}; request PNG or a smaller outputWidth.`,
  });

/**
 * Drops an answer unread. A stream destroyed before its end may still emit an error; with no listener
 * that error is thrown out of the event loop and ends the process.
 */
function discard(r: Relayed): void {
  if (r.body instanceof Uint8Array) return;
  r.body.on('error', () => {});
  r.body.destroy();
}

/** The answer, status, headers and bytes as they are; a large one of known length streamed. */
export async function forward(ctx: RequestContext, r: Relayed, maxOutputBytes: number): Promise<void> {
  if (r.length !== undefined && tooLarge(r, r.length, maxOutputBytes)) {
    discard(r);
    throw outputTooLarge(maxOutputBytes);
  }
  if (r.body instanceof Uint8Array) ctx.reply.send(r.status, r.headers, r.body);
  else if (r.length !== undefined) {
    if (!(await ctx.reply.stream(r.status, r.headers, r.length, r.body))) discard(r);
  } else ctx.reply.send(r.status, r.headers, await readAll(r, maxOutputBytes));
}

/**
 * The answer as it arrives, however long: a bulk job's ZIP or its events, which have no size limit and no
 * length known in advance. A slow client slows the engine's answer (each chunk waits for the socket).
 */
export async function forwardStream(ctx: RequestContext, r: Relayed): Promise<void> {
  if (r.body instanceof Uint8Array) {
    ctx.reply.send(r.status, r.headers, r.body);
    return;
  }
  const { 'content-length': _, ...headers } = r.headers;
  const chunks = r.body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  const first = await chunks.next();
  if (!(await ctx.reply.open(r.status, headers, first.done ? new Uint8Array(0) : first.value))) return discard(r);
  try {
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      if (!(await ctx.reply.write(next.value))) return discard(r);
    }
  } catch {
    // The engine's answer broke off (the engine went away): so does this one.
    ctx.reply.cut();
    return;
  }
  ctx.reply.end();
}

/** An answer whole, a streamed one read to its end but never past the output limit. */
export async function readAll(r: Relayed, maxOutputBytes: number): Promise<Uint8Array> {
  if (r.body instanceof Uint8Array) {
    if (tooLarge(r, r.body.length, maxOutputBytes)) throw outputTooLarge(maxOutputBytes);
    return r.body;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of r.body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (tooLarge(r, total, maxOutputBytes)) {
      discard(r);
      throw outputTooLarge(maxOutputBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
