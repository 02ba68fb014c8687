import { ApiError } from '../errors.js';
import { exposition } from '../observe/metrics.js';
import { isLoopbackAddress } from './address.js';
import { makeSecretCheck } from './auth.js';
import type { Route } from './router.js';

/*
 * The operator's endpoints of both roles (issue 29): GET /metrics, GET /healthz, GET /readyz. Public as
 * routes (no key, no session, no proxy secret): /metrics checks its own caller, the other two say nothing
 * but whether the process answers and whether it can serve.
 */

/**
 * Who may read /metrics: a loopback client, or one presenting `Authorization: Bearer <QR_METRICS_TOKEN>`
 * (compared in constant time). Without a token configured, no one else.
 */
export function metricsAllowed(
  remoteAddress: string,
  authorization: string | undefined,
  check: ((presented: string | undefined) => boolean) | undefined,
): boolean {
  if (isLoopbackAddress(remoteAddress)) return true;
  if (check === undefined || authorization === undefined) return false;
  const m = /^Bearer +(\S+) *$/i.exec(authorization);
  return m !== null && check(m[1]);
}

/** The reason /readyz gives while a role drains after SIGTERM. */
export const DRAINING = 'draining: finishing the requests it accepted before it stops';

export interface OpsOptions {
  role: 'engine' | 'site';
  /** QR_METRICS: off, the process counts nothing and GET /metrics is not a route (404). */
  metrics: boolean;
  metricsToken: string | undefined;
  /** Why the process cannot serve yet (workers loading, the store down), or undefined when it can. */
  notReady(): Promise<string | undefined> | string | undefined;
  /** True once a drain has begun (SIGTERM): /readyz answers 503 DRAINING from then on. */
  draining(): boolean;
}

export function opsRoutes({ role, metrics, metricsToken, notReady, draining }: OpsOptions): Route[] {
  const check = metricsToken === undefined || metricsToken === '' ? undefined : makeSecretCheck(metricsToken);
  const metricsRoute: Route = {
    method: 'GET',
    path: '/metrics',
    auth: 'public',
    doc: {
      summary: `The ${role}'s metrics in the Prometheus text format: loopback clients, or Authorization: Bearer QR_METRICS_TOKEN.`,
      response: 'Prometheus text exposition 0.0.4.',
      produces: ['text/plain'],
    },
    handler: async (ctx) => {
      if (!metricsAllowed(ctx.remoteAddress, ctx.headers.authorization, check))
        throw new ApiError('UNAUTHORIZED', {
          message: 'GET /metrics answers loopback clients, and others with Authorization: Bearer QR_METRICS_TOKEN.',
        });
      const { contentType, body } = await exposition();
      ctx.reply.send(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }, body);
    },
  };
  return [
    ...(metrics ? [metricsRoute] : []),
    {
      method: 'GET',
      path: '/healthz',
      auth: 'public',
      doc: { summary: `Liveness of the ${role}, for load balancers; no key needed.`, response: '{ success, status }' },
      handler: (ctx) => ctx.reply.json(200, { success: true, status: 'ok', role }, { 'Cache-Control': 'no-store' }),
    },
    {
      method: 'GET',
      path: '/readyz',
      auth: 'public',
      doc: {
        summary: `Readiness of the ${role}: 200 when it can serve, 503 with the reason while it cannot.`,
        response: '{ success, status }',
      },
      handler: async (ctx) => {
        const checked = draining() ? DRAINING : await notReady();
        // Read again after the check (the site's is a round trip to its store): a drain begun meanwhile adds
        // `Connection: close` to this answer, and a 200 must not go out with it, or a client that saw
        // "ready" on a kept connection finds that connection closed and new ones refused.
        const reason = draining() ? DRAINING : checked;
        if (reason === undefined)
          ctx.reply.json(200, { success: true, status: 'ready', role }, { 'Cache-Control': 'no-store' });
        else
          ctx.reply.json(503, { success: false, status: 'not_ready', role, reason }, { 'Cache-Control': 'no-store' });
      },
    },
  ];
}
