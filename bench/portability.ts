/**
 * Workspace export and import (issue 37): time and memory of an export of a large workspace and of its import
 * into another, against the local runtime started as a child process (`bin/local.ts`) on a free port and a temp
 * DATA_DIR.
 *
 *   npx tsx bench/portability.ts                      2,000 documents, 1 GB of original files
 *   npx tsx bench/portability.ts --documents=200 --mb=100   a smaller workspace
 *
 * The workspace is filled through the API (multipart uploads of distinct PNGs of random pixels, OCR off, so that
 * no OCR run competes with the measured phases), then exported (POST /api/workspace/exports until `completed`),
 * its archive downloaded to a temp file through the download link, announced, PUT through the presigned link
 * and imported into a new, empty workspace (until `completed`). The runtime's node process RSS is sampled every
 * 250 ms (/proc/<pid>/status VmRSS) in each phase: its peak is reported beside the RSS before it. The S3 and SQS
 * emulators run in threads of that process, so the emulator's share of a 1 GB PUT is in the figure.
 *
 * Results: bench/results/portability.json (portability.documents-N.mb-M.json for other sizes).
 * The bench reports; it exits non-zero only when it crashes itself.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { ApiClient } from '../test/support/api-client';
import { startRuntimeProcess } from '../test/support/runtime-process';
import { round } from './support/stats';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const optionValue = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const wholeOption = (name: string, fallback: number): number => {
  const value = Number(optionValue(name) ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name}=${optionValue(name)}: a whole number >= 1`);
  return value;
};
const DOCUMENTS = wholeOption('documents', 2000);
const MEGABYTES = wholeOption('mb', 1024);
const DEFAULT_SIZE = DOCUMENTS === 2000 && MEGABYTES === 1024;
const RESULTS_FILE = path.join(REPO_ROOT, 'bench', 'results', DEFAULT_SIZE ? 'portability.json' : `portability.documents-${DOCUMENTS}.mb-${MEGABYTES}.json`);
const UPLOADS_AT_ONCE = 4;
const PHASE_TIMEOUT_MS = 60 * 60_000;

const pngChunk = (type: string, data: Buffer): Buffer => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** A grey PNG of random pixels of about `bytes` bytes (random pixels do not compress): distinct for every call. */
function randomPng(bytes: number): Buffer {
  const width = 512;
  const height = Math.max(1, Math.round(bytes / (width + 1)));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8);
  header.writeUInt8(0, 9); // greyscale
  const rows = randomBytes((width + 1) * height);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0; // filter: none
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(rows, { level: 0 })), pngChunk('IEND', Buffer.alloc(0))]);
}

