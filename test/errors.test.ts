import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '../src/errors.js';

/**
 * The error table held against the code that raises its codes and the README that documents them: a code
 * nobody raises is dead, a code the README leaves out is undocumented, and a code the README names that the
 * table lacks is a promise the service does not keep.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = `${ROOT}src/`;
const FIXTURE = `${ROOT}test/errors-scan-fixture.ts`;
const CODES = Object.keys(ERRORS) as ErrorCode[];

/**
 * Codes of the contract (docs/contract.md) that no code path raises yet, each with the work that will. Kept
 * as short as possible: the test fails once one of them is raised, so its entry goes when that work lands.
 */
const RAISED_BY_WORK_IN_PROGRESS: Partial<Record<ErrorCode, string>> = {};

interface Raise {
  code: string;
  at: string;
}

/**
 * Every place in `files` that raises an error code, found by the type checker rather than by matching text:
 * a string literal raises a code when the type the compiler expects there admits every code of the table,
 * which is what `ErrorCode` is. That covers `new ApiError('X', …)` however it is laid out, a worker's
 * refusal `{ ok: false, code: 'X' }`, `let code: ErrorCode = 'X'` and a field-to-code map, and it skips
 * what only reads a code (`e.code === 'X'`, a `case 'X':`), log text and comments. A code written only in a
 * position typed as plain `string` would be missed, so no such position may raise one.
 * test/errors-scan-fixture.ts holds one of each.
 */
function findRaises(files: (fileName: string) => boolean): Raise[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    `${ROOT}tsconfig.json`,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const program = ts.createProgram(config.fileNames.filter(files).concat(FIXTURE), config.options);
  const checker = program.getTypeChecker();
  const admitsEveryCode = (t: ts.Type | undefined) =>
    t?.isUnion() === true && CODES.every((c) => t.types.some((m) => m.isStringLiteral() && m.value === c));
  const isReading = (n: ts.Node) =>
    ts.isCaseClause(n.parent) ||
    (ts.isBinaryExpression(n.parent) &&
      [
        ts.SyntaxKind.EqualsEqualsEqualsToken,
        ts.SyntaxKind.ExclamationEqualsEqualsToken,
        ts.SyntaxKind.EqualsEqualsToken,
        ts.SyntaxKind.ExclamationEqualsToken,
      ].includes(n.parent.operatorToken.kind));

  const raises: Raise[] = [];
  for (const file of program.getSourceFiles()) {
    if (!files(file.fileName) || file.isDeclarationFile) continue;
    const visit = (n: ts.Node): void => {
      if (
        (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) &&
        !isReading(n) &&
        admitsEveryCode(checker.getContextualType(n))
      ) {
        const line = file.getLineAndCharacterOfPosition(n.getStart(file)).line + 1;
        raises.push({ code: n.text, at: `${file.fileName.slice(ROOT.length)}:${line}` });
      }
      ts.forEachChild(n, visit);
    };
    visit(file);
  }
  return raises;
}

