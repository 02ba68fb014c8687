import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Template } from '../../src/templates/check.js';
import { decodeOne } from '../helpers/decode.js';
import { startTestService, type TestService } from '../helpers/service.js';

const templates = JSON.parse(
  readFileSync(new URL('../../src/templates/catalogue.json', import.meta.url), 'utf8'),
) as Template[];
const byId = new Map(templates.map((t) => [t.id, t]));
const categories = [...new Set(templates.map((t) => t.category))];
const utf8 = (s: string) => new TextEncoder().encode(s);

const SECRET = 't3mplate-secret';
const PUBLIC_BASE = 'https://qr.example.com/engine';

let svc: TestService;
/** The same service behind a proxy secret and with a configured public base URL. */
let guarded: TestService;
beforeAll(async () => {
  [svc, guarded] = await Promise.all([
    startTestService(),
    startTestService({ proxySecret: SECRET, proxySecretHeader: 'x-rapidapi-proxy-secret', publicBaseUrl: PUBLIC_BASE }),
  ]);
});
afterAll(() => Promise.all([svc.close(), guarded.close()]));

const getJson = async (url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { headers });
  return { res, body: await res.json() };
};

const expectError = async (res: Response, status: number, code: string, field?: string) => {
  expect(res.status).toBe(status);
  const body = await res.json();
  expect(body).toMatchObject({ success: false, code, ...(field && { field }) });
};

/** A GET with a Host header of our choosing (fetch does not let a caller set Host). */
function getWithHost(
  port: number,
  path: string,
  host: string,
): Promise<{ status: number; body: { templates: { preview: string }[] } }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let data = '';
      res.on('data', (c) => (data += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(data) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('GET /api/qr/templates', () => {
  it('lists all 118 templates as {id, name, category, tags, preview}', async () => {
    const { res, body } = await getJson(`${svc.url}/api/qr/templates`);
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ success: true, count: 118 });
    expect(body.templates).toHaveLength(118);
    for (const [i, s] of body.templates.entries()) {
      const t = templates[i]!;
      expect(s).toEqual({
        id: t.id,
        name: t.name,
        category: t.category,
        tags: t.tags,
        preview: `${svc.url}/api/qr/templates/${t.id}/preview`,
      });
    }
    expect(categories.length).toBeGreaterThanOrEqual(10);
  });

  it('filters by category, case-insensitively, to exactly that category', async () => {
    for (const category of categories) {
      const expected = templates.filter((t) => t.category === category).map((t) => t.id);
      for (const asked of [category, category.toUpperCase()]) {
        const { body } = await getJson(`${svc.url}/api/qr/templates?category=${encodeURIComponent(asked)}`);
        expect(body.count, asked).toBe(expected.length);
        expect(body.templates.map((t: { id: string }) => t.id)).toEqual(expected);
      }
    }
    const { body } = await getJson(`${svc.url}/api/qr/templates?category=ReStAuRaNt`);
    expect(body.count).toBeGreaterThan(0);
  });

  it('answers an unknown category with an empty list', async () => {
    const { res, body } = await getJson(`${svc.url}/api/qr/templates?category=spaceships`);
    expect(res.status).toBe(200);
    expect(body).toEqual({ success: true, count: 0, templates: [] });
  });

  it('links previews to the configured public base URL, else to the Host the client used', async () => {
    const { body } = await getJson(`${guarded.url}/api/qr/templates?category=wifi`, {
      'x-rapidapi-proxy-secret': SECRET,
    });
    expect(body.templates[0].preview).toBe(`${PUBLIC_BASE}/api/qr/templates/${body.templates[0].id}/preview`);
    const viaProxy = await getWithHost(svc.port, '/api/qr/templates?category=wifi', 'qr.example.org:8443');
    expect(viaProxy.body.templates[0]!.preview).toMatch(
      /^http:\/\/qr\.example\.org:8443\/api\/qr\/templates\/[a-z0-9-]+\/preview$/,
    );
    const forged = await getWithHost(svc.port, '/api/qr/templates?category=wifi', 'evil.example"><script>');
    expect(forged.status).toBe(200);
    expect(forged.body.templates[0]!.preview).toMatch(/^\/api\/qr\/templates\/[a-z0-9-]+\/preview$/);
  });
});

