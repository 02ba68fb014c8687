import { type EngineClient, relayCall } from '../gateway/engine-client.js';
import type { Route } from '../http/router.js';
import { forward } from '../http/upstream.js';
import { buildOpenApi, type OpenApiChannel } from '../schema/openapi.js';
import { SITE_FORMS } from './forms.js';

/**
 * The consumer site's channel: API keys for the /api/v1 gateway and the direct server-AI endpoint; the
 * browser session (cookie plus X-CSRF-Token) for the account routes the pages call; nothing for the
 * Studio's anonymous routes, which are limited per client address instead. A route's security is the
 * scheme of the guard it declares, the one the front end enforces.
 */
const SITE_CHANNEL: OpenApiChannel = {
  title: 'qrfarm consumer site',
  description:
    'The consumer channel: the /api/v1 gateway (X-API-Key, an active Studio pack), the pages’ session routes (sign-up, sign-in, keys, credits, usage), and the Studio’s anonymous routes. The engine’s own document is at /api/engine/openapi.json.',
  securitySchemes: {
    apiKey: {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description:
        'A key issued from the dashboard (qrf_…). Missing: 401 missing_api_key; unknown, revoked or malformed: 401 invalid_api_key; no active Studio pack: 402 studio_required.',
    },
    session: {
      type: 'apiKey',
      in: 'cookie',
      name: 'qrf_session',
      description:
        'The session cookie set by sign-in or sign-up (HttpOnly, SameSite=Lax; __Host-qrf_session and Secure over TLS). Every POST also sends X-CSRF-Token, the csrfToken of GET /api/session: without it, 403 csrf_failed. No session: 401 session_required.',
    },
  },
  schemas: SITE_FORMS,
  // apiKey, the first scheme, is the document's default.
  securityOf: ({ guard }) =>
    guard === undefined ? [] : guard.scheme === 'apiKey' ? undefined : [{ [guard.scheme]: [] }],
};

/**
 * GET /api/openapi.json: the site's routes as `routes()` lists them when first asked; GET
 * /api/engine/openapi.json: the engine's document, relayed, so /docs shows both channels from this origin.
 */
export function openApiRoutes(
  routes: () => Route[],
  engine: EngineClient,
  version: string,
  maxOutputBytes: number,
): Route[] {
  let document: string | undefined;
  return [
    {
      method: 'GET',
      path: '/api/openapi.json',
      auth: 'public',
      doc: { summary: 'This OpenAPI document: the consumer site’s routes.', response: 'OpenAPI 3.1.' },
      handler: (ctx) => {
        document ??= JSON.stringify(buildOpenApi(routes(), version, 'X-API-Key', SITE_CHANNEL));
        ctx.reply.send(200, { 'Content-Type': 'application/json' }, document);
      },
    },
    {
      method: 'GET',
      path: '/api/engine/openapi.json',
      auth: 'public',
      doc: {
        summary: 'The engine’s OpenAPI document (the marketplace channel, /api/qr/*), relayed from an engine.',
        response: 'OpenAPI 3.1.',
      },
      handler: async (ctx) => {
        const call = relayCall({
          method: 'GET',
          path: '/api/openapi.json',
          headers: {},
          body: new Uint8Array(0),
          caller: 'visitor',
          signal: ctx.reply.gone,
        });
        const r = await engine.relay(call);
        await forward(ctx, r, maxOutputBytes);
      },
    },
  ];
}
