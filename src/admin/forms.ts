import { MAX_KEY_NAME_LENGTH } from '../accounts/index.js';

const text = { type: 'string', minLength: 1 } as const;
const count = { type: 'integer', minimum: 1 } as const;
/** ISO 8601 with a date and a time zone, so the instant is not left to the server's locale. */
const instant = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T[\\d:.]+(Z|[+-]\\d{2}:?\\d{2})$' } as const;

const body = (properties: Record<string, object>, required: readonly string[] = Object.keys(properties)) =>
  ({ type: 'object', additionalProperties: false, required, properties }) as const;

/**
 * The body of each admin command, by the command's name with `_` for spaces: `scripts/compile-schemas.ts`
 * compiles them into dist/src/admin/compiled-forms.js, which runAdminCommand validates with.
 */
export const ADMIN_FORMS = {
  customer_create: body({ email: text }),
  pack_grant: body({ customer: text, credits: count, purchasedAt: instant }, ['customer', 'credits']),
  pack_refund: body({ id: text }),
  key_issue: body({ customer: text, name: { ...text, maxLength: MAX_KEY_NAME_LENGTH } }, ['customer']),
  key_revoke: body({ id: text }),
  key_list: body({ customer: text }),
  credits: body({ customer: text }),
  quickstart: body({ email: text, credits: count }, []),
} as const;

export type AdminForm = keyof typeof ADMIN_FORMS;

/** What a field must be, as a refusal says, by its schema. */
export function describeAdminField(form: AdminForm, field: string): string {
  const schema = (ADMIN_FORMS[form].properties as Record<string, { type: string; pattern?: string }>)[field];
  if (schema?.pattern !== undefined)
    return `${field} must be an ISO 8601 date-time with a zone, e.g. 2025-01-31T12:00:00Z.`;
  return schema?.type === 'integer'
    ? `${field} must be a whole number of at least 1.`
    : `${field} must be a non-empty string.`;
}
