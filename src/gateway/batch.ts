import type { KeyOwner } from '../accounts/types.js';
import type { BatchSettings } from '../config.js';
import { parseBatch } from '../batch/parse.js';
import { ApiError } from '../errors.js';
import { guarded, type Method, type RequestContext, type Route } from '../http/router.js';
import { forward, forwardStream } from '../http/upstream.js';
import { apiKeyGuard } from './api-key.js';
import { admitCustomerCall } from './customer-checks.js';
import { relayCall } from './engine-client.js';
import type { GatewayDeps } from './gateway.js';
import type { BatchItemLimiter } from './limits.js';

export interface GatewayBatchDeps extends GatewayDeps {
  /** Bulk items per customer per day: the `batch` limit class. */
  batchItems: BatchItemLimiter;
  batch: Pick<BatchSettings, 'maxItems'>;
}

const ENGINE_PATH = '/api/qr/batch';

/**
 * A batch's items against the customer's day (the `batch` class), counted from the body as the engine will
 * read it: a body that is not a batch is refused here with the engine's 400, and counts nothing.
 */
async function admitItems(deps: GatewayBatchDeps, ctx: RequestContext, customerId: string, raw: Uint8Array) {
  const items = parseBatch(raw, ctx.headers['content-type'] ?? '', ctx.query, deps.batch.maxItems).rows.length;
  const decision = await deps.batchItems.consume(customerId, 'batch', items);
  if (!decision.allowed) {
    // The limiter counted the refused items too; they were not taken.
    await deps.batchItems.reward(customerId, 'batch', items).catch(() => undefined);
    throw new ApiError('rate_limited', {
      message: `A batch of ${items} items is more than is left of ${decision.limit} bulk items a day; retry in ${decision.resetSec} s.`,
      headers: decision.headers,
    });
  }
  return items;
}

/**
 * The consumer side of bulk jobs, under /api/v1 with the caller's X-API-Key: each call is a `general` one of
 * the customer's minute (and needs a Studio pack), and a submitted batch's items count against the `batch`
 * class of the day, given back if the engine refuses the batch. The engine keeps the job under the customer
 * the relay is signed for; its ZIP and its events come through as they are made.
 */
export function gatewayBatchRoutes(deps: GatewayBatchDeps): Route[] {
  const byKey = apiKeyGuard(deps.accounts, deps.credentialFailures);
  const relay = async (ctx: RequestContext, owner: KeyOwner, method: Method, path: string, body: Uint8Array) => {
    const query = ctx.query.size > 0 ? `?${ctx.query}` : '';
    const call = relayCall({
      method,
      path: path + query,
      headers: ctx.headers,
      body,
      caller: owner,
      signal: ctx.reply.gone,
    });
    return deps.engine.relay(call);
  };
  const admitted = async (ctx: RequestContext, owner: KeyOwner) => {
    await admitCustomerCall(deps, ctx, owner.customerId, 'general');
    deps.accounts.recordCall(owner.customerId, 'general');
  };
  const jobPath = (ctx: RequestContext, rest = '') => `${ENGINE_PATH}/${encodeURIComponent(ctx.params.jobId!)}${rest}`;
  const route = (
    method: Method,
    path: string,
    summary: string,
    handle: (ctx: RequestContext, owner: KeyOwner) => Promise<void>,
  ) =>
    guarded(byKey, {
      method,
      path,
      doc: {
        summary: `${summary} Relays to ${method} ${path.replace('/api/v1', '/api')}.`,
        response: 'As the engine endpoint.',
      },
      handler: async (ctx, owner) => {
        await admitted(ctx, owner);
        await handle(ctx, owner);
      },
    });
  return [
    route(
      'POST',
      '/api/v1/qr/batch',
      'Queue a bulk job; its items count against the batch class of the day.',
      async (ctx, owner) => {
        const raw = await ctx.body();
        const items = await admitItems(deps, ctx, owner.customerId, raw);
        let relayed: Awaited<ReturnType<typeof relay>>;
        try {
          relayed = await relay(ctx, owner, 'POST', ENGINE_PATH, raw);
        } catch (e) {
          await deps.batchItems.reward(owner.customerId, 'batch', items).catch(() => undefined);
          throw e;
        }
        if (relayed.status >= 400)
          await deps.batchItems.reward(owner.customerId, 'batch', items).catch(() => undefined);
        await forward(ctx, relayed, deps.settings.maxOutputBytes);
      },
    ),
    route('GET', '/api/v1/qr/batch/:jobId', 'A bulk job’s status.', async (ctx, owner) => {
      await forward(ctx, await relay(ctx, owner, 'GET', jobPath(ctx), new Uint8Array(0)), deps.settings.maxOutputBytes);
    }),
    route('DELETE', '/api/v1/qr/batch/:jobId', 'Cancel a bulk job.', async (ctx, owner) => {
      await forward(
        ctx,
        await relay(ctx, owner, 'DELETE', jobPath(ctx), new Uint8Array(0)),
        deps.settings.maxOutputBytes,
      );
    }),
    route(
      'GET',
      '/api/v1/qr/batch/:jobId/events',
      'A bulk job’s progress as Server-Sent Events.',
      async (ctx, owner) => {
        await forwardStream(ctx, await relay(ctx, owner, 'GET', jobPath(ctx, '/events'), new Uint8Array(0)));
      },
    ),
    route('GET', '/api/v1/qr/batch/:jobId/result', 'A finished bulk job’s ZIP.', async (ctx, owner) => {
      await forwardStream(ctx, await relay(ctx, owner, 'GET', jobPath(ctx, '/result'), new Uint8Array(0)));
    }),
  ];
}
