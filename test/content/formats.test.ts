import { describe, expect, it } from 'vitest';
import { FORMATS, type Format } from '../../src/content/formats.js';
import { CONTENT_HELPERS, CONTENT_SCHEMAS, type ContentType } from '../../src/content/index.js';
import { ApiError } from '../../src/errors.js';

/** Every phone, e-mail and web-address field of the helpers, with a body that is valid without it. */
const FIELDS: [ContentType, string, Format, object][] = [
  ['vcard', 'phone', 'phone', { firstName: 'Ada' }],
  ['vcard', 'email', 'email', { firstName: 'Ada' }],
  ['vcard', 'url', 'url', { firstName: 'Ada' }],
  ['mecard', 'phone', 'phone', { lastName: 'Solo' }],
  ['mecard', 'email', 'email', { lastName: 'Solo' }],
  ['mecard', 'url', 'url', { lastName: 'Solo' }],
  ['sms', 'number', 'phone', { message: 'Hi' }],
  ['tel', 'number', 'phone', {}],
  ['email', 'to', 'email', { subject: 'Hi' }],
];

/** A value typed into the wrong field, which each format refuses. */
const WRONG: Record<Format, string> = { phone: 'call me', email: 'ada at example', url: 'not a web address' };

const build = (type: ContentType, body: object): string => (CONTENT_HELPERS[type] as (input: object) => string)(body);

describe('field formats (phone, e-mail, web address)', () => {
  it.each(FIELDS)(
    '%s.%s: the schema states the rule the builder enforces and names in its error',
    (type, field, format, rest) => {
      const schema = (CONTENT_SCHEMAS[type].properties as Record<string, { maxLength: number; description: string }>)[
        field
      ]!;
      const { rule, maxLength } = FORMATS[format];
      expect(schema.maxLength).toBe(maxLength);
      expect(schema.description).toContain(rule);

      let error: unknown;
      try {
        build(type, { ...rest, [field]: WRONG[format] });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect({ code: (error as ApiError).code, field: (error as ApiError).field }).toEqual({
        code: 'INVALID_FIELD_VALUE',
        field,
      });
      expect((error as ApiError).message).toContain(rule);
    },
  );

  it('accepts what each rule describes and refuses what it excludes', () => {
    const cases: [Format, string, boolean][] = [
      ['phone', '+1 (555) 010-0100', true],
      ['phone', '112', true],
      ['phone', '12', false], // fewer than 3 digits
      ['phone', '1234567890123456', false], // more than 15
      ['phone', '+44 20 7946 0958 ext 1', false],
      ['email', 'name@example.com', true],
      ['email', 'name@localhost', false], // no dot in the domain
      ['email', 'a b@example.com', false],
      ['email', 'a@b@example.com', false],
      ['url', 'https://example.com:8080/a?b#c', true],
      ['url', 'example.com', true],
      ['url', 'ftp://example.com', false],
      ['url', 'https://localhost', false],
    ];
    for (const [format, value, valid] of cases) expect(FORMATS[format].test(value), `${format} ${value}`).toBe(valid);
  });
});
