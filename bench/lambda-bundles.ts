/**
 * Lambda bundles: size and cold import time of every `functions/<group>/index.ts`, bundled the way the CDK
 * bundles it (lib/bundling/lambda-bundle.ts).
 *
 *   npx tsx bench/lambda-bundles.ts                  (or: npm run bench:bundles)
 *   npx tsx bench/lambda-bundles.ts --source-maps    imports with --enable-source-maps, as the Lambdas run
 *   npx tsx bench/lambda-bundles.ts --as-deployed    also with a Lambda's environment, so that what loads only in
 *                                                    Lambda (the OpenTelemetry tracing, Powertools' JSON logger) loads
 *   npx tsx bench/lambda-bundles.ts --imaging-only   only the imaging functions' extra files and render time
 *   npx tsx bench/lambda-bundles.ts --samples=15     more imports per function (default 7), for a steadier median
 *
 * Size is what a cold start loads: the entry's `.mjs` and the chunks it imports statically (the source maps the
 * CDK also writes are not counted); the chunks only an `import()` loads are reported apart.
 * Cold import is `await import(bundle)` timed with performance.now() inside a fresh node process per sample,
 * so it leaves out node's own start-up. The bench reports; it exits non-zero only when it crashes itself.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Metafile } from 'esbuild';
import { nativePackageDir } from '../lib/constructs/native-packages';
import { addImagingFiles, PDFJS_DATA_FOLDERS } from '../lib/bundling/imaging-asset';
import { bundleLambdaEntry } from '../lib/bundling/lambda-bundle';
import { CanvasThumbnailRenderer } from '../shared/adapters/imaging/canvas-thumbnail-renderer';
import { ImagingPool } from '../shared/adapters/imaging/worker-pool';
import { percentile, round } from './support/stats';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const FUNCTIONS_DIR = path.join(REPO_ROOT, 'functions');

/** The Lambda's environment as well (see LAMBDA_ENV), with its source maps. */
const AS_DEPLOYED = process.argv.includes('--as-deployed');
/** AppFunction sets NODE_OPTIONS=--enable-source-maps; node then reads and parses the .map at import. */
const WITH_SOURCE_MAPS = AS_DEPLOYED || process.argv.includes('--source-maps');
/** Only the imaging asset and its render times (the functions' bundles take minutes). */
const IMAGING_ONLY = process.argv.includes('--imaging-only');
const NODE_FLAGS = WITH_SOURCE_MAPS ? ['--enable-source-maps'] : [];
const MODE = AS_DEPLOYED ? 'as-deployed' : WITH_SOURCE_MAPS ? 'source-maps' : null;
const RESULTS_FILE = path.join(REPO_ROOT, 'bench', 'results', MODE ? `lambda-bundles.${MODE}.json` : 'lambda-bundles.json');

/** Issue 17's targets, for the functions that do not search (those that do carry the OpenSearch client). */
const TARGET_KB = 600;
const TARGET_MS = 80;
/** A bundle with this package searches (or keeps the index): the targets are not its. */
const SEARCH_CLIENT_PACKAGE = '@opensearch-project/opensearch';
/** `--samples=N`: this machine's import times vary by a fifth between runs, so a verdict near 80 ms wants more. */
const SAMPLES = samplesOption(process.argv);
/** Samples run first and thrown away, so the first measured one does not pay for a cold disk cache. */
const WARMUP_SAMPLES = 1;

function samplesOption(argv: readonly string[]): number {
  const given = argv.find((arg) => arg.startsWith('--samples='));
  if (!given) return 7;
  const samples = Number(given.slice('--samples='.length));
  if (!Number.isInteger(samples) || samples < 1) throw new Error(`--samples must be a whole number of at least 1, not ${given}`);
  return samples;
}

