/**
 * Moves source files or folders and rewrites every relative specifier in the tree that points at them:
 * `import`/`export ... from`, `import()`, `vi.mock()`, `vi.importActual()`, `require()`,
 * `new URL('./x', import.meta.url)` and `import.meta.dirname, '../x'` (files or folders), in the importers and in
 * the moved files themselves. A specifier keeps its style: without extension, with `.js`, or naming a folder's
 * `index`. Repository paths of the moved files named in code (`shared/logger.ts` in a comment) follow them.
 *
 *   npx tsx scripts/move-module.ts [--commit "<message>"] <old> <new> [<old> <new> ...]
 *
 * With `--commit`, it commits the move and every rewritten file that had no other uncommitted change (run it under
 * the git lock when others work in the same tree); files that already had changes are rewritten but left out and
 * listed. Mentions of the old paths elsewhere (comments, docs, strings) are listed for a reader to judge.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TREES = ['shared', 'functions', 'lib', 'test', 'bench', 'scripts', 'api-contract', 'client', 'web', 'bin', 'deploy'];
const ROOT_FILES = ['vitest.config.ts', 'eslint.config.js', '.dependency-cruiser.cjs'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'cdk.out', '.data', 'coverage', 'test-results', 'results']);
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const RESOLVABLE = ['', '.ts', '.tsx', '.mts', '.d.ts', '.js', '.mjs', '.cjs', '/index.ts', '/index.tsx', '/index.js'];

/** `from '...'`, `import '...'`, `import('...')`, `vi.mock('...')`, `require('...')`, `new URL('...', import.meta.url)`. */
const SPECIFIER =
  /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bvi\.(?:mock|doMock|unmock|importActual|importMock)\s*(?:<[^>]*>)?\(\s*|\brequire\s*\(\s*|\bnew URL\(\s*|\bimport\.meta\.dirname\s*,\s*)(['"])(\.{1,2}\/[^'"\n]*|\.{1,2})\2/g;

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) || entry.name.startsWith('.') ? [] : walk(file);
    return SOURCE.test(entry.name) ? [file] : [];
  });
}

/** The file a relative specifier names, or undefined when none exists (a package, a generated file, ...). */
function resolve(fromFile: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = RESOLVABLE.map((suffix) => base + suffix);
  if (/\.js$/.test(specifier)) candidates.push(base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'));
  if (/\.mjs$/.test(specifier)) candidates.push(base.replace(/\.mjs$/, '.mts'));
  return candidates.find((file) => existsSync(file) && statSync(file).isFile());
}

/** The specifier from `fromFile` to `target`, in the style of `original` (which named `oldTarget`). */
function specifierFor(fromFile: string, target: string, original: string, oldTarget: string): string {
  const oldBase = path.resolve(path.dirname(fromFile), original);
  const stem = target.replace(/(\.d)?\.(ts|tsx|mts|cts|js|mjs|cjs)$/, '');
  let wanted: string;
  if (oldBase === oldTarget) wanted = target; // named with its own extension
  else if (path.dirname(oldTarget) === oldBase && path.basename(oldTarget).startsWith('index.')) {
    wanted = path.basename(target).startsWith('index.') ? path.dirname(target) : stem; // a folder, for its index
  } else if (/\.(js|mjs)$/.test(original)) wanted = stem + path.extname(original); // `.js` naming a `.ts`
  else wanted = stem; // no extension
  let relative = path.relative(path.dirname(fromFile), wanted).split(path.sep).join('/');
  if (!relative.startsWith('.')) relative = './' + relative;
  return relative;
}

function parseArguments(argv: string[]): { pairs: Array<[string, string]>; message?: string } {
  const args = [...argv];
  let message: string | undefined;
  const at = args.indexOf('--commit');
  if (at >= 0) {
    message = args[at + 1];
    args.splice(at, 2);
  }
  if (args.length === 0 || args.length % 2 !== 0 || (at >= 0 && !message)) {
    console.error('usage: move-module.ts [--commit "<message>"] <old> <new> [<old> <new> ...]');
    process.exit(2);
  }
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < args.length; i += 2) pairs.push([path.resolve(ROOT, args[i]!), path.resolve(ROOT, args[i + 1]!)]);
  return { pairs, message };
}

const { pairs, message } = parseArguments(process.argv.slice(2));

/** old absolute file -> new absolute file, for every file moved (folders expanded). */
const moves = new Map<string, string>();
for (const [from, to] of pairs) {
  if (!existsSync(from)) throw new Error(`nothing at ${path.relative(ROOT, from)}`);
  if (existsSync(to) && statSync(from).isFile()) throw new Error(`${path.relative(ROOT, to)} exists already`);
  const files = statSync(from).isDirectory() ? walkAll(from) : [from];
  for (const file of files) moves.set(file, statSync(from).isDirectory() ? path.join(to, path.relative(from, file)) : to);
}

function walkAll(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walkAll(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

const sources = [...TREES.flatMap((tree) => walk(path.join(ROOT, tree))), ...ROOT_FILES.map((file) => path.join(ROOT, file)).filter(existsSync)];
const rel = (file: string) => path.relative(ROOT, file);
const dirtyBefore = new Set(
  git('status', '--porcelain', '--untracked-files=all')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3).replace(/^.* -> /, '')),
);

