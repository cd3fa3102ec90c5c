import { Duration, type RemovalPolicy, type Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { ENV, PORTABILITY_TIMEOUT_SECONDS, WORKSPACES_PREFIX } from '../../shared/manifest';
import { AppFunction } from '../constructs/app-function';
import { bindAuditLog, bindBucket, bindTable, CREDENTIALS_CONTEXT_KEY } from '../constructs/bindings';

/** The portability worker's timeout: one export or import per invocation. */
export const PORTABILITY_TIMEOUT = Duration.seconds(PORTABILITY_TIMEOUT_SECONDS);

/** Exports and imports at once: each streams a whole archive through one function's memory and network. */
export const PORTABILITY_CONCURRENCY = 2;

/** A queued export or import may wait this long before an alarm: past it the workers are failing or too few. */
export const PORTABILITY_MAX_MESSAGE_AGE = Duration.hours(1);

/** The bucket keys of workspaces' export archives and uploaded import archives (see domain/portability/jobs.ts). */
export const ARCHIVE_KEY_PATTERNS = { exports: `${WORKSPACES_PREFIX}*/exports/*`, imports: `${WORKSPACES_PREFIX}*/imports/*` } as const;

/**
 * The `portability` HTTP function's grants beyond the table and JWT key: sending to the portability queue, and
 * in the bucket only what its presigned links and checks need: reading export archives (download links) and
 * writing and reading import archives (upload links, the size check). No document's file.
 */
export function bindPortabilityApi(fn: lambda.Function, props: { bucket: s3.IBucket; queue: sqs.IQueue }): void {
  fn.addEnvironment(ENV.bucketName, props.bucket.bucketName);
  fn.addEnvironment(ENV.portabilityQueueUrl, props.queue.queueUrl);
  props.queue.grantSendMessages(fn);
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [props.bucket.arnForObjects(ARCHIVE_KEY_PATTERNS.exports)] }));
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject'], resources: [props.bucket.arnForObjects(ARCHIVE_KEY_PATTERNS.imports)] }));
}

export interface PortabilityWorkerProps {
  table: dynamodb.ITable;
  /** The audit log, read (never written) into the archive. */
  auditTable: dynamodb.ITable;
  documentsBucket: s3.IBucket;
  queue: sqs.IQueue;
  sourceCredentialsKey: kms.IKey;
  logRemovalPolicy: RemovalPolicy;
}

/**
 * The portability worker: reads every store of a workspace and its files (export) or writes them (import), so it
 * has the table and the bucket read and write, reads the audit log (into the archive), seals the empty password of imported sources with the credentials
 * key (encrypt only: it never opens one), and consumes the portability queue, one job per invocation.
 */
export function createPortabilityWorker(stack: Stack, props: PortabilityWorkerProps): AppFunction {
  const worker = new AppFunction(stack, 'PortabilityWorker', {
    group: 'portability-worker',
    environment: {},
    memorySize: 1024,
    timeout: PORTABILITY_TIMEOUT,
    logRemovalPolicy: props.logRemovalPolicy,
  });
  bindTable(worker.function, props.table, 'readWrite');
  bindBucket(worker.function, props.documentsBucket, 'readWrite');
  bindAuditLog(worker.function, props.auditTable, 'read');
  worker.function.addEnvironment(ENV.sourceCredentialsKeyArn, props.sourceCredentialsKey.keyArn);
  worker.function.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['kms:Encrypt'],
      resources: [props.sourceCredentialsKey.keyArn],
      conditions: { Null: { [`kms:EncryptionContext:${CREDENTIALS_CONTEXT_KEY}`]: 'false' } },
    }),
  );
  worker.function.addEnvironment(ENV.portabilityQueueUrl, props.queue.queueUrl);
  worker.function.addEventSource(new SqsEventSource(props.queue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: PORTABILITY_CONCURRENCY }));
  return worker;
}
