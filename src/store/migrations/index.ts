import { sql as accounts } from './001-accounts.js';
import { sql as people } from './005-people.js';

export interface Migration {
  /** Applied in this order, each once; never renumber or edit one that has shipped. */
  version: number;
  name: string;
  sql: string;
}

/**
 * TypeScript modules rather than .sql files, so tsc ships them in dist/ with no copy step. Versions are
 * unique and increasing, not necessarily consecutive: work developed side by side takes its own numbers.
 */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'accounts', sql: accounts },
  { version: 5, name: 'people', sql: people },
];
