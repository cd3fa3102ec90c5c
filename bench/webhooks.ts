/**
 * Webhooks (issue 36): how soon a change reaches an endpoint, and whether one failing endpoint slows the others.
 *
 * Each run starts the local runtime (`bin/local.ts`) as a child process on a free port with a temp DATA_DIR (rate
 * limits out of reach, as the e2e suites run it), logs in as the admin it sets, and registers loopback receivers
 * (`test/support/webhook-receiver.ts`, in this process) with `POST /api/webhooks` for `document.uploaded`. Every
 * upload is a distinct 8x8 PNG with `ocr_enabled=false`. A receiver stamps a request when its body has arrived
 * (`performance.now()`, the clock the uploads are timed with); only an endpoint's first request per document counts.
 *
 * 1. Latency: one healthy endpoint, N uploads one after the other, one started every `--spacing` ms (250 by
 *    default: about 4 a second, so the machine is not saturated). Upload answered (201) → received, and the
 *    document's `created_at` (the runtime's clock, before the write) → received. Target: p95 < 1 s.
 * 2. Isolation: 10 endpoints, uploads at a fixed rate (open loop: each is sent on schedule, whether the earlier
 *    ones have answered or not) for `--seconds`. Each upload is one `document.uploaded` for each of the 10
 *    endpoints, so the default 100 uploads a minute make 1,000 deliveries a minute. Three runs, each on a fresh
 *    runtime (a failing endpoint's backlog of retries would otherwise outlive its run): all 10 healthy (baseline);
 *    endpoint 0 answering 500 to everything; endpoint 0 never answering (the sender gives up after 10 s). The
 *    healthy endpoints' (1-9 in every run) latency, upload answered → received, is compared with the baseline's.
 *    Target: healthy p95 unchanged.
 *
 * Usage: npx tsx bench/webhooks.ts [--quick] [--samples=200] [--spacing=250] [--rate=100] [--seconds=60] [--isolation-only]
 *   --rate is uploads a minute in the isolation runs (x10 endpoints = deliveries a minute).
 * Results: bench/results/webhooks.json (webhooks.quick.json with --quick, webhooks[.quick].rate-N.json with --rate=N).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync, crc32 } from 'node:zlib';
import { ApiClient } from '../test/support/api-client';
import { startRuntimeProcess, type RuntimeProcess } from '../test/support/runtime-process';
import { startWebhookReceiver, type Answer, type WebhookReceiver } from '../test/support/webhook-receiver';
import { watchNoise, type Noise } from './support/machine';
import { percentile, round, seededRandom } from './support/stats';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const ADMIN = { username: 'bench-admin', password: 'bench-admin-password' };
const LATENCY_TARGET_P95_MS = 1000;
/** Healthy p95 "unchanged": within this factor of the baseline's (noise on a shared 2-core machine). */
const UNCHANGED_RATIO = 1.25;
const ENDPOINTS = 10;
/** After the last upload, how long the bench waits for the healthy endpoints' deliveries before counting them lost. */
const DRAIN_MS = 30_000;

