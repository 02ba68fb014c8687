import type { BatchSettings } from '../config.js';
import { parseBatch } from '../batch/parse.js';
import { ApiError } from '../errors.js';
import { guarded, type Method, type RequestContext, type Route, type RouteDoc } from '../http/router.js';
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

/** Whom a bulk call acts for: a key's owner, or a signed-in account's customer. */
export interface BatchCaller {
  customerId: string;
}

export type BatchHandler = (ctx: RequestContext, caller: BatchCaller) => Promise<void>;

/** The five bulk calls, relayed to the engine for the caller: the gateway's and the Studio's alike. */
export interface BatchRelays {
  submit: BatchHandler;
  status: BatchHandler;
  cancel: BatchHandler;
  events: BatchHandler;
  result: BatchHandler;
}

/**
 * The consumer side of bulk jobs: each call is a `general` one of the customer's minute (and needs a Studio
 * pack), and a submitted batch's items count against the `batch` class of the day, given back if the engine
 * refuses the batch. The engine keeps the job under the customer the relay is signed for; its ZIP and its
 * events come through as they are made.
 */
export function batchRelays(deps: GatewayBatchDeps): BatchRelays {
  const relay = async (ctx: RequestContext, caller: BatchCaller, method: Method, path: string, body: Uint8Array) => {
    const query = ctx.query.size > 0 ? `?${ctx.query}` : '';
    const call = relayCall({ method, path: path + query, headers: ctx.headers, body, caller, signal: ctx.reply.gone });
    return deps.engine.relay(call);
  };
  const admitted = async (ctx: RequestContext, caller: BatchCaller) => {
    await admitCustomerCall(deps, ctx, caller.customerId, 'general');
    deps.accounts.recordCall(caller.customerId, 'general');
  };
  const jobPath = (ctx: RequestContext, rest = '') => `${ENGINE_PATH}/${encodeURIComponent(ctx.params.jobId!)}${rest}`;
  const none = new Uint8Array(0);
  const handler =
    (handle: BatchHandler): BatchHandler =>
    async (ctx, caller) => {
      await admitted(ctx, caller);
      await handle(ctx, caller);
    };
  return {
    submit: handler(async (ctx, caller) => {
      const raw = await ctx.body();
      const items = await admitItems(deps, ctx, caller.customerId, raw);
      let relayed: Awaited<ReturnType<typeof relay>>;
      try {
        relayed = await relay(ctx, caller, 'POST', ENGINE_PATH, raw);
      } catch (e) {
        await deps.batchItems.reward(caller.customerId, 'batch', items).catch(() => undefined);
        throw e;
      }
      if (relayed.status >= 400) await deps.batchItems.reward(caller.customerId, 'batch', items).catch(() => undefined);
      await forward(ctx, relayed, deps.settings.maxOutputBytes);
    }),
    status: handler(async (ctx, caller) => {
      await forward(ctx, await relay(ctx, caller, 'GET', jobPath(ctx), none), deps.settings.maxOutputBytes);
    }),
    cancel: handler(async (ctx, caller) => {
      await forward(ctx, await relay(ctx, caller, 'DELETE', jobPath(ctx), none), deps.settings.maxOutputBytes);
    }),
    events: handler(async (ctx, caller) => {
      await forwardStream(ctx, await relay(ctx, caller, 'GET', jobPath(ctx, '/events'), none));
    }),
    result: handler(async (ctx, caller) => {
      await forwardStream(ctx, await relay(ctx, caller, 'GET', jobPath(ctx, '/result'), none));
    }),
  };
}

/** A bulk job "Try it out" sends: two links, in the dots of the shared design. */
const BATCH_EXAMPLE = {
  config: { moduleShape: 'dots' },
  items: [
    { content: 'https://example.com/table/1', filename: 'table-1.png' },
    { content: 'https://example.com/table/2', filename: 'table-2.png' },
  ],
};
const JOB_ID = { jobId: { description: 'The jobId POST /api/v1/qr/batch answered.' } };
const JOB_ANSWERS = { 401: 'missing_api_key, invalid_api_key.', 404: 'BATCH_NOT_FOUND: no job of yours by that id.' };

/** The bulk routes under /api/v1, behind the caller's X-API-Key. */
export function gatewayBatchRoutes(deps: GatewayBatchDeps): Route[] {
  const byKey = apiKeyGuard(deps.accounts, deps.credentialFailures);
  const relays = batchRelays(deps);
  const route = (method: Method, path: string, summary: string, handle: BatchHandler, doc: Partial<RouteDoc>) =>
    guarded(byKey, {
      method,
      path,
      doc: {
        summary: `${summary} Relays to ${method} ${path.replace('/api/v1', '/api')}.`,
        response: 'As the engine endpoint.',
        ...doc,
      },
      handler: handle,
    });
  return [
    route(
      'POST',
      '/api/v1/qr/batch',
      'Queue a bulk job; its items count against the batch class of the day.',
      relays.submit,
      {
        body: 'batchRequest',
        status: 202,
        response: '{ success, jobId, status, total, statusUrl, resultUrl }: the job, queued.',
        examples: { tables: { summary: 'Two links in dots', value: BATCH_EXAMPLE } },
        answers: {
          400: 'A body that is not a batch, with field.',
          402: 'studio_required.',
          429: 'rate_limited: more items than are left of the day’s.',
        },
      },
    ),
    route('GET', '/api/v1/qr/batch/:jobId', 'A bulk job’s status.', relays.status, {
      params: JOB_ID,
      response: '{ success, jobId, status, total, done, failed, progress, resultUrl once finished }',
      answers: JOB_ANSWERS,
    }),
    route('DELETE', '/api/v1/qr/batch/:jobId', 'Cancel a bulk job.', relays.cancel, {
      params: JOB_ID,
      response: 'The job, cancelled if it was still queued or running; a finished job as it finished.',
      answers: JOB_ANSWERS,
    }),
    route('GET', '/api/v1/qr/batch/:jobId/events', 'A bulk job’s progress as Server-Sent Events.', relays.events, {
      params: JOB_ID,
      response: 'text/event-stream: a progress event at once, at each change and when the job finishes.',
      produces: ['text/event-stream'],
      answers: JOB_ANSWERS,
    }),
    route('GET', '/api/v1/qr/batch/:jobId/result', 'A finished bulk job’s ZIP.', relays.result, {
      params: JOB_ID,
      response: 'application/zip: one file per rendered item and manifest.csv.',
      produces: ['application/zip'],
      answers: { ...JOB_ANSWERS, 409: 'BATCH_NOT_FINISHED, with Retry-After.' },
    }),
  ];
}
