import { ApiError } from '../errors.js';
import { jsonBytes, parseJsonBody } from '../http/json-body.js';
import type { RequestContext } from '../http/router.js';

/** The site's own forms are a few short fields: anything bigger is refused before it is parsed. */
const FORM_MAX_BYTES = 16 * 1024;

/**
 * A form body of the site's pages: JSON, an object, these fields and no other, each a string within
 * `maxLength` (`optional` ones may be absent). A refusal names the field at fault.
 */
export async function readForm<K extends string, O extends string = never>(
  ctx: RequestContext,
  fields: { required: readonly K[]; optional?: readonly O[]; maxLength: number },
): Promise<Record<K, string> & Partial<Record<O, string>>> {
  const bytes = await jsonBytes(ctx);
  if (bytes.length > FORM_MAX_BYTES)
    throw new ApiError('invalid_body', { message: `This form's body is at most ${FORM_MAX_BYTES} bytes.` });
  const body = bytes.length === 0 ? {} : parseJsonBody(bytes);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ApiError('invalid_body', { message: 'The body must be a JSON object.' });
  const allowed: readonly string[] = [...fields.required, ...(fields.optional ?? [])];
  for (const name of Object.keys(body))
    if (!allowed.includes(name))
      throw new ApiError('invalid_body', { message: `Unknown field "${name}".`, field: name });
  const values = body as Record<string, unknown>;
  for (const name of allowed) {
    const v = values[name];
    if (v === undefined && !(fields.required as readonly string[]).includes(name)) continue;
    if (typeof v !== 'string' || v === '' || v.length > fields.maxLength)
      throw new ApiError('invalid_body', {
        message: `${name} must be a string of 1 to ${fields.maxLength} characters.`,
        field: name,
      });
  }
  return values as Record<K, string> & Partial<Record<O, string>>;
}
