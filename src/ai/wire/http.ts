import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'undici';
import type { JsonSchema } from '../json-schema.js';
import type { Provider } from '../providers.js';
import { redact } from '../redact.js';
import { classifyVendorError, VendorError } from '../vendor-errors.js';

/** What the designer asks of any provider; each wire adapter translates it to its vendor's body. */
export interface LlmRequest {
  system: string;
  user: string;
  /** Response schemas: `strict` for OpenAI-style strict mode (all fields required, optional ones nullable). */
  schema: { strict: JsonSchema; loose: JsonSchema };
  /** Name of the schema / forced tool: `[a-zA-Z0-9_-]{1,64}`. */
  schemaName: string;
  /** Wanted temperature; each vendor's quirk clamps or drops it. */
  temperature: number;
  maxTokens: number;
}

export interface WireCall {
  provider: Provider;
  /** The provider's base URL for this call (`baseUrlOf`), without a trailing slash. */
  baseUrl: string;
  model: string;
  apiKey: string;
  request: LlmRequest;
  signal: AbortSignal;
}

/** Resolves with the model's JSON object, or rejects with a VendorError (or the abort reason). */
export type WireAdapter = (call: WireCall) => Promise<Record<string, unknown>>;

export interface VendorReply {
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed JSON when the body is JSON, else its text. */
  body: unknown;
}

/** A completion is a few KB; anything near this is not an answer we can use. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * One HTTP exchange with a vendor. The body is always read to the end (or destroyed when oversized), so the
 * connection goes back to the pool. Transport failures become `network` VendorErrors with the key redacted;
 * an abort is rethrown untouched so the chain can tell a timeout from a client disconnect.
 */
export async function exchange(
  call: Pick<WireCall, 'provider' | 'apiKey' | 'signal'>,
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  payload?: unknown,
): Promise<VendorReply> {
  try {
    const res = await request(url, {
      method,
      headers: payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: payload === undefined ? undefined : JSON.stringify(payload),
      signal: call.signal,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) {
        res.body.destroy();
        throw new VendorError(
          'bad_output',
          call.provider.id,
          `response body over ${MAX_BODY_BYTES} bytes`,
          res.statusCode,
        );
      }
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    return { status: res.statusCode, headers: res.headers, body: parseMaybe(text) };
  } catch (err) {
    if (err instanceof VendorError || call.signal.aborted) throw err;
    const code = (err as { code?: unknown }).code;
    const what = typeof code === 'string' ? code : (err as Error).message;
    throw new VendorError('network', call.provider.id, redact(String(what), [call.apiKey]));
  }
}

function parseMaybe(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The vendor's error for a non-2xx reply, and for OpenRouter-style 200s that carry `error` in the body
 * (its numeric `error.code` stands in for the status).
 */
export function replyError(call: Pick<WireCall, 'provider' | 'apiKey'>, reply: VendorReply): VendorError | undefined {
  const { status, headers, body } = reply;
  if (status >= 200 && status < 300) {
    const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
    if (error === undefined || error === null) return undefined;
    const code = typeof error === 'object' ? Number((error as { code?: unknown }).code) : NaN;
    const asStatus = Number.isInteger(code) && code >= 400 && code <= 599 ? code : 502;
    return classifyVendorError(call.provider.id, asStatus, headers, body, [call.apiKey]);
  }
  return classifyVendorError(call.provider.id, status, headers, body, [call.apiKey]);
}

/** A `bad_output` failure: the vendor answered 200 but not with a JSON object we can use. */
export const badOutput = (call: Pick<WireCall, 'provider' | 'apiKey'>, why: string): VendorError =>
  new VendorError('bad_output', call.provider.id, redact(why, [call.apiKey]).slice(0, 300));
