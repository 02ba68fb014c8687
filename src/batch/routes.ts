import { isVisitor } from '../api/studio-preview.js';
import { ApiError } from '../errors.js';
import type { RequestContext, Route } from '../http/router.js';
import { marketplaceCaller } from '../marketplace/index.js';
import type { Service } from '../service.js';
import type { BatchJobs } from './index.js';
import type { JobRow } from './jobs.js';
import { parseBatch } from './parse.js';

/** How often the events stream looks at the job, and how often it says it is still there when nothing moved. */
const EVENTS_POLL_MS = 500;
const EVENTS_KEEPALIVE_MS = 15_000;

const FINISHED: ReadonlySet<string> = new Set(['done', 'failed', 'cancelled']);

/**
 * Whose job a request may see: the consumer customer a relay acts for, or the marketplace user the proxy
 * names. The anonymous Studio has no bulk jobs.
 */
function ownerOf(ctx: RequestContext, service: Service): string {
  if (isVisitor(ctx)) throw new ApiError('NOT_FOUND', { message: 'Bulk jobs need an account.' });
  if (ctx.customerId !== undefined) return `customer:${ctx.customerId}`;
  const { user } = marketplaceCaller(ctx.headers, service.config.marketplace, service.marketplace.plans);
  return `marketplace:${user}`;
}

/** Links in answers point at the path the caller used: the site's /api/v1 for a relayed customer. */
const baseOf = (ctx: RequestContext) => (ctx.customerId !== undefined ? '/api/v1/qr/batch' : '/api/qr/batch');

const jobNotFound = (id: string) => new ApiError('BATCH_NOT_FOUND', { message: `No bulk job ${id}.`, field: 'jobId' });

function describe(ctx: RequestContext, job: JobRow) {
  const settled = job.done + job.failed;
  const finished = FINISHED.has(job.status);
  return {
    success: true,
    jobId: job.id,
    status: job.status,
    total: job.total,
    done: job.done,
    failed: job.failed,
    progress: job.total === 0 ? 1 : Math.round((settled / job.total) * 1000) / 1000,
    createdAt: job.createdAt.toISOString(),
    ...(job.finishedAt && { finishedAt: job.finishedAt.toISOString() }),
    ...(finished && { resultUrl: `${baseOf(ctx)}/${job.id}/result` }),
  };
}

async function ownJob(
  ctx: RequestContext,
  service: Service,
  batches: BatchJobs,
): Promise<{ job: JobRow; owner: string }> {
  const owner = ownerOf(ctx, service);
  const job = await batches.job(ctx.params.jobId!, owner);
  if (job === null) throw jobNotFound(ctx.params.jobId!);
  return { job, owner };
}

