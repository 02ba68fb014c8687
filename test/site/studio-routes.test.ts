/**
 * The anonymous Studio's routes (src/site/studio-routes.ts), each over real HTTP against the built engine
 * and site (QR_ROLE=all) with the accounts on PGlite in memory: renders and content payloads relayed to
 * the engine under a preview's rules, the template list and designs, the shape pickers drawn once, and the
 * per-address limit each counted route applies. Every code rendered is decoded and compared with its
 * content.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import catalogue from '../../src/templates/catalogue.json' with { type: 'json' };
import { type CallOptions, type Consumer, call, consumerConfig, refusal, startConsumer } from '../helpers/consumer.js';
import { decodeOne } from '../helpers/decode.js';

/** Anonymous Studio calls per client address per minute. */
const STUDIO_LIMIT = 5;

let c: Consumer;
/** Each test calls from an address of its own, so that no test's calls count against another's limit. */
let addresses = 0;
const newClient = () => `127.0.5.${++addresses}`;
const studio = (path: string, o: CallOptions & { from: string }) => call(c.siteUrl, path, o);

beforeAll(async () => {
  c = await startConsumer(await consumerConfig({ QR_DATA_DIR: 'memory://', QR_LIMIT_STUDIO: String(STUDIO_LIMIT) }));
});
afterAll(() => c?.close());

