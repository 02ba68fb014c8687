import type { CallUsage, Designs, KeyCheck, KeyOwner } from '../accounts/types.js';
import { ApiError } from '../errors.js';
import { jsonBytes, requireJson } from '../http/json-body.js';
import { guarded, type RequestContext, type Route } from '../http/router.js';
import { forward } from '../http/upstream.js';
import { edgeCacheLookups } from '../observe/metrics.js';
import { apiKeyGuard } from './api-key.js';
import { admitCustomerCall, type CustomerCallDeps } from './customer-checks.js';
import { DESIGN_RENDER_DOC, DESIGN_RENDER_PATH, renderSavedDesign } from './design-render.js';
import type { EdgeCache, EdgeCaching } from './edge-cache.js';
import type { CredentialFailures } from './failure-throttle.js';
import { type RelayCall, relayCall } from './engine-client.js';
import { enginePathOf, GATEWAY_ROUTES, type GatewayRoute } from './routes.js';
import { relayServerAi, type ServerAiDeps } from './server-ai.js';

export interface GatewayDeps extends ServerAiDeps, CustomerCallDeps {
  /** What of the accounts the gateway's routes use: the key, the pack, the day's count, credits and replays. */
  accounts: Pick<KeyCheck, 'verifyKey'> &
    Pick<CallUsage, 'recordCall'> &
    Pick<Designs, 'design'> &
    ServerAiDeps['accounts'] &
    CustomerCallDeps['accounts'];
  /** Answers kept on the site (QR_SITE_CACHE_MB); none when it is 0. */
  edgeCache?: EdgeCache;
  /** Failed key checks per client address (QR_LIMIT_AUTH_FAILURES a minute), shared with the admin token's. */
  credentialFailures: CredentialFailures;
}

const EMPTY = new Uint8Array(0);

/** The direct consumer endpoint: the gateway's AI call without the version prefix, same key and credits. */
const DIRECT_SERVER_AI = '/api/qr/ai/generate/server';
/** The engine's public preview route, served by the site too because the template list links to it. */
const TEMPLATE_PREVIEW = '/api/qr/templates/:id/preview';

/** The /api/v1 routes and the site's direct server-AI endpoint, all behind the caller's X-API-Key. */
export function gatewayRoutes(deps: GatewayDeps): Route[] {
  const byKey = apiKeyGuard(deps.accounts, deps.credentialFailures);
  const routes: Route[] = GATEWAY_ROUTES.map((route) =>
    guarded(byKey, {
      method: route.method,
      path: route.path,
      doc: route.doc,
      handler: (ctx, owner) => relayRoute(deps, route, ctx, owner),
    }),
  );
  routes.push(
    guarded(byKey, {
      method: 'POST',
      path: DESIGN_RENDER_PATH,
      doc: DESIGN_RENDER_DOC,
      handler: (ctx, owner) => renderSavedDesign(deps, ctx, owner),
    }),
  );
  const ai = GATEWAY_ROUTES.find((r) => r.spendsCredit)!;
  const aiRoute = routes[GATEWAY_ROUTES.indexOf(ai)]!;
  routes.push({
    ...aiRoute,
    path: DIRECT_SERVER_AI,
    doc: { ...aiRoute.doc!, summary: `${ai.doc.summary} The same as POST ${ai.path}, without the version prefix.` },
  });
  routes.push({
    method: 'GET',
    path: TEMPLATE_PREVIEW,
    auth: 'public',
    doc: {
      summary: "A template's preview PNG, as the engine serves it: public, for <img> tags (the list links here).",
      response: 'The PNG.',
      produces: ['image/png'],
    },
    handler: async (ctx) => {
      const path = TEMPLATE_PREVIEW.replace(':id', encodeURIComponent(ctx.params.id!));
      const call = relayCall({
        method: 'GET',
        path,
        headers: ctx.headers,
        body: EMPTY,
        caller: 'public',
        signal: ctx.reply.gone,
      });
      // A template's preview is a function of its id.
      await relayAndForward(deps, ctx, call, {});
    },
  });
  return routes;
}

async function relayRoute(deps: GatewayDeps, route: GatewayRoute, ctx: RequestContext, owner: KeyOwner) {
  await admitCustomerCall(deps, ctx, owner.customerId, route.limit);
  deps.accounts.recordCall(owner.customerId, route.limit);
  for (const [name, allowed] of Object.entries(route.allow ?? {})) {
    if (!allowed.includes(ctx.params[name]!))
      throw new ApiError('NOT_FOUND', { message: `No endpoint ${ctx.path}; the gateway opens ${allowed.join(', ')}.` });
  }
  const query = ctx.query.size > 0 ? `?${ctx.query}` : '';
  const call = relayCall({
    method: route.method,
    path: enginePathOf(route, ctx.params) + query,
    headers: ctx.headers,
    body: route.method === 'POST' ? await jsonBytes(ctx) : EMPTY,
    caller: owner,
    signal: ctx.reply.gone,
  });
  if (route.spendsCredit) {
    requireJson(call.body);
    await relayServerAi(deps, owner.customerId, ctx, call);
    return;
  }
  // Everything above (key, limit, pack, usage count) has run: a kept answer stands in for the relay only.
  await relayAndForward(deps, ctx, call, route.edge);
}

/**
 * Relays `call` and forwards the engine's answer. With `caching`, an answer the edge cache keeps for the
 * call is given instead of relaying, and a relayed one is offered to it.
 */
async function relayAndForward(
  deps: GatewayDeps,
  ctx: RequestContext,
  call: RelayCall,
  caching: EdgeCaching | undefined,
): Promise<void> {
  const key = caching && deps.edgeCache?.keyOf(call, caching);
  if (key !== undefined) {
    const hit = deps.edgeCache!.answer(ctx, key);
    edgeCacheLookups.labels(hit ? 'hit' : 'miss').inc();
    if (hit) return;
  }
  // Only a body that parsed was ever answered and kept, so the check waits for a miss.
  if (call.method === 'POST') requireJson(call.body);
  const relayed = await deps.engine.relay(call);
  await forward(ctx, relayed, deps.settings.maxOutputBytes);
  // Only once forwarded: an answer over the output limit was refused, not sent, and is not kept.
  if (key !== undefined) deps.edgeCache!.keep(key, relayed);
}
