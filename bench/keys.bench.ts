/**
 * `npm run bench:keys`: what checking an API key at the edge costs the site, on the embedded PGlite store
 * (in memory) and, with QR_TEST_DATABASE_URL reachable, on the PostgreSQL server: a malformed key (refused
 * by its checksum, no lookup), a valid key from the 1 s verification cache, and a valid key looked up every
 * time (the cache's TTL set to 0: the HMAC and one indexed query).
 */
import { Bench } from 'tinybench';
import { createAccounts } from '../src/accounts/index.js';
import type { Accounts } from '../src/accounts/types.js';
import { type Db, MEMORY_DATA_DIR, openStore } from '../src/store/index.js';

const PEPPER = Buffer.alloc(32, 7);
const DATABASE_URL = process.env.QR_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = `bench_keys_${process.pid}`;

async function keyOf(accounts: Accounts): Promise<string> {
  const customer = await accounts.createCustomer(`bench-${Date.now()}@example.com`);
  return (await accounts.issueKey(customer.id)).key;
}

async function measure(name: string, db: Db): Promise<void> {
  const cached = createAccounts(db, { pepper: PEPPER });
  const uncached = createAccounts(db, { pepper: PEPPER, keyCacheTtlMs: 0 });
  const key = await keyOf(cached);
  const malformed = `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`;
  const bench = new Bench({ time: 1000, warmupTime: 200 });
  bench
    .add(`${name}: malformed key (checksum, no lookup)`, async () => {
      if ((await cached.verifyKey(malformed)) !== null) throw new Error('a malformed key verified');
    })
    .add(`${name}: valid key, cached`, async () => {
      if ((await cached.verifyKey(key)) === null) throw new Error('the key did not verify');
    })
    .add(`${name}: valid key, looked up`, async () => {
      if ((await uncached.verifyKey(key)) === null) throw new Error('the key did not verify');
    });
  await bench.run();
  console.table(
    bench.tasks.map((t) => ({
      task: t.name,
      'median µs': Math.round((t.result?.latency.p50 ?? Number.NaN) * 1000),
      'p99 µs': Math.round((t.result?.latency.p99 ?? Number.NaN) * 1000),
      'ops/s': Math.round(t.result?.throughput.mean ?? 0),
    })),
  );
  await cached.close();
  await uncached.close();
}

const pglite = await openStore({ databaseUrl: undefined, dataDir: MEMORY_DATA_DIR, schema: undefined });
await measure('PGlite', pglite);
await pglite.close();

const postgres = await openStore({ databaseUrl: DATABASE_URL, dataDir: MEMORY_DATA_DIR, schema: SCHEMA });
try {
  await measure('PostgreSQL', postgres);
} finally {
  await postgres.query(`DROP SCHEMA ${SCHEMA} CASCADE`);
  await postgres.close();
}
