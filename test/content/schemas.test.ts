import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { CONTENT_HELPERS, CONTENT_SCHEMAS, type ContentType } from '../../src/content/index.js';
import { AJV_OPTIONS } from '../../src/schema/ajv-options.js';
import { expectApiError } from './support.js';

// The options the build compiles every request schema with (scripts/compile-schemas.ts), so these
// validators accept, refuse and report exactly as the service's.
const ajv = new Ajv(AJV_OPTIONS);
const validators = Object.fromEntries(
  Object.entries(CONTENT_SCHEMAS).map(([type, schema]) => [type, ajv.compile(schema)]),
) as Record<ContentType, ValidateFunction>;
const types = Object.keys(CONTENT_SCHEMAS) as ContentType[];

/** The builder of a type, called with an arbitrary body (the schema test feeds it bodies AJV accepted). */
const build = (type: ContentType, body: object): string => (CONTENT_HELPERS[type] as (input: object) => string)(body);

const GOOD: Record<ContentType, object[]> = {
  wifi: [
    { ssid: 'Home', password: 'password123' },
    { ssid: 'Open', encryption: 'nopass', hidden: true },
    { ssid: 'Old', encryption: 'WEP', password: 'abcde' },
  ],
  vcard: [
    { firstName: 'Ada' },
    { organization: 'ACME' },
    {
      firstName: 'A',
      lastName: 'B',
      organization: 'C',
      title: 'D',
      phone: '+1 555 0100',
      email: 'a@b.co',
      url: 'b.co',
      address: 'x\ny',
    },
  ],
  geo: [
    { latitude: 0, longitude: 0 },
    { latitude: -90, longitude: 180, query: 'Pole' },
  ],
  email: [{ to: 'a@example.com' }, { to: 'a@example.com', subject: 'Hi', body: 'Hello\nthere' }],
  sms: [{ number: '+15550100' }, { number: '112', message: 'Help' }],
  tel: [{ number: '+1 (555) 010-0100' }],
  mecard: [
    { lastName: 'Solo' },
    { firstName: 'A', lastName: 'B', phone: '123', email: 'a@b.co', url: 'b.co', address: 'x', note: 'y' },
  ],
  event: [
    { summary: 'Party', start: '2025-12-31T22:00:00Z' },
    {
      summary: 'Talk',
      start: '2025-05-01T09:00:00+02:00',
      end: '2025-05-01T10:00:00+02:00',
      location: 'Hall',
      description: 'About QR',
    },
  ],
  epc: [
    { name: 'Red Cross', iban: 'DE89370400440532013000' },
    {
      name: 'Shop',
      iban: 'GB82 WEST 1234 5698 7654 32',
      bic: 'NWBKGB2L',
      amount: 0.01,
      purpose: 'GDDS',
      remittanceReference: 'RF18 5390 0754 7034',
      information: 'Thanks',
    },
  ],
};

/** Bodies the schema refuses, with the AJV keyword and the field it reports. */
const BAD: Record<ContentType, [object, string, string][]> = {
  wifi: [
    [{}, 'required', 'ssid'],
    [{ ssid: 'x', encryption: 'WPA2' }, 'enum', 'encryption'],
    [{ ssid: 'x'.repeat(33) }, 'maxLength', 'ssid'],
    [{ ssid: 'x', password: 'p'.repeat(65) }, 'maxLength', 'password'],
    [{ ssid: 'x', hidden: 'yes' }, 'type', 'hidden'],
    [{ ssid: 'x', channel: 6 }, 'additionalProperties', 'channel'],
  ],
  vcard: [
    [{ firstName: 'x'.repeat(101) }, 'maxLength', 'firstName'],
    [{ firstName: 'x', phone: 5550100 }, 'type', 'phone'],
    [{ firstName: 'x', nickname: 'y' }, 'additionalProperties', 'nickname'],
  ],
  geo: [
    [{ latitude: 1 }, 'required', 'longitude'],
    [{ latitude: 90.5, longitude: 0 }, 'maximum', 'latitude'],
    [{ latitude: 0, longitude: -180.1 }, 'minimum', 'longitude'],
    [{ latitude: '1', longitude: 2 }, 'type', 'latitude'],
    [{ latitude: 0, longitude: 0, query: 'q'.repeat(201) }, 'maxLength', 'query'],
  ],
  email: [
    [{ subject: 'x' }, 'required', 'to'],
    [{ to: 'a@b.co', cc: 'c@d.co' }, 'additionalProperties', 'cc'],
    [{ to: 'a@b.co', body: 'x'.repeat(2001) }, 'maxLength', 'body'],
  ],
  sms: [
    [{ message: 'hi' }, 'required', 'number'],
    [{ number: '1', message: 'x'.repeat(1001) }, 'maxLength', 'message'],
  ],
  tel: [
    [{ number: 112 }, 'type', 'number'],
    [{}, 'required', 'number'],
  ],
  mecard: [
    [{ lastName: 'x', note: 'x'.repeat(1001) }, 'maxLength', 'note'],
    [{ lastName: 'x', organization: 'y' }, 'additionalProperties', 'organization'],
  ],
  event: [
    [{ summary: 'x' }, 'required', 'start'],
    [{ start: '2025-01-01T00:00:00Z' }, 'required', 'summary'],
    [{ summary: 'x'.repeat(256), start: '2025-01-01T00:00:00Z' }, 'maxLength', 'summary'],
  ],
  epc: [
    [{ name: 'x' }, 'required', 'iban'],
    [{ name: 'x', iban: 'DE89370400440532013000', amount: 0 }, 'minimum', 'amount'],
    [{ name: 'x', iban: 'DE89370400440532013000', amount: 1e9 }, 'maximum', 'amount'],
    [{ name: 'x', iban: 'DE89370400440532013000', purpose: 'ABC' }, 'minLength', 'purpose'],
    [{ name: 'x'.repeat(71), iban: 'DE89370400440532013000' }, 'maxLength', 'name'],
    [{ name: 'x', iban: 'DE89370400440532013000', currency: 'EUR' }, 'additionalProperties', 'currency'],
  ],
};

