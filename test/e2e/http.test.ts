import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClientOutcome, NODE_CLIENTS, postFromNodeClients } from '../helpers/node-clients.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { rawExchange } from '../helpers/tcp.js';

/** Sends raw bytes and returns whatever the server answered before closing (or a short wait). */
const raw = (port: number, payload: string | Buffer, waitMs = 1500) =>
  new Promise<string>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let buf = '';
    s.on('data', (d) => (buf += d.toString('latin1')));
    s.on('close', () => resolve(buf));
    s.on('error', () => resolve(buf));
    s.write(payload);
    setTimeout(() => s.destroy(), waitMs);
  });

const envelope = async (res: Response, status: number, code: string) => {
  expect(res.status).toBe(status);
  const body = await res.json();
  expect(body).toMatchObject({ success: false, code });
  expect(typeof body.error).toBe('string');
  return body;
};

/** `413 PAYLOAD_TOO_LARGE` for an envelope read whole, the client's error code when it could not read one. */
const outcome = (o: ClientOutcome): string =>
  'error' in o ? o.error : `${o.status} ${(JSON.parse(o.body) as { code: string }).code}`;

describe('open service (no secret, loopback)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.close());

  it('GET /api/ping reports status, version, uptime, pool state and the native build', async () => {
    const res = await fetch(`${svc.url}/api/ping`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      success: true,
      status: 'ok',
      version: expect.any(String),
      uptimeSeconds: expect.any(Number),
    });
    expect(body.pool).toMatchObject({ workers: 2, running: 0, queued: 0 });
    expect(body.server.uws).toMatch(/^uws_linux_x64_\d+\.node$/);
  });

  it('unknown paths are 404 in the envelope', async () => {
    await envelope(await fetch(`${svc.url}/api/nope`), 404, 'NOT_FOUND');
    await envelope(await fetch(`${svc.url}/`), 404, 'NOT_FOUND');
  });

  it('wrong methods are 405 with Allow', async () => {
    const res = await fetch(`${svc.url}/api/qr/generate`);
    await envelope(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.get('allow')).toBe('POST');
    await envelope(await fetch(`${svc.url}/api/ping`, { method: 'DELETE' }), 405, 'METHOD_NOT_ALLOWED');
  });

  it('a body declared over 10 MB is refused with 413 before it is read', async () => {
    const reply = await raw(
      svc.port,
      `POST /api/qr/generate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${11 * 1024 * 1024}\r\n\r\n{"content":`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 413 /);
    expect(reply).toContain('"code":"PAYLOAD_TOO_LARGE"');
  });

  it('a chunked body that grows over 10 MB is refused with 413, which the client reads whole', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const res = await fetch(`${svc.url}/api/qr/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(c) {
          for (let i = 0; i < 12; i++) c.enqueue(chunk);
          c.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    await envelope(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(res.headers.get('connection')).toBe('close');
    expect((await fetch(`${svc.url}/api/ping`)).status).toBe(200);
  });

  it('every Node client reads the 413 of an 11 MB body, 20 times out of 20 (the rest of the body is read, then dropped)', async () => {
    const seen = await postFromNodeClients(`${svc.url}/api/qr/generate`, 11 * 1024 * 1024, 20);
    for (const client of NODE_CLIENTS) {
      const outcomes = seen[client].map(outcome);
      expect({ client, outcomes }).toEqual({ client, outcomes: Array(20).fill('413 PAYLOAD_TOO_LARGE') });
    }
  });

  it('a large body to an unknown path is dropped while the 404 lingers, so every Node client reads it', async () => {
    const seen = await postFromNodeClients(`${svc.url}/api/nope`, 11 * 1024 * 1024, 5);
    for (const client of NODE_CLIENTS) {
      const outcomes = seen[client].map(outcome);
      expect({ client, outcomes }).toEqual({ client, outcomes: Array(5).fill('404 NOT_FOUND') });
    }
  });

  it('a body trickling at 1 KB/s is answered 408 REQUEST_TIMEOUT in the envelope, before uWS would cut it', async () => {
    const a = await rawExchange(
      svc.port,
      'POST /api/qr/generate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000',
      Buffer.alloc(100_000, 0x20),
      { pace: { bytes: 1024, everyMs: 1000 }, timeoutMs: 20_000 },
    );
    expect(a.status).toBe(408);
    expect(JSON.parse(a.body.toString())).toEqual({
      success: false,
      code: 'REQUEST_TIMEOUT',
      error: 'The request body arrived too slowly: less than 160 KB in 8 s.',
    });
    expect(a.bodyBytesSent).toBeLessThan(20 * 1024);
  });

  it('a body of just under 10 MB is read whole (and then judged on its content)', async () => {
    const body = JSON.stringify({ content: 'x', logoBase64: 'A'.repeat(10 * 1024 * 1024 - 40) });
    expect(body.length).toBeLessThan(10 * 1024 * 1024);
    await envelope(await svc.post('/api/qr/generate', body), 400, 'INVALID_FIELD_VALUE');
  });

  it('oversized headers get 431 in the envelope', async () => {
    const reply = await raw(svc.port, `GET /api/ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`);
    expect(reply).toMatch(/^HTTP\/1\.1 431 /);
    expect(reply).toContain('"code":"HEADERS_TOO_LARGE"');
  });

  it('a badly percent-encoded path parameter is a 404/400 envelope, never a crash', async () => {
    const reply = await raw(svc.port, 'GET /api/%E0%A4%A HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(reply).toMatch(/^HTTP\/1\.1 (400|404) /);
    expect(reply).toContain('"success":false');
  });

  it('keeps the connection open after a successful POST (keep-alive)', async () => {
    const body = JSON.stringify({ content: 'keep-alive' });
    const req = `POST /api/qr/generate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const answers = await new Promise<number>((resolve) => {
      const s = net.connect(svc.port, '127.0.0.1');
      let buf = '';
      let seen = 0;
      s.on('data', (d) => {
        buf += d.toString('latin1');
        const n = buf.match(/HTTP\/1\.1 200 OK/g)?.length ?? 0;
        if (n > seen) {
          seen = n;
          if (seen < 3) s.write(req);
        }
        if (seen === 3) {
          s.destroy();
          resolve(seen);
        }
      });
      s.on('close', () => resolve(seen));
      s.write(req);
    });
    expect(answers).toBe(3);
  });
});

