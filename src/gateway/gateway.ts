import { hashRequest, isValidIdempotencyKey } from '../accounts/index.js';
import type { Accounts, KeyOwner } from '../accounts/types.js';
import type { SiteSettings } from '../config.js';
import { ApiError, isApiError } from '../errors.js';
import type { RequestContext, Route } from '../http/router.js';
import { type EngineClient, type RelayCall, type Relayed, relayCall } from './engine-client.js';
import { authenticate, paymentRequired, requireStudio } from './edge.js';
import type { EdgeCache, EdgeCaching } from './edge-cache.js';
import { type CustomerLimiter, rateLimitedError } from './limits.js';
import { enginePathOf, GATEWAY_ROUTES, type GatewayRoute } from './routes.js';

export interface GatewayDeps {
  accounts: Accounts;
  limiter: CustomerLimiter;
  engine: EngineClient;
  settings: SiteSettings;
  /** Answers kept on the site (QR_SITE_CACHE_MB); none when it is 0. */
  edgeCache?: EdgeCache;
}

const EMPTY = new Uint8Array(0);

/** The direct consumer endpoint: the gateway's AI call without the version prefix, same key and credits. */
const DIRECT_SERVER_AI = '/api/qr/ai/generate/server';
/** The engine's public preview route, served by the site too because the template list links to it. */
const TEMPLATE_PREVIEW = '/api/qr/templates/:id/preview';

/** Paths of the routes that take an X-API-Key: the /api/v1 gateway and the direct server-AI endpoint. */
export const KEY_PATHS: ReadonlySet<string> = new Set([...GATEWAY_ROUTES.map((r) => r.path), DIRECT_SERVER_AI]);

/** The /api/v1 routes and the site's direct server-AI endpoint. */
export function gatewayRoutes(deps: GatewayDeps): Route[] {
  const routes: Route[] = GATEWAY_ROUTES.map((route) => ({
    method: route.method,
    path: route.path,
    auth: 'public',
    doc: {
      summary: `Relays to ${route.method} ${route.enginePath} with the caller's X-API-Key checked at the edge.`,
      response: 'As the engine endpoint.',
    },
    handler: (ctx) => relayRoute(deps, route, ctx),
  }));
  const ai = GATEWAY_ROUTES.find((r) => r.spendsCredit)!;
  routes.push({ ...routes[GATEWAY_ROUTES.indexOf(ai)]!, path: DIRECT_SERVER_AI });
  routes.push({
    method: 'GET',
    path: TEMPLATE_PREVIEW,
    auth: 'public',
    doc: {
      summary: "A template's preview PNG, as the engine serves it: public, for <img> tags (the list links here).",
      response: 'The PNG.',
      produces: ['image/png'],
    },
    handler: async (ctx) => {
      const path = TEMPLATE_PREVIEW.replace(':id', encodeURIComponent(ctx.params.id!));
      const call = relayCall({
        method: 'GET',
        path,
        headers: ctx.headers,
        body: EMPTY,
        customerId: undefined,
        signal: ctx.reply.gone,
      });
      // A template's preview is a function of its id.
      await relayAndForward(deps, ctx, call, {});
    },
  });
  return routes;
}

async function relayRoute(deps: GatewayDeps, route: GatewayRoute, ctx: RequestContext): Promise<void> {
  const owner = await authenticate(deps.accounts, ctx.headers, ctx.query);
  const limit = await deps.limiter.consume(owner.customerId, route.limit);
  if (!limit.allowed) throw rateLimitedError(limit);
  // Every answer from here on, refusals included, tells the client where it stands.
  for (const [k, v] of Object.entries(limit.headers)) ctx.reply.header(k, v);
  await requireStudio(deps.accounts, owner.customerId, deps.settings);
  deps.accounts.recordCall(owner.customerId, route.limit);
  for (const [name, allowed] of Object.entries(route.allow ?? {})) {
    if (!allowed.includes(ctx.params[name]!))
      throw new ApiError('NOT_FOUND', { message: `No endpoint ${ctx.path}; the gateway opens ${allowed.join(', ')}.` });
  }
  const query = ctx.query.size > 0 ? `?${ctx.query}` : '';
  const call = relayCall({
    method: route.method,
    path: enginePathOf(route, ctx.params) + query,
    headers: ctx.headers,
    body: route.method === 'POST' ? await jsonBody(ctx) : EMPTY,
    customerId: owner.customerId,
    signal: ctx.reply.gone,
  });
  if (route.spendsCredit) {
    await relayServerAi(deps, owner, ctx, call);
    return;
  }
  // Everything above (key, limit, pack, usage count) has run: a kept answer stands in for the relay only.
  await relayAndForward(deps, ctx, call, route.edge);
}

/**
 * Relays `call` and forwards the engine's answer. With `caching`, an answer the edge cache keeps for the
 * call is given instead of relaying, and a relayed one is offered to it.
 */
async function relayAndForward(
  deps: GatewayDeps,
  ctx: RequestContext,
  call: RelayCall,
  caching: EdgeCaching | undefined,
): Promise<void> {
  const key = caching && deps.edgeCache?.keyOf(call, caching);
  if (key !== undefined && deps.edgeCache!.answer(ctx, key)) return;
  const relayed = await deps.engine.relay(call);
  await forward(ctx, relayed, deps.settings.maxOutputBytes);
  // Only once forwarded: an answer over the output limit was refused, not sent, and is not kept.
  if (key !== undefined) deps.edgeCache!.keep(key, relayed);
}

