import { ApiError } from '../errors.js';
import { BodyDeadline } from './body-deadline.js';
import type { Reply } from './response.js';

export interface BodyLimits {
  /** Bytes; a body declared or found to be larger is refused with 413. */
  limit: number;
  /** QR_BODY_TIMEOUT_MS: a body that has not arrived whole by then is refused with 408 (body-deadline.ts). */
  timeoutMs: number;
}

/**
 * Collects a request body up to `limit` bytes. uWS hands out chunks in buffers it reuses after the
 * callback returns, so each chunk is copied. A body declared or found to be over the limit, or late, is
 * refused as soon as that is known, without buffering the rest; what still arrives after a refusal, or
 * after the request was answered without its body (an unknown path), is dropped, so the client can finish
 * sending and read the answer (Reply's lingering close).
 */
export function collectBody(
  reply: Reply,
  { limit, timeoutMs }: BodyLimits,
  declaredLength: number | undefined,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    const tooLarge = () =>
      new ApiError('PAYLOAD_TOO_LARGE', { message: `Request body is larger than ${Math.round(limit / 1048576)} MB.` });
    // Late, the body is read no further, whether or not it was still wanted.
    const deadline = new BodyDeadline(timeoutMs, (message) => {
      reply.bodyLate();
      settle(() => reject(new ApiError('REQUEST_TIMEOUT', { message })));
    });
    reply.gone.once('abort', () => deadline.stop());

    reply.res.onData((chunk, isLast) => {
      if (isLast) {
        reply.bodyPending = false;
        deadline.stop();
      } else {
        deadline.received(chunk.byteLength);
      }
      // Answered without its body: there is nothing more to collect.
      if (reply.done) settled = true;
      if (settled) {
        reply.bodyDropped(chunk.byteLength);
        return;
      }
      size += chunk.byteLength;
      if (size > limit) {
        settle(() => reject(tooLarge()));
        return;
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) settle(() => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    });
    if (declaredLength !== undefined && declaredLength > limit) settle(() => reject(tooLarge()));
  });
}