describe('POST /api/qr/templates/:id', () => {
  const wine = byId.get('wine-cellar')!;
  const gradient = templates.find((t) => t.config.foregroundGradient && t.config.primaryColor)!;

  /** Asks the template route and /api/qr/generate (with the merge written out) and expects the same answer. */
  async function sameAsGenerate(id: string, overrides: Record<string, unknown>, merged: Record<string, unknown>) {
    const [viaTemplate, viaGenerate] = await Promise.all([
      svc.post(`/api/qr/templates/${id}`, overrides),
      svc.post('/api/qr/generate', merged),
    ]);
    expect(viaTemplate.status).toBe(200);
    expect(viaTemplate.headers.get('etag')).toBe(viaGenerate.headers.get('etag'));
    const body = await viaTemplate.json();
    expect(body).toEqual(await viaGenerate.json());
    return body;
  }

  it('renders the template with the content, answering exactly as /api/qr/generate', async () => {
    const content = 'https://example.com/menu?table=12';
    const body = await sameAsGenerate('bistro-chalk', { content }, { ...byId.get('bistro-chalk')!.config, content });
    expect(body).toMatchObject({ success: true, format: 'png', width: 800, verification: { decoded: true } });
    expect((await decodeOne('png', Buffer.from(body.qrBase64, 'base64'))).text).toBe(content);
  });

  it('lets the body win: colour, outputWidth, fileFormat', async () => {
    const content = 'https://example.com/override';
    const body = await sameAsGenerate(
      'boardroom-navy',
      { content, primaryColor: '#4A0E0E', outputWidth: 1200, fileFormat: 'svg' },
      { ...byId.get('boardroom-navy')!.config, content, primaryColor: '#4A0E0E', outputWidth: 1200, fileFormat: 'svg' },
    );
    expect(body).toMatchObject({ format: 'svg', width: 1200, height: 1200 });
    const svg = Buffer.from(body.qrBase64, 'base64').toString();
    expect(svg).toContain('#4A0E0E');
    expect(svg).not.toContain(byId.get('boardroom-navy')!.config.primaryColor);
  });

  it('a colour in the body displaces the template gradient it would be hidden under', async () => {
    const { foregroundGradient: _, ...rest } = gradient.config;
    await sameAsGenerate(
      gradient.id,
      { content: 'x', primaryColor: '#000000' },
      { ...rest, content: 'x', primaryColor: '#000000' },
    );
  });

  it('merges nested objects key by key: centerText.text alone keeps the template colours', async () => {
    const content = 'https://example.com/wine';
    await sameAsGenerate(
      wine.id,
      { content, centerText: { text: 'CARTE' } },
      { ...wine.config, content, centerText: { ...wine.config.centerText, text: 'CARTE' } },
    );
  });

  it('/:id/generate is the same operation', async () => {
    const [a, b] = await Promise.all([
      svc.post(`/api/qr/templates/${wine.id}`, { content: 'same' }),
      svc.post(`/api/qr/templates/${wine.id}/generate`, { content: 'same' }),
    ]);
    expect(await a.json()).toEqual(await b.json());
  });

  it('answers binary when asked, with the verification headers', async () => {
    const res = await svc.post(`/api/qr/templates/${wine.id}/generate`, {
      content: 'binary please',
      responseType: 'binary',
      fileFormat: 'webp',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('x-qr-verified')).toMatch(/reduced|full/);
    expect((await decodeOne('webp', new Uint8Array(await res.arrayBuffer()))).text).toBe('binary please');
  });

  it('takes the body as multipart too, as /api/qr/generate does', async () => {
    const form = new FormData();
    form.set('config', JSON.stringify({ content: 'multipart body', responseType: 'binary' }));
    const res = await fetch(`${svc.url}/api/qr/templates/${wine.id}`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    expect((await decodeOne('png', new Uint8Array(await res.arrayBuffer()))).text).toBe('multipart body');
  });

  it('requires content after the merge', async () => {
    await expectError(
      await svc.post(`/api/qr/templates/${wine.id}`, { outputWidth: 1200 }),
      400,
      'MISSING_REQUIRED_FIELD',
      'content',
    );
    await expectError(
      await svc.post(`/api/qr/templates/${wine.id}`, { content: '' }),
      400,
      'MISSING_REQUIRED_FIELD',
      'content',
    );
  });

  it('validates the body and the merged config', async () => {
    await expectError(
      await svc.post(`/api/qr/templates/${wine.id}`, { content: 'x', primaryColour: '#000' }),
      400,
      'INVALID_FIELD_VALUE',
      'primaryColour',
    );
    await expectError(
      await svc.post(`/api/qr/templates/${wine.id}`, { content: 'x', centerText: { color: 'red' } }),
      400,
      'INVALID_HEX',
      'centerText.color',
    );
    await expectError(
      await svc.post('/api/qr/templates/bistro-chalk', { content: 'x', centerText: { color: '#000000' } }),
      400,
      'MISSING_REQUIRED_FIELD',
      'centerText.text',
    );
  });

  it('answers an unknown id with 404 TEMPLATE_NOT_FOUND', async () => {
    await expectError(
      await svc.post('/api/qr/templates/no-such-template', { content: 'x' }),
      404,
      'TEMPLATE_NOT_FOUND',
      'templateId',
    );
    await expectError(
      await svc.post('/api/qr/templates/no-such-template/generate', { content: 'x' }),
      404,
      'TEMPLATE_NOT_FOUND',
      'templateId',
    );
    await expectError(
      await fetch(`${svc.url}/api/qr/templates/no-such-template/preview`),
      404,
      'TEMPLATE_NOT_FOUND',
      'templateId',
    );
  });
});

describe('GET /api/qr/templates/:id/preview', () => {
  const id = 'festival-sunset';

  it('is the template rendered with sample content as a cacheable PNG', async () => {
    const res = await fetch(`${svc.url}/api/qr/templates/${id}/preview`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toMatch(/public.*max-age=86400/);
    expect(res.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect((await decodeOne('png', new Uint8Array(await res.arrayBuffer()))).text).toBe(`https://example.com/t/${id}`);
  });

  it('is rendered once: a second call is served from memory with the same ETag', async () => {
    const other = 'hex-lab';
    let t = performance.now();
    const first = await fetch(`${svc.url}/api/qr/templates/${other}/preview`);
    const firstMs = performance.now() - t;
    const firstBytes = Buffer.from(await first.arrayBuffer());
    const renders = svc.service.pool.stats().completed;
    t = performance.now();
    const second = await fetch(`${svc.url}/api/qr/templates/${other}/preview`);
    const secondMs = performance.now() - t;
    expect(svc.service.pool.stats().completed).toBe(renders);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(Buffer.from(await second.arrayBuffer()).equals(firstBytes)).toBe(true);
    expect(secondMs).toBeLessThan(Math.max(50, firstMs / 2));
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const etag = (await fetch(`${svc.url}/api/qr/templates/${id}/preview`)).headers.get('etag')!;
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const res = await fetch(`${svc.url}/api/qr/templates/${id}/preview`, { headers: { 'if-none-match': inm } });
      expect(res.status, inm).toBe(304);
      expect(res.headers.get('etag')).toBe(etag);
      expect((await res.arrayBuffer()).byteLength).toBe(0);
    }
    expect(
      (await fetch(`${svc.url}/api/qr/templates/${id}/preview`, { headers: { 'if-none-match': '"stale"' } })).status,
    ).toBe(200);
  });

  it('needs no proxy secret (an <img> cannot send one); every other template route does', async () => {
    const preview = await fetch(`${guarded.url}/api/qr/templates/${id}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/png');
    await expectError(await fetch(`${guarded.url}/api/qr/templates`), 401, 'UNAUTHORIZED');
    await expectError(await guarded.post(`/api/qr/templates/${id}`, { content: 'x' }), 401, 'UNAUTHORIZED');
    await expectError(await guarded.post(`/api/qr/templates/${id}/generate`, { content: 'x' }), 401, 'UNAUTHORIZED');
    const withSecret = await guarded.post(
      `/api/qr/templates/${id}`,
      { content: 'x' },
      { 'x-rapidapi-proxy-secret': SECRET },
    );
    expect(withSecret.status).toBe(200);
  });
});

describe('every template renders and scans', () => {
  const IN_FLIGHT = 6;

  /** Runs `task` over every template, IN_FLIGHT at a time, and returns what each reported wrong. */
  async function eachTemplate(task: (t: Template, failures: string[]) => Promise<void>): Promise<string[]> {
    const failures: string[] = [];
    const queue = [...templates];
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        for (let t = queue.shift(); t; t = queue.shift()) await task(t, failures);
      }),
    );
    return failures;
  }

  it('all 118 previews render', async () => {
    const failures = await eachTemplate(async (t, out) => {
      const res = await fetch(`${svc.url}/api/qr/templates/${t.id}/preview`);
      const png = new Uint8Array(await res.arrayBuffer());
      if (res.status !== 200 || png[1] !== 0x50)
        out.push(`${t.id}: ${res.status} ${Buffer.from(png).toString().slice(0, 200)}`);
    });
    expect(failures).toEqual([]);
  }, 120_000);

  for (const format of ['png', 'svg'] as const) {
    it(`all 118 at 800 px as ${format} decode to the content, byte for byte`, async () => {
      const failures = await eachTemplate(async (t, out) => {
        const content = `https://example.com/catalogue/${t.id}?utm_source=qr&ref=12345`;
        const res = await svc.post(`/api/qr/templates/${t.id}`, {
          content,
          fileFormat: format,
          outputWidth: 800,
          responseType: 'binary',
        });
        if (res.status !== 200) {
          out.push(`${t.id}: ${res.status} ${await res.text()}`);
          return;
        }
        try {
          const { bytes } = await decodeOne(format, new Uint8Array(await res.arrayBuffer()));
          if (!Buffer.from(bytes).equals(Buffer.from(utf8(content)))) out.push(`${t.id}: decoded other bytes`);
        } catch (e) {
          out.push(`${t.id}: ${(e as Error).message}`);
        }
        if (res.headers.get('x-qr-width') !== '800') out.push(`${t.id}: width ${res.headers.get('x-qr-width')}`);
        // A catalogue design must read as a phone sees it from afar, not only at full resolution.
        if (res.headers.get('x-qr-verified') !== 'reduced')
          out.push(`${t.id}: verified ${res.headers.get('x-qr-verified')}`);
      });
      expect(failures).toEqual([]);
    }, 180_000);
  }
});