const QUICK = process.argv.includes('--quick');
const arg = (name: string, fallback: number) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const SAMPLES = arg('samples', QUICK ? 60 : 200);
const SPACING_MS = arg('spacing', 250);
const RATE_PER_MINUTE = arg('rate', 100);
const SECONDS = arg('seconds', QUICK ? 20 : 60);
const WARMUP = 5;
/** Skip the latency run (for isolation runs at other rates). */
const ISOLATION_ONLY = process.argv.includes('--isolation-only');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A valid 8x8 RGB PNG of random pixels: a different file (sha256) for every upload. */
function tinyPng(random: () => number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(8, 0);
  header.writeUInt32BE(8, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc(8 * (1 + 8 * 3));
  for (let i = 0; i < rows.length; i++) rows[i] = i % (1 + 8 * 3) === 0 ? 0 : Math.floor(random() * 256);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A receiver that stamps the first `document.uploaded` per document (performance.now()) and answers as told. */
interface TimedReceiver {
  receiver: WebhookReceiver;
  /** document id → when its first request had arrived. */
  arrivals: Map<string, number>;
  /** document id → its `created_at` as the payload carries it (epoch ms). */
  createdAt: Map<string, number>;
  requests: () => number;
}

async function timedReceiver(answer: (n: number) => Answer = () => 200): Promise<TimedReceiver> {
  const arrivals = new Map<string, number>();
  const createdAt = new Map<string, number>();
  const receiver = await startWebhookReceiver((n, webhook) => {
    const at = performance.now();
    const id = webhook.json.data?.document?.id as string | undefined;
    if (webhook.json.type === 'document.uploaded' && id && !arrivals.has(id)) {
      arrivals.set(id, at);
      createdAt.set(id, Date.parse(webhook.json.data.document.created_at as string));
    }
    return answer(n);
  });
  return { receiver, arrivals, createdAt, requests: () => receiver.received.length };
}

interface Upload {
  id: string;
  sent: number;
  answered: number;
}

async function upload(admin: ApiClient, random: () => number, i: number): Promise<Upload> {
  const form = new FormData();
  form.append('ocr_enabled', 'false');
  form.append('file', new Blob([tinyPng(random)]), `hook-${i}.png`);
  const sent = performance.now();
  const response = await admin.upload('/api/documents/upload', form);
  const answered = performance.now();
  if (response.status !== 201) throw new Error(`upload ${i}: ${response.status} ${JSON.stringify(response.body)}`);
  return { id: response.body.id, sent, answered };
}

async function withRuntime<T>(run: (runtime: RuntimeProcess, admin: ApiClient) => Promise<T>): Promise<T> {
  const runtime = await startRuntimeProcess({ env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password } });
  try {
    const admin = await new ApiClient(runtime.baseUrl).login(ADMIN.username, ADMIN.password);
    return await run(runtime, admin);
  } finally {
    await runtime.stop();
  }
}

async function register(admin: ApiClient, url: string): Promise<void> {
  const created = await admin.post('/api/webhooks', { url, events: ['document.uploaded'] });
  if (created.status !== 201) throw new Error(`POST /api/webhooks: ${created.status} ${JSON.stringify(created.body)}`);
}

async function waitFor(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (!done()) {
    if (performance.now() > deadline) return false;
    await sleep(5);
  }
  return true;
}

const stats = (values: number[]) =>
  values.length
    ? { p50_ms: round(percentile(values, 50)), p95_ms: round(percentile(values, 95)), max_ms: round(Math.max(...values)), samples: values.length }
    : { p50_ms: NaN, p95_ms: NaN, max_ms: NaN, samples: 0 };

const noiseOf = (noise: Noise) => ({ load_at_start: round(noise.loadAtStart, 2), other_cores: round(noise.otherCores, 2) });

/** 1. Upload answered → the endpoint has `document.uploaded`, one healthy endpoint, uploads spaced out. */
async function measureLatency() {
  return withRuntime(async (_runtime, admin) => {
    const target = await timedReceiver();
    try {
      await register(admin, target.receiver.url);
      const random = seededRandom(36);
      const watching = watchNoise();
      const uploads: Upload[] = [];
      for (let i = 0; i < SAMPLES + WARMUP; i++) {
        const due = performance.now() + SPACING_MS;
        const done = await upload(admin, random, i);
        if (i >= WARMUP) uploads.push(done);
        await sleep(Math.max(0, due - performance.now()));
      }
      const all = await waitFor(() => uploads.every((u) => target.arrivals.has(u.id)), DRAIN_MS);
      const noise = watching.stop();
      const got = uploads.filter((u) => target.arrivals.has(u.id));
      const fromAnswer = got.map((u) => target.arrivals.get(u.id)! - u.answered);
      const fromCreated = got.map((u) => performance.timeOrigin + target.arrivals.get(u.id)! - target.createdAt.get(u.id)!);
      const fromSent = got.map((u) => target.arrivals.get(u.id)! - u.sent);
      return {
        uploads: uploads.length,
        spacing_ms: SPACING_MS,
        delivered: got.length,
        all_delivered: all,
        upload_answered_to_received: stats(fromAnswer),
        created_at_to_received: stats(fromCreated),
        upload_sent_to_received: stats(fromSent),
        upload_ms: stats(uploads.map((u) => u.answered - u.sent)),
        requests_received: target.requests(),
        noise: noiseOf(noise),
      };
    } finally {
      await target.receiver.close();
    }
  });
}

type Variant = 'baseline (10 healthy)' | 'endpoint 0 answers 500' | 'endpoint 0 hangs';

/** 2. 10 endpoints, endpoint 0 healthy, failing with 500, or hanging; uploads at a fixed rate. */
async function measureIsolation(variant: Variant) {
  const failing: (n: number) => Answer = variant === 'endpoint 0 answers 500' ? () => 500 : variant === 'endpoint 0 hangs' ? () => 'hang' : () => 200;
  return withRuntime(async (_runtime, admin) => {
    const receivers = [await timedReceiver(failing)];
    for (let i = 1; i < ENDPOINTS; i++) receivers.push(await timedReceiver());
    const healthy = receivers.slice(1);
    try {
      for (const r of receivers) await register(admin, r.receiver.url);
      const random = seededRandom(3600);
      // Warm-up: a few uploads, each waited for at every healthy endpoint (endpoint 0 too in the baseline).
      for (let i = 0; i < WARMUP; i++) {
        const { id } = await upload(admin, random, -1 - i);
        await waitFor(() => healthy.every((r) => r.arrivals.has(id)), 10_000);
      }
      await sleep(1000);
      const failingBefore = receivers[0]!.requests();

      const watching = watchNoise();
      const intervalMs = 60_000 / RATE_PER_MINUTE;
      const count = Math.round((SECONDS * RATE_PER_MINUTE) / 60);
      const started = performance.now();
      const pending: Promise<Upload>[] = [];
      let maxOpen = 0;
      let open = 0;
      for (let i = 0; i < count; i++) {
        await sleep(Math.max(0, started + i * intervalMs - performance.now()));
        open++;
        maxOpen = Math.max(maxOpen, open);
        pending.push(upload(admin, random, i).finally(() => open--));
      }
      const uploads = await Promise.all(pending);
      const lastAnswered = Math.max(...uploads.map((u) => u.answered));
      const uploadSeconds = (lastAnswered - started) / 1000;
      const all = await waitFor(() => uploads.every((u) => healthy.every((r) => r.arrivals.has(u.id))), DRAIN_MS);
      const noise = watching.stop();

      const latencies: number[] = [];
      let missing = 0;
      for (const u of uploads) {
        for (const r of healthy) {
          const at = r.arrivals.get(u.id);
          if (at === undefined) missing++;
          else latencies.push(at - u.answered);
        }
      }
      // What the pipeline sustained: healthy deliveries from the first upload's send to the last one received.
      const lastArrival = Math.max(...healthy.flatMap((r) => uploads.map((u) => r.arrivals.get(u.id) ?? 0)));
      const healthyDelivered = uploads.length * healthy.length - missing;
      const perEndpoint = healthy.map((r, i) => ({
        endpoint: i + 1,
        ...stats(uploads.filter((u) => r.arrivals.has(u.id)).map((u) => r.arrivals.get(u.id)! - u.answered)),
      }));
      const endpoint0 = receivers[0]!;
      return {
        variant,
        uploads: uploads.length,
        planned_uploads_per_minute: RATE_PER_MINUTE,
        achieved_uploads_per_minute: round((uploads.length / uploadSeconds) * 60),
        achieved_deliveries_per_minute: round(((uploads.length * ENDPOINTS) / uploadSeconds) * 60),
        upload_seconds: round(uploadSeconds, 1),
        healthy_delivered_per_minute: round((healthyDelivered / ((lastArrival - started) / 1000)) * 60),
        uploads_open_at_once_max: maxOpen,
        upload_ms: stats(uploads.map((u) => u.answered - u.sent)),
        healthy_answered_to_received: stats(latencies),
        healthy_share_over_5s: round(latencies.filter((ms) => ms > 5000).length / Math.max(1, latencies.length), 3),
        healthy_by_endpoint: perEndpoint,
        healthy_missing_after_drain: missing,
        all_healthy_delivered: all,
        endpoint0_requests: endpoint0.requests() - failingBefore,
        endpoint0_documents_reached: uploads.filter((u) => endpoint0.arrivals.has(u.id)).length,
        endpoint0_max_open: endpoint0.receiver.maxOpen(),
        noise: noiseOf(noise),
      };
    } finally {
      await Promise.all(receivers.map((r) => r.receiver.close()));
    }
  });
}

async function main(): Promise<void> {
  const begun = performance.now();
  if (!ISOLATION_ONLY) console.log(`latency: ${SAMPLES} uploads, one every ${SPACING_MS} ms, one endpoint`);
  const latency = ISOLATION_ONLY ? null : await measureLatency();
  if (latency) console.log(`  answered → received p50 ${latency.upload_answered_to_received.p50_ms} ms, p95 ${latency.upload_answered_to_received.p95_ms} ms`);
  const isolation: Awaited<ReturnType<typeof measureIsolation>>[] = [];
  for (const variant of ['baseline (10 healthy)', 'endpoint 0 answers 500', 'endpoint 0 hangs'] as Variant[]) {
    console.log(`isolation: ${variant}, ${RATE_PER_MINUTE} uploads/min x ${ENDPOINTS} endpoints for ${SECONDS} s`);
    const result = await measureIsolation(variant);
    console.log(
      `  ${result.achieved_uploads_per_minute} uploads/min achieved; healthy p50 ${result.healthy_answered_to_received.p50_ms} ms, p95 ${result.healthy_answered_to_received.p95_ms} ms, ${result.healthy_missing_after_drain} missing`,
    );
    isolation.push(result);
  }
  const baselineP95 = isolation[0]!.healthy_answered_to_received.p95_ms;
  const latencyP95 = latency?.upload_answered_to_received.p95_ms ?? NaN;
  const report = {
    date: new Date().toISOString(),
    quick: QUICK,
    machine: { cores: os.cpus().length, platform: `${os.platform()} ${os.arch()}`, node: process.version },
    latency: latency && { ...latency, target: { p95_ms: LATENCY_TARGET_P95_MS, met: latencyP95 < LATENCY_TARGET_P95_MS } },
    isolation: isolation.map((r) => ({
      ...r,
      healthy_p95_ratio_to_baseline: round(r.healthy_answered_to_received.p95_ms / baselineP95, 2),
      healthy_p50_ratio_to_baseline: round(r.healthy_answered_to_received.p50_ms / isolation[0]!.healthy_answered_to_received.p50_ms, 2),
    })),
    isolation_target: {
      healthy_p95_unchanged_within: UNCHANGED_RATIO,
      met: isolation.every((r) => r.healthy_answered_to_received.p95_ms <= baselineP95 * UNCHANGED_RATIO && r.healthy_missing_after_drain === 0),
    },
    total_seconds: round((performance.now() - begun) / 1000, 1),
  };

  const l = report.latency;
  if (l) {
  console.log('\n| latency, 1 endpoint | p50 ms | p95 ms | max ms | samples | target |');
  console.log('| --- | ---: | ---: | ---: | ---: | --- |');
  const row = (name: string, s: ReturnType<typeof stats>, target = '') => console.log(`| ${name} | ${s.p50_ms} | ${s.p95_ms} | ${s.max_ms} | ${s.samples} | ${target} |`);
  row('upload answered (201) → received', l.upload_answered_to_received, `p95 < 1 s: ${l.target.met ? 'yes' : '**no**'}`);
  row('created_at → received', l.created_at_to_received);
  row('upload sent → received', l.upload_sent_to_received);
  row('upload request itself', l.upload_ms);
  }

  console.log('\n| isolation run | uploads/min (deliveries/min) achieved | healthy delivered/min | healthy p50 ms | healthy p95 ms | p95 / baseline | healthy max ms | healthy > 5 s | healthy missing | endpoint 0 requests | upload p95 ms | other load (cores) |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of report.isolation) {
    const h = r.healthy_answered_to_received;
    console.log(
      `| ${r.variant} | ${r.achieved_uploads_per_minute} (${r.achieved_deliveries_per_minute}) | ${r.healthy_delivered_per_minute} | ${h.p50_ms} | ${h.p95_ms} | ${r.healthy_p95_ratio_to_baseline}x | ${h.max_ms} | ${round(r.healthy_share_over_5s * 100)} % | ${r.healthy_missing_after_drain} | ${r.endpoint0_requests} | ${r.upload_ms.p95_ms} | ${r.noise.other_cores} |`,
    );
  }
  console.log('\nhealthy p50 ms by endpoint (1-9, in the order they were registered):');
  for (const r of report.isolation) console.log(`  ${r.variant}: ${r.healthy_by_endpoint.map((e) => e.p50_ms).join(' ')}`);
  console.log(`\nisolation target (healthy p95 within ${UNCHANGED_RATIO}x of the baseline, none missing): ${report.isolation_target.met ? 'met' : '**missed**'}; ${report.total_seconds} s in all`);

  const suffix = [QUICK ? 'quick' : '', process.argv.some((a) => a.startsWith('--rate=')) ? `rate-${RATE_PER_MINUTE}` : ''].filter(Boolean).join('.');
  const file = path.join(REPO_ROOT, 'bench', 'results', suffix ? `webhooks.${suffix}.json` : 'webhooks.json');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`written ${path.relative(REPO_ROOT, file)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
