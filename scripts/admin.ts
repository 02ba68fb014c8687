/**
 * The operator's command line for the account store and the marketplace usage:
 *
 *   npm run -s admin -- <command> [options] [--json]
 *
 * It works on the store the configuration names (DATABASE_URL, else a PGlite directory in QR_DATA_DIR:
 * `pglite`, the site's accounts, or `marketplace-pglite`, the engine's metering, for `usage`). A PGlite
 * directory has one writer: while a server (the site, or the engine) holds it, the command goes to that
 * server's admin API on loopback with the token it keeps in the data directory; otherwise the CLI opens the
 * store itself. With DATABASE_URL it always opens the store itself (PostgreSQL has many writers), and
 * revocations are broadcast over REDIS_URL like a site's.
 */
import { parseArgs } from 'node:util';
import { type Config, loadConfig } from '../src/config.js';
import { isApiError } from '../src/errors.js';
// The modules themselves rather than the folders' index: a command that goes through a server loads
// neither the drivers nor Redis.
import { type UsageReport, usageCsv, usageRows } from '../src/marketplace/report.js';
import { USAGE_ADMIN_PATH } from '../src/marketplace/usage-command.js';
import { type AdminApiFiles, ENGINE_ADMIN, readAdminToken, SITE_ADMIN } from '../src/admin/access.js';
import { ADMIN_COMMANDS, type AdminCommand, adminPath, runAdminCommand } from '../src/admin/routes.js';
import { DataDirBusyError, type LockHolder, readDataDirLock } from '../src/store/data-dir-lock.js';

const USAGE = `usage: npm run -s admin -- <command> [options] [--json]
  customer create --email <address>
  pack grant      --customer <id> --credits <n> [--purchased-at <ISO 8601>]
  pack refund     --id <pack id>
  key issue       --customer <id> [--name <label>]      prints the key, once
  key revoke      --id <key id>
  key list        --customer <id>
  credits         --customer <id>                        available, reserved and the latest ledger entries
  quickstart      [--email <address>] [--credits <n>]    a customer, a test pack and a key in one go
  usage           --month <YYYY-MM> [--csv]              marketplace calls, managed-AI designs and overage per user
--json prints exactly one JSON object (the result, or {success:false, error, code}); --csv the usage as CSV.
The store: DATABASE_URL, else the PGlite directories in QR_DATA_DIR (default ./data).`;

/** The commands of the engine's metering store; every other one is the site's (ADMIN_COMMANDS). */
const ENGINE_COMMANDS = ['usage'] as const;
type Command = AdminCommand | (typeof ENGINE_COMMANDS)[number];
const COMMANDS: readonly Command[] = [...ADMIN_COMMANDS, ...ENGINE_COMMANDS];

/** Each command's flags (as typed) and whether they are required; a flag's body field is its camelCase. */
const FLAGS: Record<Command, Record<string, 'required' | 'optional'>> = {
  'customer create': { email: 'required' },
  'pack grant': { customer: 'required', credits: 'required', 'purchased-at': 'optional' },
  'pack refund': { id: 'required' },
  'key issue': { customer: 'required', name: 'optional' },
  'key revoke': { id: 'required' },
  'key list': { customer: 'required' },
  credits: { customer: 'required' },
  quickstart: { email: 'optional', credits: 'optional' },
  usage: { month: 'required' },
};
const NUMERIC_FLAGS = new Set(['credits']);
/** How long to wait for a site that holds the directory but has not yet announced its admin API. */
const SITE_STARTING_WAIT_MS = 10_000;

type Json = Record<string, unknown>;

interface Failure {
  error: string;
  code?: string;
  field?: string;
}

class CommandFailed extends Error {
  constructor(readonly failure: Failure) {
    super(failure.error);
  }
}

function usage(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function readArgs() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        email: { type: 'string' },
        customer: { type: 'string' },
        credits: { type: 'string' },
        'purchased-at': { type: 'string' },
        id: { type: 'string' },
        name: { type: 'string' },
        month: { type: 'string' },
        json: { type: 'boolean' },
        csv: { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
  } catch (e) {
    return usage((e as Error).message);
  }
}

type Output = 'human' | 'json' | 'csv';

function parseCommandLine(): { command: Command; body: Json; output: Output } {
  const { values, positionals } = readArgs();
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const command = COMMANDS.find((c) => c === positionals.join(' '));
  if (command === undefined)
    return usage(positionals.length ? `Unknown command "${positionals.join(' ')}".` : 'No command.');
  const flags = FLAGS[command];
  const body: Json = {};
  if (values.csv && command !== 'usage') return usage(`${command} takes no --csv.`);
  if (values.csv && values.json) return usage('--csv and --json: one or the other.');
  for (const [flag, value] of Object.entries(values)) {
    if (flag === 'json' || flag === 'csv' || flag === 'help') continue;
    if (!(flag in flags)) return usage(`${command} takes no --${flag}.`);
    const field = flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    // A number when it is one; anything else goes as typed, for the command to refuse with its reason.
    body[field] = NUMERIC_FLAGS.has(flag) && /^\d{1,15}$/.test(String(value)) ? Number(value) : value;
  }
  for (const [flag, need] of Object.entries(flags))
    if (need === 'required' && values[flag as keyof typeof values] === undefined)
      return usage(`${command} needs --${flag}.`);
  return { command, body, output: values.json ? 'json' : values.csv ? 'csv' : 'human' };
}

/** Where a command runs: the site's accounts or the engine's metering, each with its server's admin API. */
interface Target {
  files: AdminApiFiles;
  /** The server holding the directory, for messages. */
  server: 'site' | 'engine';
  path: string;
  inThisProcess(config: Config, body: Json): Promise<Json>;
}