/** Dummy but valid configuration: every function's zod parsing passes, and nothing here is reachable. */
const BENCH_ENV: Record<string, string> = {
  TABLE_NAME: 'bench-table',
  BUCKET_NAME: 'bench-bucket',
  OCR_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench',
  OCR_HIGH_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-high',
  OPENSEARCH_ENDPOINT: 'search-bench.us-east-1.es.amazonaws.com',
  JWT_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:bench',
  ADMIN_USERNAME: 'admin',
  ADMIN_EMAIL: 'admin@example.com',
  ADMIN_PASSWORD_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:admin',
  WEBSOCKET_ENDPOINT: 'https://example.execute-api.us-east-1.amazonaws.com/prod',
  AWS_REGION: 'us-east-1',
  CORS_ORIGINS: '*',
  /** search-index-setup; the dev profile's value (lib/stacks/stateful-stack.ts). */
  SEARCH_INDEX_REPLICAS: '0',
  /** sources, source-sync, source-scheduler (bindQueue in lib/stacks/api-stack.ts and queue-workers.ts). */
  SOURCE_SYNC_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-source-sync',
  /** labels, rule-jobs (the labels function starts rules' runs, the worker continues them). */
  RULE_JOBS_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-rule-jobs',
  /** events (appends the audit log), auth, audit (bindAuditLog in lib/constructs/bindings.ts). */
  AUDIT_TABLE_NAME: 'bench-audit',
  /** workspaces (queues erasures). */
  ERASURE_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-erasures',
  /** webhooks, webhook-dispatch, webhook-delivery (the delivery queue: a ping, a dispatched change, a retry). */
  WEBHOOK_DELIVERY_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-webhook-deliveries',
  /** portability, portability-worker (lib/stacks/portability.ts). */
  PORTABILITY_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-portability',
  /** sources, source-sync (bindCredentialsKey in lib/constructs/bindings.ts sets the KMS key's ARN). */
  SOURCE_CREDENTIALS_KEY_ARN: 'arn:aws:kms:us-east-1:000000000000:key/00000000-0000-0000-0000-000000000000',
};

/**
 * What a Lambda's environment adds that changes what runs at import: AWS_LAMBDA_FUNCTION_NAME turns on the
 * OpenTelemetry tracing (shared/adapters/otel/process-tracing.ts) and Powertools' JSON logger (shared/observability/logger.ts); the
 * Powertools variables are AppFunction's; AWS_EXECUTION_ENV is where Powertools looks to know it runs in Lambda.
 */
const lambdaEnv = (group: string): Record<string, string> => ({
  AWS_LAMBDA_FUNCTION_NAME: `docservice-${group}`,
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
  POWERTOOLS_SERVICE_NAME: 'docservice',
  POWERTOOLS_METRICS_NAMESPACE: 'DocService',
});

/**
 * The functions deployed with the imaging asset beside `index.mjs` (`afterBundling: thumbnailRendererFiles` in
 * lib/stacks/api-stack.ts and queue-workers.ts): without `thumbnail-worker.mjs` there, worker-pool.ts falls back
 * to tsx, which a bundle does not have.
 */
const IMAGING_FUNCTIONS: ReadonlySet<string> = new Set(['documents', 'ocr-worker']);

/**
 * Runs in each fresh process: imports the bundle, checks that it exports `handler`, and prints one JSON line.
 * `network` lists the sockets and DNS requests open right after the import: any would mean the module starts
 * network I/O at init. (Other resources, such as the loader's file handles, are left out.)
 */
const CHILD_SCRIPT = `
const url = process.argv[1];
try {
  const start = performance.now();
  const mod = await import(url);
  const ms = performance.now() - start;
  const network = process.getActiveResourcesInfo()
    .filter((name) => /TCP|TLS|UDP|PipeConnect|GetAddrInfo|GetNameInfo|QueryReqWrap/.test(name));
  if (typeof mod.handler !== 'function') throw new Error('the bundle does not export a handler function');
  console.log(JSON.stringify({ ms, network }));
} catch (error) {
  console.log(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
  process.exitCode = 1;
}
`;

