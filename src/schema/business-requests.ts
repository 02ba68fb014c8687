/**
 * The business layer's JSON bodies: the site's checkout and the engine's usage export. Compiled at build
 * with the engine's (scripts/compile-schemas.ts) and checked by `businessBody` (business-body.ts), which
 * answers invalid_body naming the field; each property's `description` is the refusal's message. What
 * only the running service knows (the catalogue's packs, the waiver texts shown) is checked after.
 */

/** `YYYY-MM`, a UTC calendar month as metering keys it. */
const MONTH_PATTERN = '^\\d{4}-(0[1-9]|1[0-2])$';

const checkoutSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['withdrawalWaiver', 'packId'],
  properties: {
    withdrawalWaiver: {
      type: 'object',
      description: 'Tick both boxes of the withdrawal waiver.',
      required: ['consent', 'acknowledgement', 'textVersion'],
      properties: {
        consent: {
          const: true,
          description:
            'Tick the box consenting to the pack being made available at once, before the withdrawal period ends.',
        },
        acknowledgement: {
          const: true,
          description: 'Tick the box acknowledging that you then lose your right of withdrawal.',
        },
        textVersion: {
          type: 'string',
          description: 'withdrawalWaiver.textVersion must name the text shown to the buyer.',
        },
      },
    },
    packId: { type: 'string', description: 'Choose one of the packs listed under “1. Choose”.' },
  },
} as const;

const usageExportSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['month'],
  properties: {
    month: { type: 'string', pattern: MONTH_PATTERN, description: 'month must be YYYY-MM, e.g. 2026-11.' },
  },
} as const;

export const BUSINESS_SCHEMAS = { checkout: checkoutSchema, usageExport: usageExportSchema } as const;

export type BusinessSchemaName = keyof typeof BUSINESS_SCHEMAS;
