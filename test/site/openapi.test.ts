/**
 * The site's OpenAPI routes (src/site/openapi.ts) over real HTTP, served alone by the built front end: the
 * site's document built from the routes as first asked for, each operation's security the scheme of the
 * guard it declares (an API key by default, the session cookie, none for a route without a guard), the
 * site's form schemas among its components; and the engine's document relayed from an engine stand-in
 * through the real EngineClient, signed as a visitor's call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineClient } from '../../src/gateway/engine-client.js';
import type { Guard, Route } from '../../src/http/router.js';
import { call } from '../helpers/consumer.js';
import { type StandInEngine, startStandInEngine } from '../helpers/engine-stand-in.js';
import { type RouteServer, serveRoutes } from '../helpers/route-server.js';

const dist = (file: string) => new URL(`../../dist/src/${file}`, import.meta.url).href;
const { openApiRoutes } = (await import(dist('site/openapi.js'))) as typeof import('../../src/site/openapi.js');
const { SITE_FORMS } = (await import(dist('site/forms.js'))) as typeof import('../../src/site/forms.js');
const { EngineClient: Client } = (await import(
  dist('gateway/engine-client.js')
)) as typeof import('../../src/gateway/engine-client.js');
const { VISITOR_CUSTOMER_ID } = (await import(
  dist('relay/signature.js')
)) as typeof import('../../src/relay/signature.js');

const SECRET = 'openapi-unit-relay-secret-0123456789abcdef0123456789abcdef';
const MAX_OUTPUT_BYTES = 64 * 1024;
const guard = (scheme: string): Guard => ({ scheme, admit: () => ({}) });
const noop = () => {};

/** The routes the document is built from: one of each kind of guard, one answering 202, one without doc. */
const listed: Route[] = [
  {
    method: 'POST',
    path: '/api/v1/qr/generate',
    guard: guard('apiKey'),
    handler: noop,
    doc: { summary: 'Render.', response: 'A code.', produces: ['image/png'] },
  },
  {
    method: 'GET',
    path: '/api/keys/:id',
    guard: guard('session'),
    handler: noop,
    doc: { summary: 'A key.', response: 'The key.' },
  },
  {
    method: 'POST',
    path: '/api/session/signup',
    auth: 'public',
    handler: noop,
    doc: { summary: 'Sign up.', body: 'credentials', response: 'The user.' },
  },
  {
    method: 'POST',
    path: '/api/v1/qr/batch',
    guard: guard('apiKey'),
    handler: noop,
    doc: { summary: 'Queue.', body: 'batchRequest', status: 202, response: 'The job.' },
  },
  { method: 'GET', path: '/undocumented', handler: noop },
];

let engine: StandInEngine;
let client: EngineClient;
let server: RouteServer;
let listings = 0;

