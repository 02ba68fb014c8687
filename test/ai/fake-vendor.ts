/**
 * A loopback LLM vendor for the AI tests. One server speaks one wire protocol exactly as the vendor does:
 * it checks path, auth headers and the body fields the adapters must send, records every request, and
 * answers from a queue of replies (the vendor's own success and error bodies, below).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderId } from '../../src/ai/providers.js';
import type { AiSettings } from '../../src/ai/settings.js';

export type WireKind = 'openai' | 'anthropic' | 'gemini';

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as-is instead of JSON (a proxy's HTML error page, say). */
  raw?: string;
  /** Wait this long before answering; a client that gives up meanwhile is counted in `aborted`. */
  delayMs?: number;
  /** Answer only once this has resolved (then after `delayMs`): a test decides when calls end. */
  until?: Promise<unknown>;
}

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON each vendor wire sends.
  body: any;
  /** The model id, from the body or (Gemini) from the path. */
  model: string | undefined;
  /** The key the request authenticated with. */
  key: string | undefined;
}

type Responder = Reply | ((req: Received) => Reply);

export interface FakeVendor {
  /** Origin, e.g. http://127.0.0.1:40123; a provider's base URL is this plus `/v1` or `/v1beta`. */
  origin: string;
  received: Received[];
  /** Every way a request broke the vendor's protocol; a test expects it empty. */
  problems: string[];
  /** Requests whose client went away before the answer. */
  aborted: number;
  /** Queue replies; the last one keeps answering once the queue is down to it. */
  reply(...replies: Responder[]): void;
  /** Drops the queued replies, for a fake shared by several tests that each queue their own. */
  clearReplies(): void;
  nextRequest(): Promise<Received>;
  nextAbort(): Promise<void>;
  close(): Promise<void>;
}

/** The base URL a provider on `wire` needs to reach this fake (its entry in `AiSettings.baseUrls`). */
export const baseUrlOf = (fake: FakeVendor, wire: WireKind): string =>
  `${fake.origin}${wire === 'gemini' ? '/v1beta' : '/v1'}`;

/** AI settings whose managed chain is this one fake groq, holding the server key `key`. */
export const managedByFakeGroq = (groq: FakeVendor, key: string): AiSettings => ({
  baseUrls: { groq: baseUrlOf(groq, 'openai') },
  managedKeys: { groq: key },
  managedChain: [{ providerId: 'groq' }],
  serverChain: [],
  perAttemptMs: 10_000,
  totalMs: 20_000,
});

export async function startFakeVendor(wire: WireKind, apiKey: string): Promise<FakeVendor> {
  const queue: Responder[] = [];
  const requestWaiters: ((r: Received) => void)[] = [];
  const abortWaiters: (() => void)[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const fake: FakeVendor = {
    origin: '',
    received: [],
    problems: [],
    aborted: 0,
    reply: (...replies) => queue.push(...replies),
    clearReplies: () => queue.splice(0),
    nextRequest: () => new Promise((resolve) => requestWaiters.push(resolve)),
    nextAbort: () => new Promise((resolve) => abortWaiters.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        fake.problems.push(`body is not JSON: ${text.slice(0, 80)}`);
      }
      const url = req.url ?? '';
      const received: Received = {
        method: req.method ?? '',
        path: url,
        headers: req.headers,
        body,
        model: undefined,
        key: undefined,
      };
      const problems = check(wire, apiKey, received);
      fake.received.push(received);
      fake.problems.push(...problems);
      for (const w of requestWaiters.splice(0)) w(received);

      res.on('close', () => {
        if (!res.writableFinished) {
          fake.aborted++;
          for (const w of abortWaiters.splice(0)) w();
        }
      });
      if (problems.length > 0) {
        send(res, { status: 418, body: { error: { message: `fake vendor: ${problems.join('; ')}` } } });
        return;
      }
      const next = queue.length > 1 ? queue.shift() : queue[0];
      if (next === undefined) {
        fake.problems.push(`no reply queued for ${received.method} ${received.path}`);
        send(res, { status: 500, body: { error: { message: 'fake vendor: no reply queued' } } });
        return;
      }
      const reply = typeof next === 'function' ? next(received) : next;
      const answer = () => {
        if (!reply.delayMs) {
          if (!res.destroyed) send(res, reply);
          return;
        }
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!res.destroyed) send(res, reply);
        }, reply.delayMs);
        timers.add(timer);
      };
      if (reply.until === undefined) answer();
      else void reply.until.then(answer);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}

