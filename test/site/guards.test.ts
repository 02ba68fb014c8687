/**
 * Who may call what on the site, from its routes as it serves them (the built site, in this process):
 * every route is either behind a guard, which refuses a request without credentials before its handler
 * runs, or in the reviewed list of public routes below; and the OpenAPI document says of each route what
 * its guard enforces. A route added without a guard fails here until it is added to PUBLIC on purpose.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../../src/http/router.js';
import type { RunningSite } from '../../src/site/server.js';
import { consumerConfig } from '../helpers/consumer.js';

const dist = (file: string) => new URL(`../../dist/src/${file}`, import.meta.url).href;

/** The routes anyone may call: each one reviewed, with why it needs no credentials. */
const PUBLIC = [
  'GET /healthz', // load balancers
  'GET /readyz', // load balancers: 503 while the account store is down
  'GET /metrics', // Prometheus: answers loopback, elsewhere only QR_METRICS_TOKEN (http/ops-routes.ts)
  'GET /api/qr/templates/:id/preview', // <img> tags of the template list
  'GET /api/packs', // the shop's window
  'GET /api/session', // answers with or without a session
  'POST /api/session/signup', // makes the session (CSRF against the pre-session cookie)
  'POST /api/session/signin',
  'POST /api/session/verify-email', // the mailed link's token is the credential (it may open in another browser)
  'POST /api/session/password-reset', // always 202: says nothing of the address; limited per client and address
  'POST /api/session/password-reset/confirm', // the mailed link's token is the credential
  'POST /api/studio/render', // the Studio without an account, limited per client address
  'POST /api/studio/content/:type',
  'GET /api/studio/templates',
  'GET /api/studio/templates/:id',
  'GET /api/studio/shapes/:field/:name',
  'GET /api/openapi.json',
  'GET /api/engine/openapi.json',
].sort();

const nameOf = (r: Route) => `${r.method} ${r.path}`;
/** The built pages and their assets: static files, public by nature. */
const isPage = (r: Route) => r.doc === undefined && r.guard === undefined && r.method === 'GET';

let site: RunningSite;
let origin: string;

beforeAll(async () => {
  const { startSite } = (await import(dist('site/server.js'))) as typeof import('../../src/site/server.js');
  const { loadUws } = (await import(dist('http/uws.js'))) as typeof import('../../src/http/uws.js');
  const config = await consumerConfig({ QR_DATA_DIR: 'memory://' });
  // Nothing is relayed: every request here is refused, or answered by the site alone.
  site = await startSite(config, { engineUrls: ['http://127.0.0.1:9'], uws: loadUws() }, () => {});
  origin = `http://127.0.0.1:${site.port}`;
});

afterAll(() => site?.close());

describe('the guards of the site’s routes', () => {
  it('every route without a guard is a page or one of the reviewed public routes', () => {
    const open = site.routes.filter((r) => r.guard === undefined && !isPage(r)).map(nameOf);
    expect(open.sort()).toEqual(PUBLIC);
    expect(site.routes.filter(isPage).length).toBeGreaterThan(0);
  });

  it('every guarded route refuses a request without credentials, before its handler reads anything', async () => {
    const guarded = site.routes.filter((r) => r.guard !== undefined);
    const schemes = new Set(guarded.map((r) => r.guard!.scheme));
    expect([...schemes].sort()).toEqual(['adminToken', 'apiKey', 'session']);
    const expected: Record<string, { status: number; code: string }> = {
      apiKey: { status: 401, code: 'missing_api_key' },
      session: { status: 401, code: 'session_required' },
      adminToken: { status: 401, code: 'invalid_admin_token' },
    };
    for (const route of guarded) {
      const path = route.path.replace(/:\w+/g, 'x');
      const init: RequestInit =
        route.method === 'POST' || route.method === 'PATCH'
          ? { method: route.method, headers: { 'content-type': 'application/json' }, body: '{}' }
          : { method: route.method };
      const response = await fetch(origin + path, init);
      const body = (await response.json()) as { code: string };
      expect({ status: response.status, code: body.code }, nameOf(route)).toEqual(expected[route.guard!.scheme]);
    }
  });

  it('a session is not enough for a POST without its X-CSRF-Token', async () => {
    const start = await fetch(`${origin}/api/session`);
    const cookie = start.headers.getSetCookie()[0]!.split(';')[0]!;
    const { csrfToken } = (await start.json()) as { csrfToken: string };
    const headers = { cookie, 'x-csrf-token': csrfToken, 'content-type': 'application/json' };
    const email = `guards-${process.pid}@example.com`;
    const signUp = await fetch(`${origin}/api/session/signup`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email, password: 'a long enough passphrase' }),
    });
    expect(signUp.status).toBe(200);
    const session = signUp.headers.getSetCookie()[0]!.split(';')[0]!;
    const signedIn = { cookie: `${cookie}; ${session}`, 'content-type': 'application/json' };
    expect((await fetch(`${origin}/api/account/keys`, { headers: signedIn })).status).toBe(200);
    const refused = await fetch(`${origin}/api/account/keys`, { method: 'POST', headers: signedIn, body: '{}' });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe('csrf_failed');
  });

  it('the OpenAPI document gives each route the security of its guard', async () => {
    const doc = (await (await fetch(`${origin}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown }>>;
      security: unknown;
    };
    expect(doc.security).toEqual([{ apiKey: [] }]);
    const documented = site.routes.filter((r) => r.doc !== undefined);
    expect(documented.length).toBeGreaterThan(PUBLIC.length);
    for (const route of documented) {
      const operation = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      const scheme = route.guard?.scheme;
      const expected = scheme === undefined ? [] : scheme === 'apiKey' ? undefined : [{ [scheme]: [] }];
      expect(operation?.security, nameOf(route)).toEqual(expected);
    }
  });
});
