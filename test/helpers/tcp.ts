/**
 * Loopback TCP for the fault and wire tests: a port nothing listens on, a server that accepts and never
 * answers, a pass-through that records every byte crossing it and can hold the answers or cut the line, and
 * a raw HTTP/1.1 exchange for requests fetch will not send (a Content-Length with no body behind it, a
 * body that trickles).
 */
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

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
  /** The body, de-chunked if it came chunked. */
  body: Buffer;
  /** Bytes of the request body written before the answer started to arrive. */
  bodyBytesSent: number;
}

export interface Pace {
  /** Bytes written at a time. */
  bytes: number;
  /** Pause after each write. */
  everyMs: number;
}

/**
 * Writes `head` (request line and headers, without the blank line), then `body` a few bytes at a time
 * (`pace`, by default 64 KB every 2 ms) until the server starts to answer, and reads one answer (with a
 * Content-Length or chunked) within `timeoutMs`.
 */
export function rawExchange(
  port: number,
  head: string,
  body: Buffer = Buffer.alloc(0),
  { pace = { bytes: 64 * 1024, everyMs: 2 }, timeoutMs = 10_000 }: { pace?: Pace; timeoutMs?: number } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let sent = 0;
    let answered = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    // After the answer was read whole, the promise is settled and this changes nothing.
    socket.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    socket.on('data', (c: Buffer) => {
      answered = true;
      chunks.push(c);
      const answer = parseAnswer(Buffer.concat(chunks));
      if (answer === undefined) return;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...answer, bodyBytesSent: sent });
    });
    socket.write(`${head}\r\n\r\n`);
    // A chunk at a time with a pause between, so an early answer stops the sending.
    const more = () => {
      if (answered || sent >= body.length || socket.destroyed) return;
      const chunk = body.subarray(sent, sent + pace.bytes);
      sent += chunk.length;
      socket.write(chunk, () => setTimeout(more, pace.everyMs));
    };
    more();
  });
}

/** The HTTP/1.1 answer at the start of `bytes`, once all of it is there. */
function parseAnswer(bytes: Buffer): Omit<RawAnswer, 'bodyBytesSent'> | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  const rest = bytes.subarray(end + 4);
  const length = Number(headers['content-length'] ?? 0);
  const body =
    headers['transfer-encoding'] === 'chunked'
      ? dechunk(rest)
      : rest.length >= length
        ? rest.subarray(0, length)
        : undefined;
  return body && { status: Number(statusLine!.split(' ')[1]), headers, body };
}

/** A chunked body's content, once its last (empty) chunk has arrived. */
function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  for (let at = 0; ; ) {
    const eol = data.indexOf('\r\n', at);
    if (eol < 0) return undefined;
    const size = Number.parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (size === 0) return data.length >= eol + 4 ? Buffer.concat(parts) : undefined;
    if (data.length < eol + 2 + size + 2) return undefined;
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
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

/**
 * Sends `head` (its blank line added) and `body`, reads nothing for `lateMs`, so that a large answer fills
 * the socket buffers and the server must wait for them to drain, then reads to the server's close, in
 * bursts of 5 ms every 20 ms when `slowly`, so that it keeps waiting: the answer's head, and its body as
 * it arrived.
 */
export async function readLate(
  port: number,
  head: string,
  body: Buffer = Buffer.alloc(0),
  { lateMs = 300, slowly = false }: { lateMs?: number; slowly?: boolean } = {},
): Promise<{ head: string; body: Buffer }> {
  const socket = connect(port, '127.0.0.1');
  socket.pause();
  socket.write(`${head}\r\n\r\n`);
  socket.write(body);
  await sleep(lateMs);
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  let ended = false;
  const end = new Promise((resolve) => socket.once('end', resolve)).then(() => {
    ended = true;
  });
  socket.resume();
  while (slowly && !ended) {
    await sleep(5);
    socket.pause();
    await sleep(15);
    socket.resume();
  }
  await end;
  const all = Buffer.concat(chunks);
  const at = all.indexOf('\r\n\r\n');
  return { head: all.subarray(0, at).toString(), body: all.subarray(at + 4) };
}
