/**
 * The built pages' routes (src/site/pages.ts) over real HTTP, from a build folder made here: each page at
 * its path with the Content-Security-Policy, each asset by name, each root file; how long each may be
 * cached; gzip only where it saves bytes and the client asks; ETags and 304; a missing asset's 404; and
 * no routes, said once, when nothing was built.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get as httpGet } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answer } from '../helpers/answers.js';
import { type RouteServer, serveRoutes } from '../helpers/route-server.js';

const dist = (file: string) => new URL(`../../dist/src/${file}`, import.meta.url).href;
const { CONTENT_SECURITY_POLICY, pagePath, pageRoutes } = (await import(
  dist('site/pages.js')
)) as typeof import('../../src/site/pages.js');

const dir = mkdtempSync(join(tmpdir(), 'qrfarm-pages-'));
/** Text that compresses well, longer than the 1 KiB below which nothing is compressed. */
const long = (line: string) => `${line}\n`.repeat(200);
const FILES: Record<string, string | Buffer> = {
  'index.html': `<!doctype html><title>home</title>${long('<p>home</p>')}`,
  'studio.html': '<!doctype html><title>studio</title>',
  'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  'assets/app-1a2b3c.js': long('console.log("app");'),
  'assets/app-1a2b3c.css': 'body{margin:0}',
  // Random bytes: gzip would make them larger, so they are sent as they are.
  'assets/noise-4d5e6f.woff2': randomBytes(4096),
  'assets/logo-7a8b9c.png': Buffer.alloc(4096, 0),
};
const etagOf = (bytes: string | Buffer) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`;

let server: RouteServer;
const logs: string[] = [];

beforeAll(async () => {
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, 'nested'));
  writeFileSync(join(dir, 'nested', 'skipped.html'), 'not served');
  for (const [name, bytes] of Object.entries(FILES)) writeFileSync(join(dir, name), bytes);
  server = await serveRoutes(pageRoutes(dir, (m) => logs.push(m)));
});
afterAll(() => {
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A GET through node:http, which (unlike fetch) asks for no encoding unless told and inflates nothing:
 * the bytes are those that crossed the wire.
 */
function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    httpGet(`${server.origin}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const json = (res.headers['content-type'] ?? '').startsWith('application/json');
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h.set(k, v);
        resolve({ status: res.statusCode!, headers: h, bytes, body: json ? JSON.parse(bytes.toString()) : undefined });
      });
    }).on('error', reject);
  });
}
const text = (a: Answer) => Buffer.from(a.bytes).toString('utf8');

describe('pagePath', () => {
  it('serves index.html at / and any other page at its name without .html', () => {
    expect(pagePath('index.html')).toBe('/');
    expect(pagePath('studio.html')).toBe('/studio');
    expect(pagePath('verify-email.html')).toBe('/verify-email');
  });
});

describe('pageRoutes', () => {
  it('lists the pages, the root files and one route for every asset; folders other than assets are not served', () => {
    const routes = pageRoutes(dir, () => {});
    expect(routes.map((r) => `${r.method} ${r.path} ${r.auth}`).sort()).toEqual(
      ['GET / public', 'GET /studio public', 'GET /favicon.svg public', 'GET /assets/:file public'].sort(),
    );
    expect(logs).toEqual([]);
  });

  it('without a build: no routes, and says how to make one', () => {
    const empty = mkdtempSync(join(tmpdir(), 'qrfarm-pages-empty-'));
    const said: string[] = [];
    expect(pageRoutes(empty, (m) => said.push(m))).toEqual([]);
    expect(said).toEqual([
      `the site's pages are not built (no ${join(empty, 'index.html')}): serving the API only; run npm run build`,
    ]);
    rmSync(empty, { recursive: true });
  });
});

