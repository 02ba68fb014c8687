/**
 * A loopback stand-in for Stripe, speaking its wire protocol: the API's form-encoded POST
 * /v1/checkout/sessions answered with a Checkout Session object (the secret key checked as a Bearer
 * token, an Idempotency-Key required and honoured as Stripe does), and webhook events built as Stripe
 * builds them and signed as Stripe signs them (`stripe.webhooks.generateTestHeaderString`, the same
 * HMAC-SHA256 of `<timestamp>.<payload>` its servers send in Stripe-Signature).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export const STRIPE_SECRET_KEY = 'sk_test_LoopbackStripe0123456789abcdefABCDEF';
export const STRIPE_WEBHOOK_SECRET = 'whsec_LoopbackWebhookSecret0123456789abcdef';

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** A Checkout Session as the fake made it, with the form fields it was made from. */
export interface FakeSession {
  id: string;
  url: string;
  /** The request's form fields, flat as sent: `line_items[0][price_data][currency]` and so on. */
  form: Record<string, string>;
  idempotencyKey: string;
  object: Record<string, unknown>;
}

export interface FakeStripe {
  /** e.g. http://127.0.0.1:40123, for QR_STRIPE_API_URL. */
  origin: string;
  sessions: FakeSession[];
  /** Requests that broke Stripe's protocol; a test expects none. */
  problems: string[];
  /** Answer the next `n` API requests with a 500 `api_error` as Stripe does when it fails. */
  failNext(n: number): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), ...headers });
  res.end(JSON.stringify(body));
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const byKey = new Map<string, FakeSession>();
  let failures = 0;
  const fake: FakeStripe = {
    origin: '',
    sessions: [],
    problems: [],
    failNext: (n) => {
      failures = n;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer(async (req, res) => {
    const text = await readBody(req);
    const problem = (p: string) => {
      fake.problems.push(p);
      send(res, 400, { error: { type: 'invalid_request_error', message: p } });
    };
    if (req.headers.authorization !== `Bearer ${STRIPE_SECRET_KEY}`) {
      send(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
      return;
    }
    if (failures > 0) {
      failures--;
      send(res, 500, { error: { type: 'api_error', message: 'An unknown error occurred.' } });
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/checkout/sessions') return problem(`${req.method} ${req.url}`);
    if (!/^application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? ''))
      return problem('content-type is not application/x-www-form-urlencoded');
    if (typeof req.headers['stripe-version'] !== 'string') return problem('no Stripe-Version header');
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string' || key === '') return problem('no Idempotency-Key header');
    const form = Object.fromEntries(new URLSearchParams(text));
    const earlier = byKey.get(key);
    if (earlier !== undefined) {
      if (JSON.stringify(earlier.form) !== JSON.stringify(form))
        return problem(
          'Keys for idempotent requests can only be used with the same parameters they were first used with.',
        );
      send(res, 200, earlier.object, { 'idempotent-replayed': 'true' });
      return;
    }
    for (const required of ['mode', 'success_url', 'line_items[0][quantity]'])
      if (form[required] === undefined) return problem(`Missing required param: ${required}.`);
    const sessionId = id('cs_test');
    const url = `https://checkout.stripe.com/c/pay/${sessionId}`;
    const object = {
      id: sessionId,
      object: 'checkout.session',
      mode: form.mode,
      status: 'open',
      payment_status: 'unpaid',
      url,
      client_reference_id: form.client_reference_id ?? null,
      customer_email: form.customer_email ?? null,
      metadata: { orderId: form['metadata[orderId]'] },
      currency: form['line_items[0][price_data][currency]'],
      amount_total: Number(form['line_items[0][price_data][unit_amount]']),
      payment_intent: null,
      success_url: form.success_url,
      cancel_url: form.cancel_url ?? null,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
    };
    const session = { id: sessionId, url, form, idempotencyKey: key, object };
    byKey.set(key, session);
    fake.sessions.push(session);
    send(res, 200, object);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

/** An event as Stripe sends it to a webhook endpoint. */
export function stripeEvent(type: string, object: Record<string, unknown>, eventId = id('evt')) {
  return {
    id: eventId,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** The session of `session` once paid (what checkout.session.completed carries). */
export const paidSession = (session: FakeSession, paymentIntent: string) => ({
  ...session.object,
  status: 'complete',
  payment_status: 'paid',
  payment_intent: paymentIntent,
});

/** A charge of `paymentIntent`, refunded in full or in part (what charge.refunded carries). */
export const refundedCharge = (paymentIntent: string, amount: number, refunded: number) => ({
  id: id('ch'),
  object: 'charge',
  amount,
  amount_refunded: refunded,
  refunded: refunded === amount,
  paid: true,
  payment_intent: paymentIntent,
  status: 'succeeded',
});

/** Signs a payload as Stripe does; `timestamp` in seconds (default now). */
export const signature = (payload: string, secret = STRIPE_WEBHOOK_SECRET, timestamp?: number): string =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

/** Delivers an event to the site's webhook endpoint, signed, as Stripe's servers would. */
export async function deliver(
  siteUrl: string,
  event: ReturnType<typeof stripeEvent>,
  sign: (payload: string) => string = (p) => signature(p),
): Promise<Response> {
  const payload = JSON.stringify(event, null, 2);
  return fetch(`${siteUrl}/api/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': sign(payload) },
    body: payload,
  });
}
