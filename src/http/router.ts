import type { Reply } from './response.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

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

/** `caller`: what the route's guard admitted (undefined without a guard). */
export type Handler = (ctx: RequestContext, caller?: unknown) => Promise<void> | void;

/**
 * Who may call a route, checked by the front end before its handler runs: `admit` refuses the request
 * (throws the error to answer) or returns the caller, which the handler is given. `scheme` names the
 * OpenAPI security scheme the guard checks, so the document says what is enforced.
 */
export interface Guard<C = unknown> {
  scheme: string;
  admit(ctx: RequestContext): Promise<C> | C;
}

/** What the OpenAPI document says of a route; the request schema is named, never copied. */
export interface RouteDoc {
  summary: string;
  /**
   * Name of the request body's schema in the schema registry, or in the channel's own (the site's forms);
   * several: one of them (a path parameter says which).
   */
  body?: string | readonly string[];
  /** Request bodies to show and send ("Try it out" sends the first), by name. */
  examples?: Record<string, { summary: string; value: unknown }>;
  /** Path parameters: what they are, and an example value where one holds for every caller. */
  params?: Record<string, { example?: string; description: string }>;
  /** Refusals worth naming, by status. */
  answers?: Record<number, string>;
  /** The success response, in a sentence. */
  response: string;
  /** The success status, when it is not 200 (a job queued: 202). */
  status?: number;
  /** Response media types other than JSON (e.g. the image types of a render). */
  produces?: string[];
}

export interface Route {
  method: Method;
  /** Literal segments and `:name` parameters, e.g. `/api/qr/templates/:id/generate`. */
  path: string;
  handler: Handler;
  /**
   * Who may call the route on an engine. Unset: marketplace callers (the proxy secret) and signed relays
   * from the consumer site; `public`: anyone; `relay`: signed relays only. The site has neither a proxy
   * secret nor relays: there the guard alone decides.
   */
  auth?: 'public' | 'relay';
  /**
   * `own`: the engine's marketplace metering (a call of the plan per request) leaves the route alone, which
   * counts its calls itself (a bulk job: one per item).
   */
  metering?: 'own';
  /** Checked before the handler; a route without one is open to anyone who passes `auth`. */
  guard?: Guard;
  doc?: RouteDoc;
}

/** A route behind `guard`, its handler given the caller the guard admitted. */
export function guarded<C>(
  guard: Guard<C>,
  route: Omit<Route, 'guard' | 'handler'> & { handler: (ctx: RequestContext, caller: C) => Promise<void> | void },
): Route {
  // The front end passes a guarded route's handler what its guard returned.
  return { ...route, guard, handler: (ctx, caller) => route.handler(ctx, caller as C) };
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