interface ImportSample {
  ms: number;
  network: string[];
}

interface PackageShare {
  name: string;
  kb: number;
}

interface FunctionResult {
  function: string;
  /** What a cold start loads: the entry's .mjs and the chunks it imports statically (source maps not counted). */
  bundleKb: number;
  /** The chunks only an `import()` loads, when it runs. */
  lazyKb: number;
  coldImportMedianMs: number | null;
  coldImportMinMs: number | null;
  samplesMs: number[];
  /** Whether it carries the OpenSearch client: the targets are for the functions that do not. */
  searches: boolean;
  /** Under both targets; null for a function that searches. */
  withinTargets: boolean | null;
  /** Largest contributors to the minified output, by package (or `(project)` for this repository's code). */
  topPackages: PackageShare[];
  /** Sockets and DNS requests open right after the import (see CHILD_SCRIPT); empty when it does no network I/O. */
  networkAfterImport: string[];
  error?: string;
}

const toKb = (bytes: number): number => round(bytes / 1024);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Folders under functions/ with an index.ts, and those without one (skipped). */
async function findGroups(): Promise<{ groups: string[]; skipped: string[] }> {
  const entries = await readdir(FUNCTIONS_DIR, { withFileTypes: true });
  const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  const hasIndex = (name: string) => existsSync(path.join(FUNCTIONS_DIR, name, 'index.ts'));
  return { groups: folders.filter(hasIndex), skipped: folders.filter((name) => !hasIndex(name)) };
}

/** Bundles one function as the CDK bundles it (lib/bundling/lambda-bundle.ts); the size ignores the source map. */
async function bundle(group: string, outDir: string): Promise<{ file: string; metafile: Metafile }> {
  const file = path.join(outDir, group, 'index.mjs');
  const metafile = await bundleLambdaEntry({ entry: path.join(FUNCTIONS_DIR, group, 'index.ts'), outfile: file });
  return { file, metafile };
}

/**
 * The outputs a cold start loads: the entry's file and the chunks it imports statically, transitively (those an
 * `import()` reaches load when it runs, not at the import).
 */
function loadedAtImport(metafile: Metafile, entryFile: string): Metafile['outputs'][string][] {
  const byPath = new Map(Object.entries(metafile.outputs).map(([name, output]) => [path.resolve(REPO_ROOT, name), output]));
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file) || !byPath.has(file)) return;
    loaded.add(file);
    for (const imported of byPath.get(file)!.imports) if (imported.kind === 'import-statement' && !imported.external) visit(path.resolve(REPO_ROOT, imported.path));
  };
  visit(entryFile);
  return [...loaded].map((file) => byPath.get(file)!);
}

/** Output bytes per package (the innermost node_modules/<name> or @scope/name of each input) of what loads at import. */
function packageShares(outputs: Metafile['outputs'][string][], limit = 5): PackageShare[] {
  const bytes = new Map<string, number>();
  for (const [input, { bytesInOutput }] of outputs.flatMap((output) => Object.entries(output.inputs))) {
    const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    const name = match?.[1] ?? '(project)';
    bytes.set(name, (bytes.get(name) ?? 0) + bytesInOutput);
  }
  return [...bytes.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, size]) => ({ name, kb: toKb(size) }));
}

/** One cold import in a fresh node process, with only the bench configuration in its environment. */
function importOnce(file: string, group: string): Promise<ImportSample> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...NODE_FLAGS, '--input-type=module', '-e', CHILD_SCRIPT, pathToFileURL(file).href],
      { env: { PATH: process.env.PATH ?? '', ...BENCH_ENV, ...(AS_DEPLOYED ? lambdaEnv(group) : {}) }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      let parsed: { ms?: number; network?: string[]; error?: string };
      try {
        parsed = JSON.parse(line) as typeof parsed;
      } catch {
        reject(new Error(`import exited with ${code}: ${(stderr || stdout).trim().slice(0, 500)}`));
        return;
      }
      if (parsed.error !== undefined || typeof parsed.ms !== 'number') {
        reject(new Error(parsed.error ?? `import exited with ${code} and no timing`));
        return;
      }
      resolve({ ms: parsed.ms, network: parsed.network ?? [] });
    });
  });
}

