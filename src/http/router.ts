import type { Reply } from './response.js';

export type Method = 'GET' | 'POST';

export interface RequestContext {
  method: Method;
  path: string;
  query: URLSearchParams;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  params: Record<string, string>;
  /** The client's address as the socket saw it (no proxy header is trusted). */
  remoteAddress: string;
  reply: Reply;
  /** The request body, collected within the route's limit (empty for GET). */
  body: () => Promise<Uint8Array>;
  /** The customer a verified relay from the consumer site acts for; undefined on marketplace requests. */
  customerId: string | undefined;
}

export type Handler = (ctx: RequestContext) => Promise<void> | void;

/** What the OpenAPI document says of a route; the request schema is named, never copied. */
export interface RouteDoc {
  summary: string;
  /** Name of the request body's schema in the schema registry. */
  body?: string;
  /** The success response, in a sentence. */
  response: string;
  /** Response media types other than JSON (e.g. the image types of a render). */
  produces?: string[];
}

export interface Route {
  method: Method;
  /** Literal segments and `:name` parameters, e.g. `/api/qr/templates/:id/generate`. */
  path: string;
  handler: Handler;
  /**
   * Who may call the route. Unset: marketplace callers (the proxy secret) and signed relays from the
   * consumer site; `public`: anyone; `relay`: signed relays only.
   */
  auth?: 'public' | 'relay';
  doc?: RouteDoc;
}

export type Match = { route: Route; params: Record<string, string> } | { allowed: Method[] } | null;

/** Matches a path to a route; a path that exists under other methods is reported for a 405. */
export function matchRoute(routes: Route[], method: string, path: string): Match {
  const segments = path.split('/');
  const allowed: Method[] = [];
  for (const route of routes) {
    const pattern = route.path.split('/');
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const ok = pattern.every((p, i) => {
      if (p.startsWith(':')) {
        params[p.slice(1)] = decodeURIComponent(segments[i]!);
        return segments[i] !== '';
      }
      return p === segments[i];
    });
    if (!ok) continue;
    if (route.method === method) return { route, params };
    if (!allowed.includes(route.method)) allowed.push(route.method);
  }
  return allowed.length ? { allowed } : null;
}