describe('a page', () => {
  it('is HTML under the Content-Security-Policy, revalidated on every visit, gzipped when asked and worth it', async () => {
    const plain = await get('/');
    expect(plain.status).toBe(200);
    expect(text(plain)).toBe(FILES['index.html']);
    expect(plain.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(plain.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self';");
    expect(plain.headers.get('referrer-policy')).toBe('same-origin');
    expect(plain.headers.get('cache-control')).toBe('no-cache');
    expect(plain.headers.get('etag')).toBe(etagOf(FILES['index.html']!));
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    expect(plain.headers.get('content-encoding')).toBeNull();

    const squeezed = await get('/', { 'accept-encoding': 'br, gzip;q=0.5' });
    expect(squeezed.headers.get('content-encoding')).toBe('gzip');
    expect(squeezed.headers.get('etag')).toBe(etagOf(FILES['index.html']!));
    expect(squeezed.bytes.length).toBeLessThan(FILES['index.html']!.length / 10);
    expect(gunzipSync(squeezed.bytes).toString('utf8')).toBe(FILES['index.html']);
    expect((await get('/', { 'accept-encoding': 'br, deflate' })).headers.get('content-encoding')).toBeNull();
  });

  it('a small page is sent as it is, whatever the client accepts, and says nothing of encodings', async () => {
    const a = await get('/studio', { 'accept-encoding': 'gzip' });
    expect(text(a)).toBe(FILES['studio.html']);
    expect(a.headers.get('content-encoding')).toBeNull();
    expect(a.headers.get('vary')).toBeNull();
    expect(a.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('answers 304 with no body to an If-None-Match naming its ETag (weak, in a list, or *), 200 otherwise', async () => {
    const etag = etagOf(FILES['index.html']!);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const a = await get('/', { 'if-none-match': header });
      expect({ status: a.status, length: a.bytes.length, etag: a.headers.get('etag') }, header).toEqual({
        status: 304,
        length: 0,
        etag,
      });
    }
    expect((await get('/', { 'if-none-match': '"other"' })).status).toBe(200);
  });
});

describe('assets and root files', () => {
  it('an asset is kept a year, immutable, typed by its extension', async () => {
    const js = await get('/assets/app-1a2b3c.js');
    expect(text(js)).toBe(FILES['assets/app-1a2b3c.js']);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('content-security-policy')).toBeNull();
    const css = await get('/assets/app-1a2b3c.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('gzips an asset only where that makes it smaller, and never a PNG', async () => {
    const js = await get('/assets/app-1a2b3c.js', { 'accept-encoding': 'gzip' });
    expect(js.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(js.bytes).toString('utf8')).toBe(FILES['assets/app-1a2b3c.js']);
    for (const name of ['assets/noise-4d5e6f.woff2', 'assets/logo-7a8b9c.png']) {
      const a = await get(`/${name}`, { 'accept-encoding': 'gzip' });
      expect(a.headers.get('content-encoding'), name).toBeNull();
      expect(Buffer.from(a.bytes).equals(Buffer.from(FILES[name]!)), name).toBe(true);
    }
    expect((await get('/assets/noise-4d5e6f.woff2')).headers.get('content-type')).toBe('font/woff2');
    expect((await get('/assets/logo-7a8b9c.png')).headers.get('content-type')).toBe('image/png');
    // The noise would indeed grow under gzip, and the PNG shrink a lot: what decided is the rule, not chance.
    expect(gzipSync(FILES['assets/noise-4d5e6f.woff2']!, { level: 9 }).length).toBeGreaterThan(4096);
    expect(gzipSync(FILES['assets/logo-7a8b9c.png']!, { level: 9 }).length).toBeLessThan(100);
  });

  it('a root file is kept an hour, then revalidated', async () => {
    const a = await get('/favicon.svg');
    expect(text(a)).toBe(FILES['favicon.svg']);
    expect(a.headers.get('content-type')).toBe('image/svg+xml');
    expect(a.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('an asset not in the build is 404 NOT_FOUND, naming it', async () => {
    const a = await get('/assets/app-0000.js');
    expect({ status: a.status, code: a.body.code, error: a.body.error }).toEqual({
      status: 404,
      code: 'NOT_FOUND',
      error: 'No asset app-0000.js.',
    });
    expect((await get('/nested/skipped.html')).status).toBe(404);
  });
});
