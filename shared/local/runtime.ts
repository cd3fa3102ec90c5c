import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { createAuthHandler } from '../../functions/auth/handler';
import { createDocumentsHandler } from '../../functions/documents/handler';
import { createFallbackHandler } from '../../functions/fallback/handler';
import { createIngestHandler } from '../../functions/ingest/handler';
import { createNotificationsHandler } from '../../functions/notifications/handler';
import { createOcrHandler } from '../../functions/ocr/handler';
import { createOcrSweeperHandler } from '../../functions/ocr-sweeper/handler';
import { createOcrWorkerHandler } from '../../functions/ocr-worker/handler';
import { createHealthHandler } from '../../functions/health/handler';
import { createLabelsHandler } from '../../functions/labels/handler';
import { createSearchHandler } from '../../functions/search/handler';
import { rebuildSearchIndex } from '../domain/search/rebuild-search-index';
import { logger } from '../observability/logger';
import { HTTP_ROUTES, SOURCE_SCHEDULE_MINUTES, type HttpGroup } from '../manifest';
import { createSourcesHandler } from '../../functions/sources/handler';
import { resumeRuleRuns } from '../domain/rules/resume-rule-runs';
import { createRuleJobsHandler } from '../../functions/rule-jobs/handler';
import { startLocalEraser } from './eraser-worker';
import { createSourceSyncHandler } from '../../functions/source-sync/handler';
import { createSourceSchedulerHandler } from '../../functions/source-scheduler/handler';
import { createSettingsHandler } from '../../functions/settings/handler';
import { createAuthDeadlineHandler, createRealtimeHandler } from '../../functions/realtime/handler';
import { createUsersHandler } from '../../functions/users/handler';
import { createWebhooksHandler } from '../../functions/webhooks/handler';
import { createPortabilityHandler } from '../../functions/portability/handler';
import { createPortabilityWorkerHandler } from '../../functions/portability-worker/handler';
import { resumePortabilityJobs } from '../domain/portability/resume-portability-jobs';
import { createWorkspacesHandler } from '../../functions/workspaces/handler';
import { createAuditHandler } from '../../functions/audit/handler';
import { createWebhookDeliveryHandler } from '../../functions/webhook-delivery/handler';
import { HttpWebhookSender } from '../adapters/webhooks/http-webhook-sender';
import { resumePendingDeliveries } from '../domain/webhooks/resume-deliveries';
import { createSqsClient } from '../adapters/aws/sqs/client';
import { LOCAL_OCR_POLLING } from './event-sources/ocr-polling';
import { startQueuePoller, type QueuePoller } from './event-sources/sqs-poller';
import { jsonMessageSender } from '../adapters/aws/sqs/send';
import { rebuildDepsOf } from '../../functions/indexer/deps';
import { LOCAL_OCR_JOBS, localParts } from './composition';
import { localHandlerDeps } from './handler-deps';
import { LOCAL_REGION, localClientOptions } from './local-clients';
import { forgetAllConnections } from '../domain/connections/forget-all-connections';
import type { EventHub } from '../domain/events/ports';
import { ensureAdmin, type EnsureAdminDeps } from '../domain/users/ensure-admin';
import type { HttpHandler } from '../http/pipeline';
import { adoptSharedDatabase, startDynamoDbLocal, type RunningEmulator } from './emulators/dynamodb-local';
import { startS3Emulator } from './emulators/s3-emulator';
import { startSqsEmulator } from './emulators/sqs-emulator';
import { createApiDocs } from './api-docs';
import { createConsoleSite } from './console-site';
import { CONSOLE_DIST } from '../../web/site';
import { createGateway } from './gateway';
import { timeOcrWorker } from './ocr-worker-timings';
import { S3EventForwarder } from './s3-event-forwarder';
import { RouteTable } from './route-table';
import { LocalWebSocketGateway } from './websocket-gateway';
import { fileSecret, randomSecret } from './secrets';
import { startChangeConsumers, type ChangeConsumers } from './change-consumers';
import { scheduleIndexReconciliation } from './index-reconciliation';
import type { LocalEnv } from './local-env';
import { dynamoDbCredentials, prepareDataDir, provision, RESOURCE_NAMES, scratchDirOf } from './local-resources';

