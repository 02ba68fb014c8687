import { contentProperty, definitions, designProperties } from './qr-config.js';

type Schema = Record<string, unknown>;

/**
 * An object schema with `required` dropped at its own level and in every object it holds as a property,
 * so a body may name any one nested field (`centerText.color`) and take the rest from the template.
 * Arrays replace whole in a merge, so their items keep their rules.
 */
function optionalAtEveryObjectLevel(schema: Schema): Schema {
  if (schema.type !== 'object' || typeof schema.properties !== 'object') return schema;
  const { required: _required, properties, ...rest } = schema;
  return {
    ...rest,
    properties: Object.fromEntries(
      Object.entries(properties as Record<string, Schema>).map(([k, v]) => [k, optionalAtEveryObjectLevel(v)]),
    ),
  };
}

/**
 * POST /api/qr/templates/:id body: a QrConfig in which every field is optional, nested ones too. After
 * the body is merged over the template, the result is validated as a whole QrConfig, where `content`
 * and the nested required fields are required again.
 */
export const qrTemplateOverrideSchema = {
  ...optionalAtEveryObjectLevel({
    type: 'object',
    additionalProperties: false,
    properties: { content: contentProperty, ...designProperties },
  }),
  $id: 'QrTemplateOverride',
  definitions,
};
