/**
 * One AI-designed QR code from the command line, through the real service:
 *
 *   npm run ai -- --provider <id> [--model <m>] --prompt "…" --content "…" [--style luxury] [--creativity 0.5]
 *                 [--format png] [--out file]
 *
 * The service starts in this process on a free loopback port, with the configuration of this environment
 * (so QR_LLM_<ID>_BASE_URL and the QR_AI_* limits apply), and gets one POST /api/qr/ai/generate: the same
 * validation, designer, cleaner and verified render as any client. The key is read from the environment,
 * never from the command line, where it would land in the shell history.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isProviderId, PROVIDER_IDS, type ProviderId } from '../src/ai/index.js';
import { loadConfig, type Config } from '../src/config.js';
import { startService } from '../src/server.js';

/** The variables each vendor's own SDK reads, so a key already exported for it works as is. */
const KEY_VARIABLES: Readonly<Record<ProviderId, readonly string[]>> = {
  openai: ['OPENAI_API_KEY'],
  anthropic: ['ANTHROPIC_API_KEY'],
  google: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  mistral: ['MISTRAL_API_KEY'],
  deepseek: ['DEEPSEEK_API_KEY'],
  groq: ['GROQ_API_KEY'],
  xai: ['XAI_API_KEY'],
  openrouter: ['OPENROUTER_API_KEY'],
  together: ['TOGETHER_API_KEY'],
  local: [],
};
/** Local servers (Ollama, LM Studio, llama.cpp without --api-key) accept any key. */
const LOCAL_PLACEHOLDER_KEY = 'local';

const USAGE = `usage: npm run ai -- --provider <id> [--model <model>] --prompt "<brief>" --content "<text or URL>"
                     [--style <preset>] [--creativity <0-1>] [--format png|jpg|webp|svg|pdf] [--out <file>]
providers: ${PROVIDER_IDS.join(', ')}
key: QR_LLM_API_KEY, or the provider's own variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, ...)`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

function keyFor(provider: ProviderId): string {
  const names = ['QR_LLM_API_KEY', ...KEY_VARIABLES[provider]];
  const found = names.map((n) => process.env[n]?.trim()).find((v) => v !== undefined && v !== '');
  if (found !== undefined) return found;
  if (provider === 'local') return LOCAL_PLACEHOLDER_KEY;
  return fail(`No key for ${provider}: set ${names.join(' or ')}.`);
}

function readArgs() {
  try {
    return parseArgs({
      options: {
        provider: { type: 'string' },
        model: { type: 'string' },
        prompt: { type: 'string' },
        content: { type: 'string' },
        style: { type: 'string' },
        creativity: { type: 'string' },
        format: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    return fail(`${(e as Error).message}\n${USAGE}`);
  }
}

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (e) {
    return fail((e as Error).message);
  }
}

const args = readArgs();
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!args.provider || !args.prompt || !args.content) fail(USAGE);
if (!isProviderId(args.provider)) fail(`Unknown provider "${args.provider}"; one of ${PROVIDER_IDS.join(', ')}.`);
const provider: ProviderId = args.provider;
const apiKey = keyFor(provider);
const config = readConfig();

// A private instance: loopback, any free port, no proxy secret, one worker is plenty for one render, its
// metering in memory (a running engine may hold the data directory's store).
const running = await startService(
  {
    ...config,
    host: '127.0.0.1',
    port: 0,
    proxySecret: undefined,
    workers: 1,
    store: { ...config.store, databaseUrl: undefined, dataDir: 'memory://' },
  },
  () => {},
);
try {
  const res = await fetch(`http://127.0.0.1:${running.port}/api/qr/ai/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      content: args.content,
      prompt: args.prompt,
      llmProvider: provider,
      llmApiKey: apiKey,
      llmModel: args.model,
      stylePreset: args.style,
      creativity: args.creativity === undefined ? undefined : Number(args.creativity),
      fileFormat: args.format,
    }),
  });
  const body = await res.json();
  if (!body.success) {
    console.error(`${body.code} (HTTP ${res.status})${body.field ? ` [${body.field}]` : ''}: ${body.error}`);
    process.exitCode = 1;
  } else {
    const out = args.out ?? `qr-ai.${body.format}`;
    writeFileSync(out, Buffer.from(body.qrBase64, 'base64'));
    console.log(
      `wrote ${out} (${body.sizeBytes} bytes, ${body.width}×${body.height}, QR version ${body.version} ECC ${body.eccLevel}, verified: ${body.verification.decodedAt})`,
    );
    console.log(`provider: ${body.llmProviderUsed}  model: ${body.llmModelUsed}`);
    console.log(`explanation: ${body.aiExplanation || '(none)'}`);
    for (const c of body.corrections) {
      const change =
        'to' in c ? `${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}` : `${JSON.stringify(c.from)} dropped`;
      console.log(`correction: ${c.field}: ${change} (${c.reason})`);
    }
    for (const w of body.warnings) console.log(`warning: ${w}`);
    console.log(`generatedConfig: ${JSON.stringify(body.generatedConfig)}`);
  }
} finally {
  await running.close();
}
