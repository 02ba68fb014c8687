/**
 * The Studio's form check (web/src/studio/schema-check.ts) against AJV, the validator the server compiles
 * from the same schemas: on valid bodies and on each single mutation of them, both accept or both refuse,
 * and the field the Studio names is the one AJV names.
 */
import Ajv, { type ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { CONTENT_SCHEMAS } from '../../src/content/schemas.js';
import { AJV_OPTIONS } from '../../src/schema/ajv-options.js';
import { qrConfigSchema } from '../../src/schema/qr-config.js';
import { check, type SchemaNode } from '../../web/src/studio/schema-check.js';
import { prng } from '../helpers/random-design.js';

/** AJV's first error as the dotted field the server's envelope carries. */
function fieldOf(e: ErrorObject): string {
  const base = e.instancePath.slice(1).replace(/\//g, '.');
  const child =
    (e.params as { additionalProperty?: string; missingProperty?: string }).additionalProperty ??
    (e.params as { missingProperty?: string }).missingProperty;
  return child === undefined ? base : base === '' ? child : `${base}.${child}`;
}

const VALID_DESIGNS: Record<string, unknown>[] = [
  { content: 'https://example.com' },
  {
    content: 'Ünïcødé ✓',
    primaryColor: '#1D3557',
    backgroundColor: '#fff',
    moduleShape: 'dots',
    finderEyes: [{ outerColor: '#000000AA', rotation: 90 }, {}, { flip: 'vertical' }],
    foregroundGradient: {
      type: 'linear',
      rotation: 45,
      stops: [
        { offset: 0, color: '#000' },
        { offset: 1, color: '#123456' },
      ],
    },
    centerText: { text: 'Hi', fontSize: 24 },
    outputWidth: 1024,
    moduleScale: 0.8,
    quietZone: 6,
  },
];

/** One change each, most of which the schema refuses. */
const MUTATIONS: ((d: Record<string, unknown>, r: ReturnType<typeof prng>) => void)[] = [
  (d) => (d.primaryColor = '#12345'),
  (d) => (d.primaryColor = 'red'),
  (d) => (d.moduleShape = 'blob'),
  (d) => (d.outputWidth = 63),
  (d) => (d.outputWidth = 4096),
  (d) => (d.outputWidth = 100.5),
  (d) => (d.moduleScale = 1.01),
  (d) => (d.moduleScale = 0.5),
  (d) => (d.content = ''),
  (d) => (d.content = 'x'.repeat(4297)),
  (d) => (d.content = '😀'.repeat(4296)),
  (d) => delete d.content,
  (d) => (d.primaryColour = '#000'),
  (d) => (d.centerText = { color: '#000' }),
  (d) => (d.centerText = { text: 'a', fontSize: 5 }),
  (d) => (d.finderEyes = [{}, {}, {}, {}]),
  (d) => (d.finderEyes = [{ rotation: 45 }]),
  (d) => (d.foregroundGradient = { type: 'linear', stops: [{ offset: 0, color: '#000' }] }),
  (d) =>
    (d.foregroundGradient = {
      type: 'conic',
      stops: [
        { offset: 0, color: '#000' },
        { offset: 1, color: '#fff' },
      ],
    }),
  (d) => (d.strictScannability = 'yes'),
  (d) => (d.logoUrl = 'ftp://x'),
  (d, r) => (d.qrShapeRadius = r.int(-10, 60)),
  (d, r) => (d.eccLevel = r.pick(['L', 'M', 'Q', 'H', 'X'])),
];

describe('the Studio’s check agrees with the server’s validator', () => {
  it('QrConfig: valid designs and every single mutation of them', () => {
    const ajv = new Ajv.default(AJV_OPTIONS).compile(qrConfigSchema);
    const r = prng(13);
    let refused = 0;
    for (const design of VALID_DESIGNS) {
      expect(check(design, qrConfigSchema as unknown as SchemaNode, qrConfigSchema.definitions)).toEqual([]);
      for (const mutate of MUTATIONS) {
        const body = structuredClone(design);
        mutate(body, r);
        const problems = check(body, qrConfigSchema as unknown as SchemaNode, qrConfigSchema.definitions);
        const accepted = ajv(body);
        expect(problems.length === 0, JSON.stringify(body).slice(0, 200)).toBe(accepted);
        if (!accepted) {
          refused++;
          expect(problems.map((p) => p.field)).toContain(fieldOf(ajv.errors![0]!));
        }
      }
    }
    expect(refused).toBeGreaterThan(MUTATIONS.length);
  });

  it('every content helper: required fields, lengths, bounds, enumerations and unknown fields', () => {
    const samples: Record<string, Record<string, unknown>[]> = {
      wifi: [
        { ssid: 'Cafe' },
        {},
        { ssid: 'x'.repeat(33) },
        { ssid: 'a', encryption: 'WPA4' },
        { ssid: 'a', hidden: 'no' },
      ],
      geo: [
        { latitude: 1, longitude: 2 },
        { latitude: 91, longitude: 0 },
        { latitude: 0 },
        { latitude: '1', longitude: 2 },
      ],
      epc: [
        { name: 'A', iban: 'DE89' },
        { name: 'A', iban: 'DE89', amount: 0 },
        { name: 'A', iban: 'DE89', purpose: 'ABC' },
      ],
      event: [
        { summary: 'x', start: '2025-01-01T00:00:00Z' },
        { summary: 'x' },
        { summary: 'x', start: 'y', extra: 1 },
      ],
      vcard: [{ firstName: 'Ada' }, { firstName: 'A'.repeat(101) }, { nickname: 'x' }],
    };
    for (const [type, bodies] of Object.entries(samples)) {
      const schema = CONTENT_SCHEMAS[type as keyof typeof CONTENT_SCHEMAS];
      const ajv = new Ajv.default(AJV_OPTIONS).compile(schema);
      for (const body of bodies) {
        const problems = check(body, schema as unknown as SchemaNode);
        expect(problems.length === 0, `${type} ${JSON.stringify(body)}`).toBe(ajv(body));
        if (problems.length > 0) expect(problems.map((p) => p.field)).toContain(fieldOf(ajv.errors![0]!));
      }
    }
  });
});
