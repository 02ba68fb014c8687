/**
 * The consumer channel over real HTTP: the built engine and site (dist/) started in this process by
 * startRoles, as `npm start` starts them, from a configuration read by loadConfig from variables; the
 * account store on PGlite in memory or on the real PostgreSQL in a schema made for the run. Every answer
 * a suite reads through `call` is kept in `transcript`, for the checks that no key ever comes back.
 */
import type { Accounts, Clock, Pack } from '../../src/accounts/types.js';
import type { Config } from '../../src/config.js';
import type { RunningRoles } from '../../src/roles.js';
import { Agent } from 'undici';
import { baseUrlOf, type FakeVendor } from '../ai/fake-vendor.js';
import { type Answer, answerOf } from './answers.js';
import { type DriverName, openTestDatabase, TEST_DATABASE_URL } from './databases.js';

const dist = (file: string) => new URL(`../../dist/src/${file}`, import.meta.url).href;

/** The relay secret shared by the engines and sites of a suite (set explicitly so tests can sign too). */
export const INTERNAL_SECRET = 'consumer-e2e-relay-secret-0123456789abcdef0123456789';
/** QR_KEY_PEPPER for PostgreSQL, where the sites of a suite must hash keys alike. */
export const KEY_PEPPER = 'consumer-e2e-key-pepper-0123456789abcdefghijklmnopq';
/** The server's groq key, known to the fake vendor. */
export const GROQ_KEY = 'gsk_ConsumerE2eGroqKey5f4e3d2c1b0a9z8y';

export type Env = Record<string, string>;

/** The variables of one store, and how to drop what the run made in it. */
export interface ConsumerStore {
  driver: DriverName;
  env: Env;
  close(): Promise<void>;
}

/**
 * PGlite: in memory, one store per site (so two sites never share it). PostgreSQL: a schema made for the
 * run (the server must answer, or this throws saying so), shared by every site given this store.
 */
export async function consumerStore(driver: DriverName): Promise<ConsumerStore> {
  if (driver === 'pglite') return { driver, env: { QR_DATA_DIR: 'memory://' }, close: async () => {} };
  const t = await openTestDatabase('postgres');
  return {
    driver,
    env: {
      QR_DATA_DIR: 'memory://',
      DATABASE_URL: TEST_DATABASE_URL,
      QR_DATABASE_SCHEMA: t.schema!,
      QR_KEY_PEPPER: KEY_PEPPER,
    },
    close: () => t.close(),
  };
}

/** The variables pointing the server AI chain at a fake groq. */
export const groqEnv = (groq: FakeVendor): Env => ({
  QR_LLM_GROQ_BASE_URL: baseUrlOf(groq, 'openai'),
  QR_MANAGED_GROQ_API_KEY: GROQ_KEY,
});

/**
 * The configuration `env` gives, on ports chosen by the system, two render workers, the suite's relay
 * secret and checkout's test mode (QR_CHECKOUT_TEST_MODE=1, on loopback; `env` may set it to 0); `edit`
 * changes what has no variable (the site's output limit).
 */
export async function consumerConfig(env: Env, edit: (c: Config) => Config = (c) => c): Promise<Config> {
  const { loadConfig } = (await import(dist('config.js'))) as typeof import('../../src/config.js');
  return edit(
    loadConfig({
      PORT: '0',
      SITE_PORT: '0',
      QR_WORKERS: '2',
      QR_INTERNAL_SECRET: INTERNAL_SECRET,
      QR_CHECKOUT_TEST_MODE: '1',
      ...env,
    }),
  );
}

/** A clock that reads the system's, unless a test stops it at an instant. */
export function stoppableClock() {
  let stopped: Date | undefined;
  return {
    now: (): Date => stopped ?? new Date(),
    stopAt: (d: Date) => {
      stopped = d;
    },
    resume: () => {
      stopped = undefined;
    },
  };
}

export interface TestCustomer {
  id: string;
  key: string;
  keyId: string;
  /** Undefined when the customer has no pack. */
  pack: Pack | undefined;
}

