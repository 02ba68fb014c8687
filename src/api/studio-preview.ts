import { ApiError } from '../errors.js';
import type { RequestContext } from '../http/router.js';
import type { RenderConfig } from '../model/render-config.js';
import { versionFor } from '../qr/encode.js';
import { symbolSize } from '../qr/version.js';
import { VISITOR_CUSTOMER_ID } from '../relay/signature.js';
import { designLayout } from '../render/layout.js';
import type { QrConfigBody } from '../schema/prepare-render.js';

/** The largest side, in pixels, of an anonymous Studio render. */
export const STUDIO_MAX_PX = 1024;

/** The request is a relay of the anonymous Studio (signed for a visitor, not a customer). */
export const isVisitor = (ctx: Pick<RequestContext, 'customerId'>): boolean => ctx.customerId === VISITOR_CUSTOMER_ID;

/**
 * The anonymous Studio is a preview, not the API: images come as uploads only (the engine fetches no URL
 * for a visitor), before anything else is done.
 */
export function refuseVisitorUrls(body: QrConfigBody): void {
  for (const field of ['logoUrl', 'backgroundImageUrl'] as const) {
    if (body[field] !== undefined)
      throw new ApiError('INVALID_FIELD_VALUE', {
        message: `The Studio without an account takes images as uploads only: send ${field === 'logoUrl' ? 'logoBase64' : 'backgroundImageBase64'} instead of ${field}, or use the API with a key.`,
        field,
      });
  }
}

/**
 * …and exports at most STUDIO_MAX_PX on each side, by the same layout the render follows (a canvas sized
 * by pixelsPerModule grows with the content and the frame): a larger design is refused naming the field
 * that sized it.
 */
export function refuseLargeVisitorRender(body: QrConfigBody, config: RenderConfig): void {
  const sizedBy =
    body.printSize !== undefined
      ? 'printSize.width'
      : (['outputWidth', 'outputHeight', 'pixelsPerModule'] as const).find((f) => body[f] !== undefined);
  let layout: { width: number; height: number };
  try {
    layout = designLayout(config, symbolSize(versionFor(config.content, config.eccLevel, config.minVersion)));
  } catch {
    return; // a layout that cannot be made is refused by the worker, as for everyone
  }
  const { width, height } = layout;
  if (width <= STUDIO_MAX_PX && height <= STUDIO_MAX_PX) return;
  throw new ApiError('VALUE_OUT_OF_RANGE', {
    message: `The Studio without an account exports at most ${STUDIO_MAX_PX} px a side (this design is ${width} × ${height} px); use the API with a key for larger files.`,
    ...(sizedBy && { field: sizedBy }),
  });
}
