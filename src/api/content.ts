import { CONTENT_HELPERS, type ContentType } from '../content/index.js';
import { parseJsonBody } from '../http/json-body.js';
import type { Route } from '../http/router.js';
import { validate } from '../schema/validate.js';

/**
 * POST /api/qr/content/<type>: builds the payload string for a QR code; renders nothing. One route per
 * helper, so each has its own schema in the OpenAPI document and an unknown type is a plain 404.
 */
export const contentRoutes = (): Route[] =>
  (Object.keys(CONTENT_HELPERS) as ContentType[]).map((type) => {
    const build = CONTENT_HELPERS[type] as (input: unknown) => string;
    return {
      method: 'POST',
      path: `/api/qr/content/${type}`,
      doc: {
        summary: `Build a ${type} payload to encode (see src/content/README.md).`,
        body: `content_${type}`,
        response: '{ success, content }',
      },
      handler: async (ctx) => {
        const body = parseJsonBody(await ctx.body());
        ctx.reply.json(200, { success: true, content: build(validate(`content_${type}`, body)) });
      },
    };
  });
