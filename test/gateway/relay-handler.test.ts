/**
 * How a relayed answer is read (src/gateway/relay-handler.ts), on undici's dispatch interface against a
 * loopback HTTP server: the headers that cross the hop, an interim answer skipped, a small answer gathered
 * whole and a large or unsized one streamed with every byte, and the call abandoned when its signal fires,
 * before the answer or while it streams, with either kind of signal.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { Client, errors } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientGone } from '../../src/http/client-gone.js';
import type { Relayed } from '../../src/http/upstream.js';
import { type CallSignal, RelayHandler, WHOLE_UP_TO_BYTES } from '../../src/gateway/relay-handler.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const handlers = new Map<string, Handler>();
/** Requests whose answer the server saw cut off before it ended. */
const cutOff: string[] = [];
let server: Server;
let client: Client;

beforeAll(async () => {
  server = createServer((req, res) => {
    res.on('close', () => {
      if (!res.writableFinished) cutOff.push(req.url!);
    });
    handlers.get(req.url!)!(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new Client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(async () => {
  await client?.close();
  server?.closeAllConnections();
  server?.close();
});

/** GETs `path` through a RelayHandler listening to `signal`. */
function relay(
  path: string,
  handler: Handler,
  signal: CallSignal = new AbortController().signal,
  through: Client = client,
): Promise<Relayed> {
  handlers.set(path, handler);
  return new Promise((resolve, reject) =>
    through.dispatch({ method: 'GET', path }, new RelayHandler(signal, resolve, reject)),
  );
}

async function readStream(body: Relayed['body']): Promise<Buffer> {
  expect(body).toBeInstanceOf(Readable);
  const chunks: Buffer[] = [];
  for await (const c of body as Readable) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('the answer’s head', () => {
  it('keeps the engine’s headers, drops those of the hop and those the site writes itself, joins repeats', async () => {
    const r = await relay('/head', (_req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.setHeader('ETag', '"e1"');
      res.setHeader('X-Request-Id', 'engine-id');
      res.setHeader('Strict-Transport-Security', 'max-age=1');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('uWebSockets', '20');
      res.setHeader('Keep-Alive', 'timeout=5');
      res.setHeader('Vary', ['Accept', 'Accept-Encoding']);
      res.setHeader('Content-Length', '2');
      res.end('{}');
    });
    expect(r.status).toBe(200);
    expect(r.length).toBe(2);
    expect(r.headers).toEqual({ 'content-type': 'application/json', etag: '"e1"', vary: 'Accept, Accept-Encoding' });
    expect(Object.getPrototypeOf(r.headers)).toBe(Object.prototype);
  });

  it('a header named __proto__ is dropped, never set on the object’s prototype', async () => {
    const r = await relay('/proto', (_req, res) => {
      res.setHeader('__proto__', 'polluted');
      res.setHeader('Content-Length', '0');
      res.end();
    });
    expect(Object.getPrototypeOf(r.headers)).toBe(Object.prototype);
    expect(Object.keys(r.headers)).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('skips an interim 103 and gives the final answer', async () => {
    const r = await relay('/early', (_req, res) => {
      res.writeEarlyHints({ link: '</a.css>; rel=preload' });
      res.writeHead(404, { 'content-type': 'application/json', 'content-length': '17' });
      res.end('{"success":false}');
    });
    expect(r.status).toBe(404);
    expect(Buffer.from(r.body as Uint8Array).toString()).toBe('{"success":false}');
    expect(r.headers.link).toBeUndefined();
  });
});

describe('the body', () => {
  it(`up to ${WHOLE_UP_TO_BYTES} bytes of known length: gathered whole before the answer is given`, async () => {
    const bytes = randomBytes(WHOLE_UP_TO_BYTES);
    const r = await relay('/whole', (_req, res) => {
      res.setHeader('Content-Length', String(bytes.length));
      // In several writes, so the handler gathers chunks.
      for (let at = 0; at < bytes.length; at += 10_000) res.write(bytes.subarray(at, at + 10_000));
      res.end();
    });
    expect(r.body).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(r.body as Uint8Array).equals(bytes)).toBe(true);
    expect(r.length).toBe(bytes.length);
  });

  it('an empty answer of length 0 is an empty body', async () => {
    const r = await relay('/empty', (_req, res) => {
      res.writeHead(200, { 'content-length': '0' });
      res.end();
    });
    expect(r.body).toBeInstanceOf(Uint8Array);
    expect((r.body as Uint8Array).length).toBe(0);
  });

  it('a byte more: a stream, given at its head, with every byte in order', async () => {
    const bytes = randomBytes(WHOLE_UP_TO_BYTES + 1);
    const r = await relay('/stream', (_req, res) => {
      res.setHeader('Content-Length', String(bytes.length));
      res.end(bytes);
    });
    expect(r.length).toBe(bytes.length);
    expect((await readStream(r.body)).equals(bytes)).toBe(true);
  });

  it('of unknown length (chunked), however small: a stream, its length undefined', async () => {
    const r = await relay('/chunked', (_req, res) => {
      res.write('ab');
      setImmediate(() => res.end('cd'));
    });
    expect(r.length).toBeUndefined();
    expect(r.headers['transfer-encoding']).toBeUndefined();
    expect((await readStream(r.body)).toString()).toBe('abcd');
  });

  it('a connection cut mid-answer fails the stream, or the call when nothing was given yet', async () => {
    const streamed = await relay('/cut-stream', (_req, res) => {
      res.setHeader('Content-Length', String(WHOLE_UP_TO_BYTES * 2));
      res.write(Buffer.alloc(1000));
      setImmediate(() => res.socket!.destroy());
    });
    await expect(readStream(streamed.body)).rejects.toThrow();
    await expect(
      relay('/cut-whole', (_req, res) => {
        res.setHeader('Content-Length', '100');
        res.write('partial');
        setImmediate(() => res.socket!.destroy());
      }),
    ).rejects.toThrow();
  });
});

describe('abandoning the call', () => {
  // A signal that had fired before the call was made is the engine client's to check (engine-client.ts).
  it('a signal fired before the connection is made: the call is aborted as it connects, the engine never asked', async () => {
    const gone = new AbortController();
    let asked = false;
    // A client of its own, not yet connected: it connects only after this turn of the event loop.
    const fresh = new Client(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const call = relay(
      '/before-connect',
      (_req, res) => {
        asked = true;
        res.end();
      },
      gone.signal,
      fresh,
    );
    gone.abort();
    await expect(call).rejects.toBeInstanceOf(errors.RequestAbortedError);
    await fresh.close();
    expect(asked).toBe(false);
  });

  it('the client gone while the engine works: the call is aborted and the engine sees the connection close', async () => {
    const gone = new ClientGone();
    let closed!: () => void;
    const engineSawClose = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const call = relay(
      '/slow',
      (req, res) => {
        req.socket.on('close', closed);
        setImmediate(() => gone.fire());
        void res;
      },
      gone,
    );
    await expect(call).rejects.toBeInstanceOf(errors.RequestAbortedError);
    await engineSawClose;
    expect(gone.listenerCount('abort')).toBe(0);
  });

  it('the client gone mid-stream: the stream ends in an error and the engine’s answer is cut off', async () => {
    const gone = new AbortController();
    const r = await relay(
      '/mid-stream',
      (_req, res) => {
        res.setHeader('Content-Length', String(WHOLE_UP_TO_BYTES * 4));
        res.write(Buffer.alloc(WHOLE_UP_TO_BYTES * 2));
      },
      gone.signal,
    );
    const body = r.body as Readable;
    const failed = new Promise<Error>((resolve) => body.on('error', resolve));
    gone.abort();
    expect(await failed).toBeInstanceOf(errors.RequestAbortedError);
    await expect.poll(() => cutOff.includes('/mid-stream')).toBe(true);
  });

  it('a signal fired after the answer is complete changes nothing, and is no longer listened to', async () => {
    const gone = new ClientGone();
    const r = await relay(
      '/done',
      (_req, res) => {
        res.setHeader('Content-Length', '4');
        res.end('done');
      },
      gone,
    );
    expect(gone.listenerCount('abort')).toBe(0);
    gone.fire();
    expect(Buffer.from(r.body as Uint8Array).toString()).toBe('done');
    const streamed = await relay(
      '/done-stream',
      (_req, res) => {
        res.write('x'.repeat(5));
        res.end('x'.repeat(5));
      },
      gone,
    );
    expect((await readStream(streamed.body)).toString()).toBe('x'.repeat(10));
  });
});
