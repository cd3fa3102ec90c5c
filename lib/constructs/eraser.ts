import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { ERASER_TIMEOUT_SECONDS } from '../../shared/manifest';
import { AppFunction } from './app-function';
import { bindBucket, bindTable, bindWebSocket } from './bindings';
import type { SearchAccess } from './search-access';

/** Erasures at once: each scans the table, so two bound what one deployment's deletions take of its capacity. */
export const ERASER_CONCURRENCY = 2;

/** Props of {@link Eraser}. */
export interface EraserProps {
  readonly table: dynamodb.ITable;
  /** The documents bucket: versioned, so the eraser deletes every version and delete marker of a workspace's objects. */
  readonly bucket: s3.IBucket;
  /** Workspace erasures, queued by the workspaces API. */
  readonly queue: sqs.IQueue;
  readonly searchAccess: SearchAccess;
  /** The WebSocket API whose connections of the workspace it closes. */
  readonly webSocketApi: apigwv2.IWebSocketApi;
  readonly webSocketStage: apigwv2.IWebSocketStage;
  readonly logRemovalPolicy: RemovalPolicy;
}

/**
 * The eraser (functions/eraser): one workspace's erasure per message, from the erasure queue (DLQ after
 * MAX_RECEIVES, alarmed with the other DLQs), resumed from its first unfinished step on a redelivery. It may
 * write and delete the table's items, delete the bucket's objects and every object version (`s3:ListBucketVersions`,
 * `s3:DeleteObjectVersion`), delete the workspace's index entries and close its WebSocket connections.
 */
export class Eraser extends Construct {
  public readonly appFunction: AppFunction;

  constructor(scope: Construct, id: string, props: EraserProps) {
    super(scope, id);
    this.appFunction = new AppFunction(this, 'Function', {
      group: 'eraser',
      environment: {},
      timeout: Duration.seconds(ERASER_TIMEOUT_SECONDS),
      logRemovalPolicy: props.logRemovalPolicy,
    });
    const fn = this.appFunction.function;
    bindTable(fn, props.table, 'readWrite');
    bindBucket(fn, props.bucket, 'readWrite');
    // Named apart from the read-write grant's wildcards, so that the grant an erasure depends on is plain to see.
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:ListBucketVersions'], resources: [props.bucket.bucketArn] }));
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:DeleteObjectVersion'], resources: [props.bucket.arnForObjects('*')] }));
    props.searchAccess.bind(fn, 'readWrite');
    // It only closes connections (DeleteConnection), never pushes to one.
    bindWebSocket(fn, props.webSocketApi, props.webSocketStage, ['DELETE']);
    fn.addEventSource(new SqsEventSource(props.queue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: ERASER_CONCURRENCY }));
  }
}
