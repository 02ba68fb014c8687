/**
 * What the fetch tests need around them: a guard that records every outgoing TCP connection of this test
 * process and stops any to a non-loopback address before it is made, and a loopback HTTP server whose
 * routes the tests define.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';

const isLoopbackHost = (host: string) =>
  host === 'localhost' || host === '::1' || /^127\./.test(host) || /^::ffff:127\./.test(host);

export interface ConnectionGuard {
  /** host:port of every connection this process made (or tried to) since the guard was installed. */
  attempts: string[];
  /** Attempts to non-loopback hosts; each was stopped before the socket connected. */
  blocked: string[];
  restore(): void;
}

/**
 * Wraps net.Socket.prototype.connect, which every TCP connection of this process goes through (undici's
 * included): a forbidden address that slipped through the code under test must still never be reached.
 */
export function guardConnections(): ConnectionGuard {
  const original = net.Socket.prototype.connect;
  const guard: ConnectionGuard = {
    attempts: [],
    blocked: [],
    restore: () => {
      net.Socket.prototype.connect = original;
    },
  };
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const first = Array.isArray(args[0]) ? args[0][0] : args[0];
    const options =
      typeof first === 'object' && first !== null
        ? (first as { host?: string; port?: number; path?: string })
        : { port: Number(first), host: typeof args[1] === 'string' ? args[1] : 'localhost' };
    if (options.path === undefined) {
      const host = options.host ?? 'localhost';
      guard.attempts.push(`${host}:${options.port}`);
      if (!isLoopbackHost(host)) {
        guard.blocked.push(host);
        throw new Error(`test guard: refused a connection to non-loopback ${host}`);
      }
    }
    return (original as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof original;
  return guard;
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestServer {
  url: string;
  /** Requests received, by path. */
  hits: string[];
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1 (or another loopback address) answering each path with its handler, 404 otherwise. */
export async function serve(routes: Record<string, Handler>, host = '127.0.0.1'): Promise<TestServer> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const handler = routes[req.url ?? ''];
    if (handler) handler(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers with these bytes as an image. */
export const bytesOf =
  (body: Uint8Array, type = 'application/octet-stream'): Handler =>
  (_req, res) =>
    res.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body);

export const redirectTo =
  (location: string, status = 302): Handler =>
  (_req, res) =>
    res.writeHead(status, { location }).end();
