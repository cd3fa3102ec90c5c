import { Duration, type RemovalPolicy, type Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { ENV, SOURCE_SCHEDULE_MINUTES } from '../../shared/manifest';
import { AppFunction, thumbnailRendererFiles } from '../constructs/app-function';
import { bindBucket, bindCredentialsKey, bindOcrQueues, bindQueue, bindTable } from '../constructs/bindings';
import { INGEST_CONCURRENCY, RULE_JOBS_CONCURRENCY, SOURCE_SYNC_CONCURRENCY, WEBHOOK_DELIVERY_CONCURRENCY } from './limits';
import { INGEST_TIMEOUT, OCR_WORKER_TIMEOUT, RULE_JOBS_TIMEOUT, SOURCE_SYNC_TIMEOUT, WEBHOOK_DELIVERY_TIMEOUT } from './stateful-stack';

export interface QueueWorkersProps {
  table: dynamodb.ITable;
  documentsBucket: s3.IBucket;
  ocrQueues: { normal: sqs.IQueue; high: sqs.IQueue };
  /** Concurrency of the OCR worker on each priority's queue (inside the Textract quota). */
  ocrWorkers: { normal: number; high: number };
  ingestQueue: sqs.IQueue;
  sourceSyncQueue: sqs.IQueue;
  sourceCredentialsKey: kms.IKey;
  /** Webhook deliveries: queued by the dispatch consumer and the webhooks API, retried by the worker itself. */
  webhookDeliveryQueue: sqs.IQueue;
  /** Steps of labelling rules' runs: the worker receives them and queues each run's next step. */
  ruleJobsQueue: sqs.IQueue;
  /** The environment of the functions that render PDFs (the imaging workers they run). */
  imagingEnvironment: Record<string, string>;
  /** Whether a source may name a private network address (see SOURCES_ALLOW_PRIVATE_NETWORKS). */
  sourcesAllowPrivateNetworks: string;
  /** Whether a webhook may name a private network address (see WEBHOOKS_ALLOW_PRIVATE_NETWORKS). */
  webhooksAllowPrivateNetworks: string;
  logRemovalPolicy: RemovalPolicy;
}

/** The functions fed by queues and schedules rather than requests. */
export interface QueueWorkers {
  ingest: AppFunction;
  ocrWorker: AppFunction;
  ocrSweeper: AppFunction;
  sourceSync: AppFunction;
  sourceScheduler: AppFunction;
  webhookDelivery: AppFunction;
  ruleJobs: AppFunction;
}

/**
 * The work behind the API: presigned uploads' ingest, the OCR worker and its stuck-job sweep, WebDAV source
 * syncs and their schedule, webhook deliveries, each with its grants and its event source. Made in the stack's own scope, so their
 * resources keep the stack's logical ids.
 */
export function createQueueWorkers(stack: Stack, props: QueueWorkersProps): QueueWorkers {
  const { table, documentsBucket, ocrQueues, logRemovalPolicy } = props;

  // Presigned uploads: the bucket's events reach the ingest function through a queue, with partial batch
  // failures so one bad event does not redo the others.
  const ingest = new AppFunction(stack, 'Ingest', { group: 'ingest', environment: {}, memorySize: 512, timeout: INGEST_TIMEOUT, logRemovalPolicy });
  bindTable(ingest.function, table, 'readWrite');
  bindBucket(ingest.function, documentsBucket, 'readWrite');
  bindOcrQueues(ingest.function, ocrQueues);
  ingest.function.addEventSource(
    new SqsEventSource(props.ingestQueue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: INGEST_CONCURRENCY }),
  );

  // OCR worker: one function on both priority queues, each with its own event source and concurrency, so
  // high jobs are taken while normal ones queue up. Textract reads the file from the bucket with the
  // worker's role; pdf.js (with its data and the canvas binary shipped beside the bundle) reads PDF text layers.
  const ocrWorker = new AppFunction(stack, 'OcrWorker', {
    group: 'ocr-worker',
    environment: props.imagingEnvironment,
    memorySize: 1536,
    timeout: OCR_WORKER_TIMEOUT,
    logRemovalPolicy,
    afterBundling: thumbnailRendererFiles,
  });
  bindTable(ocrWorker.function, table, 'readWrite');
  bindBucket(ocrWorker.function, documentsBucket, 'readWrite');
  // A job Textract is throttling goes back on its queue with a delay (not an attempt).
  bindOcrQueues(ocrWorker.function, ocrQueues);
  ocrWorker.function.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['textract:DetectDocumentText', 'textract:StartDocumentTextDetection', 'textract:GetDocumentTextDetection'],
      resources: ['*'],
    }),
  );
  // One file per invocation (Textract reads a large one from the bucket; only files within the text-layer bound
  // are held in memory). Concurrency stays inside the Textract quota.
  for (const priority of ['normal', 'high'] as const) {
    ocrWorker.function.addEventSource(
      new SqsEventSource(ocrQueues[priority], {
        batchSize: 1,
        reportBatchItemFailures: true,
        maxConcurrency: props.ocrWorkers[priority],
      }),
    );
  }

  // Stuck-job sweep: jobs whose message was lost or whose worker died are queued again.
  const ocrSweeper = new AppFunction(stack, 'OcrSweeper', { group: 'ocr-sweeper', environment: {}, timeout: Duration.minutes(1), logRemovalPolicy });
  bindTable(ocrSweeper.function, table, 'read');
  bindOcrQueues(ocrSweeper.function, ocrQueues);
  new events.Rule(stack, 'OcrSweepSchedule', {
    schedule: events.Schedule.rate(Duration.minutes(10)),
    targets: [new targets.LambdaFunction(ocrSweeper.function)],
  });

  // WebDAV source syncs: one step (one message) at a time per invocation, streaming each file into the bucket
  // (sync-staging/, then workspaces/) as the ingest would, and queueing the rest of the sync as a new message.
  const sourceSync = new AppFunction(stack, 'SourceSync', {
    group: 'source-sync',
    environment: { [ENV.sourcesAllowPrivateNetworks]: props.sourcesAllowPrivateNetworks },
    memorySize: 1024,
    timeout: SOURCE_SYNC_TIMEOUT,
    logRemovalPolicy,
  });
  bindTable(sourceSync.function, table, 'readWrite');
  bindBucket(sourceSync.function, documentsBucket, 'readWrite');
  bindCredentialsKey(sourceSync.function, props.sourceCredentialsKey, 'decrypt');
  bindQueue(sourceSync.function, props.sourceSyncQueue, 'send', ENV.sourceSyncQueueUrl);
  bindOcrQueues(sourceSync.function, ocrQueues);
  sourceSync.function.addEventSource(
    new SqsEventSource(props.sourceSyncQueue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: SOURCE_SYNC_CONCURRENCY }),
  );

  // The schedule claims the sources whose next sync is due and queues a sync for each.
  const sourceScheduler = new AppFunction(stack, 'SourceScheduler', {
    group: 'source-scheduler',
    environment: {},
    timeout: Duration.minutes(1),
    logRemovalPolicy,
  });
  bindTable(sourceScheduler.function, table, 'readWrite');
  bindQueue(sourceScheduler.function, props.sourceSyncQueue, 'send', ENV.sourceSyncQueueUrl);
  new events.Rule(stack, 'SourceSchedule', {
    schedule: events.Schedule.rate(Duration.minutes(SOURCE_SCHEDULE_MINUTES)),
    targets: [new targets.LambdaFunction(sourceScheduler.function)],
  });

  // Webhook deliveries: a batch of up to 10 per invocation, each attempt bounded (10 s), a failed one retried
  // later as a new delayed message (hence sending to its own queue); the signing secrets are opened with the
  // credentials key. Lambda's default networking (no VPC): receivers are on the internet, and the address
  // policy keeps private, loopback and link-local addresses out.
  const webhookDelivery = new AppFunction(stack, 'WebhookDelivery', {
    group: 'webhook-delivery',
    environment: { [ENV.webhooksAllowPrivateNetworks]: props.webhooksAllowPrivateNetworks },
    timeout: WEBHOOK_DELIVERY_TIMEOUT,
    logRemovalPolicy,
  });
  bindTable(webhookDelivery.function, table, 'readWrite');
  bindCredentialsKey(webhookDelivery.function, props.sourceCredentialsKey, 'decrypt');
  bindQueue(webhookDelivery.function, props.webhookDeliveryQueue, 'send', ENV.webhookDeliveryQueueUrl);
  webhookDelivery.function.addEventSource(
    new SqsEventSource(props.webhookDeliveryQueue, { batchSize: 10, reportBatchItemFailures: true, maxConcurrency: WEBHOOK_DELIVERY_CONCURRENCY }),
  );

  // Rule runs over existing documents: one step (200 documents) per message, reading texts too large for the table
  // from the bucket, putting labels on through the table, and queueing the run's next step. One run's steps follow
  // each other, so a low concurrency bounds the table writes of many runs at once.
  const ruleJobs = new AppFunction(stack, 'RuleJobs', { group: 'rule-jobs', environment: {}, timeout: RULE_JOBS_TIMEOUT, logRemovalPolicy });
  bindTable(ruleJobs.function, table, 'readWrite');
  bindBucket(ruleJobs.function, documentsBucket, 'read');
  bindQueue(ruleJobs.function, props.ruleJobsQueue, 'send', ENV.ruleJobsQueueUrl);
  ruleJobs.function.addEventSource(new SqsEventSource(props.ruleJobsQueue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: RULE_JOBS_CONCURRENCY }));

  return { ingest, ocrWorker, ocrSweeper, sourceSync, sourceScheduler, webhookDelivery, ruleJobs };
}
