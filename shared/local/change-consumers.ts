import { FileStreamCheckpointStore } from './event-sources/dynamodb-stream-checkpoints';
import { createStreamsClient, startStreamPoller, type StreamPoller, type StreamPollerOptions } from './event-sources/dynamodb-stream-poller';
import { createDynamoDocumentClient } from '../adapters/aws/clients';
import { localClientOptions, type LocalCredentials } from './local-clients';
import type { FollowChangesDeps } from '../domain/search/follow-changes';
import type { PublishChangesDeps } from '../domain/events/publish-changes';
import type { DispatchDeps } from '../domain/webhooks/dispatch-webhook-events';
import type { AuditLog } from '../domain/audit/ports';
import { createEventsHandler } from '../../functions/events/handler';
import { createIndexerHandler } from '../../functions/indexer/handler';
import { createWebhookDispatchHandler } from '../../functions/webhook-dispatch/handler';
import { CHANGE_CONSUMER_DELIVERY } from '../manifest';
import { withoutActor } from '../adapters/actor-context';

/**
 * How often an idle shard is read. The runtime wakes both pollers after each of its own writes to the table
 * (see {@link ChangeConsumers.wake}), so a change reaches the index and the clients within milliseconds and
 * this interval only bounds what a missed wake costs, while an idle runtime reads the stream twice a second.
 */
const LOCAL_IDLE_POLL_MS = 1000;
/** Writes this close together wake the pollers once: a request or an OCR job writes several items in a row. */
const WAKE_COALESCE_MS = 10;

/** The stream consumers the cloud runs as Lambda functions, driven here by the local stream poller. */
export interface ChangeConsumers {
  /** Reads the stream now (after a write of this process), instead of at the next idle poll. */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * Starts the `indexer`, `events` and `webhook-dispatch` consumers on the table's stream, as the cloud's event source mappings do
 * (same handlers, batches, retries and bisection, the numbers of shared/manifest.ts), each with its own
 * checkpoints under `checkpointDir`, so a restart resumes after the last change each one finished. A batch
 * that fails past its retries is logged and skipped: the periodic reconciliation repairs the index, and an
 * event is best effort; a webhook event lost that way is not sent (as in the cloud, whose failure queue names it).
 */
export function startChangeConsumers(options: {
  /** The consumers' deps, as their Lambda entries compose them. */
  deps: { indexer: FollowChangesDeps; events: PublishChangesDeps; dispatch: DispatchDeps; audit: Pick<AuditLog, 'append'> };
  tableName: string;
  endpoint: string;
  credentials: LocalCredentials;
  checkpointDir: string;
}): ChangeConsumers {
  const clientOptions = localClientOptions(options.endpoint, options.credentials);
  const common: Omit<StreamPollerOptions, 'handler' | 'functionName' | 'checkpoints'> = {
    streams: createStreamsClient(clientOptions),
    source: { tableName: options.tableName, dynamodb: createDynamoDocumentClient(clientOptions) },
    batchSize: CHANGE_CONSUMER_DELIVERY.batchSize,
    maximumRetryAttempts: CHANGE_CONSUMER_DELIVERY.retryAttempts,
    bisectBatchOnFunctionError: true,
    startingPosition: 'TRIM_HORIZON',
    pollIntervalMs: LOCAL_IDLE_POLL_MS,
  };
  const pollers: StreamPoller[] = [
    startStreamPoller({
      ...common,
      functionName: 'indexer',
      handler: createIndexerHandler(options.deps.indexer),
      checkpoints: new FileStreamCheckpointStore(options.checkpointDir, 'indexer'),
    }),
    startStreamPoller({
      ...common,
      functionName: 'events',
      // The audit log is derived here too, as the cloud's `events` function does.
      handler: createEventsHandler(options.deps.events, options.deps.audit),
      checkpoints: new FileStreamCheckpointStore(options.checkpointDir, 'events'),
    }),
    startStreamPoller({
      ...common,
      functionName: 'webhook-dispatch',
      handler: createWebhookDispatchHandler(options.deps.dispatch),
      checkpoints: new FileStreamCheckpointStore(options.checkpointDir, 'webhook-dispatch'),
    }),
  ];
  let waking: NodeJS.Timeout | undefined;
  return {
    wake: () => {
      // Outside the waking request's actor: what the consumers write is theirs, not the request's.
      waking ??= withoutActor(() =>
        setTimeout(() => {
          waking = undefined;
          for (const poller of pollers) poller.wake();
        }, WAKE_COALESCE_MS),
      );
    },
    stop: async () => {
      clearTimeout(waking);
      await Promise.all(pollers.map((poller) => poller.stop()));
    },
  };
}