const dirtyMoved = [...moves.keys()].map(rel).filter((file) => dirtyBefore.has(file));
if (dirtyMoved.length) throw new Error(`not moving files with uncommitted changes: ${dirtyMoved.join(', ')}`);

/** Repo-relative paths of moved files (and folders, with a trailing slash) named in comments and strings. */
function mentionsRewritten(text: string): string {
  let next = text;
  for (const [from, to] of pairs) {
    const folder = statSync(from).isDirectory();
    const [a, b] = folder ? [rel(from) + '/', rel(to) + '/'] : [rel(from), rel(to)];
    const escaped = a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    next = next.replace(new RegExp(`(?<![\\w./-])${escaped}${folder ? '' : '(?![\\w-])'}`, 'g'), b);
  }
  return next;
}

/** Where a folder (or any path) is after the moves: its own folder move, or the one of a folder above it. */
function movedPath(target: string): string | undefined {
  for (const [from, to] of pairs) {
    if (target === from) return to;
    if (target.startsWith(from + path.sep)) return path.join(to, path.relative(from, target));
  }
  return undefined;
}

/** A specifier naming a folder (`new URL('../fixtures/', import.meta.url)`, `import.meta.dirname, '../x'`). */
function folderRewritten(file: string, after: string, whole: string, lead: string, quote: string, specifier: string): string {
  const target = path.resolve(path.dirname(file), specifier);
  if (!existsSync(target) || !statSync(target).isDirectory()) return whole;
  const movedTarget = movedPath(target);
  if (!movedTarget && after === file) return whole;
  let relative = path.relative(path.dirname(after), movedTarget ?? target).split(path.sep).join('/') || '.';
  if (!relative.startsWith('.')) relative = './' + relative;
  if (specifier.endsWith('/') && !relative.endsWith('/')) relative += '/';
  return relative === specifier ? whole : `${lead}${quote}${relative}${quote}`;
}

/** New text per file (keyed by the file's path after the move). */
const rewritten = new Map<string, string>();
for (const file of sources) {
  const text = readFileSync(file, 'utf8');
  const selfMoved = moves.get(file);
  const after = selfMoved ?? file;
  const next = text.replace(SPECIFIER, (whole, lead: string, quote: string, specifier: string) => {
    const target = resolve(file, specifier);
    if (!target) return folderRewritten(file, after, whole, lead, quote, specifier);
    const movedTarget = moves.get(target);
    if (!movedTarget && !selfMoved) return whole;
    const replacement = specifierFor(after, movedTarget ?? target, specifier, target);
    return replacement === specifier ? whole : `${lead}${quote}${replacement}${quote}`;
  });
  const named = mentionsRewritten(next);
  if (named !== text) rewritten.set(after, named);
}

for (const [from, to] of pairs) {
  mkdirSync(path.dirname(to), { recursive: true });
  git('mv', rel(from), rel(to));
}
for (const [file, text] of rewritten) writeFileSync(file, text);

const importers = [...rewritten.keys()].filter((file) => ![...moves.values()].includes(file));
const leftOut = importers.filter((file) => dirtyBefore.has(rel(file)));
const committable = importers.filter((file) => !dirtyBefore.has(rel(file)));

for (const [from, to] of pairs) console.log(`moved ${rel(from)} -> ${rel(to)}`);
console.log(`rewrote ${importers.length} importer(s)${importers.length ? ':\n  ' + importers.map(rel).join('\n  ') : ''}`);

if (message) {
  const paths = [...pairs.flatMap(([from, to]) => [rel(from), rel(to)]), ...committable.map(rel)];
  git('add', '--', ...pairs.map(([, to]) => rel(to)), ...committable.map(rel));
  git('commit', '-q', '-m', message, '--', ...paths);
  console.log(`committed: ${message}`);
}
if (leftOut.length) console.log(`had other uncommitted changes (rewritten, not committed):\n  ${leftOut.map(rel).join('\n  ')}`);

/** Paths a moved file builds from pieces (`resolve(import.meta.dirname, '..', 'x')`): this script cannot follow those. */
const byHand = [...moves.values()].flatMap((file) =>
  (rewritten.get(file) ?? readFileSync(file, 'utf8'))
    .split('\n')
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => /import\.meta\.(dirname|url)|__dirname/.test(line) && /['"]\.\.['"]\s*,/.test(line))
    .map(({ line, index }) => `${rel(file)}:${index + 1}: ${line.trim()}`),
);
if (byHand.length) console.log(`moved files that build paths from pieces (check by hand):\n  ${byHand.join('\n  ')}`);

/** Mentions of the old paths outside import specifiers, for a reader to judge. */
const needles = pairs.map(([from]) => rel(from).replace(/\.(ts|js|mjs)$/, ''));
let mentions: string[] = [];
try {
  mentions = git('grep', '-n', '-F', ...needles.flatMap((needle) => ['-e', needle]), '--', '.', ':!node_modules').split('\n').filter(Boolean);
} catch {
  // git grep exits 1 when nothing matches
}
if (mentions.length) console.log(`old paths still named in:\n  ${mentions.join('\n  ')}`);