/** Server-Sent Events of a job's progress: one at once, one at each change, the last when it has finished. */
async function streamEvents(ctx: RequestContext, batches: BatchJobs, first: JobRow, owner: string): Promise<void> {
  const event = (job: JobRow) => `event: progress\ndata: ${JSON.stringify(describe(ctx, job))}\n\n`;
  const headers = { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' };
  if (!(await ctx.reply.open(200, headers, event(first)))) return;
  let last = JSON.stringify(first);
  let quietSince = Date.now();
  let job: JobRow | null = first;
  while (job !== null && !FINISHED.has(job.status) && !ctx.reply.aborted) {
    await new Promise((r) => setTimeout(r, EVENTS_POLL_MS));
    job = await batches.job(first.id, owner);
    if (job === null) break;
    const now = JSON.stringify(job);
    if (now !== last) {
      last = now;
      quietSince = Date.now();
      if (!(await ctx.reply.write(event(job)))) return;
    } else if (Date.now() - quietSince > EVENTS_KEEPALIVE_MS) {
      quietSince = Date.now();
      if (!(await ctx.reply.write(': still running\n\n'))) return;
    }
  }
  ctx.reply.end();
}

/** The bulk routes of the engine: a list or a CSV in, a ZIP of verified codes out (README, "Bulk jobs"). */
export const batchRoutes = (service: Service, batches: BatchJobs): Route[] => [
  {
    method: 'POST',
    path: '/api/qr/batch',
    metering: 'own',
    doc: {
      summary:
        'Queue a bulk job: JSON {config, items:[{content, filename?, config?}]} or text/csv with a content column (shared design in the config query parameter). Each item counts as one call.',
      body: 'batchRequest',
      status: 202,
      response: 'The job, queued: its jobId, total, statusUrl and resultUrl.',
    },
    handler: async (ctx) => {
      const owner = ownerOf(ctx, service);
      const raw = await ctx.body();
      const input = parseBatch(raw, ctx.headers['content-type'] ?? '', ctx.query, service.config.batch.maxItems);
      const giveBack = await service.marketplace.chargeItems(
        ctx.headers,
        ctx.customerId !== undefined,
        input.rows.length,
      );
      let job: JobRow;
      try {
        job = await batches.submit(owner, input);
      } catch (e) {
        await giveBack().catch(() => undefined);
        throw e;
      }
      const base = `${baseOf(ctx)}/${job.id}`;
      ctx.reply.json(202, {
        success: true,
        jobId: job.id,
        status: job.status,
        total: job.total,
        statusUrl: base,
        resultUrl: `${base}/result`,
      });
    },
  },
  {
    method: 'GET',
    path: '/api/qr/batch/:jobId',
    metering: 'own',
    doc: { summary: "A bulk job's status and progress (not counted as a call).", response: 'The job.' },
    handler: async (ctx) => {
      const { job } = await ownJob(ctx, service, batches);
      ctx.reply.json(200, describe(ctx, job), { 'Cache-Control': 'no-store' });
    },
  },
  {
    method: 'DELETE',
    path: '/api/qr/batch/:jobId',
    metering: 'own',
    doc: { summary: 'Cancel a bulk job still queued or running.', response: 'The job, cancelled.' },
    handler: async (ctx) => {
      const owner = ownerOf(ctx, service);
      const job = await batches.cancel(ctx.params.jobId!, owner);
      if (job === null) throw jobNotFound(ctx.params.jobId!);
      ctx.reply.json(200, describe(ctx, job));
    },
  },
  {
    method: 'GET',
    path: '/api/qr/batch/:jobId/events',
    metering: 'own',
    doc: {
      summary: "A bulk job's progress as Server-Sent Events until it finishes.",
      response: 'text/event-stream',
      produces: ['text/event-stream'],
    },
    handler: async (ctx) => {
      const { job, owner } = await ownJob(ctx, service, batches);
      await streamEvents(ctx, batches, job, owner);
    },
  },
  {
    method: 'GET',
    path: '/api/qr/batch/:jobId/result',
    metering: 'own',
    doc: {
      summary: "A finished bulk job's ZIP: one file per rendered row and manifest.csv, streamed.",
      response: 'application/zip',
      produces: ['application/zip'],
    },
    handler: async (ctx) => {
      const { job } = await ownJob(ctx, service, batches);
      if (!FINISHED.has(job.status))
        throw new ApiError('BATCH_NOT_FINISHED', {
          message: `Bulk job ${job.id} is ${job.status} (${job.done + job.failed} of ${job.total}); its result is ready once it has finished.`,
          headers: { 'Retry-After': '2' },
        });
      const chunks = batches.zip(job.id);
      const first = await chunks.next();
      const headers = {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="qr-batch-${job.id}.zip"`,
        'Cache-Control': 'no-store',
      };
      if (!(await ctx.reply.open(200, headers, first.done ? new Uint8Array(0) : first.value))) {
        await chunks.return(undefined);
        return;
      }
      try {
        for await (const chunk of chunks) if (!(await ctx.reply.write(chunk))) return;
      } catch (e) {
        // The store failed half way: the client sees the ZIP cut short, never ended as if whole.
        ctx.reply.cut();
        throw e;
      }
      ctx.reply.end();
    },
  },
];
