import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Every web/<page>.html is a page; the site serves dist/web/<page>.html at /<page> (index.html at /). */
const pages = readdirSync(here('.')).filter((f) => f.endsWith('.html'));

/**
 * The site's pages, their scripts split into shared content-hashed chunks under assets/, written to
 * dist/web for the site to serve (src/site/pages.ts). Nothing is fetched from another host at run time.
 */
export default defineConfig({
  root: here('.'),
  base: '/',
  plugins: [preact({ prefreshEnabled: false, devToolsEnabled: false })],
  build: {
    outDir: here('../dist/web'),
    emptyOutDir: true,
    // Every browser the site supports has modulepreload; the polyfill would be the one inline script.
    modulePreload: { polyfill: false },
    // Swagger UI (1.5 MB, 430 kB gzipped) is the docs page's alone; every other page stays small.
    chunkSizeWarningLimit: 1600,
    rolldownOptions: {
      input: Object.fromEntries(pages.map((f) => [f.slice(0, -'.html'.length), here(f)])),
      checks: { pluginTimings: false },
    },
  },
});
