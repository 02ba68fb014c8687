/**
 * The admin CLI's command line (scripts/admin.ts): its commands, their flags, and the body each command
 * is sent with (a flag's field is its camelCase; a number where one is expected and given).
 */
import { parseArgs } from 'node:util';
import { ADMIN_COMMANDS, type AdminCommand } from '../src/admin/routes.js';

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
export type Command = AdminCommand | (typeof ENGINE_COMMANDS)[number];
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

export type Json = Record<string, unknown>;

export function usage(message: string): never {
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

export type Output = 'human' | 'json' | 'csv';

export function parseCommandLine(): { command: Command; body: Json; output: Output } {
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
