import { BalancedPool, errors, type Dispatcher } from 'undici';
import { ApiError } from '../errors.js';
import type { ClientGone } from '../http/response.js';
import { signRelay } from '../relay/signature.js';

/** Request headers the engine may see: never the key, cookies or anything else of the caller's identity. */
const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept', 'if-none-match'] as const;
/** Response headers that belong to one hop, or that the site's own server writes. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date', 'uwebsockets']);

export interface Relayed {
  status: number;
  headers: Record<string, string>;
  /** Content-Length of the engine's answer; undefined when it streamed one of unknown length. */
  length: number | undefined;
  body: Dispatcher.ResponseData['body'];
}

export interface RelayCall {
  method: 'GET' | 'POST';
  /** Engine path with the query string. */
  path: string;
  headers: Record<string, string>;
  body: Uint8Array;
  /** Whom the call is for; undefined for the engine's public routes, which are relayed unsigned. */
  customerId: string | undefined;
  /** The client's going away (`ctx.reply.gone`) abandons the call. */
  signal: ClientGone | AbortSignal;
}

/**
 * The site's connection to the engines: keep-alive pools balanced over every engine origin, each request
 * signed for its customer. Transport failures become the gateway's 503/504, never a hanging request.
 */
export class EngineClient {
  private readonly pool: BalancedPool;

  constructor(
    origins: string[],
    private readonly secrets: readonly string[],
    private readonly timeoutMs: number,
  ) {
    this.pool = new BalancedPool(origins, { connections: 64, pipelining: 1 });
  }

  async relay(call: RelayCall): Promise<Relayed> {
    const headers: Record<string, string> =
      call.customerId === undefined
        ? {}
        : signRelay({
            secret: this.secrets,
            method: call.method,
            pathWithQuery: call.path,
            body: call.body,
            customerId: call.customerId,
          });
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const v = call.headers[name];
      if (v !== undefined) headers[name] = v;
    }
    // Links the engine writes (template previews) must point at the site the client called.
    if (call.headers.host !== undefined) headers['x-forwarded-host'] = call.headers.host;
    try {
      const res = await this.pool.request({
        method: call.method,
        path: call.path,
        headers,
        body: call.method === 'GET' ? undefined : call.body,
        signal: call.signal,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined && !HOP_HEADERS.has(k)) out[k] = Array.isArray(v) ? v.join(', ') : v;
      }
      const length = res.headers['content-length'];
      return {
        status: res.statusCode,
        headers: out,
        length: typeof length === 'string' ? Number(length) : undefined,
        body: res.body,
      };
    } catch (e) {
      if (call.signal.aborted) throw e;
      if (e instanceof errors.HeadersTimeoutError || e instanceof errors.BodyTimeoutError)
        throw new ApiError('engine_timeout', { cause: e });
      throw new ApiError('engine_unavailable', { cause: e });
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
