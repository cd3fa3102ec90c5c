/**
 * The hostile-file corpus (test/support/hostile-files.ts) run whole through the local runtime (issue 12): every
 * file uploaded with OCR on, and thumbnails of each asked at two sizes at once, while /api/health is polled and
 * the runtime's memory sampled. Too long for `npm test` (about three minutes), so it is a bench that asserts.
 *
 *   npx tsx bench/hostile-files.ts
 *
 * Invariants, each a bound this bench fails (exit code 1) when missed:
 * - every document reaches a terminal status (`completed` or `failed`) within TERMINAL_WITHIN_MS of its upload;
 * - every thumbnail request is answered, and never with a 5xx other than 503, within THUMBNAIL_WITHIN_MS;
 * - /api/health answers within 2 s throughout (polled every 200 ms);
 * - the runtime's node process (main thread and imaging workers) peaks below RSS_BOUND_MB, its VmHWM:
 *   400 MB + IMAGING_WORKERS x 2 x IMAGING_WORKER_MEMORY_MB (each worker's heap cap and native cap); the whole
 *   process tree (with DynamoDB Local's JVM, tesseract and pdftoppm) is sampled every 250 ms and reported, and
 *   bounded by that plus TREE_EXTRA_MB.
 * Then the attacks of the second security review (issue 42: nested wildcards in file patterns, WebSocket
 * floods, held request bodies, a huge WebDAV listing; bench/support/hostile-attacks.ts), one after another at the
 * review's strength, each with the same health bound, and the malformed-frames flood with an RSS growth bound of
 * 64 MB. The e2e suites run the same attacks and assert what the service does; these bounds are the timed part.
 * Writes `bench/results/hostile-files.json`.
 */
import { readFile, readdir, mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiClient } from '../test/support/api-client';
import { hostileFiles } from '../test/support/hostile-files';
import { startRuntimeProcess } from '../test/support/runtime-process';
import { runHostileAttacks } from './support/hostile-attacks';
import { percentile, round } from './support/stats';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS_FILE = path.join(REPO_ROOT, 'bench', 'results', 'hostile-files.json');
const IMAGING_WORKERS = 2;
const IMAGING_WORKER_MEMORY_MB = 512;
const HEALTH_WITHIN_MS = 2000;
const TERMINAL_WITHIN_MS = 300_000;
/** The render timeout (8 s) and the longest wait for a worker (10 s), with slack for a loaded machine. */
const THUMBNAIL_WITHIN_MS = 30_000;
const RSS_BOUND_MB = 400 + IMAGING_WORKERS * 2 * IMAGING_WORKER_MEMORY_MB;
const TREE_EXTRA_MB = 1024;
/** What an attack may add to the runtime's RSS (test/e2e/websocket-flood.test.ts asserts the behaviour that bounds it). */
const ATTACK_RSS_GROWTH_BOUND_MB: Record<string, number> = { "200,000 frames of '{' unread": 64 };

