/**
 * A few routes served over real HTTP by the built front end (dist/src/http/server.js on the native uWS),
 * as the site serves them: no proxy secret and no relays, each route's guard alone deciding who may call
 * it. For the unit tests of a module’s routes without the rest of the site; the routes must come from the
 * build too (dist/), so that the errors they throw are the ApiError this front end answers with.
 */
import type { HttpSettings } from '../../src/http/server.js';
import type { Route } from '../../src/http/router.js';

const dist = (file: string) => new URL(`../../dist/src/${file}`, import.meta.url).href;

export interface RouteServer {
  /** e.g. http://127.0.0.1:40123 */
  origin: string;
  close(): void;
}

export async function serveRoutes(routes: Route[], settings: Partial<HttpSettings> = {}): Promise<RouteServer> {
  const { startHttp } = (await import(dist('http/server.js'))) as typeof import('../../src/http/server.js');
  const { loadUws } = (await import(dist('http/uws.js'))) as typeof import('../../src/http/uws.js');
  const http = await startHttp(
    {
      host: '127.0.0.1',
      port: 0,
      maxHeaderBytes: 16 * 1024,
      maxBodyBytes: 64 * 1024,
      maxMultipartBytes: 64 * 1024,
      bodyTimeoutMs: 10_000,
      logRequests: false,
      unreadHeaders: new Set(),
      serves: 'site',
      trustedProxies: [],
      ...settings,
    },
    routes,
    { admit: () => false, verifyRelayed: () => Promise.reject(new Error('no relays here')) },
    loadUws(),
  );
  return { origin: `http://127.0.0.1:${http.port}`, close: () => http.close() };
}
