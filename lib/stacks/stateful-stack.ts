import { Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3n from 'aws-cdk-lib/aws-s3-notifications';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { TABLE_SCHEMA } from '../../functions/manifest';

/**
 * Timeout of the OCR worker Lambda, Lambda's maximum: a multi-page PDF waits for Textract's asynchronous job.
 * The queues' visibility timeout is derived from it.
 */
export const OCR_WORKER_TIMEOUT = Duration.minutes(15);
/** Timeout of the ingest Lambda, which hashes a staged upload of up to 500 MB as it streams by. */
export const INGEST_TIMEOUT = Duration.minutes(5);
/** Key prefix of presigned uploads waiting to be checked; matches the domain's staging prefix. */
export const STAGING_PREFIX = 'uploads/';

/** Props of {@link StatefulStack}. */
export interface StatefulStackProps extends StackProps {
  /** `RETAIN` for anything holding real data; `DESTROY` only for throw-away dev stacks. */
  readonly removalPolicy: RemovalPolicy;
  /** Origins allowed to PUT/GET objects through presigned URLs (`*` allows any). */
  readonly corsOrigins: string[];
}

/**
 * Everything that holds data or secrets: the application table, the documents bucket, the OCR queue and its
 * DLQ, the search domain, and the JWT signing key and admin password secrets. Kept apart from the API stack so that the API can be
 * replaced or destroyed without touching data.
 */
export class StatefulStack extends Stack {
  /** The single application table (keys from `TABLE_SCHEMA`). */
  public readonly table: dynamodb.Table;
  /** Uploaded documents, derived files and thumbnails. */
  public readonly documentsBucket: s3.Bucket;
  /** OCR jobs; failed messages move to {@link ocrDeadLetterQueue} after 5 receives. */
  public readonly ocrQueue: sqs.Queue;
  /** OCR jobs that failed 5 times, kept 14 days (both priorities). */
  public readonly ocrDeadLetterQueue: sqs.Queue;
  /** High-priority OCR jobs: a queue of their own, so they never wait behind normal ones. */
  public readonly ocrHighQueue: sqs.Queue;
  /** The bucket's object-created events for staged uploads, consumed by the ingest Lambda. */
  public readonly ingestQueue: sqs.Queue;
  /** Upload events that failed 5 times, kept 14 days. */
  public readonly ingestDeadLetterQueue: sqs.Queue;
  /** JWT signing key: a generated 64-character alphanumeric string. */
  public readonly jwtSecret: secretsmanager.Secret;
  /** Password of the bootstrap admin: a generated 24-character string. */
  public readonly adminPasswordSecret: secretsmanager.Secret;
  /**
   * The search index: an OpenSearch domain with no resource policy, so only IAM principals whose own policy
   * allows it (the functions granted with `grantRead`/`grantReadWrite`) can reach it, with SigV4-signed HTTPS.
   */
  public readonly searchDomain: opensearch.Domain;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const { removalPolicy } = props;

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: TABLE_SCHEMA.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_SCHEMA.sortKey, type: dynamodb.AttributeType.STRING },
      timeToLiveAttribute: TABLE_SCHEMA.ttlAttribute,
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      removalPolicy,
    });
    for (const index of TABLE_SCHEMA.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: index.sortKey, type: dynamodb.AttributeType.STRING },
      });
    }

    this.documentsBucket = new s3.Bucket(this, 'DocumentsBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: false,
      lifecycleRules: [
        { abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // A staged upload is moved within minutes; one still there after two days was refused or abandoned.
        { prefix: STAGING_PREFIX, expiration: Duration.days(2) },
      ],
      cors: [
        {
          allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.GET],
          allowedOrigins: props.corsOrigins,
          allowedHeaders: ['*'],
          // Browsers need the ETag of each part to complete a multipart upload.
          exposedHeaders: ['ETag'],
          maxAge: 3600,
        },
      ],
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
      // AWS's guidance for Lambda event sources: at least 6x the function timeout, so retries of a throttled
      // batch do not make a message visible again while it is still being processed.
      visibilityTimeout: Duration.seconds(OCR_WORKER_TIMEOUT.toSeconds() * 6),
      deadLetterQueue: { queue: this.ocrDeadLetterQueue, maxReceiveCount: 5 },
      removalPolicy,
    });
    this.ocrHighQueue = new sqs.Queue(this, 'OcrHighQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(OCR_WORKER_TIMEOUT.toSeconds() * 6),
      deadLetterQueue: { queue: this.ocrDeadLetterQueue, maxReceiveCount: 5 },
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
      visibilityTimeout: Duration.seconds(INGEST_TIMEOUT.toSeconds() * 6),
      deadLetterQueue: { queue: this.ingestDeadLetterQueue, maxReceiveCount: 5 },
      removalPolicy,
    });
    // Through a queue rather than straight to the Lambda: the notification stays in this stack (no cycle with
    // the API stack), and a failed ingest is retried and then kept in the DLQ instead of being lost.
    this.documentsBucket.addEventNotification(
      s3.EventType.OBJECT_CREATED,
      new s3n.SqsDestination(this.ingestQueue),
      { prefix: STAGING_PREFIX },
    );

    // The smallest domain that encrypts: one t3.small node, 10 GB gp3. One node means no replica, which the index
    // settings match (0 replicas): the index can be rebuilt from the table and the bucket at any time.
    this.searchDomain = new opensearch.Domain(this, 'SearchDomain', {
      version: opensearch.EngineVersion.OPENSEARCH_2_19,
      capacity: { dataNodes: 1, dataNodeInstanceType: 't3.small.search', multiAzWithStandbyEnabled: false },
      ebs: { enabled: true, volumeSize: 10, volumeType: ec2.EbsDeviceVolumeType.GP3 },
      zoneAwareness: { enabled: false },
      encryptionAtRest: { enabled: true },
      nodeToNodeEncryption: true,
      enforceHttps: true,
      tlsSecurityPolicy: opensearch.TLSSecurityPolicy.TLS_1_2,
      removalPolicy,
    });

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
