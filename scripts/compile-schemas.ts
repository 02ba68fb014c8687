/**
 * Build step: compiles every request schema with AJV into standalone ESM validator code, so the server
 * never compiles a schema at request time (or at all): the engine's request bodies, the site's forms and the admin commands' bodies.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { AJV_OPTIONS } from '../src/schema/ajv-options.js';
import { ADMIN_FORMS } from '../src/admin/forms.js';
import { BUSINESS_SCHEMAS } from '../src/schema/business-requests.js';
import { SCHEMAS } from '../src/schema/registry.js';
import { SITE_FORMS } from '../src/site/forms.js';

/** Writes `table`'s validators to `module` (a path under src/ of the build). */
function compile(table: Record<string, unknown>, module: string): void {
  const ajv = new Ajv.default({ ...AJV_OPTIONS, code: { source: true, esm: true } });
  const refs: Record<string, string> = {};
  for (const [name, schema] of Object.entries(table)) {
    ajv.addSchema(schema as object, name);
    refs[name] = name;
  }
  const out = fileURLToPath(new URL(`../src/${module}`, import.meta.url));
  // One named export per schema, plus a table of them all for lookup by name.
  const lookup = `export const validators = { ${Object.keys(refs).join(', ')} };\n`;
  // AJV's ESM output still require()s its small runtime helpers (ucs2length); give the module a require.
  const prelude = "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n";
  writeFileSync(out, `${prelude + standaloneCode.default(ajv, refs)}\n${lookup}`);
  console.log(`compiled ${Object.keys(refs).length} schemas → ${out}`);
}

compile({ ...SCHEMAS, ...BUSINESS_SCHEMAS }, 'schema/compiled.js');
compile(SITE_FORMS, 'site/compiled-forms.js');
compile(ADMIN_FORMS, 'admin/compiled-forms.js');
