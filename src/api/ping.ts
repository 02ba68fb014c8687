import type { Route } from '../http/router.js';
import type { Service } from '../service.js';

/**
 * GET /api/ping: liveness plus what an operator wants at a glance (pool, cache, memory by part, native
 * build).
 */
export const pingRoutes = (service: Service): Route[] => [
  {
    method: 'GET',
    path: '/api/ping',
    doc: { summary: 'Liveness, version, uptime, pool and cache state.', response: 'Service status.' },
    handler: (ctx) => {
      const mem = process.memoryUsage();
      const workers = service.pool.workerMemory();
      ctx.reply.json(200, {
        success: true,
        status: 'ok',
        version: service.version,
        uptimeSeconds: Math.round((Date.now() - service.startedAt) / 1000),
        pool: service.pool.stats(),
        cache: service.cache.stats(),
        // The process's resident memory and the main thread's heap; each worker's parts as of its last task.
        memory: { rssBytes: mem.rss, heapUsedBytes: mem.heapUsed, externalBytes: mem.external, workers },
        server: { native: true, uws: service.uwsBinary.split('/').pop() },
      });
    },
  },
];
