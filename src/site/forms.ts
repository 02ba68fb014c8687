import { MAX_EMAIL_LENGTH, MAX_KEY_NAME_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../accounts/index.js';

const email = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_EMAIL_LENGTH,
  description: 'E-mail address; compared case-insensitively.',
} as const;

const credentials = (passwordMinLength: number, description: string) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['email', 'password'],
    properties: {
      email,
      password: { type: 'string', minLength: passwordMinLength, maxLength: PASSWORD_MAX_LENGTH, description },
    },
  }) as const;

/**
 * The bodies of the site's own forms, by name: `scripts/compile-schemas.ts` compiles them into
 * dist/src/site/compiled-forms.js, readForm validates with them, and the OpenAPI document publishes them.
 */
export const SITE_FORMS = {
  credentials: credentials(
    PASSWORD_MIN_LENGTH,
    `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters, not containing the e-mail address's local part, not a common or easily guessed password (zxcvbn score 3 or more); stored as an argon2id hash.`,
  ),
  // A password too short to exist is a wrong password (401 invalid_credentials), not a malformed form.
  signIn: credentials(1, 'The account’s password.'),
  keyName: {
    type: 'object',
    additionalProperties: false,
    properties: {
      name: { type: 'string', minLength: 1, maxLength: MAX_KEY_NAME_LENGTH, description: 'A label for the key.' },
    },
  },
} as const;

export type SiteForm = keyof typeof SITE_FORMS;
