/**
 * Server AI's credit and Idempotency-Key rules, against real accounts (PGlite) and a stand-in engine over
 * HTTP reached through the real EngineClient; the client's side is a recorder of what would be sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteSettings } from '../../src/config.js';
import { isApiError } from '../../src/errors.js';
import { EngineClient, relayCall } from '../../src/gateway/engine-client.js';
import { relayServerAi } from '../../src/gateway/server-ai.js';
import type { RequestContext } from '../../src/http/router.js';
import { accountsFixture } from '../helpers/databases.js';

const SECRET = 'server-ai-test-secret-0123456789abcdef0123456789abcdef';
const settings = { maxOutputBytes: 1 << 20, docsUrl: 'https://docs', pricingUrl: 'https://pricing' } as SiteSettings;

/** What the engine answers next: a status and a JSON body. */
let next = { status: 200, body: { success: true, design: { moduleShape: 'dots' } } as object };
let engineCalls = 0;
let server: Server;
let engine: EngineClient;
const fixture = accountsFixture('pglite');

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume().on('end', () => {
      engineCalls++;
      res.writeHead(next.status, { 'content-type': 'application/json', etag: '"engine"' });
      res.end(JSON.stringify(next.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  engine = new EngineClient([`http://127.0.0.1:${(server.address() as AddressInfo).port}`], [SECRET], 5000);
});

afterAll(async () => {
  await engine?.close();
  server?.close();
});

interface Sent {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** One server-AI call for `customerId`, with `headers`; what it sent, or the ApiError it refused with. */
async function serverAi(customerId: string, prompt: string, headers: Record<string, string> = {}) {
  let sent: Sent | undefined;
  const ctx = {
    headers,
    reply: {
      aborted: false,
      send: (status: number, h: Record<string, string>, body: Uint8Array) => {
        sent = { status, headers: h, body: JSON.parse(Buffer.from(body).toString()) };
      },
    },
  } as unknown as RequestContext;
  const call = relayCall({
    method: 'POST',
    path: '/api/qr/ai/generate/server',
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ prompt })),
    caller: { customerId },
    signal: new AbortController().signal,
  });
  try {
    await relayServerAi({ accounts: fixture.accounts, engine, settings }, customerId, ctx, call);
    return sent!;
  } catch (e) {
    if (!isApiError(e)) throw e;
    return { status: e.status, code: e.code, field: e.field };
  }
}

async function customerWith(credits: number): Promise<string> {
  const id = await fixture.newCustomer();
  await fixture.accounts.grantPack({ customerId: id, credits });
  return id;
}

const available = async (id: string) => (await fixture.accounts.balance(id)).available;

describe('relayServerAi', () => {
  it('spends one credit on a design and says what is left; the ETag is no longer the engine’s', async () => {
    next = { status: 200, body: { success: true, design: { moduleShape: 'dots' } } };
    const id = await customerWith(2);
    const a = (await serverAi(id, 'dots')) as Sent;
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ success: true, design: { moduleShape: 'dots' }, creditsRemaining: 1 });
    expect(a.headers['X-Credits-Remaining']).toBe('1');
    expect(a.headers.etag).toBeUndefined();
    expect(await available(id)).toBe(1);
  });

  it('gives the credit back when the engine refuses, and passes the refusal on', async () => {
    next = { status: 400, body: { success: false, code: 'MISSING_REQUIRED_FIELD' } };
    const id = await customerWith(1);
    expect(((await serverAi(id, '')) as Sent).body).toMatchObject({ code: 'MISSING_REQUIRED_FIELD' });
    expect(await available(id)).toBe(1);
  });

  it('refuses with 402 out_of_api_credits, the engine not asked, when no credit is left', async () => {
    const id = await customerWith(1);
    next = { status: 200, body: { success: true } };
    await serverAi(id, 'first');
    const before = engineCalls;
    expect(await serverAi(id, 'second')).toEqual({ status: 402, code: 'out_of_api_credits', field: undefined });
    expect(engineCalls).toBe(before);
  });

  it('under one Idempotency-Key: a retry is replayed without spending, another body is refused', async () => {
    next = { status: 200, body: { success: true, design: {} } };
    const id = await customerWith(5);
    const key = { 'idempotency-key': `retry-${id}` };
    const first = (await serverAi(id, 'same', key)) as Sent;
    const calls = engineCalls;
    const retry = (await serverAi(id, 'same', key)) as Sent;
    expect(retry.headers['Idempotent-Replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(engineCalls).toBe(calls);
    expect(await available(id)).toBe(4);
    expect(await serverAi(id, 'other', key)).toEqual({
      status: 422,
      code: 'idempotency_key_reused',
      field: 'Idempotency-Key',
    });
    expect(await serverAi(id, 'same', { 'idempotency-key': 'has space' })).toMatchObject({
      status: 400,
      code: 'invalid_body',
      field: 'Idempotency-Key',
    });
  });
});
