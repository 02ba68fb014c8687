/**
 * The JSON body of a bulk job as src/batch/parse.ts reads it, for the OpenAPI documents: a shared design
 * and the items, each its content, a file name and its own design fields. Published only; the parser
 * checks a body itself, since a bulk job also comes as text/csv and a bad item is reported, not refused.
 */
export const batchRequestSchema = {
  type: 'object',
  description:
    'A bulk job as JSON. The same job may be sent as text/csv instead: a header row with a content column (filename and QrConfig fields as further columns), the shared design as JSON in the config query parameter.',
  additionalProperties: false,
  required: ['items'],
  properties: {
    config: {
      type: 'object',
      description: 'The design every item shares: QrConfig fields (the qrConfig schema) without content.',
    },
    items: {
      type: 'array',
      minItems: 1,
      description: 'One code each, counted against the day’s bulk items; at most QR_BATCH_MAX_ITEMS (10,000).',
      items: {
        type: 'object',
        required: ['content'],
        description: 'QrConfig fields of this item alone win over the shared design.',
        properties: {
          content: { type: 'string', description: 'What the code encodes.' },
          filename: { type: 'string', description: 'The file’s name in the ZIP.' },
          config: { type: 'object', description: 'This item’s own design fields.' },
        },
      },
    },
  },
} as const;
