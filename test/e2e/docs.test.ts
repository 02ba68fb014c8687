import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINDER_INNER_SHAPES, FINDER_OUTER_SHAPES, MODULE_SHAPES } from '../../src/model/vocabulary.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

describe('published contract', () => {
  it('GET /api/qr/schema is the QrConfig schema with every shape name, bound and default', async () => {
    const res = await fetch(`${svc.url}/api/qr/schema`);
    expect(res.status).toBe(200);
    const schema = await res.json();
    expect(schema.properties.moduleShape.enum).toEqual([...MODULE_SHAPES]);
    expect(schema.properties.finderOuterShape.enum).toEqual([...FINDER_OUTER_SHAPES]);
    expect(schema.properties.finderInnerShape.enum).toEqual([...FINDER_INNER_SHAPES]);
    expect(schema.properties.outputWidth).toMatchObject({ minimum: 64, maximum: 4096 });
    expect(schema.properties.fileFormat.default).toBe('png');
    expect(Object.keys(schema.properties).length).toBeGreaterThanOrEqual(45);
    for (const [name, p] of Object.entries<{ description?: string }>(schema.properties))
      expect(p.description, name).toBeTruthy();
    // The published schema is itself valid and accepts what the service accepts.
    const check = new Ajv.default({ strict: false }).compile(schema);
    expect(
      check({
        content: 'x',
        primaryColor: '#123',
        foregroundGradient: {
          type: 'linear',
          stops: [
            { offset: 0, color: '#000' },
            { offset: 1, color: '#111' },
          ],
        },
      }),
    ).toBe(true);
    expect(check({ content: 'x', moduleShape: 'nope' })).toBe(false);
  });

  it('GET /api/openapi.json lists every documented route with its request schema', async () => {
    const doc = await (await fetch(`${svc.url}/api/openapi.json`)).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/qr/generate'].post.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/qrConfig',
    );
    expect(doc.paths['/api/qr/content/wifi'].post.requestBody).toBeDefined();
    expect(doc.paths['/api/ping'].get).toBeDefined();
    expect(doc.components.schemas.qrConfig.properties.moduleShape.enum).toEqual([...MODULE_SHAPES]);
    expect(JSON.stringify(doc)).not.toContain('#/definitions/');
    expect(doc.components.securitySchemes.proxySecret.name).toBe(svc.service.config.proxySecretHeader);
  });
});
