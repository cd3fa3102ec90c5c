/**
 * Real-time channel at 500 clients: how long an event takes from the table write that causes it to reaching the
 * last client, and what a connection costs the runtime in memory.
 *
 * Starts the local runtime (`bin/local.ts`) as a child process on a free port with a temp DATA_DIR and
 * LOG_LEVEL=debug, registers 100 users, opens 5 authenticated WebSocket connections for each (the per-user
 * limit) and then, per round, renames one document (`PUT /api/documents/{id}`). Since issue 17 the PUT only
 * writes the table: the `events` consumer reads the change from the table's stream (the local stream poller,
 * woken after the write) and publishes `document_updated` to everyone, after the PUT has answered.
 *
 * The write happens inside the PUT, so write → last client is bracketed: from the PUT's answer (a lower bound)
 * and from the document's `updated_at` (stamped by the runtime before it reads and writes the item: an upper
 * bound, tighter than the PUT's start, also reported). The publisher logs each event it publishes (`event
 * published`, with `emitted_at` in epoch ms), which the bench reads from the child's output: emitted → last
 * client is the fan-out alone, PUT answered → emitted the stream pipeline's lag. Also the PUT's own time without
 * any client connected, and the floor of the SDK path: the same number of sends through the runtime's
 * @connections sender when the endpoint answers at once.
 *
 * Usage: npx tsx bench/realtime.ts [--clients=500] [--rounds=50] [--delivery=sdk|direct] (LOCAL_EVENT_DELIVERY).
 * Results: bench/results/realtime.json, or realtime.direct.json. */
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import WebSocket from 'ws';
import { ApiGatewayConnectionSender } from '../shared/adapters/aws/apigateway/connection-sender';
import { createConnectionsClient } from '../shared/adapters/aws/clients';
import { EVENT_SEND_TIMEOUT_MS } from '../shared/container/kit/event-hub';
import { ApiClient } from '../test/support/api-client';
import { startRuntimeProcess } from '../test/support/runtime-process';
import { watchNoise } from './support/machine';
import { percentile, round } from './support/stats';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const resultsFile = (delivery: string) =>
  path.join(REPO_ROOT, 'bench', 'results', delivery === 'sdk' ? 'realtime.json' : `realtime.${delivery}.json`);
const ADMIN = { username: 'bench-admin', password: 'bench-admin-password' };
const PER_USER = 5;
/** Issue 17: the table write → the last of 500 clients, p95. */
const TARGET_WRITE_P95_MS = 150;
/** The earlier target, for the fan-out alone (the publisher called → the last client). */
const TARGET_EMITTED_P95_MS = 100;

const arg = (name: string, fallback: number) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const DELIVERY = process.argv.find((a) => a.startsWith('--delivery='))?.split('=')[1] ?? 'sdk';
if (!['sdk', 'direct'].includes(DELIVERY)) throw new Error('--delivery is sdk or direct');
const CLIENTS = arg('clients', 500);
const ROUNDS = arg('rounds', 50);

/** Epoch milliseconds with sub-millisecond precision, as the runtime stamps `emitted_at`. */
const epochMs = () => performance.timeOrigin + performance.now();

interface Publication {
  event: string;
  targets: number;
  emitted_at: number;
  duration_ms: number;
}

/** Collects the `event published` lines the runtime logs (LOG_LEVEL=debug) as they come. */
function publicationsOf(stdout: NodeJS.ReadableStream): Publication[] {
  const found: Publication[] = [];
  let partial = '';
  stdout.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.includes('"event published"')) found.push(JSON.parse(line) as Publication);
  });
  return found;
}

/** Resident memory of a process in KB, from /proc (Linux). */
async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

