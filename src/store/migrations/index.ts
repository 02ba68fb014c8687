import { sql as accounts } from './001-accounts.js';

export interface Migration {
  /** Applied in this order, each once; never renumber or edit one that has shipped. */
  version: number;
  name: string;
  sql: string;
}

/**
 * TypeScript modules rather than .sql files, so tsc ships them in dist/ with no copy step. Orders and
 * checkout, and users with sessions, come as the next versions.
 */
export const MIGRATIONS: readonly Migration[] = [{ version: 1, name: 'accounts', sql: accounts }];
