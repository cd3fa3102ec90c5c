import { Annotations, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3n from 'aws-cdk-lib/aws-s3-notifications';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { ERASER_TIMEOUT_SECONDS, MAX_RECEIVES, PORTABILITY_TIMEOUT_SECONDS, RULE_JOBS_TIMEOUT_SECONDS, SOURCE_SYNC_TIMEOUT_SECONDS, STAGING_PREFIX, SYNC_STAGING_PREFIX, TABLE_SCHEMA } from '../../shared/manifest';

/**
 * Timeout of the OCR worker Lambda, Lambda's maximum: a multi-page PDF waits for Textract's asynchronous job.
 * The queues' visibility timeout is derived from it.
 */
export const OCR_WORKER_TIMEOUT = Duration.minutes(15);
/** Timeout of the ingest Lambda, which hashes a staged upload of up to 500 MB as it streams by. */
export const INGEST_TIMEOUT = Duration.minutes(5);
/** Timeout of the source sync worker: one step of a sync plus the largest file it may still be writing. */
export const SOURCE_SYNC_TIMEOUT = Duration.seconds(SOURCE_SYNC_TIMEOUT_SECONDS);
/**
 * Timeout of the webhook delivery worker: a batch of up to 10 deliveries, each attempt bounded to 10 s and at
 * most two in flight per endpoint (the rest held back a few seconds).
 */
export const WEBHOOK_DELIVERY_TIMEOUT = Duration.seconds(30);
/** The rule-jobs worker's timeout: one step of a rule's run over existing documents. */
export const RULE_JOBS_TIMEOUT = Duration.seconds(RULE_JOBS_TIMEOUT_SECONDS);
/**
 * AWS's guidance for Lambda event sources: a visibility timeout of at least 6x the function timeout, so retries
 * of a throttled batch do not make a message visible again while it is still being processed.
 */
const visibilityFor = (workerTimeout: Duration): Duration => Duration.seconds(workerTimeout.toSeconds() * 6);
/** Days an overwritten or deleted object version is kept: the window to undo a delete or an edit. */
export const NONCURRENT_VERSION_DAYS = 30;

/** The search domain's size: `dev` is the cheapest encrypted domain, `production` survives a lost zone. */
export type SearchDomainProfile = 'dev' | 'production';

/** What each profile deploys. `indexReplicas` is applied to the index at deploy time (search-index-setup). */
export const SEARCH_DOMAIN_PROFILES = {
  // One node: no replica could ever be placed, so 0 replicas (the index can be rebuilt from table and bucket).
  dev: { dataNodes: 1, dataNodeType: 't3.small.search', masterNodes: 0, masterNodeType: undefined, zones: 1, volumeGiB: 10, indexReplicas: 0 },
  // Three zones, one data node and one dedicated master in each, and a replica of every shard in another zone.
  production: { dataNodes: 3, dataNodeType: 'm6g.large.search', masterNodes: 3, masterNodeType: 'm6g.large.search', zones: 3, volumeGiB: 20, indexReplicas: 1 },
} as const;

/** Props of {@link StatefulStack}. */
export interface StatefulStackProps extends StackProps {
  /** `RETAIN` for anything holding real data; `DESTROY` only for throw-away dev stacks. */
  readonly removalPolicy: RemovalPolicy;
  /** Origins allowed to PUT/GET objects through presigned URLs (`*` allows any; none when empty). */
  readonly corsOrigins: string[];
  /** Size of the search domain. @default 'dev' */
  readonly searchDomainProfile?: SearchDomainProfile;
}

/**
 * Everything that holds data or secrets: the application table, the documents bucket, the OCR, ingest,
 * source sync and webhook delivery queues and their DLQs, the search domain, the JWT signing key and admin password secrets, and the
 * key of the sources' credentials. Kept apart from the API stack so that the API can be
 * replaced or destroyed without touching data.
 */
export class StatefulStack extends Stack {
  /** The single application table (keys from `TABLE_SCHEMA`), with a stream of new and old images. */
  public readonly table: dynamodb.Table;
  /**
   * The audit log: a table of its own, so that its grants can be append-only (put and query, never update or
   * delete); entries expire after 365 days by TTL. Nothing follows its changes.
   */
  public readonly auditTable: dynamodb.Table;
  /** Uploaded documents, derived files and thumbnails. */
  public readonly documentsBucket: s3.Bucket;
  /** OCR jobs; failed messages move to {@link ocrDeadLetterQueue} after {@link MAX_RECEIVES} receives. */
  public readonly ocrQueue: sqs.Queue;
  /** OCR jobs that failed {@link MAX_RECEIVES} times, kept 14 days (both priorities). */
  public readonly ocrDeadLetterQueue: sqs.Queue;
  /** High-priority OCR jobs: a queue of their own, so they never wait behind normal ones. */
  public readonly ocrHighQueue: sqs.Queue;
  /** The bucket's object-created events for staged uploads, consumed by the ingest Lambda. */
  public readonly ingestQueue: sqs.Queue;
  /** Upload events that failed {@link MAX_RECEIVES} times, kept 14 days. */
  public readonly ingestDeadLetterQueue: sqs.Queue;
  /**
   * Steps of source syncs (WebDAV): the scheduler and the sources API queue a sync, the worker queues its own
   * continuation. Failed messages move to {@link sourceSyncDeadLetterQueue}.
   */
  public readonly sourceSyncQueue: sqs.Queue;
  /** Sync steps that failed {@link MAX_RECEIVES} times, kept 14 days. */
  public readonly sourceSyncDeadLetterQueue: sqs.Queue;
  /**
   * Webhook deliveries: the webhook-dispatch consumer of the table's stream and the webhooks API (pings) queue
   * them, the delivery worker queues its own retries. Failed messages move to {@link webhookDeliveryDeadLetterQueue}.
   */
  public readonly webhookDeliveryQueue: sqs.Queue;
  /** Webhook delivery messages that failed {@link MAX_RECEIVES} times, kept 14 days. */
  public readonly webhookDeliveryDeadLetterQueue: sqs.Queue;
  /**
   * Steps of labelling rules' runs over existing documents: the labels API queues a run's first, the rule-jobs
   * worker each next. Failed messages move to {@link ruleJobsDeadLetterQueue}.
   */
  public readonly ruleJobsQueue: sqs.Queue;
  /** Rule-run steps that failed {@link MAX_RECEIVES} times, kept 14 days. */
  public readonly ruleJobsDeadLetterQueue: sqs.Queue;
  /** Workspace exports and imports: the portability API queues them, the portability worker runs them. */
  public readonly portabilityQueue: sqs.Queue;
  /** Exports and imports whose worker failed {@link MAX_RECEIVES} times, kept 14 days. */
  public readonly portabilityDeadLetterQueue: sqs.Queue;
  /** Workspace erasures: the workspaces API queues them, the eraser works them. Failed ones move to {@link erasureDeadLetterQueue}. */
  public readonly erasureQueue: sqs.Queue;
  /** Erasures that failed {@link MAX_RECEIVES} times, kept 14 days (a restart of the erasure queues them again). */
  public readonly erasureDeadLetterQueue: sqs.Queue;
  /**
   * Encrypts the passwords of WebDAV sources (with encryption context `workspace_id`, `source_id`) and the
   * webhooks' signing secrets (context `workspace_id` too): a
   * customer-managed key, so that only the roles granted it can read them, and each use is in CloudTrail.
   */
  public readonly sourceCredentialsKey: kms.Key;
  /** JWT signing key: a generated 64-character alphanumeric string. */
  public readonly jwtSecret: secretsmanager.Secret;
  /** Password of the bootstrap admin: a generated 24-character string. */
  public readonly adminPasswordSecret: secretsmanager.Secret;
  /**
   * The search index: an OpenSearch domain with no resource policy, so only IAM principals whose own policy
   * allows it (the functions granted with `grantRead`/`grantReadWrite`) can reach it, with SigV4-signed HTTPS.
   */
  public readonly searchDomain: opensearch.Domain;
  /** Replicas the search index should have on this domain, and each data node's volume. */
  public readonly searchDomainSize: { readonly indexReplicas: number; readonly volumeGiB: number };

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const { removalPolicy } = props;

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE_SCHEMA.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_SCHEMA.sortKey, type: dynamodb.AttributeType.STRING },
      timeToLiveAttribute: TABLE_SCHEMA.ttlAttribute,
      // The search index and the WebSocket events follow the table's changes (the indexer and events functions):
      // a change is derived from the item before and after it.
      stream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      // A kept table cannot be deleted by a stray `aws dynamodb delete-table` or console click either.
      deletionProtection: removalPolicy !== RemovalPolicy.DESTROY,
      removalPolicy,
    });
    for (const index of TABLE_SCHEMA.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
      });
    }

    this.auditTable = new dynamodb.Table(this, 'AuditTable', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'sk', type: dynamodb.AttributeType.STRING },
      timeToLiveAttribute: 'ttl',
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      deletionProtection: removalPolicy !== RemovalPolicy.DESTROY,
      removalPolicy,
    });

    this.documentsBucket = new s3.Bucket(this, 'DocumentsBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // A deleted or overwritten document can be restored for NONCURRENT_VERSION_DAYS.
      versioned: true,
      lifecycleRules: [
        {
          id: 'old-versions',
          abortIncompleteMultipartUploadAfter: Duration.days(1),
          noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS),
          expiredObjectDeleteMarker: true,
        },
        // A staged upload is moved within minutes; one still there after two days was refused or abandoned.
        // Its old version (the ingest moves it away) is of no use to anyone: a day, not a month.
        {
          id: 'staged-uploads',
          prefix: STAGING_PREFIX,
          expiration: Duration.days(2),
          noncurrentVersionExpiration: Duration.days(1),
        },
        // A sync moves each file it checked out of staging at once; what is left after a day is from a sync
        // that died mid-file (its multipart upload too).
        {
          id: 'sync-staging',
          prefix: SYNC_STAGING_PREFIX,
          expiration: Duration.days(1),
          noncurrentVersionExpiration: Duration.days(1),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      // No origin, no CORS rule: browsers may then use no presigned URL from a page.
      cors: props.corsOrigins.length
        ? [
            {
              allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.GET],
              allowedOrigins: props.corsOrigins,
              allowedHeaders: ['*'],
              // Browsers need the ETag of each part to complete a multipart upload.
              exposedHeaders: ['ETag'],
              maxAge: 3600,
            },
          ]
        : undefined,
      removalPolicy,
      // A non-empty bucket cannot be deleted, so a destroyable stack must empty it first.
      autoDeleteObjects: removalPolicy === RemovalPolicy.DESTROY,
    });

    this.ocrDeadLetterQueue = new sqs.Queue(this, 'OcrDeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    this.ocrQueue = new sqs.Queue(this, 'OcrQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: visibilityFor(OCR_WORKER_TIMEOUT),
      deadLetterQueue: { queue: this.ocrDeadLetterQueue, maxReceiveCount: MAX_RECEIVES },
      removalPolicy,
    });
    this.ocrHighQueue = new sqs.Queue(this, 'OcrHighQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: visibilityFor(OCR_WORKER_TIMEOUT),
      deadLetterQueue: { queue: this.ocrDeadLetterQueue, maxReceiveCount: MAX_RECEIVES },
      removalPolicy,
    });

    this.ingestDeadLetterQueue = new sqs.Queue(this, 'IngestDeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    this.ingestQueue = new sqs.Queue(this, 'IngestQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: visibilityFor(INGEST_TIMEOUT),
      deadLetterQueue: { queue: this.ingestDeadLetterQueue, maxReceiveCount: MAX_RECEIVES },
      removalPolicy,
    });
    // Through a queue rather than straight to the Lambda: the notification stays in this stack (no cycle with
    // the API stack), and a failed ingest is retried and then kept in the DLQ instead of being lost.
    this.documentsBucket.addEventNotification(
      s3.EventType.OBJECT_CREATED,
      new s3n.SqsDestination(this.ingestQueue),
      { prefix: STAGING_PREFIX },
    );

    this.sourceSyncDeadLetterQueue = new sqs.Queue(this, 'SourceSyncDeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    this.sourceSyncQueue = new sqs.Queue(this, 'SourceSyncQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: visibilityFor(SOURCE_SYNC_TIMEOUT),
      deadLetterQueue: { queue: this.sourceSyncDeadLetterQueue, maxReceiveCount: MAX_RECEIVES },
      removalPolicy,
    });
    this.webhookDeliveryDeadLetterQueue = new sqs.Queue(this, 'WebhookDeliveryDeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    this.webhookDeliveryQueue = new sqs.Queue(this, 'WebhookDeliveryQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: visibilityFor(WEBHOOK_DELIVERY_TIMEOUT),
      deadLetterQueue: { queue: this.webhookDeliveryDeadLetterQueue, maxReceiveCount: MAX_RECEIVES },
      removalPolicy,
    });
    this.ruleJobsDeadLetterQueue = new sqs.Queue(this, 'RuleJobsDeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    this.ruleJobsQueue = new sqs.Queue(this, 'RuleJobsQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: visibilityFor(RULE_JOBS_TIMEOUT),
      deadLetterQueue: { queue: this.ruleJobsDeadLetterQueue, maxReceiveCount: MAX_RECEIVES },
      removalPolicy,
    });
    this.portabilityDeadLetterQueue = new sqs.Queue(this, 'PortabilityDeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    // An export or import runs in one invocation; a redelivery while it runs would start it twice, so the
    // message stays invisible for the worker's whole timeout and more.
    this.portabilityQueue = new sqs.Queue(this, 'PortabilityQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: visibilityFor(Duration.seconds(PORTABILITY_TIMEOUT_SECONDS)),
      deadLetterQueue: { queue: this.portabilityDeadLetterQueue, maxReceiveCount: MAX_RECEIVES },
      removalPolicy,
    });
    this.erasureDeadLetterQueue = new sqs.Queue(this, 'ErasureDeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    this.erasureQueue = new sqs.Queue(this, 'ErasureQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: visibilityFor(Duration.seconds(ERASER_TIMEOUT_SECONDS)),
      deadLetterQueue: { queue: this.erasureDeadLetterQueue, maxReceiveCount: MAX_RECEIVES },
      removalPolicy,
    });
    this.sourceCredentialsKey = new kms.Key(this, 'SourceCredentialsKey', {
      description: 'DocService WebDAV source credentials',
      enableKeyRotation: true,
      removalPolicy,
    });

    const size = SEARCH_DOMAIN_PROFILES[props.searchDomainProfile ?? 'dev'];
    this.searchDomainSize = { indexReplicas: size.indexReplicas, volumeGiB: size.volumeGiB };
    this.searchDomain = new opensearch.Domain(this, 'SearchDomain', {
      version: opensearch.EngineVersion.OPENSEARCH_2_19,
      capacity: {
        dataNodes: size.dataNodes,
        dataNodeInstanceType: size.dataNodeType,
        masterNodes: size.masterNodes,
        ...(size.masterNodeType ? { masterNodeInstanceType: size.masterNodeType } : {}),
        // Standby needs 2 replicas of every shard (three copies); one replica across three zones is enough here.
        multiAzWithStandbyEnabled: false,
      },
      ebs: { enabled: true, volumeSize: size.volumeGiB, volumeType: ec2.EbsDeviceVolumeType.GP3 },
      zoneAwareness: size.zones > 1 ? { enabled: true, availabilityZoneCount: size.zones } : { enabled: false },
      encryptionAtRest: { enabled: true },
      nodeToNodeEncryption: true,
      enforceHttps: true,
      tlsSecurityPolicy: opensearch.TLSSecurityPolicy.TLS_1_2,
      removalPolicy,
    });
    if (size.zones === 1) {
      const reason =
        'The dev search domain is one node (about $27 a month) whose index can be rebuilt from the table and the ' +
        'bucket; -c searchDomain=production deploys three dedicated masters across three zones.';
      Validations.of(this.searchDomain).acknowledge({ id: 'AwsSolutions-OS4', reason });
      Validations.of(this.searchDomain).acknowledge({ id: 'AwsSolutions-OS7', reason });
    }
    // The domain's access policy names the functions' roles; they live in the API stack, which sets it
    // (SearchDomainAccessPolicy there), since naming them here would make each stack depend on the other.

    if (props.corsOrigins.includes('*') && removalPolicy !== RemovalPolicy.DESTROY) {
      Annotations.of(this).addWarningV2(
        'docservice:cors-any-origin',
        'corsOrigins is "*": any web page may use presigned URLs of this bucket and call the API from a browser. ' +
          'Name the origins (-c corsOrigins=https://app.example.com) for a stack that keeps its data.',
      );
    }

    this.jwtSecret = new secretsmanager.Secret(this, 'JwtSecret', {
      description: 'DocService JWT signing key',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy,
    });
    this.adminPasswordSecret = new secretsmanager.Secret(this, 'AdminPasswordSecret', {
      description: 'DocService bootstrap admin password',
      generateSecretString: { passwordLength: 24 },
      removalPolicy,
    });
  }
}
