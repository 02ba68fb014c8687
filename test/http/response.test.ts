/**
 * Reply's answers reach a client that reads late byte for byte: a body handed over as a view into a larger
 * buffer (as a relayed answer is), more than the socket takes at once, continued as it drains; sent whole
 * or streamed in chunks.
 */
import type { us_listen_socket } from '@trufflesuite/uws-js-unofficial';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Reply } from '../../src/http/response.js';
import { loadUws } from '../../src/http/uws.js';
import { readLate } from '../helpers/tcp.js';

/** Bigger than what loopback socket buffers take at once, so the rest waits for the client. */
const SIZE = 8 * 1024 * 1024;
const PADDING = 1000;

/** SIZE bytes of a pattern that shows any shifted or repeated range, PADDING bytes into a larger buffer. */
function view(): Uint8Array {
  const whole = Buffer.alloc(SIZE + 2 * PADDING);
  for (let i = 0; i < whole.length; i += 4) whole.writeUInt32LE(i, i);
  return whole.subarray(PADDING, PADDING + SIZE);
}

const { uws } = loadUws();
let listening: us_listen_socket;
let port: number;

beforeAll(async () => {
  const app = uws.App();
  app.get('/send', (res) => new Reply(res).send(200, { 'content-type': 'application/octet-stream' }, view()));
  app.get('/stream', (res) => {
    const body = view();
    async function* chunks() {
      for (let at = 0; at < SIZE; at += 64 * 1024) yield body.subarray(at, at + 64 * 1024);
    }
    void new Reply(res).stream(200, { 'content-type': 'application/octet-stream' }, SIZE, chunks());
  });
  await new Promise<void>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (socket) => {
      if (!socket) return reject(new Error('cannot listen'));
      listening = socket;
      port = uws.us_socket_local_port(socket as never);
      resolve();
    }),
  );
});

afterAll(() => uws.us_listen_socket_close(listening));

/** GET `path`, reading nothing for 300 ms, then everything: the body after the head. */
async function readLateGet(path: string): Promise<Buffer> {
  const answer = await readLate(port, `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close`);
  expect(answer.head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  return answer.body;
}

describe('a body larger than the socket takes at once, to a client that reads late, arrives whole', () => {
  it('send: every byte of the view, in order, and nothing of the buffer around it', async () => {
    expect(Buffer.from(await readLateGet('/send')).equals(Buffer.from(view()))).toBe(true);
  });

  it('stream: every chunk, in order, though several of them wait for the socket to drain', async () => {
    expect(Buffer.from(await readLateGet('/stream')).equals(Buffer.from(view()))).toBe(true);
  });
});
