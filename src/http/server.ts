import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from '@trufflesuite/uws-js-unofficial';
import type { Config } from '../config.js';
import { ApiError, isApiError } from '../errors.js';
import { isTraceparent, logError, logRequest, jsonLogs, requestIdOf } from '../observe/log.js';
import { httpDuration, httpRequests, watchInFlight } from '../observe/metrics.js';
import type { RelayIdentity } from '../relay/signature.js';
import type { RequestAuth } from './auth.js';
import { collectBody } from './body.js';
import { ALWAYS_HEADERS } from './answer-headers.js';
import { TrustedProxies } from './client-address.js';
import { InFlight } from './in-flight.js';
import { Reply } from './response.js';
import { matchRoute, type Method, type RequestContext, type Route } from './router.js';
import { freeSocketPath, removeSocket, restrictSocket } from './unix-socket.js';
import type { LoadedUws } from './uws.js';

/** What the front end needs of the configuration; the engine and the site each pass their own. */
export interface HttpSettings
  extends Pick<
    Config,
    | 'host'
    | 'port'
    | 'maxHeaderBytes'
    | 'maxBodyBytes'
    | 'maxMultipartBytes'
    | 'bodyTimeoutMs'
    | 'logRequests'
    | 'trustedProxies'
  > {
  /** Request headers dropped unread, so no handler, log or error can ever repeat them. */
  unreadHeaders: ReadonlySet<string>;
  /** A Unix socket to listen on besides the port (the engine's QR_ENGINE_SOCKET). */
  socketPath?: string;
  /** Which role's requests these are, in the metrics and the logs. */
  serves: 'engine' | 'site';
  /** Headers on every answer besides ALWAYS_HEADERS (the site's Strict-Transport-Security over https). */
  answerHeaders?: readonly (readonly [string, string])[];
}

export interface HttpServer {
  port: number;
  /**
   * Stops accepting connections and asks every client to leave (answers from now on carry
   * `Connection: close`), then waits until no request is in flight, and at least DRAIN_NOTICE_MS have
   * passed, or `graceMs` have: resolves with the number of requests still unanswered then.
   */
  drain(graceMs: number): Promise<number>;
  /** Stops listening; requests in flight go on. */
  close(): void;
}

/**
 * How long a draining server keeps its open connections after the last request it had: a client still
 * holding one (the site's pool to an engine) learns of the drain by a probe (engine-health.ts probes every
 * 500 ms) and sends no more on it, so no request arrives on a connection as the process exits.
 */
export const DRAIN_NOTICE_MS = 2_000;

const EMPTY = new Uint8Array(0);

/**
 * Runs a handler and turns whatever it throws into the error envelope. A relayed request is verified
 * first, once its body is in: the signature covers the body; then the route's guard, whose caller the
 * handler is given.
 */
async function dispatch(
  route: Route,
  ctx: RequestContext,
  verifyRelay?: (body: Uint8Array) => Promise<RelayIdentity>,
): Promise<void> {
  try {
    if (verifyRelay) ctx.customerId = (await verifyRelay(await ctx.body())).customerId;
    await route.handler(ctx, await route.guard?.admit(ctx));
  } catch (e) {
    if (isApiError(e)) ctx.reply.error(e);
    // Work abandoned because the client went away (an aborted relay or LLM call) is nobody's error.
    else if (ctx.reply.aborted) return;
    else {
      logError(`${ctx.method} ${ctx.path} failed`, e);
      ctx.reply.error(new ApiError('INTERNAL_ERROR'));
    }
  }
}

/**
 * The uWebSockets.js front end: everything about the request is read synchronously inside the uWS
 * callback (the request object dies when it returns), then the handler runs asynchronously against a
 * Reply that knows whether the client is still there.
 */
