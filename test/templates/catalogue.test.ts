/**
 * The committed catalogue (src/templates/catalogue.json, the source of truth) and the start-up check of
 * the build (dist/), which validates with the precompiled schemas.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Template } from '../../src/templates/check.js';

const { loadCatalogue, sampleContent, REQUEST_FIELDS } = (await import(
  new URL('../../dist/src/templates/check.js', import.meta.url).href
)) as typeof import('../../src/templates/check.js');

const json = readFileSync(new URL('../../src/templates/catalogue.json', import.meta.url), 'utf8');
const templates = JSON.parse(json) as Template[];
const clone = (): Template[] => JSON.parse(json);

/** Sorted keys at every level, written here independently of the service's own canonical form. */
const canonical = (v: unknown): string =>
  v === null || typeof v !== 'object'
    ? JSON.stringify(v)
    : Array.isArray(v)
      ? `[${v.map(canonical).join(',')}]`
      : `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(',')}}`;

const duplicates = (keys: string[]) => keys.filter((k, i) => keys.indexOf(k) !== i);

describe('the catalogue', () => {
  it('has 118 templates with unique kebab-case ids', () => {
    expect(templates).toHaveLength(118);
    for (const t of templates) expect(t.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(duplicates(templates.map((t) => t.id))).toEqual([]);
  });

  it('spreads over at least 10 categories, each with several templates', () => {
    const counts = new Map<string, number>();
    for (const t of templates) counts.set(t.category, (counts.get(t.category) ?? 0) + 1);
    expect(counts.size).toBeGreaterThanOrEqual(10);
    for (const [category, n] of counts) expect(n, category).toBeGreaterThanOrEqual(5);
  });

  it('gives every template a name, tags and a design without content or output fields', () => {
    for (const t of templates) {
      expect(Object.keys(t).sort()).toEqual(['category', 'config', 'id', 'name', 'tags']);
      expect(t.name.trim()).not.toBe('');
      expect(t.tags.length).toBeGreaterThan(0);
      for (const f of REQUEST_FIELDS) expect(t.config, `${t.id}.${f}`).not.toHaveProperty(f);
    }
  });

  it('has no two templates with the same design', () => {
    expect(duplicates(templates.map((t) => canonical(t.config)))).toEqual([]);
    const look = (t: Template) =>
      [
        t.config.moduleShape ?? 'square',
        t.config.finderOuterShape ?? 'square',
        t.config.finderInnerShape ?? 'square',
        (t.config.primaryColor ?? '#000000').toUpperCase(),
      ].join(' ');
    expect(duplicates(templates.map(look))).toEqual([]);
  });

  it('passes the start-up check', () => {
    const catalogue = loadCatalogue(clone());
    expect(catalogue.templates).toHaveLength(118);
    expect(catalogue.byId.get(templates[0]!.id)?.name).toBe(templates[0]!.name);
    expect(Object.isFrozen(catalogue.templates[0]!.config)).toBe(true);
  });

  it('previews each template with a URL of its own', () => {
    expect(sampleContent('bistro-chalk')).toBe('https://example.com/t/bistro-chalk');
  });
});

describe('the start-up check refuses a bad catalogue, naming the template', () => {
  const refuse = (edit: (ts: Template[]) => void, message: RegExp) => {
    const ts = clone();
    edit(ts);
    expect(() => loadCatalogue(ts)).toThrow(message);
  };
  const first = templates[0]!.id;
  const second = templates[1]!.id;
  const cfg = (t: Template) => t.config as Record<string, unknown>;

  it('an unknown shape name', () =>
    refuse(
      (ts) => {
        cfg(ts[0]!).moduleShape = 'blob';
      },
      new RegExp(`template ${first}: moduleShape must be one of.*\\(config\\.moduleShape\\)`),
    ));
  it('a malformed colour', () =>
    refuse(
      (ts) => {
        cfg(ts[0]!).primaryColor = 'navy';
      },
      new RegExp(`template ${first}: .*\\(config\\.primaryColor\\)`),
    ));
  it('a colour below 4.5:1 against the background', () =>
    refuse(
      (ts) => {
        Object.assign(cfg(ts[0]!), { primaryColor: '#777777', backgroundColor: '#FFFFFF' });
        delete cfg(ts[0]!).foregroundGradient;
      },
      new RegExp(`template ${first}: .*contrast of 4\\.48:1`),
    ));
  it('a gradient stop below 4.5:1', () =>
    refuse((ts) => {
      cfg(ts[0]!).foregroundGradient = {
        type: 'linear',
        stops: [
          { offset: 0, color: '#000000' },
          { offset: 1, color: '#FFCC00' },
        ],
      };
    }, /foregroundGradient\.stops\.1\.color has a contrast/));
  it('content in a template', () =>
    refuse(
      (ts) => {
        cfg(ts[0]!).content = 'x';
      },
      new RegExp(`template ${first}: config sets content`),
    ));
  it('an output field in a template', () =>
    refuse((ts) => {
      cfg(ts[0]!).outputWidth = 800;
    }, /config sets outputWidth/));
  it('an unknown field', () =>
    refuse((ts) => {
      cfg(ts[0]!).primaryColour = '#000000';
    }, /Unknown field primaryColour/));
  it('an id that is not a slug', () =>
    refuse((ts) => {
      ts[0]!.id = 'Bad Id';
    }, /template #0: id must be a kebab-case slug/));
  it('a missing category', () =>
    refuse((ts) => {
      delete (ts[0] as Partial<Template>).category;
    }, /template #0: expected exactly the keys/));
  it('a duplicate id', () =>
    refuse(
      (ts) => {
        ts[1]!.id = first;
      },
      new RegExp(`${first} has the same id as ${first}`),
    ));
  it('a copy of another design', () =>
    refuse(
      (ts) => {
        ts[1]!.config = structuredClone(ts[0]!.config);
      },
      new RegExp(`${second} has the same config as ${first}`),
    ));
  it('the same shapes in the same colour', () =>
    refuse(
      (ts) => {
        const { moduleShape, finderOuterShape, finderInnerShape, primaryColor } = ts[0]!.config;
        Object.assign(ts[1]!.config, { moduleShape, finderOuterShape, finderInnerShape, primaryColor });
      },
      new RegExp(`${second} has the same shapes and primary colour as ${first}`),
    ));
  it('an empty catalogue', () => expect(() => loadCatalogue([])).toThrow(/non-empty/));
});
