import { ApiError } from '../errors.js';
import { formError } from '../http/form-error.js';
import { jsonBytes, parseJsonBody } from '../http/json-body.js';
import type { RequestContext } from '../http/router.js';
import { validators } from './compiled-forms.js';
import { SITE_FORMS, type SiteForm } from './forms.js';

/** The site's own forms are a few short fields: anything bigger is refused before it is parsed. */
const FORM_MAX_BYTES = 16 * 1024;

/** What a field of `form` must be, as a refusal says. */
function describe(form: SiteForm, field: string): string {
  const properties = SITE_FORMS[form].properties as Record<string, { minLength: number; maxLength: number }>;
  const { minLength, maxLength } = properties[field]!;
  return `${field} must be a string of ${minLength} to ${maxLength} characters.`;
}

/** A form body of the site's pages: JSON, valid against its schema in SITE_FORMS (an empty body is `{}`). */
export async function readForm<T>(ctx: RequestContext, form: SiteForm): Promise<T> {
  const bytes = await jsonBytes(ctx);
  if (bytes.length > FORM_MAX_BYTES)
    throw new ApiError('invalid_body', { message: `This form's body is at most ${FORM_MAX_BYTES} bytes.` });
  const body = bytes.length === 0 ? {} : parseJsonBody(bytes);
  const check = validators[form];
  if (!check(body)) throw formError(check.errors![0]!, (field) => describe(form, field));
  return body as T;
}
