import type { Route } from '../http/router.js';
import { buildOpenApi, publishedQrConfigSchema } from '../schema/openapi.js';
import type { Service } from '../service.js';

/**
 * GET /api/qr/schema: the QrConfig JSON Schema with every field, bound and enum (the shape names).
 * GET /api/openapi.json: the OpenAPI document of every route, from the same schemas the validators were
 * compiled from. Both are computed once, when the routes are built.
 */
export function docsRoutes(service: Service, routes: () => Route[]): Route[] {
  let openapi: string | undefined;
  const schema = JSON.stringify(publishedQrConfigSchema());
  return [
    {
      method: 'GET',
      path: '/api/qr/schema',
      doc: {
        summary: 'The QrConfig JSON Schema: every design field with its bounds, defaults and allowed names.',
        response: 'A JSON Schema (draft-07).',
      },
      handler: (ctx) => ctx.reply.send(200, { 'Content-Type': 'application/schema+json' }, schema),
    },
    {
      method: 'GET',
      path: '/api/openapi.json',
      doc: { summary: 'This OpenAPI document.', response: 'OpenAPI 3.1.' },
      handler: (ctx) => {
        openapi ??= JSON.stringify(buildOpenApi(routes(), service.version, service.config.proxySecretHeader));
        ctx.reply.send(200, { 'Content-Type': 'application/json' }, openapi);
      },
    },
  ];
}