/** A function's bundle, ready to import. */
interface BuiltFunction {
  file: string;
  base: Pick<FunctionResult, 'function' | 'bundleKb' | 'lazyKb' | 'searches' | 'topPackages'>;
}

/** Bundles `group` and gives it the imaging asset's files when deployed with them. */
async function buildFunction(group: string, outDir: string, imagingDir: string): Promise<BuiltFunction> {
  const { file, metafile } = await bundle(group, outDir);
  if (IMAGING_FUNCTIONS.has(group)) cpSync(imagingDir, path.dirname(file), { recursive: true });
  const loaded = loadedAtImport(metafile, file);
  const bundleKb = toKb(loaded.reduce((sum, output) => sum + output.bytes, 0));
  const lazyKb = toKb(
    Object.entries(metafile.outputs)
      .filter(([name, output]) => name.endsWith('.mjs') && !loaded.includes(output))
      .reduce((sum, [, output]) => sum + output.bytes, 0),
  );
  const searches = Object.keys(metafile.inputs).some((input) => input.includes(`node_modules/${SEARCH_CLIENT_PACKAGE}/`));
  return { file, base: { function: group, bundleKb, lazyKb, searches, topPackages: packageShares(loaded) } };
}

/**
 * Imports every bundle once per round, round after round, so that a spell of load on the machine (they come and
 * go here) slows every function's samples alike instead of all of one function's; a function whose import fails
 * is reported with the error and left out of later rounds.
 */
async function measureAll(built: readonly BuiltFunction[]): Promise<FunctionResult[]> {
  const samples = new Map<string, ImportSample[]>(built.map((fn) => [fn.file, []]));
  const errors = new Map<string, string>();
  for (let pass = 0; pass < WARMUP_SAMPLES + SAMPLES; pass++) {
    process.stderr.write(`import round ${pass + 1} of ${WARMUP_SAMPLES + SAMPLES}...\n`);
    for (const fn of built.filter((candidate) => !errors.has(candidate.file))) {
      try {
        const sample = await importOnce(fn.file, fn.base.function);
        if (pass >= WARMUP_SAMPLES) samples.get(fn.file)!.push(sample);
      } catch (error) {
        errors.set(fn.file, error instanceof Error ? error.message : String(error));
      }
    }
  }
  return built.map(({ file, base }) => {
    const error = errors.get(file);
    if (error !== undefined) {
      return { ...base, coldImportMedianMs: null, coldImportMinMs: null, samplesMs: [], withinTargets: base.searches ? null : false, networkAfterImport: [], error };
    }
    const taken = samples.get(file)!;
    const samplesMs = taken.map((sample) => round(sample.ms));
    const medianMs = round(median(samplesMs));
    return {
      ...base,
      coldImportMedianMs: medianMs,
      coldImportMinMs: Math.min(...samplesMs),
      samplesMs,
      withinTargets: base.searches ? null : base.bundleKb < TARGET_KB && medianMs < TARGET_MS,
      networkAfterImport: [...new Set(taken.flatMap((sample) => sample.network))],
    };
  });
}

