import dns from 'node:dns';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { addRemoteAssets, fetchImage, FETCH_POLICY, type FetchPolicy } from '../../src/images/fetch.js';
import { bytesOf, guardConnections, redirectTo, serve, type ConnectionGuard, type TestServer } from './loopback.js';
import { png, quadrants } from '../helpers/make-images.js';

const image = png(quadrants(8, 8));
const LOOPBACK: FetchPolicy = { ...FETCH_POLICY, allowLoopback: true };

let guard: ConnectionGuard;
let server: TestServer;
beforeAll(async () => {
  guard = guardConnections();
  server = await serve({
    '/logo.png': bytesOf(image, 'image/png'),
    '/page.html': bytesOf(new TextEncoder().encode('<!doctype html><p>not an image</p>'), 'text/html'),
    '/missing': (_req, res) => res.writeHead(404).end('no'),
    '/to-metadata': redirectTo('http://169.254.169.254/latest/meta-data/'),
    '/to-private': redirectTo('http://10.0.0.1/logo.png', 301),
    '/to-ula': redirectTo('http://[fd00:ec2::254]/'),
    '/to-hex': redirectTo('http://0xa9fea9fe/'),
    '/to-file': redirectTo('file:///etc/passwd'),
    '/hop3': redirectTo('/hop2', 307),
    '/hop2': redirectTo('/hop1', 308),
    '/hop1': redirectTo('/logo.png', 303),
    '/hop4': redirectTo('/hop3'),
    '/big-declared': (_req, res) => {
      res.writeHead(200, { 'content-length': 10 * 1024 * 1024 + 1 });
      res.write(image);
    },
    '/big-streamed': (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(1024 * 1024, 7);
      chunk.set(image.subarray(0, 8));
      for (let i = 0; i < 11; i++) res.write(chunk);
      res.end();
    },
    '/silent': () => {},
    '/trickle': (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(image.subarray(0, 8));
      const t = setInterval(
        () => (res.writableEnded || res.destroyed ? clearInterval(t) : res.write(Buffer.alloc(1))),
        50,
      );
      res.on('close', () => clearInterval(t));
    },
  });
});
afterAll(async () => {
  await server.close();
  guard.restore();
});
afterEach(() => {
  vi.restoreAllMocks();
  // Every refusal happened before a connection: nothing ever tried to leave loopback.
  expect(guard.blocked).toEqual([]);
  expect(guard.attempts.every((h) => /^(127\.0\.0\.[12]|localhost):\d+$/.test(h))).toBe(true);
});

const refused = async (p: Promise<unknown>, field = 'logoUrl'): Promise<string> => {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiError);
  expect(e).toMatchObject({ code: 'INVALID_FIELD_VALUE', field });
  return (e as ApiError).message;
};

