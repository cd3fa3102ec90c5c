import { existsSync, readdirSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * A unit's test is found from its path: `shared/<path>/<file>.ts` is tested in `test/<kind>/<path>/<file>.test.ts`
 * (the `shared/` prefix dropped), `functions/<group>/handler.ts` in `test/<kind>/functions/<group>/handler.test.ts`,
 * and so on for `lib/`, `api-contract/`, `client/`, `web/` and `scripts/`. `<kind>` is unit (no I/O) or integration
 * (DynamoDB Local, the emulators). A unit's suite may be split by aspect into `<file>.<aspect>.test.ts` beside it
 * (`process-ocr-job.per-page.test.ts`; `<file>.contract.test.ts` runs a shared contract suite against the unit).
 * Suites of the whole system (test/e2e, test/bundles, test/infra, test/contracts) are not about one unit.
 */

const ROOT = resolve(import.meta.dirname, '../..');
const KINDS = ['unit', 'integration'] as const;
/** Where a test's mirrored path may point: `shared/` first (its prefix is dropped), then the top-level trees. */
const SOURCE_ROOTS = ['shared', '.'];
const TREES = ['shared', 'functions', 'lib', 'api-contract', 'client', 'web', 'scripts', 'bin'];
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.mjs', '.js'];
/** Basenames too common to say which module a misplaced test is about. */
const AMBIGUOUS = new Set(['handler', 'index', 'schemas', 'ports']);

/** Suites named after a behaviour that spans several modules, each with why it is not one module's. */
const SPANNING: Record<string, string> = {
  'test/unit/test-layout.test.ts': 'this check: the layout of the tests themselves',
  'test/unit/docs/paths.test.ts': 'the docs: every path they name exists',
  'test/unit/docs/readme.test.ts': 'the README: its shape and its links',
  'test/integration/webdav-servers.test.ts': 'the test WebDAV servers of test/support/ (Apache, rclone, the recording proxy), a harness',
  'test/integration/label-index-consistency.test.ts':
    'label use cases, the document and label repositories and the indexer raced together: the three views agree',
  'test/integration/workspaces/suspended-workers.test.ts':
    'the workers of a suspended workspace (OCR, syncs and their schedule, webhook deliveries) holding their work: one rule through many modules',
  'test/integration/request-id-through-sqs.test.ts': 'the request id from the HTTP pipeline through SQS send, the poller and the batch handler',
};

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(path);
    return [path];
  });
}

const stem = (file: string) => file.replace(/(\.d)?\.(ts|tsx|mts|mjs|js)$/u, '');

/** Source modules by basename (without extension), as repository-relative paths. */
function sourcesByName(): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const tree of TREES) {
    for (const file of walk(join(ROOT, tree))) {
      if (!EXTENSIONS.some((extension) => file.endsWith(extension)) || /\.d\.ts$/u.test(file)) continue;
      const name = basename(stem(file));
      byName.set(name, [...(byName.get(name) ?? []), relative(ROOT, file)]);
    }
  }
  return byName;
}

/** The mirrored path of `test/<kind>/<rest>.test.ts` that exists, if any. */
function mirroredSource(rest: string): string | undefined {
  for (const sourceRoot of SOURCE_ROOTS) {
    for (const extension of EXTENSIONS) {
      const candidate = join(sourceRoot, rest + extension);
      if (existsSync(join(ROOT, candidate))) return candidate;
    }
  }
  return undefined;
}

/** Where the test should be, for each module its basename names. */
const mirrorOf = (kind: string, source: string) => `test/${kind}/${stem(source).replace(/^shared\//u, '')}.test.ts`;

function misplacedTests(): string[] {
  const byName = sourcesByName();
  const problems: string[] = [];
  for (const kind of KINDS) {
    const base = join(ROOT, 'test', kind);
    for (const file of walk(base).filter((path) => path.endsWith('.test.ts'))) {
      const test = relative(ROOT, file);
      const rest = relative(base, file).replace(/(\.[a-z][a-z0-9-]*)?\.test\.ts$/u, '');
      if (mirroredSource(rest) || test in SPANNING) continue;
      const name = basename(rest);
      const modules = AMBIGUOUS.has(name) ? [] : (byName.get(name) ?? []);
      problems.push(
        modules.length
          ? `${test} -> ${modules.map((module) => mirrorOf(kind, module)).join(' or ')}`
          : `${test} names no module (move it to the mirrored path of the module it tests, or split it)`,
      );
    }
  }
  return problems.sort();
}

describe('the layout of the unit and integration tests', () => {
  it("keeps each test at its module's mirrored path", () => {
    // Act
    const misplaced = misplacedTests();

    // Assert
    expect(misplaced, `misplaced tests:\n${misplaced.join('\n')}\n`).toEqual([]);
  });

  it('allows only spanning suites that exist', () => {
    // Act
    const missing = Object.keys(SPANNING).filter((test) => !existsSync(join(ROOT, test)));

    // Assert
    expect(missing).toEqual([]);
  });
});
