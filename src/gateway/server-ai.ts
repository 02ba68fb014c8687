import { hashRequest, isValidIdempotencyKey } from '../accounts/index.js';
import type { Credits, IdempotencyRecords } from '../accounts/types.js';
import type { SiteSettings } from '../config.js';
import { ApiError, isApiError } from '../errors.js';
import type { RequestContext } from '../http/router.js';
import { readAll } from '../http/upstream.js';
import { credits } from '../observe/metrics.js';
import { paymentRequired } from './customer-checks.js';
import type { EngineClient, RelayCall } from './engine-client.js';

export interface ServerAiDeps {
  accounts: Pick<Credits, 'reserveCredit' | 'commitCredit' | 'releaseCredit'> & IdempotencyRecords;
  engine: EngineClient;
  settings: SiteSettings;
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
 * Server AI for `customerId` under an optional Idempotency-Key: a retry of a finished call gets the stored
 * answer and spends nothing; a retry while the first still runs is told to wait; the key sent with another
 * body is refused.
 */
export async function relayServerAi(
  deps: ServerAiDeps,
  customerId: string,
  ctx: RequestContext,
  call: RelayCall,
): Promise<void> {
  const { accounts } = deps;
  const key = ctx.headers['idempotency-key'];
  if (key === undefined) {
    sendAnswer(ctx, await spendCredit(deps, customerId, ctx, call));
    return;
  }
  if (!isValidIdempotencyKey(key)) {
    throw new ApiError('invalid_body', {
      message: 'Idempotency-Key must be 1 to 255 printable ASCII characters without spaces.',
      field: 'Idempotency-Key',
    });
  }
  const hash = hashRequest(call.method, call.path, call.body);
  const start = await accounts.beginIdempotent(customerId, key, hash);
  if (start.outcome === 'replay') {
    sendAnswer(ctx, { ...start.response, headers: { ...start.response.headers, 'Idempotent-Replayed': 'true' } });
    return;
  }
  if (start.outcome === 'in_progress')
    throw new ApiError('idempotency_in_progress', { headers: { 'Retry-After': '1' } });
  if (start.outcome === 'reused') throw new ApiError('idempotency_key_reused', { field: 'Idempotency-Key' });
  let answer: Answer;
  try {
    answer = await spendCredit(deps, customerId, ctx, call);
  } catch (e) {
    if (isApiError(e) && isFinal(e.status)) {
      const refusal = { status: e.status, headers: e.headers, body: Buffer.from(JSON.stringify(e.toBody())) };
      await accounts.completeIdempotent(customerId, key, refusal);
    } else {
      await accounts.abandonIdempotent(customerId, key).catch(() => {});
    }
    throw e;
  }
  if (isFinal(answer.status) && !ctx.reply.aborted) {
    await accounts.completeIdempotent(customerId, key, answer);
  } else {
    await accounts.abandonIdempotent(customerId, key);
  }
  sendAnswer(ctx, answer);
}

/**
 * One credit held before the engine is asked, spent only when a design comes back to a client that is
 * still there, given back on any failure or abort. A commit that fails after a design came back answers
 * 503 and gives the credit back: the customer retries and pays once.
 */
async function spendCredit(
  deps: ServerAiDeps,
  customerId: string,
  ctx: RequestContext,
  call: RelayCall,
): Promise<Answer> {
  const { accounts, settings } = deps;
  const reservation = await accounts.reserveCredit(customerId);
  if (reservation === null) throw paymentRequired('out_of_api_credits', settings);
  credits.labels('reserved').inc();
  let spent = false;
  try {
    const r = await deps.engine.relay(call);
    const bytes = await readAll(r, settings.maxOutputBytes);
    if (r.status !== 200 || ctx.reply.aborted) return { status: r.status, headers: r.headers, body: bytes };
    const balance = await accounts.commitCredit(reservation.id);
    spent = true;
    credits.labels('spent').inc();
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
      await accounts.releaseCredit(reservation.id).then(
        () => credits.labels('released').inc(),
        () => {
          // The reservation expires and the sweeper gives the credit back.
        },
      );
    }
  }
}