/** An authenticated client that stamps the arrival of each document_updated by title. */
async function connect(wsUrl: string, token: string, arrivals: Map<string, number[]>): Promise<WebSocket> {
  const socket = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const authed = new Promise<void>((resolve, reject) =>
    socket.once('message', (data) => {
      const reply = JSON.parse(data.toString());
      if (reply.type === 'auth_success') resolve();
      else reject(new Error(`auth failed: ${data.toString()}`));
    }),
  );
  socket.send(JSON.stringify({ type: 'auth', token }));
  await authed;
  socket.on('message', (data) => {
    const at = epochMs();
    const message = JSON.parse(data.toString());
    if (message.type !== 'document_updated') return;
    const title = message.data.changes?.title as string;
    const list = arrivals.get(title) ?? [];
    list.push(at);
    arrivals.set(title, list);
  });
  return socket;
}

/**
 * The floor under any local result: 500 sends through the runtime's sender and SDK client when the endpoint
 * answers at once, with no socket or gateway involved. Measured in this process before the runtime starts.
 */
async function sdkFloor(): Promise<number[]> {
  const client = createConnectionsClient({
    endpoint: 'http://127.0.0.1:9',
    region: 'us-east-1',
    credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
    requestTimeoutMs: EVENT_SEND_TIMEOUT_MS,
  });
  // Swapped before the first send, which is when the client builds (and caches) its handler chain.
  client.config.requestHandler = {
    handle: async () => ({ response: { statusCode: 200, headers: {}, body: Readable.from([]) } }),
    updateHttpClientConfig: () => undefined,
    httpHandlerConfigs: () => ({}),
  } as unknown as typeof client.config.requestHandler;
  const sender = new ApiGatewayConnectionSender(() => client);
  const message = JSON.stringify({ type: 'document_updated', data: { document_id: crypto.randomUUID(), changes: { title: 'floor' } } });
  const times: number[] = [];
  for (let round = 0; round < ROUNDS + 5; round++) {
    const started = performance.now();
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => sender.send(`connection-${i}`, message)));
    if (round >= 5) times.push(performance.now() - started);
  }
  return times;
}

