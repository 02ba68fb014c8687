import type { Method } from '../http/router.js';
import type { LimitClass } from '../config.js';
import type { EdgeCaching } from './edge-cache.js';

/** One public gateway path and the engine path it is relayed to. */
export interface GatewayRoute {
  method: Method;
  /** Under /api/v1, with `:name` parameters. */
  path: string;
  /** The engine path, with the same parameters. */
  enginePath: string;
  limit: LimitClass;
  /** Parameter values the gateway opens, where it opens fewer than the engine. */
  allow?: Record<string, readonly string[]>;
  /** Spends one AI credit on success (reserved before the relay, released on failure). */
  spendsCredit?: boolean;
  /**
   * The engine's answer is a function of the request (edge-cache.ts), so the site may keep it. Not the
   * ping (uptime, counters), not server AI (an LLM's answer, and a credit).
   */
  edge?: EdgeCaching;
}

/** Exactly the consumer gateway's route table (README, "Consumer gateway routes"). */
export const GATEWAY_ROUTES: readonly GatewayRoute[] = [
  {
    method: 'POST',
    path: '/api/v1/qr/generate',
    enginePath: '/api/qr/generate',
    limit: 'generation',
    edge: { fetchesImages: true },
  },
  {
    method: 'POST',
    path: '/api/v1/qr/ai/generate/server',
    enginePath: '/api/qr/ai/generate/server',
    limit: 'ai',
    spendsCredit: true,
  },
  {
    method: 'GET',
    path: '/api/v1/qr/templates',
    enginePath: '/api/qr/templates',
    limit: 'general',
    // Its preview links point at the Host the client called.
    edge: { vary: ['host'] },
  },
  {
    method: 'POST',
    path: '/api/v1/qr/templates/:id',
    enginePath: '/api/qr/templates/:id',
    limit: 'generation',
    edge: { fetchesImages: true },
  },
  {
    method: 'POST',
    path: '/api/v1/qr/content/:type',
    enginePath: '/api/qr/content/:type',
    limit: 'general',
    allow: { type: ['wifi', 'vcard', 'geo'] },
    edge: {},
  },
  { method: 'GET', path: '/api/v1/qr/ai/providers', enginePath: '/api/qr/ai/providers', limit: 'general', edge: {} },
  { method: 'GET', path: '/api/v1/ping', enginePath: '/api/ping', limit: 'general' },
];

/** The engine path for a matched gateway route, its parameters encoded again. */
export const enginePathOf = (route: GatewayRoute, params: Record<string, string>): string =>
  route.enginePath.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
