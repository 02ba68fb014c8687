import { extractJsonObject } from '../json-extract.js';
import { isPlainObject } from '../json-schema.js';
import { badOutput, exchange, replyError, type WireAdapter } from './http.js';

/**
 * `POST {base}/models/{model}:generateContent`. The key travels in `x-goog-api-key`, never in the URL, so it
 * cannot end up in access logs or error messages that quote the URL.
 */
export const geminiGenerate: WireAdapter = async (call) => {
  const { provider, model, request } = call;
  const temperature = provider.quirks.temperature(model, request.temperature);
  const id = encodeURIComponent(model.replace(/^models\//, ''));
  const reply = await exchange(
    call,
    'POST',
    `${call.baseUrl}/models/${id}:generateContent`,
    { 'x-goog-api-key': call.apiKey },
    {
      systemInstruction: { parts: [{ text: request.system }] },
      contents: [{ role: 'user', parts: [{ text: request.user }] }],
      generationConfig: {
        ...(temperature === undefined ? {} : { temperature }),
        maxOutputTokens: request.maxTokens,
        responseMimeType: 'application/json',
        responseJsonSchema: request.schema.loose,
      },
    },
  );
  const error = replyError(call, reply);
  if (error) throw error;

  const body = isPlainObject(reply.body) ? reply.body : {};
  const candidate =
    Array.isArray(body.candidates) && isPlainObject(body.candidates[0]) ? body.candidates[0] : undefined;
  if (!candidate) {
    const block = isPlainObject(body.promptFeedback) ? body.promptFeedback.blockReason : undefined;
    throw badOutput(call, block ? `the prompt was blocked (${String(block)})` : 'the reply has no candidates');
  }
  const parts =
    isPlainObject(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
  // Thinking models return their thoughts as parts flagged `thought: true`; they are not the answer.
  const text = parts
    .filter((p): p is Record<string, unknown> => isPlainObject(p) && p.thought !== true && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('');
  const json = extractJsonObject(text);
  if (json) return json;
  throw badOutput(
    call,
    `no JSON object in the reply (finishReason ${String(candidate.finishReason)}): ${text.slice(0, 120)}`,
  );
};
