import {
  MAX_DESIGN_NAME_LENGTH,
  MAX_EMAIL_LENGTH,
  MAX_KEY_NAME_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from '../accounts/index.js';

const email = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_EMAIL_LENGTH,
  description: 'E-mail address; compared case-insensitively.',
} as const;

const token = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  description: 'The token from the link in the e-mail.',
} as const;
const newPassword = {
  type: 'string',
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: PASSWORD_MAX_LENGTH,
  description: `The new password: ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`,
} as const;
// A password too short to exist is a wrong one (403 wrong_password), not a malformed form.
const currentPassword = {
  type: 'string',
  minLength: 1,
  maxLength: PASSWORD_MAX_LENGTH,
  description: 'The account’s current password.',
} as const;

const designName = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_DESIGN_NAME_LENGTH,
  description: 'What the design is called in the dashboard.',
} as const;
const designConfig = {
  type: 'object',
  description:
    'A QrConfig (the qrConfig schema, checked as the engine checks it) without content: each render gives the content. A content sent here is not kept.',
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
  /** The token of a link mailed to the person (43 characters: 256 bits in base64url). */
  emailToken: {
    type: 'object',
    additionalProperties: false,
    required: ['token'],
    properties: { token },
  },
  emailOnly: { type: 'object', additionalProperties: false, required: ['email'], properties: { email } },
  passwordReset: {
    type: 'object',
    additionalProperties: false,
    required: ['token', 'password'],
    properties: { token, password: newPassword },
  },
  passwordChange: {
    type: 'object',
    additionalProperties: false,
    required: ['currentPassword', 'password'],
    properties: { currentPassword: currentPassword, password: newPassword },
  },
  emailChange: {
    type: 'object',
    additionalProperties: false,
    required: ['email', 'password'],
    properties: { email, password: currentPassword },
  },
  passwordOnly: {
    type: 'object',
    additionalProperties: false,
    required: ['password'],
    properties: { password: currentPassword },
  },
  keyName: {
    type: 'object',
    additionalProperties: false,
    properties: {
      name: { type: 'string', minLength: 1, maxLength: MAX_KEY_NAME_LENGTH, description: 'A label for the key.' },
    },
  },
  designNew: {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'config'],
    properties: { name: designName, config: designConfig },
  },
  designChange: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: { name: designName, config: designConfig },
  },
} as const;

export type SiteForm = keyof typeof SITE_FORMS;

/**
 * What each field is called on the page that sends the form, so a refusal names it as the person saw it;
 * the envelope's `field` keeps the body's name.
 */
export const FORM_LABELS: Record<SiteForm, Record<string, string>> = {
  credentials: { email: 'E-mail address', password: 'Password' },
  signIn: { email: 'E-mail address', password: 'Password' },
  emailToken: { token: 'The link' },
  emailOnly: { email: 'E-mail address' },
  passwordReset: { token: 'The link', password: 'New password' },
  passwordChange: { currentPassword: 'Current password', password: 'New password' },
  emailChange: { email: 'New e-mail address', password: 'Your password' },
  passwordOnly: { password: 'Your password' },
  keyName: { name: 'Name' },
  designNew: { name: 'Design name', config: 'Design' },
  designChange: { name: 'Design name', config: 'Design' },
};