beforeAll(async () => {
  engine = await startStandInEngine(SECRET);
  client = new Client([engine.origin], [SECRET], 10_000);
  const routes: Route[] = openApiRoutes(
    () => {
      listings++;
      return [...listed, ...routes];
    },
    client,
    '9.8.7',
    MAX_OUTPUT_BYTES,
  );
  server = await serveRoutes(routes);
});
afterAll(async () => {
  server?.close();
  await client?.close();
  await engine?.close();
});

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document of the site’s channel: its version, both schemes, an API key by default', async () => {
    const a = await call(server.origin, '/api/openapi.json');
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('application/json');
    const doc = a.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'qrfarm consumer site', version: '9.8.7' });
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['apiKey', 'session']);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'qrf_session' });
    expect(doc.security).toEqual([{ apiKey: [] }]);
  });

  it('gives each operation the security of its guard: the default for a key, the sign-in cookie, none without a guard', async () => {
    const { paths } = (await call(server.origin, '/api/openapi.json')).body;
    expect(paths['/api/v1/qr/generate'].post.security).toBeUndefined();
    expect(paths['/api/keys/{id}'].get.security).toEqual([{ session: [] }]);
    expect(paths['/api/keys/{id}'].get.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
    ]);
    expect(paths['/api/session/signup'].post.security).toEqual([]);
    expect(paths['/api/openapi.json'].get.security).toEqual([]);
    expect(paths['/api/engine/openapi.json'].get.security).toEqual([]);
    expect(paths['/undocumented']).toBeUndefined();
  });

  it('names the site’s form schemas, and holds each one', async () => {
    const doc = (await call(server.origin, '/api/openapi.json')).body;
    expect(doc.paths['/api/session/signup'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/credentials',
    });
    for (const name of Object.keys(SITE_FORMS)) expect(doc.components.schemas[name], name).toBeDefined();
    expect(doc.paths['/api/v1/qr/batch'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/batchRequest',
    });
    expect(doc.components.schemas.batchRequest.required).toEqual(['items']);
    expect(doc.components.schemas.ErrorEnvelope).toBeDefined();
  });

  it('declares a route’s success status: 202 for a job queued, 200 otherwise', async () => {
    const { paths } = (await call(server.origin, '/api/openapi.json')).body;
    expect(Object.keys(paths['/api/v1/qr/batch'].post.responses)).toEqual(['202', 'default']);
    expect(paths['/api/v1/qr/batch'].post.responses[202].description).toBe('The job.');
    expect(Object.keys(paths['/api/v1/qr/generate'].post.responses)).toEqual(['200', 'default']);
  });

  it('is built once, from the routes as they are when first asked for, and answered the same after', async () => {
    const first = await call(server.origin, '/api/openapi.json');
    listed.push({ method: 'GET', path: '/api/later', handler: noop, doc: { summary: 'Later.', response: 'x' } });
    const again = await call(server.origin, '/api/openapi.json');
    expect(Buffer.from(again.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    expect(again.body.paths['/api/later']).toBeUndefined();
    expect(listings).toBe(1);
  });
});

describe('GET /api/engine/openapi.json', () => {
  it('relays the engine’s document as the engine answers it, signed as a visitor’s call', async () => {
    const document = JSON.stringify({ openapi: '3.1.0', info: { title: 'qrfarm' } });
    engine.answer = () => ({
      status: 200,
      headers: { 'content-type': 'application/json', etag: '"doc"' },
      body: document,
    });
    const a = await call(server.origin, '/api/engine/openapi.json', {
      headers: { cookie: 'qrf_session=x', 'x-api-key': 'k' },
    });
    expect(a.status).toBe(200);
    expect(Buffer.from(a.bytes).toString()).toBe(document);
    expect(a.headers.get('etag')).toBe('"doc"');
    const [r] = engine.requests;
    expect({ method: r!.method, url: r!.url, signedFor: r!.signedFor }).toEqual({
      method: 'GET',
      url: '/api/openapi.json',
      signedFor: VISITOR_CUSTOMER_ID,
    });
    expect(r!.headers.cookie).toBeUndefined();
    expect(r!.headers['x-api-key']).toBeUndefined();
  });

  it('passes an engine’s refusal on as it is', async () => {
    engine.answer = () => ({
      status: 503,
      headers: { 'content-type': 'application/json' },
      body: '{"success":false,"code":"NOT_READY"}',
    });
    const a = await call(server.origin, '/api/engine/openapi.json');
    expect({ status: a.status, body: a.body }).toEqual({ status: 503, body: { success: false, code: 'NOT_READY' } });
  });

  it('with no engine answering: 503 engine_unavailable', async () => {
    const down = new Client(['http://127.0.0.1:9'], [SECRET], 10_000);
    const alone = await serveRoutes(openApiRoutes(() => [], down, '1.0.0', MAX_OUTPUT_BYTES));
    try {
      const a = await call(alone.origin, '/api/engine/openapi.json');
      expect({ status: a.status, code: a.body.code }).toEqual({ status: 503, code: 'engine_unavailable' });
    } finally {
      alone.close();
      await down.close();
    }
  });
});
