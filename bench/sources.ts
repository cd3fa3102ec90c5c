/**
 * Sources (issue 14): how fast a WebDAV source syncs, against the local runtime started as a child process
 * (`bin/local.ts`, as the README starts it) on a free port and a temp DATA_DIR.
 *
 *   npx tsx bench/sources.ts              (or: npm run bench:sources) 10,000 files in 200 directories
 *   npx tsx bench/sources.ts --files=1000 --dirs=20   a smaller tree (files spread evenly over the directories)
 *   npx tsx bench/sources.ts --nested=10  the directories under 10 parent directories (root/pNN/dNNN/), not the root
 *
 * The tree is written to a temp dir before Apache httpd with mod_dav starts on it (test/support/webdav-servers.ts:
 * as root Apache runs as www-data and takes the tree over with chown), and the source points at a recording proxy
 * in front of Apache, which counts PROPFINDs and GETs. Every file is a distinct small PNG (each its own width and
 * height, so its own bytes: equal bytes would be counted as duplicates, not documents).
 *
 * Three syncs are measured: (1) the first (files/s = new / (finished_at - started_at) of the sync status, and the
 * wall time from POST /api/sources to the status reading completed); (2) a resync with nothing changed (PROPFINDs,
 * GETs: target 0, wall time: target < 2 s); (3) a resync after 10 files were overwritten through the server with
 * new bytes (GETs: target exactly 10, and the counts). The documents' OCR jobs run meanwhile (a sync does not ask
 * for OCR to be skipped): the CPU seconds of the runtime's tree by part are reported for each phase.
 *
 * Results: bench/results/sources.json, or sources.files-N.dirs-M[.nested-K].json for other sizes.
 * The bench reports; it exits non-zero only when it crashes itself.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiClient } from '../test/support/api-client';
import { pngImage } from '../test/support/fixtures';
import { startRuntimeProcess, type RuntimeProcess } from '../test/support/runtime-process';
import { startRecordingProxy, type RecordingProxy } from '../test/support/webdav-proxy';
import { startApacheDav, type RunningDav } from '../test/support/webdav-servers';
import { putFile } from '../test/support/webdav-tree';
import { cpuByPart, watchNoise, type Noise } from './support/machine';
import { round } from './support/stats';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const optionValue = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const wholeOption = (name: string, fallback: number): number => {
  const value = Number(optionValue(name) ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name}=${optionValue(name)}: a whole number >= 1`);
  return value;
};
const FILES = wholeOption('files', 10_000);
const DIRS = wholeOption('dirs', 200);
const NESTED = optionValue('nested') === undefined ? 0 : wholeOption('nested', 1);
const DEFAULT_SIZE = FILES === 10_000 && DIRS === 200 && NESTED === 0;
const RESULTS_FILE = path.join(
  REPO_ROOT,
  'bench',
  'results',
  DEFAULT_SIZE ? 'sources.json' : `sources.files-${FILES}.dirs-${DIRS}${NESTED ? `.nested-${NESTED}` : ''}.json`,
);

const ADMIN = { username: 'benchadmin', password: 'bench-admin-password' };
const DAV_CREDENTIALS = { username: 'bench', password: 'bench-dav-password' };
const CHANGED_FILES = 10;
const TARGET_NOCHANGE_SECONDS = 2;
/** A first sync of 10,000 files may take many minutes on a loaded machine. */
const SYNC_TIMEOUT_MS = 60 * 60_000;

/** GET /api/sources/{id}/sync-status, as far as the bench reads it. */
interface SyncStatus {
  job_id: string;
  state: 'queued' | 'running' | 'completed' | 'failed';
  processed: number;
  total: number;
  new: number;
  changed: number;
  unchanged: number;
  skipped: number;
  duplicates: number;
  failed: number;
  errors?: unknown[];
  started_at: string;
  finished_at: string;
}

interface TreeFile {
  path: string;
  bytes: number;
}

/** Directory d (0-based) of the tree, relative, ending in a slash. */
const directoryOf = (d: number): string => {
  const leaf = `d${String(d).padStart(3, '0')}/`;
  return NESTED ? `p${String(d % NESTED).padStart(2, '0')}/${leaf}` : leaf;
};

/**
 * A PNG no other file of the tree has: width and height from the index (100 widths by as many heights as needed),
 * so the IHDR and the pixels differ. `variant` 1 gives the changed files' new bytes, outside that range.
 */
const uniquePng = (index: number, variant = 0): Buffer =>
  variant === 0 ? pngImage(8 + (index % 100), 8 + Math.floor(index / 100)) : pngImage(120 + index, 3);

async function writeTree(root: string): Promise<TreeFile[]> {
  const files: TreeFile[] = [];
  for (let d = 0; d < DIRS; d++) await mkdir(path.join(root, directoryOf(d)), { recursive: true });
  for (let i = 0; i < FILES; i++) {
    const relative = `${directoryOf(i % DIRS)}f${String(i).padStart(5, '0')}.png`;
    const bytes = uniquePng(i);
    await writeFile(path.join(root, relative), bytes);
    files.push({ path: relative, bytes: bytes.length });
  }
  return files;
}

