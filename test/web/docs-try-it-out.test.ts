/**
 * /docs as a key holder uses it, in headless Chromium (playwright-core) against the built engine and site:
 * Authorize with a real key, then "Try it out" and Execute on every /api/v1 operation the site's own
 * OpenAPI document lists (read from the served document, so a route added later is tried too), each sent
 * with the document's example values as Swagger fills them in. Where a path parameter names something of
 * the caller's (a saved design, a bulk job), it is made first and its id typed in. Each answer Swagger
 * shows has the success status the document declares; every code it got, as JSON, as an image or in a
 * ZIP, decodes to the content its example sent. Server AI answers from a loopback groq.
 */
import { unzipSync } from 'fflate';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.js';
import { type FakeVendor, startFakeVendor, success } from '../ai/fake-vendor.js';
import { type Consumer, consumerConfig, GROQ_KEY, groqEnv, startConsumer } from '../helpers/consumer.js';
import { decodeOne } from '../helpers/decode.js';

const AI_DESIGN = {
  config: { primaryColor: '#1B3A4B', backgroundColor: '#F7F3E8', moduleShape: 'dots' },
  explanation: 'Navy dots on cream.',
};

interface Operation {
  method: string;
  path: string;
  parameters?: { name: string; in: string; example?: string }[];
  requestBody?: { content: { 'application/json': { examples?: Record<string, { value: unknown }> } } };
  responses: Record<string, unknown>;
}

let groq: FakeVendor;
let c: Consumer;
let browser: Browser;

beforeAll(async () => {
  groq = await startFakeVendor('openai', GROQ_KEY);
  c = await startConsumer(await consumerConfig({ QR_DATA_DIR: 'memory://', ...groqEnv(groq) }));
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await c?.close();
  await groq?.close();
});

/** The /api/v1 operations of the served document: those that make an id first, those that remove last. */
async function operations(): Promise<Operation[]> {
  const doc = (await (await fetch(`${c.siteUrl}/api/openapi.json`)).json()) as {
    paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
  };
  const all = Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/api/v1/'))
    .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ ...op, method, path })));
  const turn = (op: Operation) => (op.method === 'delete' ? 2 : op.parameters?.length ? 1 : 0);
  return all.sort((a, b) => turn(a) - turn(b));
}

/** The media type, bytes and (JSON) body of the answer Swagger shows in an operation's response panel. */
async function shownAnswer(page: Page, operation: Locator) {
  const panel = operation.locator('.live-responses-table .response').first();
  const status = Number((await panel.locator('.response-col_status').textContent())?.trim());
  const headers = (await panel.locator('.response-col_description').textContent()) ?? '';
  const type = headers.match(/content-type:\s*([^\s;]+)/i)?.[1] ?? '';
  const blobOf = async (url: string) =>
    new Uint8Array(await page.evaluate(async (u) => [...new Uint8Array(await (await fetch(u)).arrayBuffer())], url));
  let bytes: Uint8Array | undefined;
  let json: Record<string, unknown> | undefined;
  if (type.startsWith('image/')) bytes = await blobOf((await panel.locator('img').getAttribute('src'))!);
  else if (type === 'application/zip') bytes = await blobOf((await panel.locator('a[download]').getAttribute('href'))!);
  else if (type === 'application/json')
    json = JSON.parse((await panel.locator('.response-col_description .highlight-code pre').first().textContent())!);
  return { status, type, bytes, json };
}

