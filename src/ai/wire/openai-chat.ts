import { extractJsonObject } from '../json-extract.js';
import { isPlainObject } from '../json-schema.js';
import { badOutput, exchange, replyError, type WireAdapter, type WireCall } from './http.js';

/**
 * `POST {base}/chat/completions` for OpenAI and the OpenAI-compatible vendors (Mistral, DeepSeek, Groq, xAI,
 * OpenRouter, Together, local servers); their differences live in each provider's quirks.
 */
export const openaiChat: WireAdapter = async (call) => {
  const first = await complete(call);
  if (first !== '' || !call.provider.quirks.retryBlankOnce) return parse(call, first);
  return parse(call, await complete(call));
};

function body(call: WireCall): Record<string, unknown> {
  const { provider, model, request } = call;
  const { quirks } = provider;
  const mode = quirks.structured(model);
  const temperature = quirks.temperature(model, request.temperature);
  const responseFormat =
    mode === 'json_object'
      ? { type: 'json_object' }
      : {
          type: 'json_schema',
          json_schema: {
            name: request.schemaName,
            schema: mode === 'strict' ? request.schema.strict : request.schema.loose,
            strict: mode === 'strict',
          },
        };
  return {
    model,
    messages: [
      { role: 'system', content: request.system },
      { role: 'user', content: request.user },
    ],
    ...(temperature === undefined ? {} : { temperature }),
    [quirks.maxTokensField]: request.maxTokens,
    response_format: responseFormat,
    ...quirks.extraBody(model),
  };
}

/** The assistant's text; '' when the vendor sent none. */
async function complete(call: WireCall): Promise<string> {
  const reply = await exchange(
    call,
    'POST',
    `${call.baseUrl}/chat/completions`,
    { authorization: `Bearer ${call.apiKey}` },
    body(call),
  );
  const error = replyError(call, reply);
  if (error) throw error;

  const choice = isPlainObject(reply.body) && Array.isArray(reply.body.choices) ? reply.body.choices[0] : undefined;
  const message = isPlainObject(choice) && isPlainObject(choice.message) ? choice.message : undefined;
  if (!message) throw badOutput(call, 'the reply has no choices[0].message');
  if (typeof message.refusal === 'string' && message.refusal !== '')
    throw badOutput(call, `the model refused: ${message.refusal}`);
  const content = typeof message.content === 'string' ? message.content.trim() : '';
  if (content === '' && choice?.finish_reason === 'length')
    throw badOutput(call, 'the answer hit the token limit before any JSON');
  return content;
}

function parse(call: WireCall, content: string): Record<string, unknown> {
  if (content === '') throw badOutput(call, 'the reply content is empty');
  const json = extractJsonObject(content);
  if (!json) throw badOutput(call, `no JSON object in the reply: ${content.slice(0, 120)}`);
  return json;
}
