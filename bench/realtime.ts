/**
 * Real-time channel at 500 clients: how long an event takes from being emitted to reaching the last client,
 * and what a connection costs the runtime in memory.
 *
 * Starts the local runtime (`bin/local.ts`) as a child process on a free port with a temp DATA_DIR and
 * LOG_LEVEL=debug, registers 100 users, opens 5 authenticated WebSocket connections for each (the per-user
 * limit) and then, per round, renames one document (`PUT /api/documents/{id}`), which emits `document_updated`
 * to everyone. The publisher logs each event it publishes (`event published`, with `emitted_at` in epoch ms);
 * the bench reads that line from the child's output and compares it with its own clock (same machine) when each
 * client has the event. The older, upper-bound measure from the moment the PUT is sent is reported too, with
 * the PUT's own time without any client connected, and the floor of the SDK path: the same number of sends
 * through the runtime's @connections sender when the endpoint answers at once.
 *
 * Usage: npx tsx bench/realtime.ts [--clients=500] [--rounds=50] [--delivery=sdk|direct] (LOCAL_EVENT_DELIVERY).
 * Results: bench/results/realtime.json, or realtime.direct.json.
 */
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import WebSocket from 'ws';
import { ApiGatewayConnectionSender } from '../shared/adapters/aws/api-gateway-connection-sender';
import { createConnectionsClient } from '../shared/adapters/aws/clients';
import { EVENT_SEND_TIMEOUT_MS } from '../shared/container/app-container';
import { ApiClient } from '../test/support/api-client';
import { startRuntimeProcess } from '../test/support/runtime-process';
import { percentile, round } from './support/stats';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const resultsFile = (delivery: string) =>
  path.join(REPO_ROOT, 'bench', 'results', delivery === 'sdk' ? 'realtime.json' : `realtime.${delivery}.json`);
const ADMIN = { username: 'bench-admin', password: 'bench-admin-password' };
const PER_USER = 5;
const TARGET_P95_MS = 100;

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
      const started = epochMs();
      const response = await admin.put(`/api/documents/${documentId}`, { title });
      const answered = epochMs();
      if (response.status !== 200) throw new Error(`PUT failed: ${JSON.stringify(response.body)}`);
      return { started, answered, putMs: answered - started };
    };
    /**
     * The publication of the PUT sent at `started`: the PUT waits for it, so it was emitted before the answer.
     * Finding it inside that window also checks that the two processes' clocks agree.
     */
    const publicationOf = async (started: number, answered: number): Promise<Publication> => {
      const deadline = Date.now() + 5000;
      for (;;) {
        const found = published.find(
          (p) => p.event === 'document_updated' && p.emitted_at >= started && p.emitted_at <= answered,
        );
        if (found) return found;
        if (Date.now() > deadline) throw new Error('no "event published" line inside the PUT: is LOG_LEVEL=debug passed on?');
        await new Promise((r) => setTimeout(r, 2));
      }
    };

    // The PUT alone: no client connected, so the publisher finds nobody to send to.
    const baseline: number[] = [];
    for (let i = 0; i < 20; i++) baseline.push((await rename(`baseline ${i}`)).putMs);

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

    const toLast: number[] = [];
    const toFirst: number[] = [];
    const putToLast: number[] = [];
    const putToFirst: number[] = [];
    const putToEmit: number[] = [];
    const sendsSettled: number[] = [];
    const puts: number[] = [];
    for (let i = 0; i < ROUNDS + 5; i++) {
      const title = `round ${i}`;
      const { started, answered, putMs } = await rename(title);
      const deadline = Date.now() + 10_000;
      while ((arrivals.get(title)?.length ?? 0) < CLIENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
      const got = arrivals.get(title) ?? [];
      if (got.length < CLIENTS) throw new Error(`round ${i}: ${got.length} of ${CLIENTS} clients got the event`);
      const publication = await publicationOf(started, answered);
      if (publication.targets !== CLIENTS) throw new Error(`round ${i}: published to ${publication.targets} connections`);
      if (i < 5) continue; // warm-up
      toLast.push(Math.max(...got) - publication.emitted_at);
      toFirst.push(Math.min(...got) - publication.emitted_at);
      putToLast.push(Math.max(...got) - started);
      putToFirst.push(Math.min(...got) - started);
      putToEmit.push(publication.emitted_at - started);
      sendsSettled.push(publication.duration_ms);
      puts.push(putMs);
    }

    const stats = (values: number[]) => ({
      p50: round(percentile(values, 50)),
      p95: round(percentile(values, 95)),
      max: round(Math.max(...values)),
    });
    const report = {
      delivery: DELIVERY,
      clients: CLIENTS,
      rounds: ROUNDS,
      emitted_to_last_client_ms: stats(toLast),
      emitted_to_first_client_ms: stats(toFirst),
      emitted_to_sends_settled_ms: stats(sendsSettled),
      put_sent_to_last_client_ms: stats(putToLast),
      put_sent_to_first_client_ms: stats(putToFirst),
      put_sent_to_emitted_ms: stats(putToEmit),
      put_with_clients_ms: stats(puts),
      put_without_clients_ms: stats(baseline),
      sdk_only_sends_ms: stats(floor),
      runtime_rss_kb: { before: rssBefore, after: rssAfter, per_connection_kb: round((rssAfter - rssBefore) / CLIENTS) },
      target: { emitted_to_last_client_p95_ms: TARGET_P95_MS, met: percentile(toLast, 95) < TARGET_P95_MS },
      node: process.version,
    };
    await mkdir(path.dirname(resultsFile(DELIVERY)), { recursive: true });
    await writeFile(resultsFile(DELIVERY), `${JSON.stringify(report, null, 2)}\n`);
    const row = (label: string, values: { p50: number; p95: number }) => console.log(`| ${label} | ${values.p50} ms | ${values.p95} ms |`);
    console.log(`| measure (${CLIENTS} clients, ${ROUNDS} rounds, LOCAL_EVENT_DELIVERY=${DELIVERY}) | p50 | p95 |`);
    console.log('| --- | ---: | ---: |');
    row('emitted → last client has document_updated', report.emitted_to_last_client_ms);
    row('emitted → first client has it', report.emitted_to_first_client_ms);
    row('emitted → every send settled (publisher)', report.emitted_to_sends_settled_ms);
    row('PUT sent → last client has it', report.put_sent_to_last_client_ms);
    row('PUT sent → first client has it', report.put_sent_to_first_client_ms);
    row('PUT sent → emitted', report.put_sent_to_emitted_ms);
    row(`PUT response, ${CLIENTS} clients`, report.put_with_clients_ms);
    row('PUT response, no client', report.put_without_clients_ms);
    row(`${CLIENTS} sends through the SDK client alone (endpoint answers at once)`, report.sdk_only_sends_ms);
    console.log(
      `\nRuntime RSS ${rssBefore} KB → ${rssAfter} KB with ${CLIENTS} connections: ${report.runtime_rss_kb.per_connection_kb} KB per connection.`,
    );
    console.log(`Target p95 < ${TARGET_P95_MS} ms: ${report.target.met ? 'met' : 'missed'}.`);
  } finally {
    for (const socket of sockets) socket.terminate();
    await runtime.stop();
  }
}

await main();