function send(res: ServerResponse, reply: Reply): void {
  const payload = reply.raw ?? JSON.stringify(reply.body ?? {});
  res.writeHead(reply.status ?? 200, {
    'content-type': reply.raw === undefined ? 'application/json' : 'text/html',
    ...reply.headers,
  });
  res.end(payload);
}

const header = (h: IncomingHttpHeaders, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The protocol checks; fills in `model` and `key` on the way. */
function check(wire: WireKind, apiKey: string, r: Received): string[] {
  const problems: string[] = [];
  const expect = (cond: unknown, what: string): void => {
    if (!cond) problems.push(what);
  };
  const b = r.body;

  if (r.method === 'GET') {
    expect(r.path === '/v1/models', `GET ${r.path}: only /v1/models is served`);
    r.key = header(r.headers, 'authorization')?.replace(/^Bearer /, '');
    expect(r.key === apiKey, 'models: Authorization is not "Bearer <key>"');
    return problems;
  }
  expect(r.method === 'POST', `method ${r.method}`);
  expect(/^application\/json/.test(header(r.headers, 'content-type') ?? ''), 'content-type is not application/json');
  expect(typeof b === 'object' && b !== null, 'body is not a JSON object');
  if (typeof b !== 'object' || b === null) return problems;

  switch (wire) {
    case 'openai': {
      expect(r.path === '/v1/chat/completions', `path ${r.path} is not /v1/chat/completions`);
      r.key = header(r.headers, 'authorization')?.replace(/^Bearer /, '');
      expect(header(r.headers, 'authorization') === `Bearer ${apiKey}`, 'Authorization is not "Bearer <key>"');
      r.model = b.model;
      expect(typeof b.model === 'string' && b.model !== '', 'model missing');
      expect(
        Array.isArray(b.messages) && b.messages[0]?.role === 'system' && b.messages.at(-1)?.role === 'user',
        'messages are not [system, …, user]',
      );
      expect(
        b.max_tokens === undefined || b.max_completion_tokens === undefined,
        'both max_tokens and max_completion_tokens',
      );
      expect(typeof (b.max_tokens ?? b.max_completion_tokens) === 'number', 'no token limit');
      expect(b.n === undefined && b.logprobs === undefined && b.logit_bias === undefined, 'n/logprobs/logit_bias sent');
      const rf = b.response_format;
      if (rf?.type === 'json_object') {
        expect(
          b.messages.some((m: { content: string }) => /json/i.test(m.content)),
          'json_object mode but no message says JSON',
        );
      } else if (rf?.type === 'json_schema') {
        expect(/^[a-zA-Z0-9_-]{1,64}$/.test(rf.json_schema?.name ?? ''), 'json_schema.name is not [a-zA-Z0-9_-]{1,64}');
        expect(rf.json_schema?.schema?.type === 'object', 'json_schema.schema is not an object schema');
        if (rf.json_schema?.strict) problems.push(...strictProblems(rf.json_schema.schema, 'schema'));
      } else {
        problems.push('response_format is neither json_object nor json_schema');
      }
      break;
    }
    case 'anthropic': {
      expect(r.path === '/v1/messages', `path ${r.path} is not /v1/messages`);
      r.key = header(r.headers, 'x-api-key');
      expect(r.key === apiKey, 'x-api-key is not the key');
      expect(header(r.headers, 'anthropic-version') === '2023-06-01', 'anthropic-version is not 2023-06-01');
      expect(header(r.headers, 'authorization') === undefined, 'Authorization header sent to Anthropic');
      r.model = b.model;
      expect(typeof b.max_tokens === 'number', 'max_tokens (required) missing');
      expect(
        Array.isArray(b.messages) &&
          b.messages.every((m: { role: string }) => m.role === 'user' || m.role === 'assistant'),
        'messages roles must be user/assistant',
      );
      expect(b.messages?.at(-1)?.role === 'user', 'assistant prefill sent');
      expect(b.temperature === undefined || (b.temperature >= 0 && b.temperature <= 1), 'temperature outside 0–1');
      const tool = b.tools?.[0];
      expect(
        tool && typeof tool.name === 'string' && tool.input_schema?.type === 'object',
        'tools[0] {name, input_schema} missing',
      );
      expect(
        b.tool_choice?.type === 'tool' && b.tool_choice?.name === tool?.name,
        'tool_choice does not force tools[0]',
      );
      break;
    }
    case 'gemini': {
      const m = /^\/v1beta\/models\/([^/:?]+):generateContent$/.exec(r.path);
      expect(m, `path ${r.path} is not /v1beta/models/{model}:generateContent`);
      expect(!/[?&]key=/.test(r.path), 'API key in the URL');
      r.model = m ? decodeURIComponent(m[1]) : undefined;
      r.key = header(r.headers, 'x-goog-api-key');
      expect(r.key === apiKey, 'x-goog-api-key is not the key');
      expect(Array.isArray(b.contents) && b.contents[0]?.parts?.[0]?.text, 'contents[0].parts[0].text missing');
      expect(typeof b.systemInstruction?.parts?.[0]?.text === 'string', 'systemInstruction missing');
      const gc = b.generationConfig ?? {};
      expect(gc.responseMimeType === 'application/json', 'responseMimeType is not application/json');
      expect(
        (gc.responseSchema === undefined) !== (gc.responseJsonSchema === undefined),
        'exactly one of responseSchema/responseJsonSchema',
      );
      break;
    }
  }
  return problems;
}

/** OpenAI strict mode: every object lists all its properties in `required` and sets additionalProperties false. */
function strictProblems(
  schema: {
    type?: unknown;
    properties?: Record<string, unknown>;
    required?: string[];
    additionalProperties?: unknown;
    items?: unknown;
  },
  at: string,
): string[] {
  const types = ([] as unknown[]).concat(schema.type);
  const out: string[] = [];
  if (types.includes('object')) {
    const keys = Object.keys(schema.properties ?? {});
    if (schema.additionalProperties !== false) out.push(`${at}: additionalProperties is not false`);
    if (JSON.stringify([...(schema.required ?? [])].sort()) !== JSON.stringify([...keys].sort()))
      out.push(`${at}: required does not list every property`);
    for (const k of keys) out.push(...strictProblems(schema.properties![k] as never, `${at}.${k}`));
  }
  if (types.includes('array') && schema.items) out.push(...strictProblems(schema.items as never, `${at}[]`));
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Vendor bodies (src/ai/README.md, *Vendor wire facts* and *Error signals*).

export const success = {
  openai: (content: string | null, extra: Record<string, unknown> = {}): Reply => ({
    body: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_760_000_000,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null, ...extra }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 900, completion_tokens: 120, total_tokens: 1020 },
    },
  }),
  anthropicTool: (input: unknown): Reply => ({
    body: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-4-5',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'qr_design', input }],
      stop_reason: 'tool_use',
      usage: { input_tokens: 900, output_tokens: 120 },
    },
  }),
  anthropicText: (text: string): Reply => ({
    body: {
      id: 'msg_2',
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-4-5',
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 900, output_tokens: 120 },
    },
  }),
  gemini: (text: string, thought?: string): Reply => ({
    body: {
      candidates: [
        {
          content: { role: 'model', parts: [...(thought ? [{ text: thought, thought: true }] : []), { text }] },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 900, candidatesTokenCount: 120, totalTokenCount: 1020 },
      modelVersion: 'gemini-2.5-flash',
    },
  }),
};