const rssMb = async (pid: number): Promise<number> => Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Runs `work` while sampling the process's RSS: the seconds it took, the RSS before and the peak during. */
async function measured<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; seconds: number; rssBeforeMb: number; rssPeakMb: number }> {
  const rssBeforeMb = await rssMb(pid);
  let rssPeakMb = rssBeforeMb;
  let running = true;
  const sampling = (async () => {
    while (running) {
      rssPeakMb = Math.max(rssPeakMb, await rssMb(pid));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const started = performance.now();
  try {
    const result = await work();
    return { result, seconds: round((performance.now() - started) / 1000), rssBeforeMb: round(rssBeforeMb), rssPeakMb: round(rssPeakMb) };
  } finally {
    running = false;
    await sampling;
  }
}

async function until<T>(poll: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + PHASE_TIMEOUT_MS;
  for (;;) {
    const value = await poll();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached: ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'portability-bench-'));
  const runtime = await startRuntimeProcess();
  const pid = runtime.child.pid!;
  try {
    const anonymous = new ApiClient(runtime.baseUrl);
    const { client: exporter } = await anonymous.signUp('exporter');
    const perDocument = Math.floor((MEGABYTES * 1024 * 1024) / DOCUMENTS);

    console.log(`Filling a workspace: ${DOCUMENTS} documents of about ${round(perDocument / 1024)} KB ...`);
    const fill = await measured(pid, async () => {
      let next = 0;
      let bytes = 0;
      await Promise.all(
        Array.from({ length: UPLOADS_AT_ONCE }, async () => {
          while (next < DOCUMENTS) {
            const index = next++;
            const png = randomPng(perDocument);
            bytes += png.byteLength;
            await exporter.uploadDocument(`scan-${index}.png`, png, { ocr_enabled: 'false' });
          }
        }),
      );
      return bytes;
    });

    console.log('Exporting ...');
    const exported = await measured(pid, async () => {
      const started = await exporter.post('/api/workspace/exports');
      return until(() => exporter.get(`/api/workspace/exports/${started.body.id}`), (r) => ['completed', 'failed'].includes(r.body.status), 'the export');
    });
    if (exported.result.body.status !== 'completed') throw new Error(`export failed: ${exported.result.body.failure_reason}`);
    const archivePath = path.join(work, 'archive.tar.gz');
    const download = await fetch(exported.result.body.download_url);
    await pipeline(Readable.fromWeb(download.body as never), createWriteStream(archivePath));
    const archiveBytes = (await stat(archivePath)).size;

    console.log(`Importing the ${round(archiveBytes / 1024 / 1024)} MB archive into an empty workspace ...`);
    const { client: importer } = await anonymous.signUp('importer');
    const grant = await importer.post('/api/workspace/imports', { size: archiveBytes });
    const upload = await measured(pid, async () => {
      const put = await fetch(grant.body.upload_url, { method: 'PUT', body: Readable.toWeb(createReadStream(archivePath)) as never, headers: { 'content-length': String(archiveBytes) }, duplex: 'half' } as RequestInit);
      if (!put.ok) throw new Error(`the archive's PUT answered ${put.status}`);
    });
    const imported = await measured(pid, async () => {
      const started = await importer.post(`/api/workspace/imports/${grant.body.id}/start`);
      if (started.status !== 202) throw new Error(`start answered ${started.status}: ${JSON.stringify(started.body)}`);
      return until(() => importer.get(`/api/workspace/imports/${grant.body.id}`), (r) => ['completed', 'failed'].includes(r.body.status), 'the import');
    });
    if (imported.result.body.status !== 'completed') throw new Error(`import failed: ${imported.result.body.failure_reason}`);

    const result = {
      documents: DOCUMENTS,
      original_bytes: fill.result,
      archive_bytes: archiveBytes,
      machine: { cpus: os.availableParallelism(), load_before: os.loadavg()[0] },
      fill: { seconds: fill.seconds, rss_before_mb: fill.rssBeforeMb, rss_peak_mb: fill.rssPeakMb },
      export: { seconds: exported.seconds, mb_per_second: round(fill.result / 1024 / 1024 / exported.seconds), rss_before_mb: exported.rssBeforeMb, rss_peak_mb: exported.rssPeakMb },
      archive_put: { seconds: upload.seconds, rss_before_mb: upload.rssBeforeMb, rss_peak_mb: upload.rssPeakMb },
      import: {
        seconds: imported.seconds,
        mb_per_second: round(fill.result / 1024 / 1024 / imported.seconds),
        rss_before_mb: imported.rssBeforeMb,
        rss_peak_mb: imported.rssPeakMb,
        result: imported.result.body.result,
      },
      measured_at: new Date().toISOString(),
    };
    await mkdir(path.dirname(RESULTS_FILE), { recursive: true });
    await writeFile(RESULTS_FILE, `${JSON.stringify(result, null, 2)}\n`);
    console.log(
      [
        '| phase | time, s | runtime RSS before → peak, MB |',
        '| --- | ---: | --- |',
        `| export (${DOCUMENTS} documents, ${round(fill.result / 1024 / 1024)} MB → ${round(archiveBytes / 1024 / 1024)} MB archive) | ${exported.seconds} | ${exported.rssBeforeMb} → ${exported.rssPeakMb} |`,
        `| archive PUT (presigned) | ${upload.seconds} | ${upload.rssBeforeMb} → ${upload.rssPeakMb} |`,
        `| import (validate, then write) | ${imported.seconds} | ${imported.rssBeforeMb} → ${imported.rssPeakMb} |`,
      ].join('\n'),
    );
    console.log(`Results: ${path.relative(REPO_ROOT, RESULTS_FILE)}`);
  } finally {
    await runtime.stop();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
