import { createHmac, hash, randomUUID, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors.js';
import type { ReplayMemory } from './replay.js';

/**
 * The consumer site relays requests to the engine with these headers instead of the user's API key
 * (names lower-case, as uWS and undici report them):
 *   x-qr-relay-timestamp  unix seconds when the site signed
 *   x-qr-relay-nonce      a random UUID (122 random bits), unique per relayed request
 *   x-qr-relay-customer   the customer the site verified the key of
 *   x-qr-relay-signature  `v1=<hex>`, several comma-separated during a rotation of the secret
 * The signature is HMAC-SHA-256 with the shared secret (QR_INTERNAL_SECRET) over
 *   v1 \n <timestamp> \n <nonce> \n <METHOD> \n <path?query> \n <SHA-256 hex of the body> \n <customer id>
 * The nonce is what tells two identical requests of one customer in the same second apart; without it the
 * second would be refused as a replay.
 *
 * A relay that carries the request's id (issue 29) sends it as `x-request-id`, and its W3C trace context,
 * if any, as `traceparent`, and signs them too: besides the `v1=` values, `v2=` values over
 *   v2 \n <timestamp> \n <nonce> \n <METHOD> \n <path?query> \n <body hash> \n <customer id> \n <request id> \n <traceparent or empty>
 * An engine that knows v2 checks the `v2=` values when there are any, so the ids it logs are the site's;
 * an engine from before ignores them and checks `v1=` (an engine's log then takes the id as a caller's).
 */
export const RELAY_HEADERS = {
  timestamp: 'x-qr-relay-timestamp',
  nonce: 'x-qr-relay-nonce',
  customer: 'x-qr-relay-customer',
  signature: 'x-qr-relay-signature',
} as const;

/** The request's id and trace context: signed by `v2=` values, yet no relay header (any request may carry them). */
export const RELAY_ID_HEADERS = { requestId: 'x-request-id', traceparent: 'traceparent' } as const;

/** A relay is accepted while |now − timestamp| ≤ this many seconds, in either direction. */
export const RELAY_WINDOW_SEC = 60;

/** Bounds the work a forged header can cause: one HMAC comparison per value and secret. */
const MAX_SIGNATURES = 4;
const TIMESTAMP = /^\d{1,12}$/;
const NONCE = /^[A-Za-z0-9_-]{16,64}$/;
/** Printable ASCII without spaces: it travels in a header, and cannot contain the separator. */
const CUSTOMER_ID = /^[\x21-\x7e]{1,128}$/;
const SIGNATURE_VALUE = /^(v[12])=([0-9a-f]{64})$/i;

/**
 * The customer id the site signs the anonymous Studio's relays for (a visitor): no customer's takes this
 * form (theirs are cus_…), so the engine tells a visitor's render from a customer's (src/api/studio-preview.ts).
 */
export const VISITOR_CUSTOMER_ID = 'studio-anonymous';

export interface RelayedRequest {
  method: string;
  /** The request target as sent on the wire: path and query (`/api/qr/generate?x=1`), percent-encoded. */
  pathWithQuery: string;
  body: Uint8Array | string;
  customerId: string;
}

/**
 * What the site signs: the body itself, or its SHA-256 (`bodySha256`) when the caller has it already (the
 * gateway hashes each body once, for the signature and for its edge cache key). The engine always hashes
 * the bytes it received.
 */
export type SignedBody = Pick<RelayedRequest, 'body'> | { bodySha256: string };

export type SignRelayOptions = Omit<RelayedRequest, 'body'> &
  SignedBody & {
    /** Several secrets give one `v1=` value each: a site can sign for engines on either side of a rotation. */
    secret: string | readonly string[];
    /** Milliseconds since the epoch; default Date.now(). */
    now?: number;
    /** The request's id (1–128 of [A-Za-z0-9._:-]), sent as x-request-id and signed (v2). */
    requestId?: string;
    /** Its W3C traceparent, sent and signed with the id. */
    traceparent?: string;
  };

export interface VerifyRelayOptions {
  /** The current secret first, then the previous one during a rotation; empty: no relay is accepted. */
  secrets: readonly string[];
  method: string;
  pathWithQuery: string;
  body: Uint8Array | string;
  /** The request's headers, lower-case names. */
  headers: Readonly<Record<string, string | undefined>>;
  replay: ReplayMemory;
  /** Milliseconds since the epoch; default Date.now(). */
  now?: number;
}

/** What a verified relay establishes. */
export interface RelayIdentity {
  customerId: string;
}

/** The headers that relay `request` to an engine holding `secret` (current or previous). */
export function signRelay({
  secret,
  now = Date.now(),
  requestId,
  traceparent,
  ...request
}: SignRelayOptions): Record<string, string> {
  if (!CUSTOMER_ID.test(request.customerId))
    throw new Error('signRelay: the customer id must be 1–128 printable ASCII characters without spaces');
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new Error('signRelay: no secret');
  const timestamp = String(Math.floor(now / 1000));
  // 122 random bits; randomUUID draws from a buffered batch instead of asking the system on every relay
  // (bench/README.md, "Per-item costs of a relay").
  const nonce = randomUUID();
  const bodyHash = 'bodySha256' in request ? request.bodySha256 : bodySha256(request.body);
  const signed = signedString(timestamp, nonce, request, bodyHash);
  const values = secrets.map((s) => `v1=${hmac(s, signed).toString('hex')}`);
  const headers: Record<string, string> = {
    [RELAY_HEADERS.timestamp]: timestamp,
    [RELAY_HEADERS.nonce]: nonce,
    [RELAY_HEADERS.customer]: request.customerId,
  };
  if (requestId !== undefined && REQUEST_ID.test(requestId)) {
    const trace = traceparent !== undefined && TRACE_HEADER.test(traceparent) ? traceparent : '';
    const signedIds = withIds(signed, requestId, trace);
    for (const s of secrets) values.push(`v2=${hmac(s, signedIds).toString('hex')}`);
    headers[RELAY_ID_HEADERS.requestId] = requestId;
    if (trace !== '') headers[RELAY_ID_HEADERS.traceparent] = trace;
  }
  headers[RELAY_HEADERS.signature] = values.join(',');
  return headers;
}

/** What a request id and a traceparent may be to be signed: one header line each (observe/log.ts checks more). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const TRACE_HEADER = /^[\x21-\x7e]{1,256}$/;

/** The v2 string: the v1 string's fields, then the request id and the traceparent (or nothing). */
const withIds = (v1: string, requestId: string, traceparent: string): string =>
  `v2${v1.slice(2)}\n${requestId}\n${traceparent}`;

/** Whether a request claims to be a relay: it carries any of the relay headers. */
export const isRelayed = (headers: Readonly<Record<string, string | undefined>>): boolean =>
  Object.values(RELAY_HEADERS).some((name) => headers[name] !== undefined);

/**
 * Checks a relayed request and records it as seen. Refusals, in this order: malformed or missing relay
 * headers, no secret configured, or no `v1=` value matching a secret → INVALID_INTERNAL_SIGNATURE; a
 * timestamp more than RELAY_WINDOW_SEC away from now → INTERNAL_TS_EXPIRED (only a correctly signed
 * request learns that its clock is off); the same signed request seen before → INVALID_INTERNAL_SIGNATURE.
 */
export async function verifyRelay(options: VerifyRelayOptions): Promise<RelayIdentity> {
  const { headers, secrets, now = Date.now() } = options;
  const timestamp = headers[RELAY_HEADERS.timestamp];
  const nonce = headers[RELAY_HEADERS.nonce];
  const customerId = headers[RELAY_HEADERS.customer];
  const presented = parseSignatures(headers[RELAY_HEADERS.signature]);
  if (
    timestamp === undefined ||
    !TIMESTAMP.test(timestamp) ||
    nonce === undefined ||
    !NONCE.test(nonce) ||
    customerId === undefined ||
    !CUSTOMER_ID.test(customerId) ||
    presented === undefined
  )
    throw refused('The relay headers are missing or malformed.');
  if (secrets.length === 0) throw refused('This engine accepts no relayed requests (QR_INTERNAL_SECRET is not set).');

  const v1 = signedString(timestamp, nonce, { ...options, customerId }, bodySha256(options.body));
  // The v2 values when there are any: they also cover the request id and trace context the engine logs.
  const requestId = headers[RELAY_ID_HEADERS.requestId];
  const v2 = presented.v2.length > 0 && requestId !== undefined;
  const signed = v2 ? withIds(v1, requestId, headers[RELAY_ID_HEADERS.traceparent] ?? '') : v1;
  const values = v2 ? presented.v2 : presented.v1;
  let matched = false;
  for (const secret of secrets) {
    const expected = hmac(secret, signed);
    // Every comparison runs, so the time taken does not say which value or secret matched.
    for (const value of values) matched = timingSafeEqual(value, expected) || matched;
  }
  if (!matched) throw refused('The relay signature does not match.');

  const nowSec = Math.floor(now / 1000);
  const ts = Number(timestamp);
  if (Math.abs(nowSec - ts) > RELAY_WINDOW_SEC)
    throw new ApiError('INTERNAL_TS_EXPIRED', {
      message: `The relay timestamp is ${nowSec - ts} s from this engine's clock; at most ±${RELAY_WINDOW_SEC} s is accepted.`,
    });

  // The id covers everything signed, so adding or swapping a `v1=` value does not make a replay new.
  // crypto.hash: one call without a Hash object, cheaper than createHash on inputs this short.
  const id = (hash('sha256', signed, 'buffer') as Buffer).subarray(0, 16).toString('base64url');
  if (!(await options.replay.firstSighting(id, ts + RELAY_WINDOW_SEC + 1, nowSec)))
    throw refused('This relayed request was already received (replayed).');
  return { customerId };
}

const refused = (message: string) => new ApiError('INVALID_INTERNAL_SIGNATURE', { message });

const hmac = (secret: string, data: string): Buffer => createHmac('sha256', secret).update(data).digest();

/** `/a?` and `/a` are the same target: uWS reports an empty query either way. */
const target = (pathWithQuery: string): string =>
  pathWithQuery.endsWith('?') ? pathWithQuery.slice(0, -1) : pathWithQuery;

/** The SHA-256 of a relayed body, hex, as the signature covers it. */
export const bodySha256 = (body: Uint8Array | string): string => hash('sha256', body, 'hex');

function signedString(timestamp: string, nonce: string, r: Omit<RelayedRequest, 'body'>, bodyHash: string): string {
  return ['v1', timestamp, nonce, r.method.toUpperCase(), target(r.pathWithQuery), bodyHash, r.customerId].join('\n');
}

/**
 * The `v1=` and `v2=` values of the header as 32-byte buffers; undefined when there is no v1 value, or too
 * many of either.
 */
function parseSignatures(header: string | undefined): { v1: Buffer[]; v2: Buffer[] } | undefined {
  if (header === undefined) return undefined;
  const found = { v1: [] as Buffer[], v2: [] as Buffer[] };
  for (const part of header.split(',')) {
    const m = SIGNATURE_VALUE.exec(part.trim());
    if (m !== null) found[m[1]!.toLowerCase() as 'v1' | 'v2'].push(Buffer.from(m[2]!, 'hex'));
  }
  if (found.v1.length === 0 || found.v1.length > MAX_SIGNATURES || found.v2.length > MAX_SIGNATURES) return undefined;
  return found;
}
