import type { Route } from '../http/router.js';
import { RENDER_MEDIA_TYPES } from '../schema/openapi.js';
import { prepareRender, type QrConfigBody } from '../schema/prepare-render.js';
import { validate } from '../schema/validate.js';
import type { Service } from '../service.js';
import { addBase64Assets, addRemoteImages, readRenderRequest } from './render-request.js';
import { renderAndReply } from './render-response.js';
import { isVisitor, refuseLargeVisitorRender, refuseVisitorUrls } from './studio-preview.js';

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
      const { body, assets } = await readRenderRequest(ctx);
      const config = validate<QrConfigBody>('qrConfig', body);
      const visitor = isVisitor(ctx);
      if (visitor) refuseVisitorUrls(config);
      addBase64Assets(config, assets);
      // Refusals that need no image (LOGO_TOO_LARGE, CONTENT_TOO_LONG) come before any remote fetch.
      const prepared = prepareRender(config, assets);
      if (visitor) refuseLargeVisitorRender(config, prepared.config);
      await addRemoteImages(ctx, service, config, assets);
      await renderAndReply(ctx, service, { prepared, assets, responseType: config.responseType });
    },
  },
];
