import { hash } from 'node:crypto';
import { BoundedCache } from '../cache/bounded-cache.js';
import { ifNoneMatch } from '../http/etag.js';
import type { RequestContext } from '../http/router.js';
import type { Relayed } from '../http/upstream.js';
import type { RelayCall } from './engine-client.js';
import { WHOLE_UP_TO_BYTES } from './relay-handler.js';

/**
 * How a gateway route's answer can be kept on the site: it is a function of the relayed call alone (method,
 * engine path and query, body) and of the engine's version, never of the customer or the time.
 */
export interface EdgeCaching {
  /** Request headers the engine's answer also depends on (the template list links to the Host called). */
  vary?: readonly string[];
  /**
   * The body may name images the engine fetches (`logoUrl`, `backgroundImageUrl`): such an answer depends on
   * what those URLs serve when asked, so it is not kept.
   */
  fetchesImages?: boolean;
}

/** An engine answer kept to be given again: a 200, its headers and bytes as relayed. */
interface CachedAnswer {
  headers: Record<string, string>;
  body: Uint8Array;
  /** Bytes counted against the cache: the body, the headers and the key. */
  size: number;
}

/**
 * Answers kept at most this large: those the relay reads whole (relay-handler.ts). Larger ones (big
 * exports) come as a stream that a slow client paces, which keeping them would replace by a buffer of the
 * whole file per request; the engine's render cache keeps those.
 */
export const EDGE_MAX_ANSWER_BYTES = WHOLE_UP_TO_BYTES;

/** What the engine's own 304 carries of the 200's headers (src/api/render-response.ts, templates.ts). */
const NOT_MODIFIED_HEADERS = ['etag', 'cache-control'] as const;

/**
 * Whether a JSON body names an image by URL. Most bodies do not even contain `Url`; JSON may spell a name
 * with escapes (`logo\u0055rl`), so a body with a backslash is parsed too.
 */
export function namesRemoteImage(body: Uint8Array): boolean {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (bytes.indexOf('Url') === -1 && bytes.indexOf('\\') === -1) return false;
  try {
    const parsed: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && ('logoUrl' in parsed || 'backgroundImageUrl' in parsed);
  } catch {
    // Not JSON: the engine refuses it, and a refusal is never kept.
    return false;
  }
}

/**
 * The site's edge cache: successful answers of the routes whose answer is a function of their request,
 * kept in memory (QR_SITE_CACHE_MB, least recently used out, admitted on the second sighting like the
 * engine's render cache) and given again, same status, headers and bytes, without a relay. Every check
 * before the relay (key, limit, pack, usage count) is the gateway's and runs on a hit as on a miss.
 * Answers do not depend on the customer, so customers share entries, as they share the engine's renders.
 */
export class EdgeCache {
  private readonly kept: BoundedCache<CachedAnswer>;

  constructor(maxBytes: number) {
    this.kept = new BoundedCache<CachedAnswer>({
      maxBytes,
      sizeOf: (k) => k.size,
      admitOnSecondSighting: true,
    });
  }

  /** The key of a call under `caching`, or undefined when its answer cannot be kept. */
  keyOf(call: RelayCall, caching: EdgeCaching): string | undefined {
    if (caching.fetchesImages && namesRemoteImage(call.body)) return undefined;
    // The body enters by the hash the relay signs with, so a call's body is hashed once. A path and a header
    // value cannot hold a NUL, so the parts cannot run into each other.
    let parts = `${call.method}\0${call.path}\0`;
    for (const name of caching.vary ?? []) parts += `${call.headers[name] ?? ''}\0`;
    return hash('sha256', parts + call.bodySha256, 'base64url');
  }

  /** Answers from the cache when it holds `key`: 304 when If-None-Match names the kept ETag, as the engine does. */
  answer(ctx: RequestContext, key: string): boolean {
    const hit = this.kept.get(key);
    if (hit === undefined) return false;
    const etag = hit.headers.etag;
    if (etag !== undefined && ifNoneMatch(ctx.headers['if-none-match'], etag)) {
      const headers: Record<string, string> = {};
      for (const name of NOT_MODIFIED_HEADERS) {
        const value = hit.headers[name];
        if (value !== undefined) headers[name] = value;
      }
      ctx.reply.send(304, headers, '');
    } else {
      ctx.reply.send(200, hit.headers, hit.body);
    }
    return true;
  }

  /** Offers an answer relayed and sent for `key`: kept when a 200 read whole, within the size bound. */
  keep(key: string, r: Relayed): void {
    if (r.status !== 200 || !(r.body instanceof Uint8Array) || r.body.byteLength > EDGE_MAX_ANSWER_BYTES) return;
    let size = key.length + r.body.byteLength;
    for (const [name, value] of Object.entries(r.headers)) size += name.length + value.length;
    const kept: CachedAnswer = { headers: r.headers, body: r.body, size };
    // Once kept, a copy of exactly its size: the relayed bytes may be a slice of a larger socket buffer.
    if (this.kept.set(key, kept)) kept.body = new Uint8Array(r.body);
  }

  stats() {
    return this.kept.stats();
  }
}
