import { ApiError } from '../errors.js';
import { formError } from '../http/form-error.js';
import { jsonBytes, parseJsonBody } from '../http/json-body.js';
import type { RequestContext } from '../http/router.js';
import { validators } from './compiled-forms.js';
import { FORM_LABELS, SITE_FORMS, type SiteForm } from './forms.js';

/** The site's own forms are a few short fields: anything bigger is refused before it is parsed. */
const FORM_MAX_BYTES = 16 * 1024;

interface FieldSchema {
  type?: string;
  minLength?: number;
  maxLength?: number;
}

/**
 * What a field of `form` must be, as a sentence naming the field as its page labels it ("E-mail address
 * must be at most 254 characters long."), for the page to show beside that field.
 */
export function describe(form: SiteForm, field: string): string {
  const label = FORM_LABELS[form][field] ?? field;
  const schema = (SITE_FORMS[form].properties as Record<string, FieldSchema>)[field];
  if (schema === undefined) return `${label} is not a field of this form.`;
  if (schema.type === 'object') return `${label} must be a set of design fields (a JSON object).`;
  const { minLength = 0, maxLength } = schema;
  if (minLength <= 1) return `${label} must be filled in, with at most ${maxLength} characters.`;
  return `${label} must be ${minLength} to ${maxLength} characters long.`;
}

/**
 * A form body of the site's pages: JSON, valid against its schema in SITE_FORMS (an empty body is `{}`),
 * at most `maxBytes` (the saved designs' forms carry a whole design).
 */
export async function readForm<T>(ctx: RequestContext, form: SiteForm, maxBytes = FORM_MAX_BYTES): Promise<T> {
  const bytes = await jsonBytes(ctx);
  if (bytes.length > maxBytes)
    throw new ApiError('invalid_body', { message: `This form's body is at most ${maxBytes} bytes.` });
  const body = bytes.length === 0 ? {} : parseJsonBody(bytes);
  const check = validators[form];
  if (!check(body)) {
    const e = check.errors![0]!;
    if (e.keyword === 'minProperties')
      throw new ApiError('invalid_body', { message: 'Change at least one field: the name or the design.' });
    throw formError(e, (field) => describe(form, field));
  }
  return body as T;
}