const MIB = 1024 * 1024;

/** Sync steps locally: shorter than the cloud's, so that several sources' syncs take turns on the workers. */
const LOCAL_SYNC_STEP_SECONDS = 120;
/** Source syncs that run side by side (each streams one file at a time). */
const LOCAL_SYNC_WORKERS = 2;
/**
 * Webhook attempts in flight at once: each mostly waits on its endpoint, and one endpoint takes at most two of
 * them (EndpointSlots), so a dead endpoint leaves the rest to the others.
 */
const LOCAL_WEBHOOK_WORKERS = 8;
/** The local stand-in for the cloud's sweep schedule. */
const SWEEP_INTERVAL_MS = 60_000;
/**
 * SQS's longest long poll: a receive returns as soon as a message arrives, so an idle queue costs one request
 * every 20 s instead of one a second. Stopping cuts it short: the queues live in memory and end with the runtime.
 */
const LONG_POLLING = { waitTimeSeconds: 20, abortReceiveOnStop: true } as const;
const SWEEP_QUEUED_FOR_SECONDS = 15 * 60;
/** How long a stop lets the requests in progress finish (bin/local.ts bounds the whole stop at 15 s). */
const SERVER_DRAIN_MS = 5_000;

export interface LocalRuntime {
  url: string;
  admin: { username: string; password: string; generated: boolean; passwordFile: string | null };
  /** The runtime's own event hub, for benchmarks and tests that emit events directly (`events.forWorkspace(id)`). */
  events: EventHub;
  stop(): Promise<void>;
}

/**
 * Starts the emulators, provisions what is missing, bootstraps the admin and serves the handlers on PORT.
 * On any failure it stops what it had started before rethrowing.
 */
