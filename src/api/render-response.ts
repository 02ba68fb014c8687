import { createHash } from 'node:crypto';
import { ifNoneMatch } from '../http/etag.js';
import type { RequestContext } from '../http/router.js';
import type { Correction, RenderAssets } from '../model/render-config.js';
import { renderCacheLookups } from '../observe/metrics.js';
import type { RenderSuccess } from '../render/types.js';
import type { PreparedRender } from '../schema/prepare-render.js';
import type { Service } from '../service.js';
import { isVisitor } from './studio-preview.js';

const sha256 = (parts: (string | Uint8Array)[]) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('base64url');
};

/** Canonical JSON: keys sorted at every level, so equal configs give equal cache keys. */
const canonical = (v: unknown): string =>
  v === null || typeof v !== 'object'
    ? JSON.stringify(v)
    : Array.isArray(v)
      ? `[${v.map(canonical).join(',')}]`
      : `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(',')}}`;

/**
 * Renders (or reuses an identical earlier render) and answers in the requested form. The ETag is a
 * hash of everything that determines the bytes, so a matching If-None-Match is answered 304 before any
 * work is done. A route's own facts go into the JSON body (`extra`) or, for binary replies, into
 * `extraHeaders`.
 */
export interface RenderReply {
  prepared: PreparedRender;
  assets: RenderAssets;
  responseType?: 'base64' | 'binary';
  /** A route's own facts for the JSON body. */
  extra?: Record<string, unknown>;
  /** A route's own facts for a binary reply. */
  extraHeaders?: Record<string, string>;
  /**
   * Runs once the answer is ready and its client still there, just before it is sent (304 included); its
   * headers go on the answer in every form. The managed route counts the design here, so a design is
   * counted, and billed, only when it is answered.
   */
  beforeReply?: () => Promise<Record<string, string>>;
}

export async function renderAndReply(
  ctx: RequestContext,
  service: Service,
  { prepared, assets, responseType = 'base64', extra = {}, extraHeaders = {}, beforeReply }: RenderReply,
): Promise<void> {
  const confirmed = async (): Promise<Record<string, string>> =>
    beforeReply === undefined || ctx.reply.aborted ? {} : beforeReply();
  const key = sha256([service.version, canonical(prepared.config), assets.logo ?? '', assets.background ?? '']);
  const etag = `"${key.slice(0, 32)}${responseType === 'binary' ? 'b' : 'j'}"`;
  if (ifNoneMatch(ctx.headers['if-none-match'], etag)) {
    ctx.reply.send(304, { ETag: etag, ...(await confirmed()) }, '');
    return;
  }
  let result = service.cache.get(key);
  renderCacheLookups.labels(result ? 'hit' : 'miss').inc();
  if (!result) {
    const options = { visitor: isVisitor(ctx) };
    result = await service.pool.render({ config: prepared.config, assets }, ctx.reply.abort.signal, options);
    service.cache.set(key, result);
  }
  const confirmation = await confirmed();
  const corrections = [...prepared.corrections, ...result.corrections];
  const warnings = [...prepared.warnings, ...result.warnings];
  if (responseType === 'binary') {
    ctx.reply.send(
      200,
      {
        'Content-Type': result.contentType,
        ETag: etag,
        ...binaryHeaders(result, corrections, warnings),
        ...extraHeaders,
        ...confirmation,
      },
      result.bytes,
    );
    return;
  }
  ctx.reply.json(200, { ...describe(result), corrections, warnings, ...extra }, { ETag: etag, ...confirmation });
}

function describe(r: RenderSuccess) {
  return {
    success: true,
    qrBase64: Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength).toString('base64'),
    format: r.format,
    contentType: r.contentType,
    sizeBytes: r.bytes.byteLength,
    width: r.width,
    height: r.height,
    version: r.version,
    eccLevel: r.eccLevel,
    mask: r.mask,
    modulePx: r.modulePx,
    verification: r.verification,
    ...(r.print && { print: r.print }),
  };
}

/** The JSON response's metadata as headers, for clients that asked for the raw file. */
function binaryHeaders(r: RenderSuccess, corrections: Correction[], warnings: string[]): Record<string, string> {
  const h: Record<string, string> = {
    'X-QR-Version': String(r.version),
    'X-QR-ECC-Level': r.eccLevel,
    'X-QR-Verified': r.verification.decodedAt ?? 'no',
    'X-QR-Contrast-Ratio': String(r.verification.contrastRatio),
    'X-QR-Width': String(r.width),
    'X-QR-Height': String(r.height),
  };
  if (r.print) h['X-QR-Print-Min-Width-Mm'] = String(r.print.minWidthMm ?? 'none');
  if (corrections.length) h['X-QR-Corrections'] = encodeURIComponent(JSON.stringify(corrections));
  if (warnings.length) h['X-QR-Warnings'] = encodeURIComponent(JSON.stringify(warnings));
  return h;
}