describe('the body deadline (QR_BODY_TIMEOUT_MS)', () => {
  it('a body that keeps coming but is not whole by the deadline gets 408 REQUEST_TIMEOUT', async () => {
    const svc = await startTestService({ bodyTimeoutMs: 2000 });
    try {
      const size = 10 * 1024 * 1024;
      const a = await rawExchange(
        svc.port,
        `POST /api/qr/generate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${size}`,
        Buffer.alloc(size, 0x20),
        { pace: { bytes: 64 * 1024, everyMs: 50 } },
      );
      expect([a.status, a.headers.connection]).toEqual([408, 'close']);
      expect(JSON.parse(a.body.toString())).toEqual({
        success: false,
        code: 'REQUEST_TIMEOUT',
        error: 'The request body did not arrive whole within 2 s.',
      });
      expect(a.bodyBytesSent).toBeLessThan(size);
    } finally {
      await svc.close();
    }
  });
});

describe('marketplace auth', () => {
  let svc: TestService;
  const SECRET = 'correct horse battery staple';
  beforeAll(async () => {
    svc = await startTestService({ proxySecret: SECRET, proxySecretHeader: 'x-rapidapi-proxy-secret' });
  });
  afterAll(() => svc.close());

  it('requests without the header are 401 UNAUTHORIZED', async () => {
    await envelope(await fetch(`${svc.url}/api/ping`), 401, 'UNAUTHORIZED');
    await envelope(await svc.post('/api/qr/generate', { content: 'x' }), 401, 'UNAUTHORIZED');
  });

  it('a wrong or prefix-only secret is 401', async () => {
    for (const wrong of ['nope', SECRET.slice(0, -1), `${SECRET}x`, '']) {
      await envelope(
        await fetch(`${svc.url}/api/ping`, { headers: { 'X-RapidAPI-Proxy-Secret': wrong } }),
        401,
        'UNAUTHORIZED',
      );
    }
  });

  it('the right secret is let through, and the secret never appears in the response', async () => {
    const res = await svc.post('/api/qr/generate', { content: 'authorised' }, { 'X-RapidAPI-Proxy-Secret': SECRET });
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain(SECRET);
  });

  it('unknown paths still need the secret to learn anything but 401', async () => {
    await envelope(
      await fetch(`${svc.url}/api/qr/unknown`, { headers: { 'X-RapidAPI-Proxy-Secret': SECRET } }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('start-up rules', () => {
  it('the header name is configurable', async () => {
    const svc = await startTestService({ proxySecret: 's3cret', proxySecretHeader: 'x-acme-proxy-secret' });
    try {
      expect((await fetch(`${svc.url}/api/ping`, { headers: { 'X-Acme-Proxy-Secret': 's3cret' } })).status).toBe(200);
      expect((await fetch(`${svc.url}/api/ping`, { headers: { 'X-RapidAPI-Proxy-Secret': 's3cret' } })).status).toBe(
        401,
      );
    } finally {
      await svc.close();
    }
  });

  it('refuses to start without a secret on a non-loopback address', async () => {
    await expect(startTestService({ host: '0.0.0.0' })).rejects.toThrow(/QR_PROXY_SECRET/);
  });

  it('says at start that it runs open on loopback, and which native build it loaded', async () => {
    const lines: string[] = [];
    const svc = await startTestService({}, (m) => lines.push(m));
    await svc.close();
    expect(lines.join('\n')).toMatch(/uWebSockets\.js native build: .*uws_linux_x64_\d+\.node/);
    expect(lines.join('\n')).toMatch(/WITHOUT authentication/);
  });
});