function markdownTable(results: readonly FunctionResult[]): string {
  const rows = results.map((result) => {
    const ms = (value: number | null) => (value === null ? 'n/a' : value.toFixed(1));
    const verdict = result.error
      ? `no (import failed: ${result.error.replaceAll('|', '\\|').replaceAll('\n', ' ')})`
      : result.withinTargets === null
        ? 'n/a (searches)'
        : result.withinTargets
          ? 'yes'
          : 'no';
    return `| ${result.function} | ${result.bundleKb.toFixed(1)} | ${result.lazyKb.toFixed(1)} | ${ms(result.coldImportMedianMs)} | ${ms(result.coldImportMinMs)} | ${verdict} |`;
  });
  return [
    `| function | bundle KB | lazy chunks KB | cold import median ms | min ms | within targets (< ${TARGET_KB} KB, < ${TARGET_MS} ms; functions that do not search) |`,
    '| --- | ---: | ---: | ---: | ---: | --- |',
    ...rows,
  ].join('\n');
}


interface ImagingFiles {
  files: { name: string; kb: number }[];
  totalKb: number;
}

interface ImagingAsset extends ImagingFiles {
  renderMs: { file: string; medianMs: number }[];
  renderP50Ms: number;
  renderP95Ms: number;
}

/**
 * The files the imaging functions ({@link IMAGING_FUNCTIONS}) carry beside `index.mjs`, built in `dir` as the CDK
 * builds them (lib/bundling/imaging-asset.ts: the worker, pdf.js's data, the canvas package and its arm64
 * binary), with their sizes. To run here, `dir` also gets this machine's canvas binary.
 */
async function buildImagingAsset(dir: string): Promise<ImagingFiles> {
  const modules = path.join(REPO_ROOT, 'node_modules');
  addImagingFiles(dir, 'arm64');
  const arm64 = nativePackageDir('arm64');
  const sizeKb = (target: string): number => Number(execFileSync('du', ['-sk', target], { encoding: 'utf8' }).split('\t')[0]);
  const files = [
    { name: 'thumbnail-worker.mjs', kb: toKb((await stat(path.join(dir, 'thumbnail-worker.mjs'))).size) },
    { name: 'thumbnail-worker.mjs.map', kb: toKb((await stat(path.join(dir, 'thumbnail-worker.mjs.map'))).size) },
    ...PDFJS_DATA_FOLDERS.map((folder) => ({ name: `pdfjs/${folder}/`, kb: sizeKb(path.join(dir, 'pdfjs', folder)) })),
    { name: 'node_modules/@napi-rs/canvas/ (JavaScript)', kb: sizeKb(path.join(dir, 'node_modules', '@napi-rs', 'canvas')) },
    { name: 'node_modules/@napi-rs/canvas-linux-arm64-gnu/ (skia.linux-arm64-gnu.node)', kb: sizeKb(arm64) },
  ];
  // To run here, the bundled worker gets this machine's binary.
  const host = path.join(modules, '@napi-rs', `canvas-${process.platform}-${process.arch}-gnu`);
  cpSync(host, path.join(dir, 'node_modules', '@napi-rs', path.basename(host)), { recursive: true });
  return { files, totalKb: round(files.reduce((sum, file) => sum + file.kb, 0)) };
}

/**
 * The imaging asset built in `dir` ({@link buildImagingAsset}), and the render time per thumbnail of its bundled
 * worker: the corpus's PDFs and PNGs at 256x256, 5 renders after one.
 */
async function imagingAsset(dir: string, built: ImagingFiles): Promise<ImagingAsset> {
  const corpus = path.resolve(REPO_ROOT, '..', 'shared', 'corpus', 'ocrmypdf');
  const pool = new ImagingPool({ size: 1, workerUrl: pathToFileURL(path.join(dir, 'thumbnail-worker.mjs')) });
  const renderer = new CanvasThumbnailRenderer({ pool, timeoutMs: 60_000 });
  const renderMs: { file: string; medianMs: number }[] = [];
  const all: number[] = [];
  try {
    for (const file of (await readdir(corpus)).filter((name) => /\.(pdf|png)$/.test(name)).sort()) {
      const bytes = new Uint8Array(readFileSync(path.join(corpus, file)));
      const once = async (): Promise<number | undefined> => {
        const started = performance.now();
        try {
          await renderer.render(bytes, 'application/octet-stream', { width: 256, height: 256 });
          return performance.now() - started;
        } catch {
          return undefined; // refused (hugemono, invalid): not a render time
        }
      };
      if ((await once()) === undefined) continue;
      const samples: number[] = [];
      for (let i = 0; i < 5; i++) samples.push((await once()) ?? Number.NaN);
      all.push(...samples);
      renderMs.push({ file, medianMs: round(median(samples)) });
    }
  } finally {
    await pool.close();
  }
  return {
    ...built,
    renderMs,
    renderP50Ms: round(percentile(all, 50)),
    renderP95Ms: round(percentile(all, 95)),
  };
}