/** Polls the sync status until the sync with `jobId` (or the current one) is completed or failed. */
async function finishedSync(api: ApiClient, sourceId: string, jobId: string | undefined, pollMs: number, onProgress?: (s: SyncStatus) => void) {
  const deadline = Date.now() + SYNC_TIMEOUT_MS;
  for (;;) {
    const status = await api.get(`/api/sources/${sourceId}/sync-status`);
    if (status.status === 200 && (!jobId || status.body.job_id === jobId)) {
      const body = status.body as SyncStatus;
      if (body.state === 'completed' || body.state === 'failed') return body;
      onProgress?.(body);
    }
    if (Date.now() > deadline) throw new Error(`the sync did not finish: ${JSON.stringify(status.body)}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

interface PhaseResult {
  phase: string;
  wallSeconds: number;
  /** finished_at - started_at of the sync status. */
  syncSeconds: number;
  filesPerSecond: number | null;
  propfinds: number;
  gets: number;
  status: Pick<SyncStatus, 'state' | 'processed' | 'total' | 'new' | 'changed' | 'unchanged' | 'skipped' | 'duplicates' | 'failed'>;
  errors: unknown[];
  /** CPU seconds of the runtime's process tree during the phase, by process name. */
  runtimeCpu: Record<string, number>;
  noise: Noise;
}

const cpuDelta = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.entries(after).map(([name, seconds]) => [name, round(seconds - (before[name] ?? 0), 1)]).filter(([, s]) => Number(s) > 0));

/** Runs one sync (`start` sends the request and gives the job id, if any) and measures it. */
async function measure(phase: string, ctx: { api: ApiClient; proxy: RecordingProxy; runtime: RuntimeProcess }, sourceId: () => string, start: () => Promise<string | undefined>, pollMs: number): Promise<PhaseResult> {
  ctx.proxy.clear();
  const cpuBefore = cpuByPart(ctx.runtime.child.pid!);
  const noise = watchNoise();
  const started = performance.now();
  const jobId = await start();
  let lastReport = 0;
  const status = await finishedSync(ctx.api, sourceId(), jobId, pollMs, (progress) => {
    if (Date.now() - lastReport < 30_000) return;
    lastReport = Date.now();
    process.stderr.write(`  ${phase}: ${progress.state} ${progress.processed}/${progress.total} (new ${progress.new})\n`);
  });
  const wallSeconds = (performance.now() - started) / 1000;
  const syncSeconds = (Date.parse(status.finished_at) - Date.parse(status.started_at)) / 1000;
  const { state, processed, total, new: added, changed, unchanged, skipped, duplicates, failed } = status;
  return {
    phase,
    wallSeconds: round(wallSeconds, 2),
    syncSeconds: round(syncSeconds, 2),
    filesPerSecond: added > 0 && syncSeconds > 0 ? round(added / syncSeconds, 1) : null,
    propfinds: ctx.proxy.propfinds(),
    gets: ctx.proxy.gets(),
    status: { state, processed, total, new: added, changed, unchanged, skipped, duplicates, failed },
    errors: (status.errors ?? []).slice(0, 20),
    runtimeCpu: cpuDelta(cpuBefore, cpuByPart(ctx.runtime.child.pid!)),
    noise: noise.stop(),
  };
}

function markdownTable(phases: readonly PhaseResult[]): string {
  const rows = [
    '| sync | wall s | sync s | files/s | PROPFINDs | GETs | new | changed | unchanged | skipped | duplicates | failed | target |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  const target = (p: PhaseResult, i: number) =>
    i === 1
      ? `GETs 0, < ${TARGET_NOCHANGE_SECONDS} s: ${p.gets === 0 && p.wallSeconds < TARGET_NOCHANGE_SECONDS ? 'met' : '**not met**'}`
      : i === 2
        ? `GETs = ${CHANGED_FILES}: ${p.gets === CHANGED_FILES ? 'met' : '**not met**'}`
        : '';
  phases.forEach((p, i) => {
    const s = p.status;
    rows.push(
      `| ${p.phase} | ${p.wallSeconds} | ${p.syncSeconds} | ${p.filesPerSecond ?? ''} | ${p.propfinds} | ${p.gets} | ${s.new} | ${s.changed} | ${s.unchanged} | ${s.skipped} | ${s.duplicates} | ${s.failed} | ${target(p, i)} |`,
    );
  });
  return rows.join('\n');
}

/**
 * Lines of the runtime's output that look like warnings or errors (LOG_LEVEL=warn prints only those anyway): the
 * first 25 (where a failure starts) and the last 25.
 */
const logWarnings = (output: string): string[] => {
  const lines = output.split('\n').filter((line) => /warn|error|fail/i.test(line));
  return lines.length <= 50 ? lines : [...lines.slice(0, 25), `... ${lines.length - 50} more ...`, ...lines.slice(-25)];
};

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'bench-sources-tree-'));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-sources-'));
  let dav: RunningDav | undefined;
  let proxy: RecordingProxy | undefined;
  let runtime: RuntimeProcess | undefined;
  const cleanUp = async () => {
    await runtime?.stop();
    await proxy?.stop();
    await dav?.stop();
    await rm(root, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  };
  // Ctrl-C must not leave the runtime, its JVM and Apache behind.
  const interrupted = () => void cleanUp().finally(() => process.exit(130));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    process.stderr.write(`writing ${FILES} PNGs in ${DIRS} directories${NESTED ? ` under ${NESTED} parents` : ''}...\n`);
    const files = await writeTree(root);
    dav = await startApacheDav({ root, ...DAV_CREDENTIALS });
    proxy = await startRecordingProxy(dav.url);
    process.stderr.write('starting the local runtime...\n');
    runtime = await startRuntimeProcess({ dataDir, env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, JWT_TTL_SECONDS: '86400' } });
    const login = await new ApiClient(runtime.baseUrl).post('/api/auth/login', ADMIN);
    if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
    const ctx = { api: new ApiClient(runtime.baseUrl).withToken(login.body.token), proxy, runtime };

    let sourceId = '';
    const phases: PhaseResult[] = [];
    process.stderr.write('first sync...\n');
    phases.push(
      await measure('first', ctx, () => sourceId, async () => {
        const created = await ctx.api.post('/api/sources', {
          name: 'Bench share',
          type: 'webdav',
          url: proxy!.url,
          ...DAV_CREDENTIALS,
          sync_interval: 86_400,
          recursive: true,
          file_patterns: ['*.png'],
        });
        if (created.status !== 201) throw new Error(`source not created: ${created.status} ${JSON.stringify(created.body)}`);
        sourceId = created.body.id;
        return undefined;
      }, 500),
    );
    const resync = async () => {
      const started = await ctx.api.post(`/api/sources/${sourceId}/sync`);
      if (started.status !== 202) throw new Error(`sync not started: ${started.status} ${JSON.stringify(started.body)}`);
      return started.body.job_id as string;
    };
    process.stderr.write('resync, nothing changed...\n');
    phases.push(await measure('resync, nothing changed', ctx, () => sourceId, resync, 50));
    // One changed file in each of 10 directories spread over the tree (or fewer directories in a small tree).
    const step = Math.max(1, Math.floor(FILES / CHANGED_FILES));
    const changed = Array.from({ length: CHANGED_FILES }, (_, j) => files[(j * step + Math.floor(j * DIRS / CHANGED_FILES)) % FILES]!);
    for (const [j, file] of changed.entries()) await putFile(dav, file.path, uniquePng(j, 1));
    process.stderr.write(`resync, ${CHANGED_FILES} files changed...\n`);
    phases.push(await measure(`resync, ${CHANGED_FILES} changed`, ctx, () => sourceId, resync, 50));

    const warnings = logWarnings(runtime.output());
    console.log(markdownTable(phases));
    console.log();
    for (const p of phases) {
      console.log(`${p.phase}: runtime CPU s ${JSON.stringify(p.runtimeCpu)}; other work ${p.noise.otherCores.toFixed(2)} cores, load at start ${p.noise.loadAtStart.toFixed(1)}`);
      if (p.errors.length > 0) console.log(`  sync errors: ${JSON.stringify(p.errors)}`);
    }
    console.log(`Runtime log warnings/errors (first and last): ${warnings.length ? `\n  ${[...warnings.slice(0, 5), '...', ...warnings.slice(-5)].join('\n  ')}` : 'none'}`);
    console.log(`Tree: ${FILES} PNGs (${files.reduce((sum, f) => sum + f.bytes, 0)} bytes) in ${DIRS} directories${NESTED ? ` under ${NESTED} parents` : ''}.`);
    console.log(`Machine: ${os.cpus().length} cores, ${process.platform}-${process.arch}, Node ${process.version}.`);

    await mkdir(path.dirname(RESULTS_FILE), { recursive: true });
    const report = {
      measuredAt: new Date().toISOString(),
      machine: { node: process.version, platform: `${process.platform}-${process.arch}`, cores: os.cpus().length },
      tree: { files: FILES, dirs: DIRS, nested: NESTED, bytes: files.reduce((sum, f) => sum + f.bytes, 0) },
      targets: { nochangeGets: 0, nochangeSeconds: TARGET_NOCHANGE_SECONDS, changedGets: CHANGED_FILES },
      changedFiles: changed.map((file) => file.path),
      phases,
      runtimeWarnings: warnings,
    };
    await writeFile(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`Written: ${path.relative(REPO_ROOT, RESULTS_FILE)}`);
  } catch (error) {
    if (runtime) process.stderr.write(`runtime (${runtime.child.exitCode ?? runtime.child.signalCode ?? 'still running'}), last output:\n${runtime.output().slice(-4000)}\n`);
    throw error;
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await cleanUp();
  }
}

await main();
