import { MAX_DESIGN_BYTES, MAX_DESIGNS } from '../accounts/index.js';
import type { Design, Designs } from '../accounts/types.js';
import { ApiError, isApiError } from '../errors.js';
import { guarded, type Guard, type Route } from '../http/router.js';
import { validate } from '../schema/validate.js';
import type { DesignJson } from '../wire/site.js';
import { ok, route } from './answers.js';
import { readForm } from './form-body.js';
import type { SignedIn } from './session-cookies.js';

export interface DesignRouteDeps {
  accounts: Designs;
  guard: Guard<SignedIn>;
}

/**
 * A design's form may be as large as any body the site takes (1 MiB): whether its design fits the stored
 * bound is the store's to say, as 413 design_too_large naming the field.
 */
const DESIGN_FORM_MAX_BYTES = 1024 * 1024;

/** A placeholder the check of a design puts in `content`, which a saved design does not keep. */
const SOME_CONTENT = 'https://example.com';

/**
 * The config as the engine will render it, once content is given: checked with the engine's own compiled
 * QrConfig schema, so a design that saves is one the engine takes. A refusal keeps the engine's code and
 * names the field inside the form (`config.primaryColor`).
 */
function checkConfig(config: Record<string, unknown>): Record<string, unknown> {
  try {
    validate('qrConfig', { ...config, content: SOME_CONTENT });
  } catch (e) {
    if (!isApiError(e)) throw e;
    throw new ApiError(e.code, { message: `Design: ${e.message}`, field: e.field && `config.${e.field}` });
  }
  return config;
}

export const designJson = (d: Design): DesignJson<Date> => ({
  id: d.id,
  name: d.name,
  config: d.config,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});

/**
 * The signed-in account's saved designs: a name and a QrConfig without content, rendered later through
 * POST /api/v1/qr/designs/:id with new content. Another account's design is design_not_found, as is none.
 */
export function designRoutes({ accounts, guard }: DesignRouteDeps): Route[] {
  return [
    guarded(guard, {
      ...route(
        'GET',
        '/api/account/designs',
        'The account’s saved designs, newest first, each with its config (a QrConfig without content).',
        '{ success, designs: [{ id, name, config, createdAt, updatedAt }] }',
      ),
      handler: async (ctx, { user }) => {
        ok(ctx, { designs: (await accounts.listDesigns(user.customerId)).map(designJson) });
      },
    }),
    guarded(guard, {
      ...route(
        'POST',
        '/api/account/designs',
        `Saves a design under a name: { name, config }, the config a QrConfig the engine takes (its content, if any, is not kept). At most ${MAX_DESIGNS} designs an account (409 design_limit_reached) and ${MAX_DESIGN_BYTES / 1024} KiB of JSON each (413 design_too_large).`,
        '{ success, design: { id, name, config, createdAt, updatedAt } }',
        'designNew',
      ),
      handler: async (ctx, { user }) => {
        const form = await readForm<{ name: string; config: Record<string, unknown> }>(
          ctx,
          'designNew',
          DESIGN_FORM_MAX_BYTES,
        );
        const design = await accounts.saveDesign(user.customerId, {
          name: form.name,
          config: checkConfig(form.config),
        });
        ok(ctx, { design: designJson(design) });
      },
    }),
    guarded(guard, {
      ...route(
        'PATCH',
        '/api/account/designs/:id',
        'Renames a saved design, or replaces its config, or both: { name?, config? }. Another account’s design is 404 design_not_found.',
        '{ success, design }',
        'designChange',
      ),
      handler: async (ctx, { user }) => {
        const form = await readForm<{ name?: string; config?: Record<string, unknown> }>(
          ctx,
          'designChange',
          DESIGN_FORM_MAX_BYTES,
        );
        const change = { name: form.name, config: form.config && checkConfig(form.config) };
        ok(ctx, { design: designJson(await accounts.updateDesign(user.customerId, ctx.params.id!, change)) });
      },
    }),
    guarded(guard, {
      ...route(
        'DELETE',
        '/api/account/designs/:id',
        'Deletes a saved design. Another account’s design is 404 design_not_found.',
        '{ success }',
      ),
      handler: async (ctx, { user }) => {
        await accounts.deleteDesign(user.customerId, ctx.params.id!);
        ok(ctx, {});
      },
    }),
  ];
}
