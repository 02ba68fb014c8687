import { loadCatalogue, type Catalogue } from './check.js';
import stored from './catalogue.json' with { type: 'json' };

/**
 * The shipped catalogue (src/templates/catalogue.json, written by scripts/generate-catalogue.ts), loaded
 * and checked once, when the service starts: a bad template stops the start, naming itself.
 */
export const CATALOGUE: Catalogue = loadCatalogue(stored);