function targetOf(command: Command): Target {
  if (command === 'usage')
    return { files: ENGINE_ADMIN, server: 'engine', path: USAGE_ADMIN_PATH, inThisProcess: usageInThisProcess };
  return {
    files: SITE_ADMIN,
    server: 'site',
    path: adminPath(command),
    inThisProcess: (config, body) => accountsInThisProcess(config, command, body),
  };
}

type Server = LockHolder & { adminPort: number };

/** The server holding the target's directory, once it has announced its admin port; null when none holds it. */
async function runningServer(dataDir: string, target: Target): Promise<Server | null> {
  const deadline = Date.now() + SITE_STARTING_WAIT_MS;
  for (;;) {
    const holder = readDataDirLock(dataDir, target.files.database);
    if (holder === null || holder.role !== target.server) return null;
    if (holder.adminPort !== undefined) return { ...holder, adminPort: holder.adminPort };
    if (Date.now() > deadline)
      throw new CommandFailed({
        error: `A ${target.server} (pid ${holder.pid}) holds ${dataDir} but has not opened its admin API; retry once it has started.`,
      });
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function throughServer(dataDir: string, server: Server, target: Target, body: Json): Promise<Json> {
  const url = `http://127.0.0.1:${server.adminPort}${target.path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${readAdminToken(dataDir, target.files)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
  } catch (e) {
    throw new CommandFailed({
      error: `The ${target.server} (pid ${server.pid}) holds ${dataDir}, but its admin API at ${url} did not answer (${(e as Error).cause ?? (e as Error).message}).`,
    });
  }
  const answer = (await response.json()) as Json;
  if (!response.ok) throw new CommandFailed(answer as unknown as Failure);
  return answer;
}

async function accountsInThisProcess(config: Config, command: AdminCommand, body: Json): Promise<Json> {
  // Loaded only here: a command that goes through the site needs neither the drivers nor Redis.
  const { createAccounts, resolvePepper } = await import('../src/accounts/index.js');
  const { openStore } = await import('../src/store/open.js');
  const { databaseUrl, dataDir, schema, keyPepper } = config.store;
  const pepper = resolvePepper({ pepper: keyPepper, dataDir, databaseUrl });
  const db = await openStore({ databaseUrl, dataDir, schema, role: 'cli', poolSize: 2 });
  const accounts = createAccounts(db, { pepper, redisUrl: config.redisUrl, log: (m) => console.error(m) });
  try {
    return await runAdminCommand(accounts, command, body);
  } finally {
    await accounts.close();
    await db.close();
  }
}

async function usageInThisProcess(config: Config, body: Json): Promise<Json> {
  const { openStore } = await import('../src/store/open.js');
  const { MARKETPLACE_PGLITE } = await import('../src/store/data-dir-lock.js');
  const { PLANS, usageCommand, usageReport } = await import('../src/marketplace/index.js');
  const { databaseUrl, dataDir, schema } = config.store;
  const db = await openStore({ databaseUrl, dataDir, schema, pglite: MARKETPLACE_PGLITE, role: 'cli', poolSize: 2 });
  try {
    return { ...(await usageCommand(body, (month) => usageReport(db, month, PLANS))) };
  } finally {
    await db.close();
  }
}

async function execute(config: Config, command: Command, body: Json): Promise<Json> {
  const { databaseUrl, dataDir } = config.store;
  const target = targetOf(command);
  if (databaseUrl !== undefined) return target.inThisProcess(config, body);
  const server = await runningServer(dataDir, target);
  if (server !== null) return throughServer(dataDir, server, target, body);
  try {
    return await target.inThisProcess(config, body);
  } catch (e) {
    // A server started between our look at the lock and our opening the directory.
    if (e instanceof DataDirBusyError && e.holder?.role === target.server) {
      const started = await runningServer(dataDir, target);
      if (started !== null) return throughServer(dataDir, started, target, body);
    }
    throw e;
  }
}

const show = (v: unknown): string => (v instanceof Date ? v.toISOString() : v === null ? '-' : String(v));

function human(result: Json): string {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(result)) {
    if (!Array.isArray(value)) {
      lines.push(`${name.padEnd(12)} ${show(value)}`);
      continue;
    }
    lines.push(`${name}: ${value.length === 0 ? '(none)' : ''}`);
    for (const item of value as Json[])
      lines.push(
        `  ${Object.entries(item)
          .map(([k, v]) => `${k}=${show(v)}`)
          .join('  ')}`,
      );
  }
  if (typeof result.key === 'string') lines.push('', 'The key is shown only now: store it somewhere safe.');
  return lines.join('\n');
}

function failure(e: unknown): Failure {
  if (e instanceof CommandFailed) return e.failure;
  if (isApiError(e)) return e.toBody();
  return { error: (e as Error).message };
}

/** A usage export as the output asks: CSV as is, JSON whole, or one line per user. */
function usageOutput(result: Json, output: Output): string {
  const report = result as unknown as UsageReport;
  if (output === 'csv') return usageCsv(report);
  if (output === 'json') return JSON.stringify(result);
  return human({ month: report.month, users: usageRows(report) });
}

const { command, body, output } = parseCommandLine();
const json = output === 'json';
let config: Config;
try {
  config = loadConfig(process.env);
} catch (e) {
  usage((e as Error).message);
}
try {
  const result = await execute(config, command, body);
  if (command !== 'usage') console.log(json ? JSON.stringify(result) : human(result));
  else if (output === 'csv') process.stdout.write(usageOutput(result, output));
  else console.log(usageOutput(result, output));
} catch (e) {
  const f = failure(e);
  if (json) console.log(JSON.stringify({ success: false, ...f }));
  else console.error(`${f.code ? `${f.code}: ` : ''}${f.error}${f.field ? ` (${f.field})` : ''}`);
  process.exitCode = 1;
}