describe('Try it out on /docs', () => {
  it('with a real key, every /api/v1 operation of the site’s document succeeds from its own examples', async () => {
    const { id: customerId } = await c.accounts.createCustomer(`try-it-out-${process.pid}@example.com`);
    await c.accounts.grantPack({ customerId, credits: 5 });
    const { key } = await c.accounts.issueKey(customerId);
    const design = await c.accounts.saveDesign(customerId, { name: 'Navy', config: { primaryColor: '#1B3A4B' } });
    groq.reply(success.openai(JSON.stringify(AI_DESIGN)));
    // What a parameter the document gives no example for names: the caller's own, made before it is asked.
    const made: Record<string, string> = { '/api/v1/qr/designs/{id} id': design.id };

    // CSP is bypassed only so the test can read back the blob: URLs Swagger made of the files it got.
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      baseURL: c.siteUrl,
      bypassCSP: true,
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/docs');
    await page.locator('.swagger-ui .btn.authorize').first().click();
    const modal = page.locator('.swagger-ui .modal-ux');
    await modal.locator('input[type=text]').first().fill(key);
    // The first scheme's form is the API key's (X-API-Key).
    await modal.locator('button.modal-btn.authorize').first().click();
    await modal.locator('button.btn-done').first().click();

    const ops = await operations();
    expect(ops.length).toBeGreaterThanOrEqual(13);
    const kinds = new Set<string>();
    for (const op of ops) {
      const name = `${op.method.toUpperCase()} ${op.path}`;
      const operation = page
        .locator(`.opblock.opblock-${op.method}`, { has: page.locator(`[data-path="${op.path}"]`) })
        .first();
      await operation.locator('.opblock-summary').first().click();
      await operation.getByRole('button', { name: 'Try it out' }).click();
      for (const p of op.parameters ?? []) {
        const input = operation.locator(`tr[data-param-name="${p.name}"] input`);
        if (p.example !== undefined) {
          expect(await input.inputValue(), `${name}: ${p.name} is filled with its example`).toBe(p.example);
          continue;
        }
        const value = made[`${op.path} ${p.name}`] ?? made[p.name];
        expect(value, `${name}: something to give as ${p.name}`).toBeDefined();
        await input.fill(value!);
      }
      await operation.getByRole('button', { name: 'Execute' }).click();
      await operation.locator('.live-responses-table .response .response-col_status').first().waitFor();
      const answer = await shownAnswer(page, operation);
      const declared = Object.keys(op.responses).find((s) => /^2\d\d$/.test(s));
      expect({ name, status: answer.status }).toEqual({ name, status: Number(declared) });
      kinds.add(answer.type.split('/')[0] === 'image' ? 'image' : answer.type);

      // Every code Swagger got decodes to the content its example sent.
      const example = Object.values(op.requestBody?.content['application/json'].examples ?? {})[0]?.value as
        | { content?: string }
        | undefined;
      if (answer.type.startsWith('image/')) {
        expect(answer.type, name).toBe('image/png');
        const decoded = await decodeOne('png', answer.bytes!);
        expect(Buffer.from(decoded.bytes).toString('utf8'), name).toBe(example!.content);
      }
      if (typeof answer.json?.qrBase64 === 'string') {
        const decoded = await decodeOne('png', new Uint8Array(Buffer.from(answer.json.qrBase64, 'base64')));
        expect(Buffer.from(decoded.bytes).toString('utf8'), name).toBe(example!.content);
      }
      if (op.method === 'post' && op.path === '/api/v1/qr/batch') made.jobId = answer.json!.jobId as string;
      if (answer.type === 'application/zip') {
        const files = unzipSync(answer.bytes!);
        const batch = ops.find((o) => o.method === 'post' && o.path === '/api/v1/qr/batch')!;
        const items = (
          Object.values(batch.requestBody!.content['application/json'].examples!)[0]!.value as {
            items: { content: string; filename: string }[];
          }
        ).items;
        for (const item of items) {
          const decoded = await decodeOne('png', files[item.filename]!);
          expect(Buffer.from(decoded.bytes).toString('utf8'), item.filename).toBe(item.content);
        }
      }
    }
    // The examples reach each kind of answer: JSON, an image, the events stream and a ZIP.
    expect([...kinds].sort()).toEqual(['application/json', 'application/zip', 'image', 'text/event-stream']);
    expect(groq.problems).toEqual([]);
    await context.close();
    expect(errors).toEqual([]);
  });
});
