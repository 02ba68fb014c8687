import { ApiError } from '../errors.js';
import { parseJsonBody } from '../http/json-body.js';
import { parseMultipart } from '../http/multipart.js';
import type { RequestContext } from '../http/router.js';
import { addRemoteAssets, FETCH_POLICY } from '../images/fetch.js';
import { MAX_IMAGE_BYTES, sniffImageType } from '../images/sniff.js';
import type { ImageAsset, RenderAssets } from '../model/render-config.js';
import type { Service } from '../service.js';

/** Multipart file fields and the base64 body fields that carry the same images. */
const IMAGE_FIELDS = { logo: 'logoBase64', background: 'backgroundImageBase64' } as const satisfies Record<
  ImageAsset,
  string
>;

/** An uploaded image must be one of the accepted types by its bytes, and at most 10 MB. */
function checkImage(bytes: Uint8Array, field: string): Uint8Array {
  if (bytes.byteLength > MAX_IMAGE_BYTES)
    throw new ApiError('FILE_TOO_LARGE', {
      message: `${field} is ${(bytes.byteLength / 1048576).toFixed(1)} MB; at most 10 MB.`,
      field,
    });
  if (!sniffImageType(bytes))
    throw new ApiError('INVALID_FIELD_VALUE', {
      message: `${field} is not a PNG, JPG, GIF, BMP or WebP image.`,
      field,
    });
  return bytes;
}

const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}$/;

/** Decodes a base64 image field; a `data:image/...;base64,` prefix is accepted. */
function decodeBase64Image(value: string, field: string): Uint8Array {
  const payload = value.startsWith('data:') ? value.slice(value.indexOf(',') + 1) : value;
  if (!BASE64.test(payload))
    throw new ApiError('INVALID_FIELD_VALUE', { message: `${field} is not valid base64.`, field });
  return checkImage(new Uint8Array(Buffer.from(payload, 'base64')), field);
}

export interface RenderRequestBody {
  body: Record<string, unknown>;
  assets: RenderAssets;
}

/**
 * Reads a render request in either form: a JSON QrConfig, or multipart/form-data with the QrConfig JSON
 * in a `config` field and optional `logo` and `background` files, checked by their bytes. Schema
 * validation, and then `addBase64Assets`, are the caller's.
 */
export async function readRenderRequest(ctx: RequestContext): Promise<RenderRequestBody> {
  const raw = await ctx.body();
  const contentType = (ctx.headers['content-type'] ?? '').toLowerCase();
  const assets: RenderAssets = {};
  let body: unknown;
  if (contentType.startsWith('multipart/form-data')) {
    const parts = parseMultipart(raw, ctx.headers['content-type']!);
    const config =
      parts.find((p) => p.name === 'config' && p.filename === undefined) ?? parts.find((p) => p.name === 'config');
    if (!config) throw new ApiError('MULTIPART_CONFIG_MISSING', { field: 'config' });
    body = parseJsonBody(config.data);
    for (const part of parts) {
      if (part === config) continue;
      if (!(part.name in IMAGE_FIELDS))
        throw new ApiError('INVALID_FIELD_VALUE', {
          message: `Unknown form field ${part.name}; expected config, logo or background.`,
          field: part.name,
        });
      assets[part.name as ImageAsset] = checkImage(part.data, part.name);
    }
  } else {
    // Any other body is read as JSON whatever its declared type (curl -d says form-urlencoded).
    body = parseJsonBody(raw);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new ApiError('INVALID_JSON', { message: 'Request body must be a JSON object.' });
  return { body: body as Record<string, unknown>, assets };
}

/** Decodes the base64 image fields of a validated body into `assets`, next to any uploaded files. */
export function addBase64Assets(fields: Record<string, unknown>, assets: RenderAssets): RenderAssets {
  for (const [file, field] of Object.entries(IMAGE_FIELDS) as [ImageAsset, string][]) {
    if (typeof fields[field] !== 'string') continue;
    if (assets[file])
      throw new ApiError('INVALID_FIELD_VALUE', {
        message: `Send the ${file} either as a file or as ${field}, not both.`,
        field,
      });
    assets[file] = decodeBase64Image(fields[field] as string, field);
    assets.fields = { ...assets.fields, [file]: field };
  }
  return assets;
}

/**
 * Fetches `logoUrl` and `backgroundImageUrl` into `assets`, under the service's fetch policy, until `signal`
 * (the client's going away, for a request).
 */
export const addRemoteImages = (
  signal: AbortSignal,
  service: Service,
  fields: Record<string, unknown>,
  assets: RenderAssets,
): Promise<RenderAssets> =>
  addRemoteAssets(fields, assets, { ...FETCH_POLICY, allowLoopback: service.config.fetchAllowLoopback }, signal);
