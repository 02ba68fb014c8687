/**
 * Contact sheet of the template catalogue: starts the service on a free loopback port, fetches every
 * template's preview over HTTP (the real route, pool and pipeline), and composes one PNG, a row per
 * category with each template's id under its tile, at docs/templates-sheet.png.
 *
 *   npm run templates:sheet
 */
import { fetchPng, inParallel, withService, writeSheet, type Section } from './contact-sheet.js';

interface Summary {
  id: string;
  category: string;
}

await withService(async (base) => {
  const { templates } = (await (await fetch(`${base}/api/qr/templates`)).json()) as { templates: Summary[] };
  const pngs = await inParallel(
    templates,
    async (t) => (await fetchPng(`template ${t.id}`, `${base}/api/qr/templates/${t.id}/preview`)).png,
  );
  const rows = new Map<string, Section>();
  templates.forEach((t, i) => {
    const row = rows.get(t.category) ?? { title: t.category, tiles: [] };
    row.tiles.push({ label: t.id, png: pngs[i]! });
    rows.set(t.category, row);
  });
  const sections = [...rows.values()].map((s) => ({ ...s, title: `${s.title} (${s.tiles.length})` }));
  await writeSheet('docs/templates-sheet.png', sections, {
    tile: 200,
    columns: Math.max(...sections.map((s) => s.tiles.length)),
  });
});
