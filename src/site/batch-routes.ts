import type { BatchRelays } from '../gateway/batch.js';
import { type Guard, guarded, type Method, type Route } from '../http/router.js';
import type { SignedIn } from './session-cookies.js';

/**
 * The Studio's bulk page for the signed-in account (web/src/pages/bulk.tsx): the bulk routes of the gateway
 * under /api/account/batch, for the account's customer, in its limits and with its Studio pack; a POST or
 * DELETE carries the browser's X-CSRF-Token.
 */
export function accountBatchRoutes(guard: Guard<SignedIn>, relays: BatchRelays): Route[] {
  const route = (method: Method, path: string, summary: string, handle: BatchRelays['submit']) =>
    guarded(guard, {
      method,
      path,
      doc: { summary, response: `As ${method} ${path.replace('/api/account', '/api/v1/qr')}.` },
      handler: (ctx, { user }) => handle(ctx, user),
    });
  return [
    route(
      'POST',
      '/api/account/batch',
      'Queue a bulk job (a CSV or the JSON of POST /api/v1/qr/batch) for the account.',
      relays.submit,
    ),
    route('GET', '/api/account/batch/:jobId', 'One of the account’s bulk jobs.', relays.status),
    route('DELETE', '/api/account/batch/:jobId', 'Cancel one of the account’s bulk jobs.', relays.cancel),
    route('GET', '/api/account/batch/:jobId/events', 'A bulk job’s progress as Server-Sent Events.', relays.events),
    route('GET', '/api/account/batch/:jobId/result', 'A finished bulk job’s ZIP.', relays.result),
  ];
}