/** RSS in MB of `pid` and of every process below it, from /proc. */
const treeRssMb = async (pid: number): Promise<{ own: number; tree: number }> => {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = await readFile(`/proc/${entry}/status`, 'utf8');
      const parent = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
      rss.set(Number(entry), Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  let tree = 0;
  const stack = [pid];
  while (stack.length) {
    const next = stack.pop()!;
    tree += rss.get(next) ?? 0;
    stack.push(...(children.get(next) ?? []));
  }
  return { own: rss.get(pid) ?? 0, tree };
};

const peakOwnMb = async (pid: number): Promise<number> =>
  Number(/VmHWM:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

interface FileResult {
  name: string;
  kb: number;
  upload: number;
  thumbnails: { status: number; ms: number; reason?: string }[];
  status?: string;
  failureReason?: string;
  terminalMs?: number;
}

async function main(): Promise<void> {
  const runtime = await startRuntimeProcess({
    env: {
      ADMIN_USERNAME: 'hostile-admin',
      ADMIN_PASSWORD: 'hostile-admin-password',
      IMAGING_WORKERS: String(IMAGING_WORKERS),
      IMAGING_WORKER_MEMORY_MB: String(IMAGING_WORKER_MEMORY_MB),
    },
  });
  const pid = runtime.child.pid!;
  const client = await new ApiClient(runtime.baseUrl).login('hostile-admin', 'hostile-admin-password');
  const health: number[] = [];
  const healthNotOk = new Map<number, number>();
  let peakTree = 0;
  let running = true;

  const pollHealth = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${runtime.baseUrl}/api/health`).catch(() => undefined);
      await response?.arrayBuffer();
      // Answering is the invariant (a degraded dependency may make it 503); no answer at all counts as never.
      health.push(response ? performance.now() - started : Number.POSITIVE_INFINITY);
      if (response && !response.ok) healthNotOk.set(response.status, (healthNotOk.get(response.status) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  const sampleMemory = (async () => {
    while (running) {
      peakTree = Math.max(peakTree, (await treeRssMb(pid)).tree);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();

  const started = performance.now();
  const results = await Promise.all(
    hostileFiles().map(async ({ name, bytes }): Promise<FileResult> => {
      const result: FileResult = { name, kb: round(bytes.length / 1024), upload: 0, thumbnails: [] };
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)]), name);
      const upload = await client.upload('/api/documents/upload', form);
      result.upload = upload.status;
      if (upload.status !== 201) return result;
      const id = upload.body.id as string;
      const uploadedAt = performance.now();
      const thumbnails = Promise.all(
        [96, 97].map(async (side) => {
          const begun = performance.now();
          const response = await client.get(`/api/documents/${id}/thumbnail?width=${side}&height=${side}`);
          const reason = (response.body as { error?: { details?: { reason?: string } } })?.error?.details?.reason;
          return { status: response.status, ms: round(performance.now() - begun), ...(reason ? { reason } : {}) };
        }),
      );
      for (;;) {
        const document = (await client.get(`/api/documents/${id}`)).body as { status: string; failure_reason?: string };
        if (document.status === 'completed' || document.status === 'failed') {
          result.status = document.status;
          result.failureReason = document.failure_reason;
          result.terminalMs = round(performance.now() - uploadedAt);
          break;
        }
        if (performance.now() - uploadedAt > TERMINAL_WITHIN_MS) {
          result.status = document.status;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      result.thumbnails = await thumbnails;
      return result;
    }),
  );
  const totalMs = performance.now() - started;
  running = false;
  await Promise.all([pollHealth, sampleMemory]);
  const attacks = await runHostileAttacks(runtime, client);
  const peakOwn = await peakOwnMb(pid);
  await runtime.stop();
  // The runtime logs each health check over 500 ms with every probe's time (shared/domain/health/health.ts).
  const slowChecks = runtime
    .output()
    .split('\n')
    .filter((line) => line.includes('"slow health check"'))
    .map((line) => JSON.parse(line) as { duration_ms: number; probes: Record<string, { duration_ms: number; state: string }> })
    .sort((a, b) => b.duration_ms - a.duration_ms);

  const failures: string[] = [];
  const rows = results.map((result) => {
    if (result.upload === 201 && result.terminalMs === undefined) failures.push(`${result.name} not terminal within ${TERMINAL_WITHIN_MS} ms`);
    for (const thumbnail of result.thumbnails) {
      if ((thumbnail.status >= 500 && thumbnail.status !== 503) || thumbnail.ms > THUMBNAIL_WITHIN_MS) {
        failures.push(`${result.name} thumbnail ${thumbnail.status} in ${thumbnail.ms} ms`);
      }
    }
    const thumbs = result.thumbnails.map((t) => `${t.status} (${t.ms} ms)`).join(', ');
    const reason = (result.failureReason ?? result.thumbnails.find((t) => t.reason)?.reason ?? '').replaceAll('|', '\\|').slice(0, 80);
    return `| ${result.name} | ${result.kb} | ${result.upload} | ${thumbs} | ${result.status ?? '-'} | ${result.terminalMs === undefined ? '-' : round(result.terminalMs / 1000)} | ${reason} |`;
  });
  for (const attack of attacks) {
    if (attack.watch.slowestHealthMs > HEALTH_WITHIN_MS || attack.watch.unhealthy > 0) {
      failures.push(`${attack.name}: /api/health took ${round(attack.watch.slowestHealthMs)} ms, ${attack.watch.unhealthy} unhealthy`);
    }
    const growthMb = (attack.watch.peakRssBytes - attack.watch.rssBeforeBytes) / 2 ** 20;
    const boundMb = ATTACK_RSS_GROWTH_BOUND_MB[attack.name];
    if (boundMb !== undefined && growthMb > boundMb) failures.push(`${attack.name}: runtime RSS grew ${round(growthMb)} MB > ${boundMb} MB`);
  }
  const healthMax = Math.max(...health);
  if (healthMax > HEALTH_WITHIN_MS) failures.push(`/api/health took ${round(healthMax)} ms`);
  if (peakOwn > RSS_BOUND_MB) failures.push(`runtime peak RSS ${round(peakOwn)} MB > ${RSS_BOUND_MB} MB`);
  if (peakTree > RSS_BOUND_MB + TREE_EXTRA_MB) failures.push(`process tree peak RSS ${round(peakTree)} MB > ${RSS_BOUND_MB + TREE_EXTRA_MB} MB`);

  console.log(['| file | KB | upload | thumbnails 96, 97 | status | s to terminal | reason |', '| --- | ---: | --- | --- | --- | ---: | --- |', ...rows].join('\n'));
  console.log(
    `\nWhole corpus: ${round(totalMs / 1000)} s. /api/health: ${health.length} polls, p50 ${round(percentile(health, 50))} ms, ` +
      `p99 ${round(percentile(health, 99))} ms, max ${round(healthMax)} ms (bound ${HEALTH_WITHIN_MS} ms); ` +
      `answers other than 200: ${JSON.stringify(Object.fromEntries(healthNotOk))}.`,
  );
  console.log(
    `Slow health checks logged (over 500 ms): ${slowChecks.length}` +
      slowChecks
        .slice(0, 5)
        .map((check) => `\n  ${check.duration_ms} ms: ${Object.entries(check.probes).map(([name, probe]) => `${name} ${probe.duration_ms} ms ${probe.state}`).join(', ')}`)
        .join(''),
  );
  console.log(
    `Peak RSS: runtime node process ${round(peakOwn)} MB (VmHWM; bound ${RSS_BOUND_MB} MB = 400 + ${IMAGING_WORKERS} workers x 2 x ${IMAGING_WORKER_MEMORY_MB} MB), ` +
      `process tree ${round(peakTree)} MB sampled (bound ${RSS_BOUND_MB + TREE_EXTRA_MB} MB).`,
  );
  console.log(
    ['\n| attack | outcome | slowest health, ms | unhealthy | RSS before, peak, MB |', '| --- | --- | ---: | ---: | --- |']
      .concat(
        attacks.map(
          ({ name, outcome, watch }) =>
            `| ${name} | ${outcome} | ${round(watch.slowestHealthMs)} | ${watch.unhealthy} | ${round(watch.rssBeforeBytes / 2 ** 20)}, ${round(watch.peakRssBytes / 2 ** 20)} |`,
        ),
      )
      .join('\n'),
  );
  await mkdir(path.dirname(RESULTS_FILE), { recursive: true });
  await writeFile(
    RESULTS_FILE,
    `${JSON.stringify({ measuredAt: new Date().toISOString(), totalMs: round(totalMs), health: { polls: health.length, maxMs: round(healthMax), p99Ms: round(percentile(health, 99)), slowChecks: slowChecks.slice(0, 20) }, peakRssMb: { runtime: round(peakOwn), tree: round(peakTree) }, attacks, bounds: { TERMINAL_WITHIN_MS, THUMBNAIL_WITHIN_MS, HEALTH_WITHIN_MS, RSS_BOUND_MB, TREE_EXTRA_MB }, results, failures }, null, 1)}\n`,
  );
  if (failures.length) {
    console.log(`\nFAILED: ${failures.join('; ')}`);
    process.exitCode = 1;
  } else console.log('\nEvery bound held.');
}

await main();
