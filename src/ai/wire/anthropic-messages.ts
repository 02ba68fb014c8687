import { extractJsonObject } from '../json-extract.js';
import { isPlainObject } from '../json-schema.js';
import { badOutput, exchange, replyError, type WireAdapter } from './http.js';

/**
 * `POST {base}/messages`. Structured output comes from a forced tool: the model must "call" it, and the
 * call's `input` is the object, already parsed. (Prefill is rejected by current models, and
 * `output_config` drops numeric constraints, so the tool is the sturdier route.)
 */
export const anthropicMessages: WireAdapter = async (call) => {
  const { provider, model, request } = call;
  const temperature = provider.quirks.temperature(model, request.temperature);
  const reply = await exchange(
    call,
    'POST',
    `${call.baseUrl}/messages`,
    { 'x-api-key': call.apiKey, 'anthropic-version': '2023-06-01' },
    {
      model,
      max_tokens: request.maxTokens,
      system: request.system,
      messages: [{ role: 'user', content: request.user }],
      ...(temperature === undefined ? {} : { temperature }),
      tools: [{ name: request.schemaName, description: 'Submit the QR design.', input_schema: request.schema.loose }],
      tool_choice: { type: 'tool', name: request.schemaName },
    },
  );
  const error = replyError(call, reply);
  if (error) throw error;

  const blocks =
    isPlainObject(reply.body) && Array.isArray(reply.body.content) ? reply.body.content.filter(isPlainObject) : [];
  const tool = blocks.find((b) => b.type === 'tool_use' && isPlainObject(b.input));
  if (tool) return tool.input as Record<string, unknown>;

  // A model that ignored the forced tool may still have written the JSON as text.
  const text = blocks
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text)
    .join('');
  const json = extractJsonObject(text);
  if (json) return json;
  const stop = isPlainObject(reply.body) ? reply.body.stop_reason : undefined;
  throw badOutput(
    call,
    stop === 'max_tokens' ? 'the answer hit max_tokens before the tool call' : 'the reply has no tool_use block',
  );
};