/** The body as sent, once its type is known to be JSON: the gateway relays it untouched. */
export async function jsonBody(ctx: RequestContext): Promise<Uint8Array> {
  const type = (ctx.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('multipart/')) throw new ApiError('multipart_not_supported');
  if (!/^application\/json\s*(;|$)/.test(type)) {
    throw new ApiError('invalid_body', {
      message: `The gateway accepts JSON bodies only; Content-Type was ${type === '' ? 'missing' : `"${type}"`}.`,
    });
  }
  try {
    return await ctx.body();
  } catch (e) {
    if (isApiError(e) && e.code === 'PAYLOAD_TOO_LARGE') throw new ApiError('payload_too_large', { cause: e });
    if (isApiError(e) && e.code === 'REQUEST_TIMEOUT')
      throw new ApiError('request_timeout', { message: e.message, cause: e });
    throw e;
  }
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
 * Drops an engine answer unread. A stream destroyed before its end may still emit an error; with no
 * listener that error is thrown out of the event loop and ends the process.
 */
function discard(r: Relayed): void {
  if (r.body instanceof Uint8Array) return;
  r.body.on('error', () => {});
  r.body.destroy();
}

/** The engine's answer, status, headers and bytes as they are; a large one of known length streamed. */
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

/** What a server-AI call answers, kept whole so a retry with the same Idempotency-Key can be given it again. */
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/**
 * Outcomes a retry must get again: successes and the engine's refusals of the request itself. Not stored:
 * failures of the moment (5xx, a timeout, a rate limit, no credits yet), after which a retry runs afresh.
 */
const isFinal = (status: number): boolean => status < 500 && status !== 402 && status !== 409 && status !== 429;

const sendAnswer = (ctx: RequestContext, a: Answer) => ctx.reply.send(a.status, a.headers, a.body);

/**
 * Server AI under an optional Idempotency-Key: a retry of a finished call gets the stored answer and
 * spends nothing; a retry while the first still runs is told to wait; the key sent with another body is
 * refused.
 */
export async function relayServerAi(
  deps: GatewayDeps,
  owner: Pick<KeyOwner, 'customerId'>,
  ctx: RequestContext,
  call: RelayCall,
): Promise<void> {
  const { accounts } = deps;
  const key = ctx.headers['idempotency-key'];
  if (key === undefined) {
    sendAnswer(ctx, await spendCredit(deps, owner, ctx, call));
    return;
  }
  if (!isValidIdempotencyKey(key)) {
    throw new ApiError('invalid_body', {
      message: 'Idempotency-Key must be 1 to 255 printable ASCII characters without spaces.',
      field: 'Idempotency-Key',
    });
  }
  const hash = hashRequest(call.method, call.path, call.body);
  const start = await accounts.beginIdempotent(owner.customerId, key, hash);
  if (start.outcome === 'replay') {
    sendAnswer(ctx, { ...start.response, headers: { ...start.response.headers, 'Idempotent-Replayed': 'true' } });
    return;
  }
  if (start.outcome === 'in_progress')
    throw new ApiError('idempotency_in_progress', { headers: { 'Retry-After': '1' } });
  if (start.outcome === 'reused') throw new ApiError('idempotency_key_reused', { field: 'Idempotency-Key' });
  let answer: Answer;
  try {
    answer = await spendCredit(deps, owner, ctx, call);
  } catch (e) {
    if (isApiError(e) && isFinal(e.status)) {
      const refusal = { status: e.status, headers: e.headers, body: Buffer.from(JSON.stringify(e.toBody())) };
      await accounts.completeIdempotent(owner.customerId, key, refusal);
    } else {
      await accounts.abandonIdempotent(owner.customerId, key).catch(() => {});
    }
    throw e;
  }
  if (isFinal(answer.status) && !ctx.reply.aborted) {
    await accounts.completeIdempotent(owner.customerId, key, answer);
  } else {
    await accounts.abandonIdempotent(owner.customerId, key);
  }
  sendAnswer(ctx, answer);
}

/**
 * One credit held before the engine is asked, spent only when a design comes back to a client that is
 * still there, given back on any failure or abort. A commit that fails after a design came back answers
 * 503 and gives the credit back: the customer retries and pays once.
 */
async function spendCredit(
  deps: GatewayDeps,
  owner: Pick<KeyOwner, 'customerId'>,
  ctx: RequestContext,
  call: RelayCall,
): Promise<Answer> {
  const { accounts, settings } = deps;
  const reservation = await accounts.reserveCredit(owner.customerId);
  if (reservation === null) throw paymentRequired('out_of_api_credits', settings);
  let spent = false;
  try {
    const r = await deps.engine.relay(call);
    const bytes = await readAll(r, settings.maxOutputBytes);
    if (r.status !== 200 || ctx.reply.aborted) return { status: r.status, headers: r.headers, body: bytes };
    const balance = await accounts.commitCredit(reservation.id);
    spent = true;
    const remaining = String(balance.available);
    if (!(r.headers['content-type'] ?? '').startsWith('application/json'))
      return { status: 200, headers: { ...r.headers, 'X-Credits-Remaining': remaining }, body: bytes };
    const answer = JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, unknown>;
    // The body is no longer the engine's, so neither is its ETag.
    const { etag: _, ...headers } = r.headers;
    const body = Buffer.from(JSON.stringify({ ...answer, creditsRemaining: balance.available }));
    return { status: 200, headers: { ...headers, 'X-Credits-Remaining': remaining }, body };
  } finally {
    if (!spent) {
      await accounts.releaseCredit(reservation.id).catch(() => {
        // The reservation expires and the sweeper gives the credit back.
      });
    }
  }
}