async function main(): Promise<void> {
  const { groups, skipped } = await findGroups();
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'lambda-bundles-'));
  try {
    // Built first: the imaging functions' imports need its files beside their bundles.
    process.stderr.write('building the imaging asset...\n');
    const imagingDir = path.join(outDir, 'imaging-asset');
    const imagingFiles = await buildImagingAsset(imagingDir);
    const built: BuiltFunction[] = [];
    for (const group of IMAGING_ONLY ? [] : groups) {
      process.stderr.write(`bundling ${group}...\n`);
      built.push(await buildFunction(group, outDir, imagingDir));
    }
    const results = await measureAll(built);

    console.log(markdownTable(results));
    console.log();
    console.log(
      `Bundle KB: what a cold start loads, the entry's .mjs and the chunks it imports statically (1 KB = 1024 ` +
        `bytes, source maps not counted); lazy chunks: what only an import() loads, when it runs. Cold import: median and min of ` +
        `${SAMPLES} fresh node ${process.version} processes (after ${WARMUP_SAMPLES} discarded), ${os.cpus().length} cores` +
        (AS_DEPLOYED
          ? ', with --enable-source-maps and a Lambda\'s environment (the OpenTelemetry tracing and the JSON logger load), as deployed.'
          : WITH_SOURCE_MAPS
            ? ', with --enable-source-maps.'
            : ', without source maps nor a Lambda\'s environment (run with --as-deployed for both).'),
    );
    if (skipped.length > 0) console.log(`Skipped (no index.ts): ${skipped.join(', ')}.`);
    for (const result of results.filter((r) => r.networkAfterImport.length > 0)) {
      console.log(`Warning: ${result.function} starts network I/O at import: ${result.networkAfterImport.join(', ')}.`);
    }

    process.stderr.write('rendering with the imaging asset\'s worker...\n');
    const imaging = await imagingAsset(imagingDir, imagingFiles);
    console.log('\nImaging asset (documents and ocr-worker functions, beside index.mjs):\n');
    console.log(['| file | KB |', '| --- | ---: |', ...imaging.files.map((file) => `| ${file.name} | ${file.kb} |`), `| **total** | ${imaging.totalKb} |`].join('\n'));
    console.log(`\nRender time per thumbnail with the bundled worker (256x256 PNG, median of 5 after one): p50 ${imaging.renderP50Ms} ms, p95 ${imaging.renderP95Ms} ms.`);
    console.log(['| file | median ms |', '| --- | ---: |', ...imaging.renderMs.map((row) => `| ${row.file} | ${row.medianMs} |`)].join('\n'));

    await mkdir(path.dirname(RESULTS_FILE), { recursive: true });
    const report = {
      imaging,
      measuredAt: new Date().toISOString(),
      machine: { node: process.version, platform: `${process.platform}-${process.arch}`, cores: os.cpus().length },
      nodeFlags: NODE_FLAGS,
      lambdaEnvironment: AS_DEPLOYED,
      targets: { bundleKb: TARGET_KB, coldImportMs: TARGET_MS },
      samplesPerFunction: SAMPLES,
      skipped,
      results,
    };
    await writeFile(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`Written: ${path.relative(REPO_ROOT, RESULTS_FILE)}`);
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

await main();
