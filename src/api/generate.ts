import type { Route } from '../http/router.js';
import type { RenderAssets } from '../model/render-config.js';
import { RENDER_MEDIA_TYPES } from '../schema/openapi.js';
import { type PreparedRender, prepareRender, type QrConfigBody } from '../schema/prepare-render.js';
import { validate } from '../schema/validate.js';
import type { Service } from '../service.js';
import { addBase64Assets, addRemoteImages, readRenderRequest } from './render-request.js';
import { renderAndReply } from './render-response.js';
import { isVisitor, refuseLargeVisitorRender, refuseVisitorUrls } from './studio-preview.js';

/** A QrConfig body checked and made ready for the pool, its images in `assets`. */
export interface GenerateRequest {
  config: QrConfigBody;
  prepared: PreparedRender;
  assets: RenderAssets;
}

/**
 * What every generation goes through before the worker pool, a single request's and a bulk item's alike:
 * the schema, the images (uploaded, base64, fetched), the defaults and the rules of the request as a whole.
 * A visitor's (the anonymous Studio) takes no URLs and no large renders.
 */
export async function prepareGenerate(
  service: Service,
  body: Record<string, unknown>,
  assets: RenderAssets,
  signal: AbortSignal,
  visitor = false,
): Promise<GenerateRequest> {
  const config = validate<QrConfigBody>('qrConfig', body);
  if (visitor) refuseVisitorUrls(config);
  addBase64Assets(config, assets);
  // Refusals that need no image (LOGO_TOO_LARGE, CONTENT_TOO_LONG) come before any remote fetch.
  const prepared = prepareRender(config, assets);
  if (visitor) refuseLargeVisitorRender(config, prepared.config);
  await addRemoteImages(signal, service, config, assets);
  return { config, prepared, assets };
}

/** POST /api/qr/generate: a QrConfig (JSON, or multipart with files) in, a verified QR file out. */
export const generateRoutes = (service: Service): Route[] => [
  {
    method: 'POST',
    path: '/api/qr/generate',
    doc: {
      summary:
        'Render a QrConfig as png, jpg, webp, svg, pdf or eps; the file is decoded and checked before it is returned. Also accepts multipart/form-data (config, logo, background).',
      body: 'qrConfig',
      response: 'JSON with the file in qrBase64 and the verification, or the raw file when responseType is binary.',
      produces: RENDER_MEDIA_TYPES,
    },
    handler: async (ctx) => {
      const request = await readRenderRequest(ctx);
      const { config, prepared, assets } = await prepareGenerate(
        service,
        request.body,
        request.assets,
        ctx.reply.abort.signal,
        isVisitor(ctx),
      );
      await renderAndReply(ctx, service, { prepared, assets, responseType: config.responseType });
    },
  },
];
