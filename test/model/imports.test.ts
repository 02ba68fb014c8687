import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve('src');

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

/** Every relative import (static, dynamic or re-export) of every module in src, resolved to a path. */
const imports = files(SRC).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) => ({
    from: relative(SRC, file),
    to: relative(SRC, resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts'))),
  })),
);

/** The folder under src a path belongs to; a top-level module (errors.ts, config.ts…) is its own. */
const folderOf = (path: string) => path.split('/')[0]!;

describe('folders import in one direction (issue 15)', () => {
  it('finds the imports it checks', () => {
    expect(imports.some((i) => i.from.startsWith('render/') && i.to.startsWith('model/'))).toBe(true);
  });

  it('src/model imports nothing of the rest of src', () => {
    expect(imports.filter((i) => i.from.startsWith('model/') && !i.to.startsWith('model/'))).toEqual([]);
  });

  it('no two folders import each other, directly or through others', () => {
    const edges = new Map<string, Set<string>>();
    for (const { from, to } of imports) {
      const [a, b] = [folderOf(from), folderOf(to)];
      if (a !== b && !b.startsWith('..')) edges.set(a, (edges.get(a) ?? new Set()).add(b));
    }
    const reaches = (a: string, b: string, seen = new Set<string>()): boolean =>
      [...(edges.get(a) ?? [])].some((n) => n === b || (!seen.has(n) && seen.add(n) && reaches(n, b, seen)));
    const cycles = [...edges].flatMap(([a, out]) => [...out].filter((b) => reaches(b, a)).map((b) => `${a} → ${b}`));
    expect(cycles).toEqual([]);
  });
});
