import { CONTENT_HELPERS, type ContentType } from '../content/index.js';
import { ApiError } from '../errors.js';
import { parseJsonBody } from '../http/json-body.js';
import type { Route } from '../http/router.js';
import { validate } from '../schema/validate.js';

const TYPES = Object.keys(CONTENT_HELPERS) as ContentType[];
const isContentType = (t: string): t is ContentType => Object.hasOwn(CONTENT_HELPERS, t);

/** POST /api/qr/content/:type: builds the payload string for a QR code; renders nothing. */
export const contentRoutes = (): Route[] => [
  {
    method: 'POST',
    path: '/api/qr/content/:type',
    handler: async (ctx) => {
      const type = ctx.params.type!;
      if (!isContentType(type)) throw new ApiError('NOT_FOUND', `No content helper "${type}"; available: ${TYPES.join(', ')}.`);
      const body = parseJsonBody(await ctx.body());
      const build = CONTENT_HELPERS[type] as (input: unknown) => string;
      ctx.reply.json(200, { success: true, content: build(validate(`content_${type}`, body)) });
    },
  },
];
