import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ApiError } from '../errors.js';
import { ifNoneMatch } from '../http/etag.js';
import type { RequestContext, Route } from '../http/router.js';

/** Where `vite build` writes the pages (web/ → dist/web), seen from dist/src/site/. */
export const WEB_BUILD_DIR = fileURLToPath(new URL('../../web/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Pages and scripts come only from this site; images may be data: or blob: URLs (the Studio's preview and
 * uploads); Swagger UI and Preact set inline styles, never inline scripts. No page may be framed.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Referrer-Policy': 'same-origin',
  // Revalidated on every visit, so a new release's pages (and the hashed assets they name) are seen at once.
  'Cache-Control': 'no-cache',
};

/** Assets are named by their content hash: a changed file is a new name, so a year unrevalidated is safe. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Files at the root keep their name across releases (the icon): an hour, then revalidated by ETag. */
const ROOT_FILE_CACHE = 'public, max-age=3600';

/** Files smaller than this are not worth a gzip pass (the header costs more than it saves). */
const COMPRESS_ABOVE = 1024;

interface StaticFile {
  type: string;
  bytes: Uint8Array;
  /** Present when it is smaller than `bytes`. */
  gzip: Uint8Array | undefined;
  etag: string;
  headers: Record<string, string>;
}

function load(path: string, headers: Record<string, string>): StaticFile {
  const bytes = readFileSync(path);
  const type = TYPES[extname(path)] ?? 'application/octet-stream';
  const squeezed =
    bytes.length > COMPRESS_ABOVE && !type.startsWith('image/png') ? gzipSync(bytes, { level: 9 }) : undefined;
  return {
    type,
    bytes,
    gzip: squeezed !== undefined && squeezed.length < bytes.length ? squeezed : undefined,
    etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`,
    headers,
  };
}

function send(ctx: RequestContext, file: StaticFile): void {
  const headers: Record<string, string> = { 'Content-Type': file.type, ETag: file.etag, ...file.headers };
  if (file.gzip !== undefined) headers.Vary = 'Accept-Encoding';
  if (ifNoneMatch(ctx.headers['if-none-match'], file.etag)) {
    ctx.reply.send(304, headers, '');
    return;
  }
  if (file.gzip !== undefined && /\bgzip\b/.test(ctx.headers['accept-encoding'] ?? '')) {
    ctx.reply.send(200, { ...headers, 'Content-Encoding': 'gzip' }, file.gzip);
    return;
  }
  ctx.reply.send(200, headers, file.bytes);
}

/** `index.html` is served at `/`, `studio.html` at `/studio`. */
export const pagePath = (file: string): string => (file === 'index.html' ? '/' : `/${file.slice(0, -'.html'.length)}`);

/**
 * The built pages (GET /, /studio, …), their assets (GET /assets/:file, one route whatever their number,
 * so the gateway's routes are matched no slower) and the files at the root of the build (the icon), read
 * into memory once, compressed once. An empty list when the pages were not built: the site then serves
 * its API alone, and says so.
 */
export function pageRoutes(dir: string, log: (msg: string) => void): Route[] {
  if (!existsSync(join(dir, 'index.html'))) {
    log(`the site's pages are not built (no ${join(dir, 'index.html')}): serving the API only; run npm run build`);
    return [];
  }
  const routes: Route[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const isPage = entry.name.endsWith('.html');
    const file = load(join(dir, entry.name), isPage ? PAGE_HEADERS : { 'Cache-Control': ROOT_FILE_CACHE });
    routes.push({
      method: 'GET',
      path: isPage ? pagePath(entry.name) : `/${entry.name}`,
      auth: 'public',
      handler: (ctx) => send(ctx, file),
    });
  }
  const assets = new Map<string, StaticFile>();
  const assetDir = join(dir, 'assets');
  if (existsSync(assetDir)) {
    for (const name of readdirSync(assetDir))
      assets.set(name, load(join(assetDir, name), { 'Cache-Control': ASSET_CACHE }));
  }
  routes.push({
    method: 'GET',
    path: '/assets/:file',
    auth: 'public',
    handler: (ctx) => {
      const file = assets.get(ctx.params.file!);
      if (file === undefined) throw new ApiError('NOT_FOUND', { message: `No asset ${ctx.params.file}.` });
      send(ctx, file);
    },
  });
  return routes;
}
