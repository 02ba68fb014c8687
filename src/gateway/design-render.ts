import type { CallUsage, Designs, KeyOwner } from '../accounts/types.js';
import { ApiError } from '../errors.js';
import { jsonBytes, parseJsonBody } from '../http/json-body.js';
import type { RequestContext, RouteDoc } from '../http/router.js';
import { forward } from '../http/upstream.js';
import { RENDER_MEDIA_TYPES } from '../schema/openapi.js';
import { validate } from '../schema/validate.js';
import { mergeOverDesign } from '../templates/merge.js';
import { admitCustomerCall, type CustomerCallDeps } from './customer-checks.js';
import { type EngineClient, relayCall } from './engine-client.js';

export interface DesignRenderDeps extends CustomerCallDeps {
  accounts: CustomerCallDeps['accounts'] & Pick<Designs, 'design'> & Pick<CallUsage, 'recordCall'>;
  engine: EngineClient;
}

export const DESIGN_RENDER_PATH = '/api/v1/qr/designs/:id';

export const DESIGN_RENDER_DOC: RouteDoc = {
  summary:
    'Renders one of your saved designs (made on the dashboard or with POST /api/account/designs) with new content: { content, …overrides }, any QrConfig field set here winning over the design (objects merge key by key), answered exactly as POST /api/v1/qr/generate. The generation limit class; another account’s design is 404 design_not_found.',
  body: 'qrTemplateOverride',
  response: 'As POST /api/v1/qr/generate.',
  produces: RENDER_MEDIA_TYPES,
  params: { id: { description: 'The id of one of your saved designs (GET /api/account/designs lists them).' } },
  examples: {
    content: {
      summary: 'The design with a link, as the file itself',
      value: { content: 'https://example.com', responseType: 'binary' },
    },
  },
  answers: {
    400: 'The body is not a design the engine takes, with field.',
    401: 'missing_api_key, invalid_api_key.',
    402: 'studio_required: no active Studio pack.',
    404: 'design_not_found: no design of yours by that id.',
    429: 'rate_limited, with Retry-After.',
  },
};

/**
 * POST /api/v1/qr/designs/:id for the key's customer: the body checked as a template override is, merged
 * over the stored design as a template's is, and relayed as a render. Not kept by the edge cache: the
 * design it reads may change between two calls of the same body.
 */
export async function renderSavedDesign(deps: DesignRenderDeps, ctx: RequestContext, owner: KeyOwner): Promise<void> {
  await admitCustomerCall(deps, ctx, owner.customerId, 'generation');
  deps.accounts.recordCall(owner.customerId, 'generation');
  const design = await deps.accounts.design(owner.customerId, ctx.params.id!);
  const bytes = await jsonBytes(ctx);
  let overrides: Record<string, unknown>;
  try {
    overrides = validate<Record<string, unknown>>('qrTemplateOverride', parseJsonBody(bytes));
  } catch (e) {
    if (bytes.length === 0)
      throw new ApiError('MISSING_REQUIRED_FIELD', { message: 'content is required.', field: 'content' });
    throw e;
  }
  const body = new TextEncoder().encode(JSON.stringify(mergeOverDesign(design.config, overrides)));
  const call = relayCall({
    method: 'POST',
    path: '/api/qr/generate',
    headers: ctx.headers,
    body,
    caller: owner,
    signal: ctx.reply.gone,
  });
  await forward(ctx, await deps.engine.relay(call), deps.settings.maxOutputBytes);
}