describe('POST /api/studio/render', () => {
  it('renders and verifies a design, with the Studio limit’s headers', async () => {
    const from = newClient();
    const a = await studio('/api/studio/render', {
      from,
      body: { content: 'https://studio.example.com/a', moduleShape: 'dots', outputWidth: 512, responseType: 'binary' },
    });
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toBe('image/png');
    expect(a.headers.get('ratelimit-policy')).toBe(`"studio";q=${STUDIO_LIMIT};w=60`);
    expect(a.headers.get('ratelimit')).toMatch(new RegExp(`^"studio";r=${STUDIO_LIMIT - 1};t=\\d+$`));
    expect((await decodeOne('png', a.bytes)).text).toBe('https://studio.example.com/a');
  });

  it('holds a render to a preview’s rules: at most 1024 px, images as uploads only, each refusal on its field', async () => {
    const from = newClient();
    const largest = await studio('/api/studio/render', {
      from,
      body: { content: 'edge', outputWidth: 1024, responseType: 'binary' },
    });
    expect(largest.status).toBe(200);
    expect((await decodeOne('png', largest.bytes)).text).toBe('edge');
    for (const [body, code, field] of [
      [{ content: 'x', outputWidth: 1025 }, 'VALUE_OUT_OF_RANGE', 'outputWidth'],
      [{ content: 'x', logoUrl: 'https://example.com/logo.png' }, 'INVALID_FIELD_VALUE', 'logoUrl'],
      [{ content: 'x', backgroundImageUrl: 'https://example.com/b.png' }, 'INVALID_FIELD_VALUE', 'backgroundImageUrl'],
    ] as const) {
      const a = await studio('/api/studio/render', { from, body });
      expect({ ...refusal(a), field: a.body.field }, field).toEqual({ status: 400, success: false, code, field });
    }
  });

  it('takes JSON only: a body that is not JSON is refused before any relay', async () => {
    const a = await studio('/api/studio/render', {
      from: newClient(),
      body: 'content=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(refusal(a)).toEqual({ status: 400, success: false, code: 'invalid_body' });
  });

  it(`QR_LIMIT_STUDIO (${STUDIO_LIMIT}) calls per client address per minute, every counted route alike`, async () => {
    const from = newClient();
    const statuses = [
      (await studio('/api/studio/render', { from, body: { content: 'one', outputWidth: 128 } })).status,
      (await studio('/api/studio/content/tel', { from, body: { number: '+441234567890' } })).status,
      (await studio('/api/studio/templates', { from })).status,
      (await studio(`/api/studio/templates/${catalogue[0]!.id}`, { from })).status,
      (await studio('/api/studio/render', { from, body: { content: 'five', outputWidth: 128 } })).status,
    ];
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    for (const path of ['/api/studio/render', '/api/studio/templates']) {
      const over = await studio(path, path.endsWith('render') ? { from, body: { content: 'x' } } : { from });
      expect(refusal(over), path).toEqual({ status: 429, success: false, code: 'rate_limited' });
      expect(Number(over.headers.get('retry-after')), path).toBeGreaterThan(0);
    }
    // Another address has its own count; the pickers, a fixed set, are not counted.
    expect((await studio('/api/studio/templates', { from: newClient() })).status).toBe(200);
    expect((await studio('/api/studio/shapes/moduleShape/square', { from })).status).toBe(200);
  });
});

describe('POST /api/studio/content/:type', () => {
  it('builds each helper’s payload as the engine does; a missing field is refused on it', async () => {
    const from = newClient();
    const wifi = await studio('/api/studio/content/wifi', { from, body: { ssid: 'Guest', encryption: 'nopass' } });
    expect(wifi.status).toBe(200);
    expect(wifi.body).toEqual({ success: true, content: 'WIFI:T:nopass;S:Guest;H:false;;' });
    const missing = await studio('/api/studio/content/wifi', { from, body: { encryption: 'WPA' } });
    expect({ ...refusal(missing), field: missing.body.field }).toEqual({
      status: 400,
      success: false,
      code: 'MISSING_REQUIRED_FIELD',
      field: 'ssid',
    });
  });

  it('an unknown type is the engine’s 404; a type that would reach another path is not relayed there', async () => {
    const from = newClient();
    const unknown = await studio('/api/studio/content/fax', { from, body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.success).toBe(false);
    // Encoded as one path segment: it cannot climb to another engine route.
    const climbing = await studio(`/api/studio/content/${encodeURIComponent('../generate')}`, {
      from,
      body: { content: 'x', responseType: 'binary' },
    });
    expect(climbing.status).toBe(404);
    expect(climbing.headers.get('content-type')).not.toBe('image/png');
  });
});

describe('GET /api/studio/templates and /api/studio/templates/:id', () => {
  it('the list of every template, and ?category= filtering it', async () => {
    const from = newClient();
    const all = await studio('/api/studio/templates', { from });
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(catalogue.length);
    expect(all.body.templates.map((t: { id: string }) => t.id).sort()).toEqual(catalogue.map((t) => t.id).sort());
    const category = catalogue[0]!.category;
    const some = await studio(`/api/studio/templates?category=${encodeURIComponent(category)}`, { from });
    const expected = catalogue.filter((t) => t.category === category).map((t) => t.id);
    expect(some.body.count).toBe(expected.length);
    expect(some.body.templates.map((t: { id: string }) => t.id).sort()).toEqual(expected.sort());
    expect(expected.length).toBeLessThan(catalogue.length);
  });

  it('a template’s design from the catalogue; rendered with content through the Studio it scans', async () => {
    const from = newClient();
    const t = catalogue[0]!;
    const a = await studio(`/api/studio/templates/${t.id}`, { from });
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ success: true, ...t });
    const rendered = await studio('/api/studio/render', {
      from,
      body: { ...a.body.config, content: 'templated', outputWidth: 512, responseType: 'binary' },
    });
    expect(rendered.status).toBe(200);
    expect(rendered.headers.get('content-type')).toBe('image/png');
    expect((await decodeOne('png', rendered.bytes)).text).toBe('templated');
  });

  it('an unknown template is 404 TEMPLATE_NOT_FOUND on id', async () => {
    const a = await studio('/api/studio/templates/no-such-template', { from: newClient() });
    expect({ ...refusal(a), field: a.body.field }).toEqual({
      status: 404,
      success: false,
      code: 'TEMPLATE_NOT_FOUND',
      field: 'id',
    });
  });
});

describe('GET /api/studio/shapes/:field/:name', () => {
  it('a PNG of the name, cached a day, drawn once and given alike to every visitor', async () => {
    const first = await studio('/api/studio/shapes/moduleShape/dots', { from: newClient() });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/png');
    expect(first.headers.get('cache-control')).toBe('public, max-age=86400');
    expect((await decodeOne('png', first.bytes)).text).toBe('qrfarm');
    const again = await studio('/api/studio/shapes/moduleShape/dots', { from: newClient() });
    expect(Buffer.from(again.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    const frame = await studio('/api/studio/shapes/frameStyle/box-bottom', { from: newClient() });
    expect(frame.status).toBe(200);
    expect(Buffer.from(frame.bytes).equals(Buffer.from(first.bytes))).toBe(false);
  });

  it('an unknown field or name is 404 NOT_FOUND, a name of the object prototype included', async () => {
    for (const path of [
      '/api/studio/shapes/moduleShape/no-such-shape',
      '/api/studio/shapes/colour/dots',
      '/api/studio/shapes/__proto__/dots',
      '/api/studio/shapes/toString/dots',
      '/api/studio/shapes/moduleShape/constructor',
    ])
      expect(refusal(await studio(path, { from: newClient() })), path).toEqual({
        status: 404,
        success: false,
        code: 'NOT_FOUND',
      });
  });
});