/** Cross-field and format rules the descriptions document: the schema accepts these, the builder refuses. */
const BUILDER_REFUSES: [ContentType, object, string, string][] = [
  ['wifi', { ssid: 'Home' }, 'MISSING_REQUIRED_FIELD', 'password'],
  ['wifi', { ssid: 'Home', password: 'short' }, 'INVALID_FIELD_VALUE', 'password'],
  ['wifi', { ssid: 'é'.repeat(17), encryption: 'nopass' }, 'INVALID_FIELD_VALUE', 'ssid'],
  ['vcard', {}, 'MISSING_REQUIRED_FIELD', 'firstName'],
  ['vcard', { firstName: 'A', email: 'nope' }, 'INVALID_FIELD_VALUE', 'email'],
  ['mecard', { note: 'x' }, 'MISSING_REQUIRED_FIELD', 'firstName'],
  ['email', { to: '' }, 'MISSING_REQUIRED_FIELD', 'to'],
  ['event', { summary: 'x', start: '2025-01-01T10:00:00Z', end: '2025-01-01T09:00:00Z' }, 'INVALID_FIELD_VALUE', 'end'],
  ['event', { summary: 'x', start: '2025-01-01T10:00:00' }, 'INVALID_FIELD_VALUE', 'start'],
  ['epc', { name: 'x', iban: 'DE89370400440532013001' }, 'INVALID_FIELD_VALUE', 'iban'],
  ['epc', { name: 'x', iban: 'DE89370400440532013000', amount: 1.234 }, 'INVALID_FIELD_VALUE', 'amount'],
  [
    'epc',
    { name: 'x', iban: 'DE89370400440532013000', remittanceReference: 'RF18539007547034', remittanceText: 't' },
    'INVALID_FIELD_VALUE',
    'remittanceText',
  ],
];

describe('CONTENT_SCHEMAS', () => {
  it('has exactly one schema per helper', () => {
    expect(Object.keys(CONTENT_HELPERS).sort()).toEqual([...types].sort());
    expect(types.sort()).toEqual(['email', 'epc', 'event', 'geo', 'mecard', 'sms', 'tel', 'vcard', 'wifi']);
  });

  it.each(types)('%s: closed object, every property described, required fields defined', (type) => {
    const schema = CONTENT_SCHEMAS[type] as {
      type: string;
      additionalProperties: boolean;
      description: string;
      required?: string[];
      properties: Record<string, { description?: string }>;
    };
    expect(schema.type).toBe('object');
    expect(schema.additionalProperties).toBe(false);
    expect(schema.description.length).toBeGreaterThan(10);
    for (const [name, property] of Object.entries(schema.properties)) {
      expect(property.description, name).toMatch(/\w{3}/);
    }
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(schema.required ?? []));
  });

  it.each(types)(
    '%s: compiles under the production options (strict mode), and its defaults are values it accepts',
    (type) => {
      const schema = CONTENT_SCHEMAS[type] as { properties: Record<string, { default?: unknown }> };
      expect(() => new Ajv(AJV_OPTIONS).compile(schema)).not.toThrow();
      // The production options leave useDefaults off, so the validator never fills a default in: each is
      // set over a good body here, all at once, and must be a value the schema accepts.
      const defaults = Object.fromEntries(
        Object.entries(schema.properties).flatMap(([name, p]) => ('default' in p ? [[name, p.default]] : [])),
      );
      const body = { ...(GOOD[type][0] as object), ...defaults };
      expect(validators[type](body), JSON.stringify(validators[type].errors)).toBe(true);
    },
  );

  it.each(types)('%s: accepts the documented good bodies, which build a payload', (type) => {
    for (const body of GOOD[type]) {
      expect(validators[type](body), JSON.stringify(validators[type].errors)).toBe(true);
      expect(build(type, body)).toEqual(expect.any(String));
    }
  });

  it.each(types)('%s: refuses bad bodies with the keyword and field a client can act on', (type) => {
    for (const [body, keyword, field] of BAD[type]) {
      expect(validators[type](body)).toBe(false);
      const reported = (validators[type].errors ?? []).map((e) => ({
        keyword: e.keyword,
        field:
          (e.params as { missingProperty?: string; additionalProperty?: string }).missingProperty ??
          (e.params as { additionalProperty?: string }).additionalProperty ??
          e.instancePath.slice(1),
      }));
      // allErrors is off in production: the one error reported is the one the client is told about.
      expect(reported).toEqual([{ keyword, field }]);
    }
  });

  it.each(BUILDER_REFUSES)('%s: schema accepts %j, the builder refuses it with %s on %s', (type, body, code, field) => {
    expect(validators[type](body)).toBe(true);
    expectApiError(() => build(type, body), code, field);
  });
});