export async function startLocalRuntime(env: LocalEnv): Promise<LocalRuntime> {
  const dataDir = resolve(env.DATA_DIR);
  const started: RunningEmulator[] = [];
  let server: Server | undefined;
  let sockets: LocalWebSocketGateway | undefined;
  const pollers: QueuePoller[] = [];
  let sweepTimer: NodeJS.Timeout | undefined;
  let scheduleTimer: NodeJS.Timeout | undefined;
  /** The timers' runs in progress, which a stop waits for. */
  const timerRuns = new Set<Promise<unknown>>();
  const timerRun = (run: () => Promise<unknown>) => {
    const running = run().finally(() => timerRuns.delete(running));
    timerRuns.add(running);
  };
  let searchIndex: { close(): void } | undefined;
  let rateLimits: { flush(): Promise<void> } | undefined;
  let usageMeter: { flush(): Promise<void> } | undefined;
  let rebuilding: Promise<unknown> | undefined;
  let changeConsumers: ChangeConsumers | undefined;
  let reconciliation: { stop(): Promise<void> } | undefined;
  // In order: the work in the background (timers, queue pollers, the stream's consumers), then the servers, then
  // the emulators, so that nothing still uses an emulator when it stops. A stream change not consumed yet is
  // after the checkpoints, and read on the next start.
  const stop = async () => {
    clearInterval(sweepTimer);
    clearInterval(scheduleTimer);
    await Promise.allSettled([...timerRuns, ...pollers.map((poller) => poller.stop())]);
    await changeConsumers?.stop();
    await Promise.allSettled([rebuilding, reconciliation?.stop()]);
    // Sockets before the server, while the table is still there for their $disconnect routes.
    await sockets?.close();
    if (server) await closeServer(server);
    // The last requests' counts, written behind them, reach the table before it stops.
    await Promise.all([rateLimits?.flush(), usageMeter?.flush()]);
    searchIndex?.close();
    await Promise.allSettled(started.reverse().map((emulator) => emulator.stop()));
  };
  try {
    await prepareDataDir(dataDir);
    const dynamodbCredentials = await dynamoDbCredentials(dataDir);
    if (adoptSharedDatabase(join(dataDir, 'dynamodb'), dynamodbCredentials.accessKeyId, LOCAL_REGION)) {
      logger.info('moved the tables of the shared DynamoDB Local database into the runtime\'s private one');
    }
    const searchIndexPath = join(dataDir, 'search', 'index.sqlite');
    const searchIndexIsNew = !existsSync(searchIndexPath);
    const s3Events = new S3EventForwarder();
    const [dynamodb, s3, sqs] = await Promise.all([
      startDynamoDbLocal({ dbPath: join(dataDir, 'dynamodb') }).then(track),
      startS3Emulator({ directory: join(dataDir, 's3'), uploadsBucket: RESOURCE_NAMES.bucket, onEvent: (event) => s3Events.forward(event) }).then(track),
      startSqsEmulator().then(track),
    ]);
    const resources = await provision({ dynamodb: dynamodb.endpoint, s3: s3.endpoint, sqs: sqs.endpoint }, dynamodbCredentials);
    const sqsClient = createSqsClient(localClientOptions(sqs.endpoint));
    s3Events.connect(jsonMessageSender(sqsClient, resources.ingestQueueUrl));
    const jwtKey = await fileSecret(join(dataDir, 'secrets', 'jwt-signing-key'), () => randomSecret(64));
    const sourceCredentialsKey = await fileSecret(join(dataDir, 'secrets', 'source-credentials-key'), () => randomSecret(32));
    let url = '';
    const parts = localParts({
      resources,
      jwtKey: new TextEncoder().encode(jwtKey.value),
      env,
      events:
        env.LOCAL_EVENT_DELIVERY === 'direct'
          ? { delivery: 'direct', gateway: () => gatewayOf(sockets) }
          : { delivery: 'sdk', endpoint: () => url },
      searchIndexPath,
      sourceCredentialsKey: Buffer.from(sourceCredentialsKey.value, 'base64url'),
      dataDir,
      ocr: { tempDir: scratchDirOf(dataDir) },
      onTableWrite: () => changeConsumers?.wake(),
    });
    searchIndex = parts.searchIndex;
    rateLimits = parts.rateLimits;
    usageMeter = parts.usageMeter;
    const deps = localHandlerDeps(parts);
    // The search index and the events follow the table's stream, as the cloud's `indexer` and `events` do.
    changeConsumers = startChangeConsumers({
      deps: { indexer: deps.indexer, events: deps.events, dispatch: deps.dispatch, audit: parts.audit },
      tableName: resources.tableName,
      endpoint: dynamodb.endpoint,
      credentials: dynamodbCredentials,
      checkpointDir: join(dataDir, 'streams'),
    });
    const admin = await bootstrapAdmin(env, dataDir, deps.admin);

    const handlers: Record<HttpGroup, HttpHandler> = {
      auth: createAuthHandler(deps.http.auth),
      users: createUsersHandler(deps.http.users),
      settings: createSettingsHandler(deps.http.settings),
      documents: createDocumentsHandler(deps.http.documents, { maxMultipartBytes: env.MAX_REQUEST_SIZE_MB * MIB }),
      labels: createLabelsHandler(deps.http.labels),
      search: createSearchHandler(deps.http.search),
      ocr: createOcrHandler(deps.http.ocr),
      sources: createSourcesHandler(deps.http.sources),
      notifications: createNotificationsHandler(deps.http.notifications),
      webhooks: createWebhooksHandler(deps.http.webhooks),
      portability: createPortabilityHandler(deps.http.portability),
      audit: createAuditHandler(deps.http.audit),
      workspaces: createWorkspacesHandler(deps.http.workspaces),
      health: createHealthHandler(deps.http.health),
    };
    const routes = new RouteTable(
      (Object.keys(HTTP_ROUTES) as HttpGroup[]).flatMap((group) =>
        HTTP_ROUTES[group].map((routeKey) => ({ routeKey, handler: handlers[group] })),
      ),
    );
    pollers.push(
      startQueuePoller({ sqs: sqsClient, queueUrl: resources.ingestQueueUrl, handler: createIngestHandler(deps.ingest), ...LONG_POLLING }),
    );
    // The queues live in memory, so on start every unfinished job is queued again; then a periodic sweep
    // does what the cloud's schedule does.
    const sweep = createOcrSweeperHandler({ ...deps.ocrSweeper, queuedForSeconds: 0, silentForSeconds: 0, orphaned: true });
    await sweep();
    if (searchIndexIsNew) {
      // A DATA_DIR from before the index existed (or whose index was deleted): rebuild it in the background.
      const index = parts.searchIndex;
      rebuilding = rebuildSearchIndex(rebuildDepsOf(deps.indexSources, index))
        .then(() => index.optimize())
        .catch((error: unknown) => logger.error('search: rebuilding the index failed', { error }));
    }
    reconciliation = scheduleIndexReconciliation(deps.indexSources, parts.searchIndex, Promise.resolve(rebuilding));
    const periodicSweep = createOcrSweeperHandler({
      ...deps.ocrSweeper,
      queuedForSeconds: SWEEP_QUEUED_FOR_SECONDS,
      silentForSeconds: deps.ocrWorker.staleAfterSeconds,
    });
    sweepTimer = setInterval(() => timerRun(() => periodicSweep().catch(() => undefined)), SWEEP_INTERVAL_MS);
    // Several jobs per queue at once (LOCAL_OCR_JOBS); the engine's pool runs their pages, one process per core.
    const worker = timeOcrWorker(deps.ocrWorker, createOcrWorkerHandler);
    for (const [queueUrl, concurrency] of [
      [resources.ocrQueueUrl, LOCAL_OCR_JOBS.normal],
      [resources.ocrHighQueueUrl, LOCAL_OCR_JOBS.high],
    ] as const) {
      pollers.push(
        startQueuePoller({ sqs: sqsClient, queueUrl, handler: worker, batchSize: 1, concurrency, ...LONG_POLLING, ...LOCAL_OCR_POLLING }),
      );
    }
    // Source syncs: a worker pool on the sync queue, the schedule on a timer; the first run resumes the syncs an
    // earlier process left unfinished (the queue lives in memory).
    pollers.push(
      startQueuePoller({
        sqs: sqsClient,
        queueUrl: resources.sourceSyncQueueUrl,
        handler: createSourceSyncHandler(deps.sourceSync, { stepSeconds: LOCAL_SYNC_STEP_SECONDS }),
        batchSize: 1,
        concurrency: LOCAL_SYNC_WORKERS,
        ...LONG_POLLING,
      }),
    );
    // Rule runs over existing documents: one step at a time, each queueing the next.
    pollers.push(
      startQueuePoller({ sqs: sqsClient, queueUrl: resources.ruleJobsQueueUrl, handler: createRuleJobsHandler(deps.ruleJobs), batchSize: 1, ...LONG_POLLING }),
    );
    // The queue lives in memory: the runs an earlier process left unfinished go back on it.
    timerRun(() => resumeRuleRuns(deps.resumeRuleRuns).catch((error: unknown) => logger.error('rules: resuming the unfinished runs failed', { error })));
    // Exports and imports: one at a time (each streams a whole archive); unfinished ones go back on the queue.
    pollers.push(
      startQueuePoller({ sqs: sqsClient, queueUrl: resources.portabilityQueueUrl, handler: createPortabilityWorkerHandler(deps.portabilityWorker), batchSize: 1, ...LONG_POLLING }),
    );
    timerRun(() =>
      resumePortabilityJobs(parts.portability).catch((error: unknown) => logger.error('portability: resuming the unfinished jobs failed', { error })),
    );
    // Workspace erasures, one at a time; those an earlier process left unfinished go back on the queue.
    const eraser = startLocalEraser({ deps: deps.eraser, resume: deps.resumeErasures, queueUrl: resources.erasureQueueUrl, sqs: sqsClient, polling: LONG_POLLING });
    pollers.push(eraser.poller);
    timerRun(() => eraser.resume().catch((error: unknown) => logger.error('erasure: resuming the unfinished erasures failed', { error })));
    // Webhook deliveries: the attempts wait on endpoints, so several run side by side.
    pollers.push(
      startQueuePoller({
        sqs: sqsClient,
        queueUrl: resources.webhookDeliveryQueueUrl,
        handler: createWebhookDeliveryHandler(deps.webhookDelivery(new HttpWebhookSender({ allowPrivateNetworks: env.WEBHOOKS_ALLOW_PRIVATE_NETWORKS }))),
        batchSize: 1,
        concurrency: LOCAL_WEBHOOK_WORKERS,
        ...LONG_POLLING,
      }),
    );
    // The queue lives in memory: the deliveries an earlier process left waiting for a retry go back on it.
    timerRun(() => resumePendingDeliveries(deps.resumeDeliveries).catch((error: unknown) => logger.error('webhooks: resuming the pending deliveries failed', { error })));
    await createSourceSchedulerHandler(deps.sourceScheduler, { takeOverLeases: true })();
    const schedule = createSourceSchedulerHandler(deps.sourceScheduler);
    scheduleTimer = setInterval(
      () => timerRun(() => schedule().catch((error: unknown) => logger.error('sources: the schedule failed', { error }))),
      SOURCE_SCHEDULE_MINUTES * 60_000,
    );
    // No socket is open yet, so every connection on record is left over from an earlier run.
    await forgetAllConnections(parts);
    sockets = new LocalWebSocketGateway({
      handler: createRealtimeHandler(deps.realtime),
      authDeadline: { ms: deps.realtime.wsAuthTimeoutSeconds * 1000, onExpired: createAuthDeadlineHandler(deps.realtime) },
    });
    server = createGateway({
      routes,
      fallback: createFallbackHandler(deps.http.fallback),
      connections: sockets,
      apiDocs: createApiDocs(),
      consoleSite: createConsoleSite({ directory: CONSOLE_DIST, uploadOrigins: [new URL(s3.endpoint).origin] }),
      maxBodyBytes: env.MAX_REQUEST_SIZE_MB * MIB,
      // The handlers' own token check, so that a body sent with a token they would refuse is never read.
      authenticate: (token) => parts.gate.authenticate(token),
      spoolDir: scratchDirOf(dataDir),
      bodyTimeouts: { idleMs: env.REQUEST_BODY_IDLE_TIMEOUT_SECONDS * 1000 },
    });
    sockets.attach(server);
    const listening = server;
    await new Promise<void>((resolveListen, reject) => {
      listening.once('error', reject);
      listening.listen(env.PORT, env.HOST, () => resolveListen());
    });
    const { port } = listening.address() as AddressInfo;
    // The @connections API is the gateway itself, called by this process only: loopback where it listens there.
    const host = ['0.0.0.0', '::'].includes(env.HOST) ? '127.0.0.1' : env.HOST;
    url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    return { url: `http://${env.HOST}:${port}`, admin, events: parts.eventHub, stop };
  } catch (error) {
    await stop();
    throw error;
  }

  function track(emulator: RunningEmulator): RunningEmulator {
    started.push(emulator);
    return emulator;
  }
}