export interface Consumer {
  config: Config;
  roles: RunningRoles;
  /** The site's origin, e.g. http://127.0.0.1:40123. */
  siteUrl: string;
  /** The engine's origin, when this process runs one. */
  engineUrl: string | undefined;
  accounts: Accounts;
  /** A new customer with one key and, unless `credits` is 0, an active pack of that many credits (default 10). */
  customer(credits?: number): Promise<TestCustomer>;
  close(): Promise<void>;
}

let customers = 0;

const loadRoles = async () => ((await import(dist('roles.js'))) as typeof import('../../src/roles.js')).startRoles;

/** An engine alone (QR_ROLE=engine) through the built startRoles; its origin and how to stop it. */
export async function startEngineRole(config: Config): Promise<{ url: string; close(): Promise<void> }> {
  const roles = await (await loadRoles())({ ...config, role: 'engine' }, () => {});
  return { url: `http://127.0.0.1:${roles.engine!.port}`, close: () => roles.close() };
}

/**
 * Starts what `config` asks for (QR_ROLE) through the built startRoles; the site is required. `log` gets
 * what the roles say at start.
 */
export async function startConsumer(
  config: Config,
  clock?: Clock,
  log: (message: string) => void = () => {},
): Promise<Consumer> {
  const startRoles = await loadRoles();
  const roles = await startRoles(config, log, clock === undefined ? {} : { accounts: { clock } });
  const site = roles.site;
  if (site === undefined) throw new Error(`QR_ROLE=${config.role} starts no site`);
  const { accounts } = site;
  return {
    config,
    roles,
    siteUrl: `http://127.0.0.1:${site.port}`,
    engineUrl: roles.engine && `http://127.0.0.1:${roles.engine.port}`,
    accounts,
    async customer(credits = 10) {
      const { id } = await accounts.createCustomer(`e2e-${process.pid}-${customers++}-${Date.now()}@example.com`);
      const issued = await accounts.issueKey(id);
      const pack = credits === 0 ? undefined : await accounts.grantPack({ customerId: id, credits });
      return { id, key: issued.key, keyId: issued.id, pack };
    },
    close: () => roles.close(),
  };
}

export interface CallOptions {
  /** Sent as X-API-Key. */
  key?: string;
  /** JSON-encoded unless a string; with a body the method defaults to POST and the type to JSON. */
  body?: unknown;
  method?: 'GET' | 'POST' | 'DELETE';
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * The client address to call from: any of 127.0.0.0/8 (Linux answers them all on loopback), so a suite
   * can be many clients; default the system's choice (127.0.0.1).
   */
  from?: string;
}

/** One connection pool per client address a suite calls from. */
const fromAddress = new Map<string, Agent>();
const agentFrom = (address: string): Agent => {
  let agent = fromAddress.get(address);
  if (agent === undefined) {
    agent = new Agent({ localAddress: address });
    fromAddress.set(address, agent);
  }
  return agent;
};

/** One request to `origin + target`, its answer read whole. */
export async function call(origin: string, target: string, o: CallOptions = {}): Promise<Answer> {
  const method = o.method ?? (o.body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = {
    ...(o.body !== undefined && { 'content-type': 'application/json' }),
    ...(o.key !== undefined && { 'x-api-key': o.key }),
    ...o.headers,
  };
  const body = o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
  const dispatcher = o.from === undefined ? undefined : agentFrom(o.from);
  return answerOf(
    await fetch(origin + target, {
      method,
      headers,
      body,
      signal: o.signal,
      ...(dispatcher && { dispatcher }),
    } as RequestInit),
  );
}

/** Headers as a plain object, without those named, nor X-Request-Id: each answer's own (one per request). */
export const headersWithout = (h: Headers, ...names: string[]): Record<string, string> =>
  Object.fromEntries([...h].filter(([k]) => k !== 'x-request-id' && !names.includes(k)));

/** The error envelope's status and code. */
export const refusal = (a: Answer) => ({ status: a.status, success: a.body?.success, code: a.body?.code });

/** Waits until `check` holds, trying every 20 ms for at most `ms`; returns how long it took. */
export async function eventually(check: () => Promise<boolean>, ms: number): Promise<number> {
  const start = performance.now();
  while (!(await check())) {
    if (performance.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return performance.now() - start;
}
