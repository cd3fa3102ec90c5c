import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const made: string[] = [];

/** A git repository holding `files` and a copy of the script, which works on the tree it sits in. */
function repository(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'move-module-'));
  made.push(dir);
  cpSync(join(ROOT, 'scripts', 'move-module.ts'), join(dir, 'scripts', 'move-module.ts'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
  git('init', '-q');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.org', 'add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '-q', '-m', 'start');
  return dir;
}

const move = (dir: string, ...args: string[]) =>
  execFileSync(TSX, ['scripts/move-module.ts', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.org', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.org' },
  });
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('scripts/move-module.ts', () => {
  it('rewrites every specifier that names the moved file, in the style it was written, and the moved file’s own', () => {
    // Arrange
    const dir = repository({
      'shared/logger.ts': "import { lines } from './observability/lines';\nexport const logger = lines;\n",
      'shared/observability/lines.ts': 'export const lines = 1;\n',
      'shared/queue/batch.ts': "import { logger } from '../logger';\nexport const batch = logger;\n",
      'functions/ocr/handler.ts': "export { logger } from '../../shared/logger.js';\n",
      'test/unit/queue.test.ts': "vi.mock('../../shared/logger');\nconst late = () => import('../../shared/logger');\n",
    });

    // Act
    move(dir, 'shared/logger.ts', 'shared/observability/logger.ts');

    // Assert
    expect({
      moved: read(dir, 'shared/observability/logger.ts'),
      batch: read(dir, 'shared/queue/batch.ts'),
      handler: read(dir, 'functions/ocr/handler.ts'),
      test: read(dir, 'test/unit/queue.test.ts'),
    }).toEqual({
      moved: "import { lines } from './lines';\nexport const logger = lines;\n",
      batch: "import { logger } from '../observability/logger';\nexport const batch = logger;\n",
      handler: "export { logger } from '../../shared/observability/logger.js';\n",
      test: "vi.mock('../../shared/observability/logger');\nconst late = () => import('../../shared/observability/logger');\n",
    });
  });

  it('moves a folder with the files in it, and the folders they name by URL', () => {
    // Arrange
    const dir = repository({
      'test/contracts/engine.contract.ts': "export const CORPUS = new URL('../fixtures/', import.meta.url);\n",
      'test/fixtures/scan.txt': 'scan\n',
      'test/unit/engine.test.ts': "import { CORPUS } from '../contracts/engine.contract';\n",
    });

    // Act
    move(dir, 'test/contracts', 'test/support/contracts');

    // Assert
    expect([read(dir, 'test/support/contracts/engine.contract.ts'), read(dir, 'test/unit/engine.test.ts')]).toEqual([
      "export const CORPUS = new URL('../../fixtures/', import.meta.url);\n",
      "import { CORPUS } from '../support/contracts/engine.contract';\n",
    ]);
  });

  it('with --commit, commits the move and its importers but leaves out an importer with changes of someone else', () => {
    // Arrange
    const dir = repository({
      'shared/a.ts': 'export const a = 1;\n',
      'shared/clean.ts': "import { a } from './a';\nexport const clean = a;\n",
      'shared/busy.ts': "import { a } from './a';\nexport const busy = a;\n",
    });
    writeFileSync(join(dir, 'shared/busy.ts'), "import { a } from './a';\nexport const busy = a + 1;\n");

    // Act
    const output = move(dir, '--commit', 'a moves', 'shared/a.ts', 'shared/lib/a.ts');

    // Assert
    const committed = execFileSync('git', ['show', '--name-status', '--format=%s', 'HEAD'], { cwd: dir, encoding: 'utf8' });
    const uncommitted = execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' });
    expect(committed.split('\n').filter(Boolean).sort()).toEqual(['M\tshared/clean.ts', 'R100\tshared/a.ts\tshared/lib/a.ts', 'a moves'].sort());
    expect(uncommitted).toBe(' M shared/busy.ts\n');
    expect(read(dir, 'shared/busy.ts')).toBe("import { a } from './lib/a';\nexport const busy = a + 1;\n");
    expect(output).toContain('had other uncommitted changes (rewritten, not committed):\n  shared/busy.ts');
  });
});
