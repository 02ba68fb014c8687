import type { Route } from '../http/router.js';
import type { Service } from '../service.js';
import { validate } from '../schema/validate.js';
import { addBase64Assets, readRenderRequest } from './render-request.js';
import { prepareRender, renderAndReply, type QrConfigBody } from './render-response.js';

/** POST /api/qr/generate: a QrConfig (JSON, or multipart with files) in, a verified QR file out. */
export const generateRoutes = (service: Service): Route[] => [
  {
    method: 'POST',
    path: '/api/qr/generate',
    handler: async (ctx) => {
      const { body, assets } = await readRenderRequest(ctx);
      const config = validate<QrConfigBody>('qrConfig', body);
      addBase64Assets(config, assets);
      await renderAndReply(ctx, service, prepareRender(config, assets), assets, config.responseType);
    },
  },
];
