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
import { type Config, loadConfig } from '../src/config.js';
import { isApiError } from '../src/errors.js';
// The modules themselves rather than the folders' index: a command that goes through a server loads
// neither the drivers nor Redis.
import { type UsageReport, usageCsv, usageRows } from '../src/marketplace/report.js';
import { USAGE_ADMIN_PATH } from '../src/marketplace/usage-command.js';
import { type AdminApiFiles, ENGINE_ADMIN, readAdminToken, SITE_ADMIN } from '../src/admin/access.js';
import { type AdminCommand, adminPath, runAdminCommand } from '../src/admin/routes.js';
import { DataDirBusyError, type LockHolder, readDataDirLock } from '../src/store/data-dir-lock.js';
import { type Command, type Json, type Output, parseCommandLine, usage } from './admin-args.js';

/** How long to wait for a site that holds the directory but has not yet announced its admin API. */
const SITE_STARTING_WAIT_MS = 10_000;

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