async function main(): Promise<void> {
  const floor = await sdkFloor();
  const watching = watchNoise();
  const begun = performance.now();
  const runtime = await startRuntimeProcess({
    env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'debug', LOG_FORMAT: 'json', LOCAL_EVENT_DELIVERY: DELIVERY },
  });
  const published = publicationsOf(runtime.child.stdout!);
  const sockets: WebSocket[] = [];
  try {
    const anonymous = new ApiClient(runtime.baseUrl);
    const admin = await anonymous.login(ADMIN.username, ADMIN.password);
    const scan = await readFile(path.join(REPO_ROOT, '..', 'shared', 'corpus', 'ocrmypdf', 'linn.png'));
    const documentId = await admin.uploadDocument('bench.png', scan, { ocr_enabled: 'false' });
    const rename = async (title: string) => {
      const seen = published.length;
      const started = epochMs();
      const response = await admin.put(`/api/documents/${documentId}`, { title });
      const answered = epochMs();
      if (response.status !== 200) throw new Error(`PUT failed: ${JSON.stringify(response.body)}`);
      // Stamped by the runtime's clock (ms) before it reads and writes the item: no later than the write.
      const updatedAt = Date.parse(response.body.updated_at as string);
      // Checked against the PUT's window, with 2 ms for the two processes' clocks (Date's and timeOrigin-based).
      if (!(updatedAt >= started - 2 && updatedAt <= answered + 2)) {
        throw new Error(`updated_at ${response.body.updated_at} outside the PUT (${started}..${answered}): do the clocks agree?`);
      }
      return { seen, started, answered, updatedAt, putMs: answered - started };
    };
    /**
     * The publication of a rename: the events consumer publishes after the PUT has answered, one change at a
     * time in the stream's order, and each round waits for the previous one's, so it is the first
     * `document_updated` logged after the PUT was sent. Emitted after the PUT's start also checks that the two
     * processes' clocks agree.
     */
    const publicationOf = async (seen: number, started: number): Promise<Publication> => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = published.slice(seen).find((p) => p.event === 'document_updated');
        if (found) {
          if (found.emitted_at < started) throw new Error(`a document_updated emitted before its PUT was sent (${found.emitted_at} < ${started})`);
          return found;
        }
        if (Date.now() > deadline) throw new Error('no "event published" line after the PUT: is LOG_LEVEL=debug passed on?');
        await new Promise((r) => setTimeout(r, 2));
      }
    };

    // The PUT alone and the pipeline with no client connected: the publisher finds nobody to send to. The
    // first 5 are a warm-up, and let what the upload set going (its own changes) drain from the stream.
    const baseline: number[] = [];
    const baselineToEmit: number[] = [];
    for (let i = 0; i < 25; i++) {
      const { seen, started, answered, putMs } = await rename(`baseline ${i}`);
      const publication = await publicationOf(seen, started);
      if (i < 5) continue;
      baseline.push(putMs);
      baselineToEmit.push(publication.emitted_at - answered);
    }

    const users = await Promise.all(
      Array.from({ length: Math.ceil(CLIENTS / PER_USER) }, () => admin.addMember('viewer', 'bench').then((u) => u.client.token!)),
    );
    const rssBefore = await rssKb(runtime.child.pid!);
    const arrivals = new Map<string, number[]>();
    const wsUrl = `${runtime.baseUrl.replace(/^http/, 'ws')}/ws`;
    for (let start = 0; start < CLIENTS; start += 50) {
      const batch = Array.from({ length: Math.min(50, CLIENTS - start) }, (_, i) => users[Math.floor((start + i) / PER_USER)]!);
      sockets.push(...(await Promise.all(batch.map((token) => connect(wsUrl, token, arrivals)))));
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssAfter = await rssKb(runtime.child.pid!);

    const m = {
      answeredToLast: [] as number[],
      updatedToLast: [] as number[],
      putToLast: [] as number[],
      toLast: [] as number[],
      toFirst: [] as number[],
      sendsSettled: [] as number[],
      answeredToEmit: [] as number[],
      updatedToEmit: [] as number[],
      puts: [] as number[],
    };
    for (let i = 0; i < ROUNDS + 5; i++) {
      const title = `round ${i}`;
      const { seen, started, answered, updatedAt, putMs } = await rename(title);
      const deadline = Date.now() + 10_000;
      while ((arrivals.get(title)?.length ?? 0) < CLIENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
      const got = arrivals.get(title) ?? [];
      if (got.length < CLIENTS) throw new Error(`round ${i}: ${got.length} of ${CLIENTS} clients got the event`);
      const publication = await publicationOf(seen, started);
      if (publication.targets !== CLIENTS) throw new Error(`round ${i}: published to ${publication.targets} connections`);
      if (publication.emitted_at > Math.min(...got)) throw new Error(`round ${i}: a client had the event before it was emitted`);
      if (i < 5) continue; // warm-up
      const last = Math.max(...got);
      m.answeredToLast.push(last - answered);
      m.updatedToLast.push(last - updatedAt);
      m.putToLast.push(last - started);
      m.toLast.push(last - publication.emitted_at);
      m.toFirst.push(Math.min(...got) - publication.emitted_at);
      m.sendsSettled.push(publication.duration_ms);
      m.answeredToEmit.push(publication.emitted_at - answered);
      m.updatedToEmit.push(publication.emitted_at - updatedAt);
      m.puts.push(putMs);
    }

    const noise = watching.stop();
    const stats = (values: number[]) => ({
      p50: round(percentile(values, 50)),
      p95: round(percentile(values, 95)),
      max: round(Math.max(...values)),
    });
    const lowerP95 = percentile(m.answeredToLast, 95);
    const upperP95 = percentile(m.updatedToLast, 95);
    const report = {
      delivery: DELIVERY,
      clients: CLIENTS,
      rounds: ROUNDS,
      put_answered_to_last_client_ms: stats(m.answeredToLast),
      updated_at_to_last_client_ms: stats(m.updatedToLast),
      put_sent_to_last_client_ms: stats(m.putToLast),
      emitted_to_last_client_ms: stats(m.toLast),
      emitted_to_first_client_ms: stats(m.toFirst),
      emitted_to_sends_settled_ms: stats(m.sendsSettled),
      put_answered_to_emitted_ms: stats(m.answeredToEmit),
      updated_at_to_emitted_ms: stats(m.updatedToEmit),
      put_answered_to_emitted_without_clients_ms: stats(baselineToEmit),
      put_with_clients_ms: stats(m.puts),
      put_without_clients_ms: stats(baseline),
      sdk_only_sends_ms: stats(floor),
      runtime_rss_kb: { before: rssBefore, after: rssAfter, per_connection_kb: round((rssAfter - rssBefore) / CLIENTS) },
      targets: {
        // The write lies between updated_at and the PUT's answer: the target is met when the upper bound meets
        // it, missed when even the lower bound misses it, and open in between.
        write_to_last_client_p95_ms: TARGET_WRITE_P95_MS,
        write_to_last_client: upperP95 < TARGET_WRITE_P95_MS ? 'met' : lowerP95 >= TARGET_WRITE_P95_MS ? 'missed' : 'between the bounds',
        emitted_to_last_client_p95_ms: TARGET_EMITTED_P95_MS,
        emitted_to_last_client_met: percentile(m.toLast, 95) < TARGET_EMITTED_P95_MS,
      },
      elapsed_s: round((performance.now() - begun) / 1000),
      machine: { cpus: os.cpus().length, node: process.version, load_at_start: round(noise.loadAtStart, 2), other_work_cores: round(noise.otherCores, 2) },
    };
    await mkdir(path.dirname(resultsFile(DELIVERY)), { recursive: true });
    await writeFile(resultsFile(DELIVERY), `${JSON.stringify(report, null, 2)}\n`);
    const row = (label: string, values: { p50: number; p95: number; max: number }) => console.log(`| ${label} | ${values.p50} ms | ${values.p95} ms | ${values.max} ms |`);
    console.log(`| measure (${CLIENTS} clients, ${ROUNDS} rounds, LOCAL_EVENT_DELIVERY=${DELIVERY}) | p50 | p95 | max |`);
    console.log('| --- | ---: | ---: | ---: |');
    row('PUT answered → last client has document_updated (write → last, lower bound)', report.put_answered_to_last_client_ms);
    row('updated_at → last client (write → last, upper bound)', report.updated_at_to_last_client_ms);
    row('PUT sent → last client', report.put_sent_to_last_client_ms);
    row('emitted → last client (fan-out)', report.emitted_to_last_client_ms);
    row('emitted → first client', report.emitted_to_first_client_ms);
    row('emitted → every send settled (publisher)', report.emitted_to_sends_settled_ms);
    row('PUT answered → emitted (stream pipeline)', report.put_answered_to_emitted_ms);
    row('updated_at → emitted', report.updated_at_to_emitted_ms);
    row('PUT answered → emitted, no client', report.put_answered_to_emitted_without_clients_ms);
    row(`PUT response, ${CLIENTS} clients`, report.put_with_clients_ms);
    row('PUT response, no client', report.put_without_clients_ms);
    row(`${CLIENTS} sends through the SDK client alone (endpoint answers at once)`, report.sdk_only_sends_ms);
    console.log(
      `\nRuntime RSS ${rssBefore} KB → ${rssAfter} KB with ${CLIENTS} connections: ${report.runtime_rss_kb.per_connection_kb} KB per connection.`,
    );
    console.log(`Target write → last client p95 < ${TARGET_WRITE_P95_MS} ms: ${report.targets.write_to_last_client}.`);
    console.log(`Earlier target emitted → last client p95 < ${TARGET_EMITTED_P95_MS} ms: ${report.targets.emitted_to_last_client_met ? 'met' : 'missed'}.`);
    console.log(`Machine: load ${report.machine.load_at_start} at start, other work took ${report.machine.other_work_cores} of ${report.machine.cpus} cores.`);
  } finally {
    for (const socket of sockets) socket.terminate();
    await runtime.stop();
  }
}

await main();
