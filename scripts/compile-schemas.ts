/**
 * Build step: compiles every request schema with AJV into standalone ESM validator code, so the server
 * never compiles a schema at request time (or at all).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { SCHEMAS } from '../src/schema/registry.js';
import { AJV_OPTIONS } from '../src/schema/ajv-options.js';
import { BUSINESS_SCHEMAS } from '../src/schema/business-requests.js';

const ajv = new Ajv.default({ ...AJV_OPTIONS, code: { source: true, esm: true } });
const refs: Record<string, string> = {};
for (const [name, schema] of Object.entries({ ...SCHEMAS, ...BUSINESS_SCHEMAS })) {
  ajv.addSchema(schema, name);
  refs[name] = name;
}
const out = fileURLToPath(new URL('../src/schema/compiled.js', import.meta.url));
// One named export per schema, plus a table of them all for lookup by name.
const table = `export const validators = { ${Object.keys(refs).join(', ')} };\n`;
// AJV's ESM output still require()s its small runtime helpers (ucs2length); give the module a require.
const prelude = "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n";
writeFileSync(out, `${prelude + standaloneCode.default(ajv, refs)}\n${table}`);
console.log(`compiled ${Object.keys(refs).length} schemas → ${out}`);
