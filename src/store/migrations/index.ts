import { sql as accounts } from './001-accounts.js';
import { sql as marketplace } from './002-marketplace.js';
import { sql as orders } from './003-orders.js';
import { sql as receipts } from './004-receipts.js';
import { sql as people } from './005-people.js';
import { sql as callQuota } from './006-call-quota.js';
import { sql as lifecycle } from './007-lifecycle.js';
import { sql as batch } from './008-batch.js';
import { sql as designsInvoices } from './009-designs-invoices.js';

export interface Migration {
  /** Applied in this order, each once; never renumber or edit one that has shipped. */
  version: number;
  name: string;
  sql: string;
}

/**
 * TypeScript modules rather than .sql files, so tsc ships them in dist/ with no copy step. Every store gets
 * every table: the site's PGlite holds empty marketplace tables, the engine's empty account tables, and
 * one PostgreSQL database serves both roles.
 */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'accounts', sql: accounts },
  { version: 2, name: 'marketplace', sql: marketplace },
  { version: 3, name: 'orders', sql: orders },
  { version: 4, name: 'receipts', sql: receipts },
  { version: 5, name: 'people', sql: people },
  { version: 6, name: 'call-quota', sql: callQuota },
  { version: 7, name: 'lifecycle', sql: lifecycle },
  { version: 8, name: 'batch', sql: batch },
  { version: 9, name: 'designs-invoices', sql: designsInvoices },
];
