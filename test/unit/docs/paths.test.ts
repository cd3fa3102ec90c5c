import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Every repository path the docs name exists. What counts as a path: a word of a code span (`...`), of a fenced
 * code block, or a relative link target, that starts with one of the repository's top-level folders
 * (`shared/...`, `test/...`, `docs/...`) or is one of its top-level files (`package.json`). Code spans and code
 * blocks name paths from the repository's root; links name them from the document's folder, as Markdown does.
 * Not checked: words holding a placeholder (`<group>`, `*`, `{a,b}`, `...`), and anything under a git-ignored
 * folder (`bench/results/`, `web/dist/`: generated, absent from a fresh clone until something writes them).
 */

const ROOT = resolve(import.meta.dirname, '../../..');

/** The repository's top-level folders and files that a path may start with (hidden ones too: `.ci/run`). */
function topLevel(): { folders: Set<string>; files: Set<string> } {
  const folders = new Set<string>();
  const files = new Set<string>();
  for (const entry of readdirSync(ROOT, { withFileTypes: true })) {
    if (['node_modules', '.git', '.tools', '.data', 'cdk.out', 'coverage', 'test-results'].includes(entry.name)) continue;
    (entry.isDirectory() ? folders : files).add(entry.name);
  }
  return { folders, files };
}

/** The folders `.gitignore` names (lines ending in `/`), as root-relative prefixes. */
function ignoredPrefixes(): string[] {
  return readFileSync(join(ROOT, '.gitignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.endsWith('/') && !line.startsWith('#'))
    .map((line) => line.replace(/^\//u, ''));
}

const PLACEHOLDER = /[<>*{}$…]|\.\.\.|\[|\]/u;

/** A path as written, without a `#anchor`, a `:line` suffix or trailing punctuation. */
function cleaned(word: string): string {
  return word
    .replace(/^[("'`]+/u, '')
    .replace(/[)"'`,;.:]+$/u, '')
    .replace(/#.*$/u, '')
    .replace(/:\d+(?::\d+)?$/u, '');
}

interface NamedPath {
  /** As the document writes it. */
  written: string;
  /** Root-relative, as checked. */
  path: string;
}

/** The repository paths one Markdown document names, by the rule above. */
function namedPaths(markdown: string, documentPath: string, top = topLevel()): NamedPath[] {
  const found: NamedPath[] = [];
  const asRootPath = (word: string): void => {
    const path = cleaned(word).replace(/^\.\//u, '');
    if (!path || PLACEHOLDER.test(path) || /^[a-z]+:/iu.test(path)) return;
    const first = path.split('/')[0]!;
    const isPath = (path.includes('/') && top.folders.has(first)) || top.files.has(path);
    if (isPath) found.push({ written: word, path: path.replace(/\/+$/u, '') });
  };

  const fences = /^```[^\n]*\n([\s\S]*?)^```/gmu;
  for (const block of markdown.matchAll(fences)) block[1]!.split(/\s+/u).forEach(asRootPath);
  const prose = markdown.replace(fences, '');

  for (const span of prose.matchAll(/`([^`\n]+)`/gu)) span[1]!.split(/\s+/u).forEach(asRootPath);

  for (const link of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/gu)) {
    const target = link[1]!.replace(/#.*$/u, '');
    if (!target || /^[a-z]+:/iu.test(target) || target.startsWith('/')) continue;
    const path = relative(ROOT, resolve(ROOT, dirname(documentPath), decodeURIComponent(target)));
    if (path.startsWith('..')) continue; // outside the repository (../shared/SPEC.md): not ours to check
    found.push({ written: link[1]!, path });
  }
  return found;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/gu, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks). */
function anchors(markdown: string): Set<string> {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gmu, '');
  return new Set([...prose.matchAll(/^#{1,6}\s+(.+)$/gmu)].map((heading) => slug(heading[1]!)));
}

/** The `file#anchor` links of one document into Markdown files of the repository (the same file for `#anchor`). */
function anchoredLinks(markdown: string, documentPath: string): { written: string; path: string; anchor: string }[] {
  const prose = markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gmu, '');
  return [...prose.matchAll(/\]\(([^)\s#]*)#([^)\s]+)\)/gu)].flatMap((link) => {
    const target = link[1]!;
    if (/^[a-z]+:/iu.test(target) || (target && !target.endsWith('.md'))) return [];
    const path = target ? relative(ROOT, resolve(ROOT, dirname(documentPath), decodeURIComponent(target))) : documentPath;
    return path.startsWith('..') ? [] : [{ written: `${target}#${link[2]!}`, path, anchor: decodeURIComponent(link[2]!) }];
  });
}

/** README.md and every Markdown file under docs/, root-relative. */
function documents(): string[] {
  const walk = (folder: string): string[] =>
    readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', ...walk('docs')];
}

describe('namedPaths', () => {
  const top = { folders: new Set(['shared', 'docs', 'bench']), files: new Set(['package.json']) };

  it('takes the words of code spans that start with a top-level folder or are a top-level file', () => {
    const markdown = 'See `shared/manifest.ts`, run `npx tsx bench/ocr.ts` and read `package.json`.';

    const paths = namedPaths(markdown, 'README.md', top).map((named) => named.path);

    expect(paths).toEqual(['shared/manifest.ts', 'bench/ocr.ts', 'package.json']);
  });

  it('resolves link targets from the document folder and drops their anchors', () => {
    const markdown = 'The [runbook](runbooks/upgrade.md#rollback) and the [spec](../../shared/SPEC.md).';

    const paths = namedPaths(markdown, 'docs/operating.md', top).map((named) => named.path);

    expect(paths).toEqual(['docs/runbooks/upgrade.md']);
  });

  it('skips placeholders, URLs and words of other folders', () => {
    const markdown = '`shared/domain/<area>/ports.ts` `shared/*.ts` `https://example.com/shared/x` `keys.ts` `src/x.ts`';

    expect(namedPaths(markdown, 'README.md', top)).toEqual([]);
  });

  it('reads the words of fenced code blocks', () => {
    const markdown = 'Run:\n\n```bash\nnpx tsx bench/search.ts --workspaces=10\n```\n';

    expect(namedPaths(markdown, 'README.md', top).map((named) => named.path)).toEqual(['bench/search.ts']);
  });
});

describe('slug', () => {
  it('makes a heading the anchor GitHub gives it', () => {
    expect(slug('Measured (bench/erasure.ts)')).toBe('measured-bencherasurets');
    expect(slug('Rate limiter and login')).toBe('rate-limiter-and-login');
  });
});

describe('the docs', () => {
  it('name only repository paths that exist', () => {
    const ignored = ignoredPrefixes();
    const missing = documents().flatMap((document) =>
      namedPaths(readFileSync(join(ROOT, document), 'utf8'), document)
        .filter(({ path }) => !ignored.some((prefix) => `${path}/`.startsWith(prefix)))
        .filter(({ path }) => !existsSync(join(ROOT, path)))
        .map(({ written, path }) => `${document}: ${written}${written === path ? '' : ` (${path})`}`),
    );

    expect(missing).toEqual([]);
  });

  it('link only to headings that exist', () => {
    const broken = documents().flatMap((document) =>
      anchoredLinks(readFileSync(join(ROOT, document), 'utf8'), document)
        .filter(({ path }) => existsSync(join(ROOT, path)))
        .filter(({ path, anchor }) => !anchors(readFileSync(join(ROOT, path), 'utf8')).has(anchor))
        .map(({ written }) => `${document}: ${written}`),
    );

    expect(broken).toEqual([]);
  });
});