describe('fetchImage', () => {
  it('fetches an image by IP and by host name', async () => {
    expect(await fetchImage(`${server.url}/logo.png`, 'logoUrl', LOOPBACK)).toEqual(image);
    expect(await fetchImage(`${server.url.replace('127.0.0.1', 'localhost')}/logo.png`, 'logoUrl', LOOPBACK)).toEqual(
      image,
    );
  });

  it.each([
    'http://127.0.0.1/',
    'http://localhost/',
    'http://[::1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.1/',
    'http://0x7f000001/',
    'http://2130706433/',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0/',
    'http://192.168.0.1/',
    'http://172.16.5.4/',
    'http://100.64.0.1/',
    'http://[fd00:ec2::254]/',
    'http://[fe80::1]/',
    'http://224.0.0.1/',
  ])('refuses %s before any connection', async (url) => {
    const before = guard.attempts.length;
    expect(await refused(fetchImage(url, 'logoUrl', FETCH_POLICY))).toMatch(
      /address is private, loopback, link-local or reserved/,
    );
    expect(guard.attempts.length).toBe(before);
  });

  it('re-checks every redirect: a loopback-allowed server cannot send the fetch to metadata or private addresses', async () => {
    for (const path of ['/to-metadata', '/to-private', '/to-ula', '/to-hex']) {
      const before = guard.attempts.length;
      expect(
        await refused(fetchImage(`${server.url}${path}`, 'backgroundImageUrl', LOOPBACK), 'backgroundImageUrl'),
      ).toMatch(/address is private/);
      // Exactly one connection: to the test server; none to the redirect target.
      expect(guard.attempts.slice(before)).toEqual([server.url.slice(7)]);
    }
    expect(await refused(fetchImage(`${server.url}/to-file`, 'logoUrl', LOOPBACK))).toMatch(/only http and https/);
  });

  it('follows at most 3 redirects', async () => {
    expect(await fetchImage(`${server.url}/hop3`, 'logoUrl', LOOPBACK)).toEqual(image);
    expect(await refused(fetchImage(`${server.url}/hop4`, 'logoUrl', LOOPBACK))).toMatch(/more than 3 redirects/);
  });

  it('refuses more than 10 MB, declared or streamed', async () => {
    expect(await refused(fetchImage(`${server.url}/big-declared`, 'logoUrl', LOOPBACK))).toMatch(/larger than 10 MB/);
    expect(await refused(fetchImage(`${server.url}/big-streamed`, 'logoUrl', LOOPBACK))).toMatch(/larger than 10 MB/);
  });

  it('refuses what is not an image, whatever its Content-Type, and error statuses', async () => {
    expect(await refused(fetchImage(`${server.url}/page.html`, 'logoUrl', LOOPBACK))).toMatch(
      /not a PNG, JPG, GIF, BMP or WebP/,
    );
    expect(await refused(fetchImage(`${server.url}/missing`, 'logoUrl', LOOPBACK))).toMatch(/HTTP 404/);
  });

  it('gives up after the time limit, silent or trickling', async () => {
    const quick = { ...LOOPBACK, timeoutMs: 300 };
    for (const path of ['/silent', '/trickle']) {
      expect(await refused(fetchImage(`${server.url}${path}`, 'logoUrl', quick))).toMatch(/within 0.3 s/);
    }
  });

  it('refuses credentials in the URL and non-http schemes', async () => {
    expect(await refused(fetchImage(`http://user:pw@${server.url.slice(7)}/logo.png`, 'logoUrl', LOOPBACK))).toMatch(
      /credentials/,
    );
    expect(await refused(fetchImage('ftp://example.com/logo.png', 'logoUrl', LOOPBACK))).toMatch(/only http and https/);
  });

  it('a host name with any forbidden address is refused whole', async () => {
    const lookup = vi.spyOn(dns.promises, 'lookup').mockResolvedValue([
      { address: '93.184.215.14', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ] as never);
    expect(await refused(fetchImage('http://mixed.test/logo.png', 'logoUrl', LOOPBACK))).toMatch(/address is private/);
    expect(lookup).toHaveBeenCalledTimes(1);
  });

  it('connects to the vetted address: a DNS answer that changes afterwards (rebinding) is never used', async () => {
    const elsewhere = await serve({ '/logo.png': bytesOf(image) }, '127.0.0.2');
    try {
      const port = new URL(elsewhere.url).port;
      // First answer vetted and pinned; any later lookup would point at a private address.
      const lookup = vi
        .spyOn(dns.promises, 'lookup')
        .mockResolvedValueOnce([{ address: '127.0.0.2', family: 4 }] as never)
        .mockResolvedValue([{ address: '10.0.0.1', family: 4 }] as never);
      // "localhost" would resolve to 127.0.0.1 if the connection looked it up again, where nothing listens on this port.
      expect(await fetchImage(`http://localhost:${port}/logo.png`, 'logoUrl', LOOPBACK)).toEqual(image);
      expect(lookup).toHaveBeenCalledTimes(1);
      expect(elsewhere.hits).toEqual(['/logo.png']);
    } finally {
      await elsewhere.close();
    }
  });
});

describe('addRemoteAssets', () => {
  it('fills logo and background from their URL fields', async () => {
    const assets = await addRemoteAssets(
      { logoUrl: `${server.url}/logo.png`, backgroundImageUrl: `${server.url}/hop1` },
      {},
      LOOPBACK,
    );
    expect(assets.logo).toEqual(image);
    expect(assets.background).toEqual(image);
  });

  it('one image from one source only', async () => {
    expect(
      await refused(
        addRemoteAssets({ backgroundImageUrl: `${server.url}/logo.png` }, { background: image }, LOOPBACK),
        'backgroundImageUrl',
      ),
    ).toMatch(/once/);
  });
});
