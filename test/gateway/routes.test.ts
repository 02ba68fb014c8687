/**
 * The gateway's route table (src/gateway/routes.ts) as the README's "Consumer gateway routes" states it,
 * and the engine path each matched route is relayed to, its parameters encoded again.
 */
import { describe, expect, it } from 'vitest';
import { enginePathOf, GATEWAY_ROUTES, type GatewayRoute } from '../../src/gateway/routes.js';

const route = (path: string): GatewayRoute => GATEWAY_ROUTES.find((r) => r.path === path)!;
const params = (path: string) => [...path.matchAll(/:(\w+)/g)].map(([, name]) => name);

describe('GATEWAY_ROUTES', () => {
  it('is the contract’s table: each /api/v1 route, its engine path, its limit class', () => {
    expect(GATEWAY_ROUTES.map((r) => `${r.method} ${r.path} → ${r.enginePath} (${r.limit})`)).toEqual([
      'POST /api/v1/qr/generate → /api/qr/generate (generation)',
      'POST /api/v1/qr/ai/generate/server → /api/qr/ai/generate/server (ai)',
      'GET /api/v1/qr/templates → /api/qr/templates (general)',
      'POST /api/v1/qr/templates/:id → /api/qr/templates/:id (generation)',
      'POST /api/v1/qr/content/:type → /api/qr/content/:type (general)',
      'GET /api/v1/qr/ai/providers → /api/qr/ai/providers (general)',
      'GET /api/v1/ping → /api/ping (general)',
    ]);
  });

  it('each is its engine path under /api/v1 with the same parameters, and no two share a method and path', () => {
    for (const r of GATEWAY_ROUTES) {
      expect(r.path.startsWith('/api/v1/'), r.path).toBe(true);
      expect(params(r.path), r.path).toEqual(params(r.enginePath));
      for (const name of Object.keys(r.allow ?? {})) expect(params(r.path), r.path).toContain(name);
    }
    expect(new Set(GATEWAY_ROUTES.map((r) => `${r.method} ${r.path}`)).size).toBe(GATEWAY_ROUTES.length);
  });

  it('only server AI spends a credit, and only it and the ping are never kept at the edge', () => {
    expect(GATEWAY_ROUTES.filter((r) => r.spendsCredit).map((r) => r.path)).toEqual(['/api/v1/qr/ai/generate/server']);
    expect(GATEWAY_ROUTES.filter((r) => r.edge === undefined).map((r) => r.path)).toEqual([
      '/api/v1/qr/ai/generate/server',
      '/api/v1/ping',
    ]);
  });

  it('renders that may name images to fetch are never kept by body alone; the template list varies by Host', () => {
    expect(GATEWAY_ROUTES.filter((r) => r.edge?.fetchesImages).map((r) => r.path)).toEqual([
      '/api/v1/qr/generate',
      '/api/v1/qr/templates/:id',
    ]);
    expect(route('/api/v1/qr/templates').edge).toEqual({ vary: ['host'] });
  });

  it('opens three content types of the engine’s, and narrows no other parameter', () => {
    expect(route('/api/v1/qr/content/:type').allow).toEqual({ type: ['wifi', 'vcard', 'geo'] });
    expect(GATEWAY_ROUTES.filter((r) => r.allow !== undefined)).toHaveLength(1);
  });
});

describe('enginePathOf', () => {
  it('puts each parameter back into the engine path, percent-encoded', () => {
    const template = route('/api/v1/qr/templates/:id');
    expect(enginePathOf(template, { id: 'event' })).toBe('/api/qr/templates/event');
    expect(enginePathOf(template, { id: 'café menu' })).toBe('/api/qr/templates/caf%C3%A9%20menu');
    // A decoded slash, question mark or hash stays inside its segment.
    expect(enginePathOf(template, { id: '../ping?x#y' })).toBe('/api/qr/templates/..%2Fping%3Fx%23y');
  });

  it('leaves a path without parameters as it is, and an absent parameter empty', () => {
    expect(enginePathOf(route('/api/v1/ping'), {})).toBe('/api/ping');
    expect(enginePathOf(route('/api/v1/qr/content/:type'), {})).toBe('/api/qr/content/');
  });
});
