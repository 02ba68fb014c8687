/**
 * Loopback TCP for the fault and wire tests: a port nothing listens on, a server that accepts and never
 * answers, a pass-through that records every byte crossing it and can hold the answers or cut the line, and
 * a raw HTTP/1.1 exchange for requests fetch will not send (a Content-Length with no body behind it).
 */
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';

const listen = (server: Server): Promise<number> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

function closer(server: Server, sockets: Set<Socket>): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

/** A loopback port that was free a moment ago and has nothing listening on it. */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface SilentServer {
  url: string;
  /** Connections accepted so far. */
  accepted(): number;
  close(): Promise<void>;
}

/** Accepts connections, reads what comes and never answers: an engine that hangs. */
export async function startSilentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((s) => {
    accepted++;
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
    s.resume();
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, accepted: () => accepted, close: closer(server, sockets) };
}

export interface Link {
  /** http://127.0.0.1:<port> of the link. */
  url: string;
  port: number;
  /** Everything sent towards the target, in order. */
  sent(): Buffer;
  /** Everything the target sent back (held or not). */
  received(): Buffer;
  /** Keeps what the target sends from here on, until `release`. */
  hold(): void;
  /** Passes on what was held, and everything after it. */
  release(): void;
  /** Drops every connection and refuses new ones: the target is gone, as far as the client can tell. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** A TCP pass-through to `host`:`targetPort` keeping a copy of both directions, that a test can hold or cut. */
export async function startLink(targetPort: number, host = '127.0.0.1'): Promise<Link> {
  const sockets = new Set<Socket>();
  const up: Buffer[] = [];
  const down: Buffer[] = [];
  let held: (() => void)[] | undefined;
  let open = true;
  const server = createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.on('data', (c: Buffer) => {
      up.push(c);
      upstream.write(c);
    });
    upstream.on('data', (c: Buffer) => {
      down.push(c);
      if (held) held.push(() => client.write(c));
      else client.write(c);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    sent: () => Buffer.concat(up),
    received: () => Buffer.concat(down),
    hold: () => {
      held ??= [];
    },
    release: () => {
      const pending = held ?? [];
      held = undefined;
      for (const write of pending) write();
    },
    cut: () => {
      open = false;
      for (const s of sockets) s.destroy();
    },
    restore: () => {
      open = true;
    },
    close: closer(server, sockets),
  };
}

export interface RawAnswer {
  status: number;
  /** Lower-cased names. */
  headers: Record<string, string>;
  body: Buffer;
  /** Bytes of the request body written before the answer arrived. */
  bodyBytesSent: number;
}

/**
 * Writes `head` (request line and headers, without the blank line), then `body` in chunks for as long as
 * the server has not answered, and reads one answer with a Content-Length.
 */
export function rawExchange(port: number, head: string, body: Buffer = Buffer.alloc(0)): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let sent = 0;
    let answered = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer within 10 s'));
    }, 10_000);
    const finish = (a: RawAnswer) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(a);
    };
    socket.on('error', (e) => {
      if (!answered) {
        clearTimeout(timer);
        reject(e);
      }
    });
    socket.on('data', (c: Buffer) => {
      answered = true;
      chunks.push(c);
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = all.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      const length = Number(headers['content-length'] ?? 0);
      if (all.length - end - 4 < length) return;
      finish({
        status: Number(statusLine!.split(' ')[1]),
        headers,
        body: all.subarray(end + 4, end + 4 + length),
        bodyBytesSent: sent,
      });
    });
    socket.write(`${head}\r\n\r\n`);
    // A chunk at a time with a pause between, so an early answer stops the sending.
    const CHUNK = 64 * 1024;
    const more = () => {
      if (answered || sent >= body.length || socket.destroyed) return;
      const chunk = body.subarray(sent, sent + CHUNK);
      sent += chunk.length;
      socket.write(chunk, () => setTimeout(more, 2));
    };
    more();
  });
}

/** `body` in HTTP/1.1 chunked framing, `size` bytes a chunk, with the last, empty chunk. */
export function chunkedFraming(body: Buffer, size: number): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < body.length; i += size) {
    const chunk = body.subarray(i, i + size);
    parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}