/** How OpenAI (and vendors copying it) echo a rejected key: its head and tail around stars. */
export const echoKey = (key: string): string => `${key.slice(0, 8)}${'*'.repeat(12)}${key.slice(-4)}`;

export interface ErrorSet {
  invalidKey: (key: string) => Reply;
  quota?: Reply;
  rateLimit: Reply;
  overloaded: Reply;
  modelMissing: Reply;
}

const oa = (
  status: number,
  message: string,
  type: string,
  code: string | null,
  headers?: Record<string, string>,
): Reply => ({
  status,
  headers,
  body: { error: { message, type, param: null, code } },
});
const ant = (status: number, type: string, message: string, headers?: Record<string, string>): Reply => ({
  status,
  headers,
  body: { type: 'error', error: { type, message }, request_id: 'req_011CTest' },
});
const goo = (code: number, status: string, message: string, details: unknown[] = []): Reply => ({
  status: code,
  body: { error: { code, message, status, details } },
});

export const ERRORS: Record<Exclude<ProviderId, 'local'>, ErrorSet> = {
  openai: {
    invalidKey: (key) =>
      oa(
        401,
        `Incorrect API key provided: ${echoKey(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        'invalid_request_error',
        'invalid_api_key',
      ),
    quota: oa(
      429,
      'You exceeded your current quota, please check your plan and billing details.',
      'insufficient_quota',
      'insufficient_quota',
    ),
    rateLimit: oa(
      429,
      'Rate limit reached for gpt-4.1-mini on requests per min (RPM): Limit 3. Please try again in 7s.',
      'requests',
      'rate_limit_exceeded',
      { 'retry-after': '7' },
    ),
    overloaded: oa(503, 'The engine is currently overloaded, please try again later.', 'server_error', null),
    modelMissing: oa(
      404,
      'The model `gpt-9` does not exist or you do not have access to it.',
      'invalid_request_error',
      'model_not_found',
    ),
  },
  anthropic: {
    invalidKey: () => ant(401, 'authentication_error', 'invalid x-api-key'),
    quota: ant(
      400,
      'invalid_request_error',
      'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
    ),
    rateLimit: ant(
      429,
      'rate_limit_error',
      'This request would exceed the rate limit for your organization of 50 requests per minute.',
      { 'retry-after': '12' },
    ),
    overloaded: ant(529, 'overloaded_error', 'Overloaded'),
    modelMissing: ant(404, 'not_found_error', 'model: claude-9'),
  },
  google: {
    invalidKey: () =>
      goo(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
      ]),
    quota: goo(
      402,
      'RESOURCE_EXHAUSTED',
      'Your prepayment credits are depleted. Please go to AI Studio to add credits.',
    ),
    rateLimit: goo(
      429,
      'RESOURCE_EXHAUSTED',
      'You exceeded your current quota, please check your plan and billing details.',
      [
        {
          '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
          violations: [{ quotaMetric: 'generate_content_free_tier_requests' }],
        },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '37s' },
      ],
    ),
    overloaded: goo(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'),
    modelMissing: goo(
      404,
      'NOT_FOUND',
      'models/gemini-9 is not found for API version v1beta, or is not supported for generateContent.',
    ),
  },
  mistral: {
    invalidKey: () => ({ status: 401, body: { message: 'Unauthorized', request_id: 'abc' } }),
    quota: { status: 402, body: { detail: 'Payment Required' } },
    rateLimit: { status: 429, body: { message: 'Requests rate limit exceeded' } },
    overloaded: { status: 503, body: { object: 'error', message: 'Service unavailable', type: 'service_unavailable' } },
    modelMissing: {
      status: 400,
      body: { object: 'error', message: 'Invalid model: mistral-9', type: 'invalid_model', param: null, code: '1500' },
    },
  },
  deepseek: {
    invalidKey: (key) =>
      oa(
        401,
        `Authentication Fails, Your api key: ****${key.slice(-4)} is invalid`,
        'authentication_error',
        'invalid_request_error',
      ),
    quota: oa(402, 'Insufficient Balance', 'unknown_error', 'invalid_request_error'),
    rateLimit: oa(429, 'Rate Limit Reached', 'rate_limit_error', 'invalid_request_error'),
    overloaded: oa(
      503,
      'Server overloaded, please try again later',
      'service_unavailable_error',
      'invalid_request_error',
    ),
    modelMissing: oa(400, 'Model Not Exist', 'invalid_request_error', 'invalid_request_error'),
  },
  groq: {
    invalidKey: () => oa(401, 'Invalid API Key', 'invalid_request_error', 'invalid_api_key'),
    rateLimit: oa(
      429,
      'Rate limit reached for model `openai/gpt-oss-120b` on tokens per minute (TPM). Please try again in 2s.',
      'tokens',
      'rate_limit_exceeded',
      { 'retry-after': '2' },
    ),
    overloaded: oa(
      498,
      'Flex tier capacity exceeded. This is a known issue; retry later.',
      'capacity_exceeded',
      'capacity_exceeded',
    ),
    modelMissing: oa(
      404,
      'The model `llama-9` does not exist or you do not have access to it.',
      'invalid_request_error',
      'model_not_found',
    ),
  },
  xai: {
    invalidKey: (key) => ({
      status: 400,
      body: {
        code: 'Client specified an invalid argument',
        error: `Incorrect API key provided: ${key.slice(0, 2)}***${key.slice(-4)}. You can obtain an API key from https://console.x.ai.`,
      },
    }),
    quota: {
      status: 429,
      body: {
        code: 'Some resource has been exhausted',
        error:
          'Your team has either used all available credits or reached its monthly spending limit. To continue making API requests, please purchase more credits or raise your spending limit.',
      },
    },
    rateLimit: {
      status: 429,
      body: {
        code: 'Some resource has been exhausted',
        error: 'Too many requests for this team; rate limit exceeded.',
      },
    },
    overloaded: {
      status: 503,
      body: { code: 'The service is currently unavailable', error: 'The model is at capacity; try again shortly.' },
    },
    modelMissing: {
      status: 404,
      body: {
        code: 'Some requested entity was not found',
        error: 'The model grok-9 does not exist or your team does not have access to it.',
      },
    },
  },
  openrouter: {
    invalidKey: () => ({ status: 401, body: { error: { code: 401, message: 'No auth credentials found' } } }),
    quota: {
      status: 402,
      body: {
        error: { code: 402, message: 'Insufficient credits. Add more using https://openrouter.ai/settings/credits' },
      },
    },
    rateLimit: {
      status: 429,
      headers: { 'retry-after': '5' },
      body: { error: { code: 429, message: 'Rate limit exceeded: free-models-per-min.' } },
    },
    overloaded: {
      status: 503,
      body: { error: { code: 503, message: 'No available provider for the requested model' } },
    },
    modelMissing: { status: 400, body: { error: { code: 400, message: 'openai/gpt-9 is not a valid model ID' } } },
  },
  together: {
    invalidKey: () =>
      oa(
        401,
        'Invalid API key provided. You can find your API key at https://api.together.xyz/settings/api-keys.',
        'invalid_request_error',
        'invalid_api_key',
      ),
    quota: oa(
      402,
      'Credit limit exceeded: your spending limit has been reached.',
      'invalid_request_error',
      'credit_limit',
    ),
    rateLimit: oa(429, 'You are being rate limited. Please retry later.', 'rate_limit', 'rate_limit_exceeded'),
    overloaded: oa(503, 'The server is overloaded or not ready yet.', 'server_error', null),
    modelMissing: oa(
      404,
      'Unable to access model meta-llama/Llama-9. Please visit https://api.together.ai/models.',
      'invalid_request_error',
      'model_not_found',
    ),
  },
};