/** The names of the ERRORS object literal as written in src/errors.ts, duplicates included. */
function writtenCodes(): string[] {
  const file = ts.createSourceFile('errors.ts', readFileSync(`${SRC}errors.ts`, 'utf8'), ts.ScriptTarget.Latest);
  const names: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isVariableDeclaration(n) && n.name.getText(file) === 'ERRORS') {
      let init = n.initializer;
      while (init && (ts.isSatisfiesExpression(init) || ts.isAsExpression(init))) init = init.expression;
      if (init && ts.isObjectLiteralExpression(init))
        for (const p of init.properties) if (p.name) names.push(p.name.getText(file).replace(/^['"]|['"]$/g, ''));
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(file);
  return names;
}

interface Documented {
  code: string;
  status: string;
}

const README = readFileSync(`${ROOT}README.md`, 'utf8');
const CONTRACT = readFileSync(`${ROOT}docs/contract.md`, 'utf8');

function section(doc: string, heading: string): string {
  const start = doc.indexOf(`\n## ${heading}\n`);
  expect(start, `a "## ${heading}" section`).toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

/** The first cells of a section's table rows, with the cell beside each; header and separator rows have none. */
function tableRows(text: string): { names: string[]; next: string; line: string }[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) => {
      const [first = '', next = ''] = line
        .slice(1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim());
      return { names: [...first.matchAll(/`([^`]+)`/g)].map((m) => m[1]!), next, line };
    })
    .filter((r) => r.names.length > 0);
}

/** The codes of the `## Errors` section's table, one a row, with the status written beside each. */
function readmeCodeRows(): Documented[] {
  return tableRows(section(README, 'Errors')).map(({ names, next, line }) => {
    expect(names, `one code per row: ${line}`).toHaveLength(1);
    return { code: names[0]!, status: next };
  });
}

/**
 * Every backticked name in the README shaped like a code (upper case with an underscore), but the
 * environment variables of its `## Configuration` table, which share that shape.
 */
function readmeCodeNames(): string[] {
  const variables = new Set(tableRows(section(README, 'Configuration')).flatMap((r) => r.names));
  return [...README.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`/g)].map((m) => m[1]!).filter((n) => !variables.has(n));
}

/** The codes docs/contract.md gives a status: its `## Errors` table, a status and the codes beside it. */
function contractStatuses(): Documented[] {
  return section(CONTRACT, 'Errors')
    .split('\n')
    .map((line) => /^\|\s*(\d{3})\s*\|(.*)\|\s*$/.exec(line))
    .filter((m) => m !== null)
    .flatMap((m) => [...m[2]!.matchAll(/`([A-Z_]+)`/g)].map((c) => ({ code: c[1]!, status: m[1]! })));
}

describe('the error table (src/errors.ts)', () => {
  let raises: Raise[];
  let fixtureRaises: Raise[];
  beforeAll(() => {
    // One program for both: the type checker's work is the slow part.
    const all = findRaises((f) => f.startsWith(SRC) || f === FIXTURE);
    raises = all.filter((r) => r.at.startsWith('src/'));
    fixtureRaises = all.filter((r) => !r.at.startsWith('src/'));
  });

  it('names each code once, with an HTTP error status and a message', () => {
    const written = writtenCodes();
    expect(written.filter((c, i) => written.indexOf(c) !== i)).toEqual([]);
    expect(written).toEqual(CODES);
    for (const code of CODES) {
      const [status, message] = ERRORS[code];
      expect(Number.isInteger(status) && status >= 400 && status <= 599, `${code}: ${status}`).toBe(true);
      expect(STATUS_CODES[status], `${code}: ${status} is a registered status`).toBeDefined();
      expect(message.length, code).toBeGreaterThan(0);
    }
  });

  it('has every code raised somewhere in src/, but for the allow-listed work in progress', () => {
    const raised = new Set(raises.map((r) => r.code));
    expect(CODES.filter((c) => !raised.has(c) && !(c in RAISED_BY_WORK_IN_PROGRESS))).toEqual([]);
    // An allow-listed code that is raised by now must leave the list.
    expect(Object.keys(RAISED_BY_WORK_IN_PROGRESS).filter((c) => raised.has(c))).toEqual([]);
    expect(Object.keys(RAISED_BY_WORK_IN_PROGRESS).filter((c) => !(c in ERRORS))).toEqual([]);
  });

  it('counts a raise however it is written, and never a reading, a plain string or a comment', () => {
    expect(fixtureRaises.map((r) => r.code).sort()).toEqual(
      [
        'BAD_REQUEST',
        'INTERNAL_ERROR',
        'INVALID_HEX',
        'INVALID_JSON',
        'NOT_FOUND',
        'SERVER_BUSY',
        'UNAUTHORIZED',
      ].sort(),
    );
  });

  it('is documented whole in the README, with the same statuses, and the README names no other code', () => {
    const rows = readmeCodeRows();
    const documented = rows.map((r) => r.code);
    expect(documented.filter((c, i) => documented.indexOf(c) !== i)).toEqual([]);
    expect(CODES.filter((c) => !documented.includes(c))).toEqual([]);
    expect(documented.filter((c) => !(c in ERRORS))).toEqual([]);
    expect(readmeCodeNames().filter((c) => !(c in ERRORS))).toEqual([]);
    for (const { code, status } of rows) expect(status, code).toBe(String(ERRORS[code as ErrorCode][0]));
  });

  it('gives every code the contract names the status it fixes (docs/contract.md)', () => {
    const fixed = contractStatuses();
    expect(fixed.length).toBeGreaterThan(0);
    for (const { code, status } of fixed) {
      expect(code in ERRORS, `${code} is in the table`).toBe(true);
      expect(String(ERRORS[code as ErrorCode][0]), code).toBe(status);
    }
  });
});