/** The first admin: ADMIN_PASSWORD when given, else a generated one kept under DATA_DIR (printed once). */
async function bootstrapAdmin(env: LocalEnv, dataDir: string, accounts: EnsureAdminDeps) {
  const passwordFile = join(dataDir, 'secrets', 'admin-password');
  const password = env.ADMIN_PASSWORD
    ? { value: env.ADMIN_PASSWORD, created: false }
    : await fileSecret(passwordFile, () => randomSecret(18));
  await ensureAdmin(accounts, {
    username: env.ADMIN_USERNAME,
    email: env.ADMIN_EMAIL ?? `${env.ADMIN_USERNAME}@docservice.local`,
    password: password.value,
  });
  return {
    username: env.ADMIN_USERNAME,
    password: password.value,
    generated: password.created,
    passwordFile: env.ADMIN_PASSWORD ? null : passwordFile,
  };
}

/** The gateway the first event finds: events are emitted only once the runtime serves requests. */
function gatewayOf(sockets: LocalWebSocketGateway | undefined) {
  if (!sockets) throw new Error('the WebSocket gateway is not up yet');
  return sockets.directSender;
}

/**
 * Stops accepting connections and closes the idle ones; requests in progress get SERVER_DRAIN_MS to finish, so that
 * their work is done before the emulators stop, then their connections are closed too.
 */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolveClose) => {
    const drained = setTimeout(() => server.closeAllConnections(), SERVER_DRAIN_MS);
    server.close(() => {
      clearTimeout(drained);
      resolveClose();
    });
    server.closeIdleConnections();
  });
}
