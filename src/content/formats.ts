/**
 * The phone, e-mail and web-address rules of the content helpers, each stated once: the check the builders
 * run (`TextRules.format` in fields.ts), the longest value the schema accepts, and the sentence that both
 * the schema's description and the builder's error message are written from, so the published schema
 * cannot describe a rule other than the one enforced. Loose on purpose: the checks catch a value typed into
 * the wrong field, not every address a standard allows.
 */

const PHONE = /^\+?[\d ().-]+$/;
const PHONE_DIGITS = { min: 3, max: 15 }; // 15: the E.164 maximum
const EMAIL_ATOM = String.raw`[^\s@"(),:;<>\[\]\\]+`;
const DOMAIN_LABEL = String.raw`[^\s@"(),:;<>\[\]\\.]+`;
const EMAIL = new RegExp(`^${EMAIL_ATOM}@(?:${DOMAIN_LABEL}\\.)+${DOMAIN_LABEL}$`, 'u');
const WEB_ADDRESS = /^(?:https?:\/\/)?(?:[^\s/?#\\"<>:@]+\.)+[^\s/?#\\"<>:@.]+(?::\d{1,5})?(?:[/?#][^\s\\"<>]*)?$/iu;

interface FieldFormat {
  test: (value: string) => boolean;
  /** What a valid value is, for the error message: "<field> must be <noun>: <rule>." */
  noun: string;
  /** The rule in words, for the schema description and the error message alike. */
  rule: string;
  maxLength: number;
}

export const FORMATS = {
  phone: {
    test: (v) => {
      const digits = v.replace(/\D/g, '').length;
      return PHONE.test(v) && digits >= PHONE_DIGITS.min && digits <= PHONE_DIGITS.max;
    },
    noun: 'a phone number',
    rule:
      `${PHONE_DIGITS.min}–${PHONE_DIGITS.max} digits, optionally a leading +, ` +
      'with spaces, dots, dashes or parentheses between them',
    maxLength: 40,
  },
  email: {
    test: (v) => EMAIL.test(v),
    noun: 'an e-mail address',
    rule: 'one @, a dot in the domain and no spaces, as in name@example.com',
    maxLength: 254, // the longest address SMTP carries (RFC 5321 forward-path)
  },
  url: {
    test: (v) => WEB_ADDRESS.test(v),
    noun: 'a web address',
    rule: 'http:// or https:// (or no scheme) followed by a host with a dot, an optional port and path',
    maxLength: 1000,
  },
} as const satisfies Record<string, FieldFormat>;

export type Format = keyof typeof FORMATS;

/**
 * The schema property of a field in `format`: its bound, and a description that states the rule after the
 * field's label ("Phone number: 3–15 digits, …."), then `note` (what the builder does with the value).
 */
export function formatField(format: Format, label: string, note?: string) {
  const { maxLength, rule } = FORMATS[format];
  const description = `${label}: ${rule}.${note === undefined ? '' : ` ${note}`}`;
  return { type: 'string', maxLength, description } as const;
}

/** The error message for a value of `field` that breaks its format's rule. */
export const formatMessage = (format: Format, field: string): string =>
  `${field} must be ${FORMATS[format].noun}: ${FORMATS[format].rule}.`;
