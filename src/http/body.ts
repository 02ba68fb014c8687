import { ApiError } from '../errors.js';
import type { Reply } from './response.js';

/**
 * Collects a request body up to `limit` bytes. uWS hands out chunks in buffers it reuses after the
 * callback returns, so each chunk is copied. A body declared or found to be over the limit is refused
 * as soon as that is known, without buffering the rest.
 */
export function collectBody(reply: Reply, limit: number, declaredLength: number | undefined): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const tooLarge = () =>
      new ApiError('PAYLOAD_TOO_LARGE', { message: `Request body is larger than ${Math.round(limit / 1048576)} MB.` });
    if (declaredLength !== undefined && declaredLength > limit) {
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    reply.res.onData((chunk, isLast) => {
      if (refused) return;
      size += chunk.byteLength;
      if (size > limit) {
        refused = true;
        reject(tooLarge());
        return;
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) {
        reply.bodyPending = false;
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      }
    });
  });
}