export function startHttp(
  config: HttpSettings,
  routes: Route[],
  auth: RequestAuth,
  { uws }: LoadedUws,
): Promise<HttpServer> {
  const app = uws.App();
  // Every Reply reads this list when it answers: a drain adds `Connection: close` to answers already in flight too.
  const fixedHeaders = [...ALWAYS_HEADERS, ...(config.answerHeaders ?? [])];
  const proxies = new TrustedProxies(config.trustedProxies);
  const load = new InFlight();

  app.any('/*', (res: HttpResponse, req: HttpRequest) => {
    const method = req.getCaseSensitiveMethod();
    const path = req.getUrl();
    const rawQuery = req.getQuery() ?? '';
    const headers: Record<string, string> = {};
    let headerBytes = 0;
    req.forEach((k, v) => {
      headerBytes += k.length + v.length + 4;
      if (config.unreadHeaders.has(k)) return;
      // Proxies may each add a header of their own rather than append to the one there: all hops count.
      if (k === 'x-forwarded-for' && headers[k] !== undefined) headers[k] += `,${v}`;
      else headers[k] = v;
    });
    const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
    const reply = new Reply(res, hasBody, fixedHeaders);
    const started = performance.now();
    load.begin();
    // One id per request, on its answer and its log line; written into the headers, so that a relay to an
    // engine passes it on (engine-client.ts), as it does a well-formed traceparent.
    const requestId = requestIdOf(headers['x-request-id']);
    headers['x-request-id'] = requestId;
    if (headers.traceparent !== undefined && !isTraceparent(headers.traceparent)) delete headers.traceparent;
    reply.header('X-Request-Id', requestId);
    let routeName = 'unmatched';
    let customerId: string | undefined;
    const finish = () => {
      load.end();
      const seconds = (performance.now() - started) / 1000;
      const status = reply.status;
      httpRequests.labels(config.serves, routeName, method, status === 0 ? 'aborted' : String(status)).inc();
      httpDuration.labels(config.serves, routeName, method).observe(seconds);
      if (!config.logRequests && !jsonLogs()) return;
      logRequest({
        requestId,
        role: config.serves,
        method,
        route: routeName,
        path,
        status,
        durationMs: seconds * 1000,
        customerId,
        traceparent: headers.traceparent,
      });
    };
    // Read from the start, whatever the answer: one sent before the body is in (an unknown path) then
    // drops the rest of it while it lingers, instead of closing on a client still writing.
    let body: Promise<Uint8Array> = Promise.resolve(EMPTY);
    if (hasBody) {
      const multipart = (headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');
      const declared = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
      const limits = {
        limit: multipart ? config.maxMultipartBytes : config.maxBodyBytes,
        timeoutMs: config.bodyTimeoutMs,
      };
      body = collectBody(reply, limits, declared);
      body.catch(() => undefined); // a refusal is answered when the handler awaits it
    }

    try {
      if (headerBytes > config.maxHeaderBytes)
        throw new ApiError('HEADERS_TOO_LARGE', {
          message: `Request headers are larger than ${config.maxHeaderBytes} bytes.`,
        });
      const match = matchRoute(routes, method, path);
      if (match === null) throw new ApiError('NOT_FOUND', { message: `No endpoint ${path}.` });
      if ('allowed' in match) {
        reply.header('Allow', match.allowed.join(', '));
        throw new ApiError('METHOD_NOT_ALLOWED', { message: `${path} accepts ${match.allowed.join(', ')}.` });
      }
      routeName = match.route.path;
      const relayed = auth.admit(match.route, headers);
      let remoteAddress: string | undefined;
      const ctx: RequestContext = {
        method: method as Method,
        path,
        query: new URLSearchParams(rawQuery),
        headers,
        params: match.params,
        // Read when a route asks (each read is a getpeername call), at the start of its handler while `res`
        // is valid: uWS throws on any use of a response that has ended or whose client has gone. Behind a
        // trusted proxy, the client it forwarded for.
        get remoteAddress() {
          remoteAddress ??=
            reply.aborted || reply.done
              ? ''
              : proxies.clientOf(Buffer.from(res.getRemoteAddressAsText()).toString(), headers['x-forwarded-for']);
          return remoteAddress;
        },
        reply,
        body: () => body,
        customerId: undefined,
      };
      const verify = relayed
        ? (bytes: Uint8Array) =>
            auth.verifyRelayed({ method, pathWithQuery: rawQuery ? `${path}?${rawQuery}` : path, headers }, bytes)
        : undefined;
      void dispatch(match.route, ctx, verify).then(() => {
        customerId = ctx.customerId;
        finish();
      });
    } catch (e) {
      if (isApiError(e)) reply.error(e);
      else if (e instanceof URIError)
        reply.error(new ApiError('BAD_REQUEST', { message: 'The URL is not correctly percent-encoded.' }));
      else throw e;
      finish();
    }
  });

  return listen(app, config, uws).then((listening) => {
    // In the metrics until closed, and through a drain: a drain is when an operator reads it.
    const unwatch = watchInFlight(config.serves, load);
    return {
      port: listening.port,
      close: () => {
        unwatch();
        listening.close();
      },
      drain: async (graceMs) => {
        listening.close();
        fixedHeaders.push(['Connection', 'close']);
        return load.settled(Math.min(DRAIN_NOTICE_MS, graceMs), graceMs);
      },
    };
  });
}

/** Listens on the port and, when the settings name one, on a Unix socket too; closing (once) closes both. */
async function listen(
  app: TemplatedApp,
  config: HttpSettings,
  uws: LoadedUws['uws'],
): Promise<{ port: number; close(): void }> {
  const { socketPath } = config;
  if (socketPath !== undefined) await freeSocketPath(socketPath);
  const port = await new Promise<us_listen_socket>((resolve, reject) =>
    app.listen(config.host, config.port, (socket: us_listen_socket | false) =>
      socket ? resolve(socket) : reject(new Error(`cannot listen on ${config.host}:${config.port}`)),
    ),
  );
  let unix: us_listen_socket | undefined;
  if (socketPath !== undefined) {
    unix = await new Promise<us_listen_socket | undefined>((resolve) =>
      app.listen_unix((socket: us_listen_socket | false) => resolve(socket || undefined), socketPath),
    );
    if (unix === undefined) {
      uws.us_listen_socket_close(port);
      throw new Error(`cannot listen on the Unix socket ${socketPath}`);
    }
    restrictSocket(socketPath);
  }
  let open = true;
  return {
    port: uws.us_socket_local_port(port as never),
    close: () => {
      if (!open) return;
      open = false;
      uws.us_listen_socket_close(port);
      if (unix === undefined) return;
      uws.us_listen_socket_close(unix);
      removeSocket(socketPath!);
    },
  };
}
