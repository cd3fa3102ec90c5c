import { ArnFormat, Stack } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as opensearch from 'aws-cdk-lib/aws-opensearchservice';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { ENV, TABLE_SCHEMA } from '../../shared/manifest';
import type { OidcDeployment } from '../context';
import type { RateLimitSettings } from '../stacks/limits';

/*
 * Each helper sets the environment variable the AWS composition root reads and grants exactly the access that
 * variable is for, so a function never knows a resource it may not use, nor may use one it does not know.
 */

/** Read-only or read/write data access. */
export type DataAccess = 'read' | 'readWrite';

/** Sending to a queue, or receiving and deleting from it. */
export type QueueAccess = 'send' | 'consume';

/** Environment variable names that hold a secret's ARN. */
export type SecretArnEnvName = typeof ENV.jwtSecretArn | typeof ENV.adminPasswordSecretArn | typeof ENV.oidcClientSecretArn;

/** Sets `TABLE_NAME` and grants data access (items and indexes) on the table. */
export function bindTable(fn: lambda.Function, table: dynamodb.ITable, access: DataAccess): void {
  fn.addEnvironment(ENV.tableName, table.tableName);
  if (access === 'read') table.grantReadData(fn);
  else table.grantReadWriteData(fn);
}

/** Sets `BUCKET_NAME` and grants object access on the bucket. */
export function bindBucket(fn: lambda.Function, bucket: s3.IBucket, access: DataAccess): void {
  fn.addEnvironment(ENV.bucketName, bucket.bucketName);
  if (access === 'read') bucket.grantRead(fn);
  else bucket.grantReadWrite(fn);
}

/** Environment variable names that hold a queue's URL. */
export type QueueUrlEnvName = typeof ENV.ocrQueueUrl | typeof ENV.ocrHighQueueUrl | typeof ENV.sourceSyncQueueUrl | typeof ENV.webhookDeliveryQueueUrl | typeof ENV.ruleJobsQueueUrl | typeof ENV.erasureQueueUrl;

/** Sets `envName` (default `OCR_QUEUE_URL`) and grants sending to, or consuming from, the queue. */
export function bindQueue(
  fn: lambda.Function,
  queue: sqs.IQueue,
  access: QueueAccess,
  envName: QueueUrlEnvName = ENV.ocrQueueUrl,
): void {
  fn.addEnvironment(envName, queue.queueUrl);
  if (access === 'send') queue.grantSendMessages(fn);
  else queue.grantConsumeMessages(fn);
}

/** The OCR queues, one per priority. */
export interface OcrQueues {
  readonly normal: sqs.IQueue;
  readonly high: sqs.IQueue;
}

/** Sets `OCR_QUEUE_URL` and `OCR_HIGH_QUEUE_URL` and grants sending to both: whoever queues OCR picks the priority. */
export function bindOcrQueues(fn: lambda.Function, queues: OcrQueues): void {
  bindQueue(fn, queues.normal, 'send', ENV.ocrQueueUrl);
  bindQueue(fn, queues.high, 'send', ENV.ocrHighQueueUrl);
}

/**
 * Using the sources' credentials key: encrypting a secret (a source's password in the sources API, a webhook's
 * signing secret in the webhooks API) and reading it back, or reading it only (the sync and delivery workers).
 */
export type CredentialsKeyAccess = 'encryptDecrypt' | 'decrypt';

/** The encryption context key every use of the sources' credentials key must carry (the app adds `source_id`). */
export const CREDENTIALS_CONTEXT_KEY = 'workspace_id';

/**
 * Sets `SOURCE_CREDENTIALS_KEY_ARN` and grants `kms:Encrypt`/`kms:Decrypt` (or `kms:Decrypt` only) on that
 * key, and only for calls that carry a `workspace_id` encryption context: a ciphertext is bound to its
 * workspace and source, and the role cannot use the key for anything unbound.
 */
export function bindCredentialsKey(fn: lambda.Function, key: kms.IKey, access: CredentialsKeyAccess): void {
  fn.addEnvironment(ENV.sourceCredentialsKeyArn, key.keyArn);
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: access === 'decrypt' ? ['kms:Decrypt'] : ['kms:Encrypt', 'kms:Decrypt'],
      resources: [key.keyArn],
      conditions: { Null: { [`kms:EncryptionContext:${CREDENTIALS_CONTEXT_KEY}`]: 'false' } },
    }),
  );
}

/** Sets `envName` to the secret's ARN (never its value) and grants reading the secret. */
export function bindSecret(fn: lambda.Function, secret: secretsmanager.ISecret, envName: SecretArnEnvName): void {
  fn.addEnvironment(envName, secret.secretArn);
  secret.grantRead(fn);
}

/** The resources a readiness check probes. */
export interface HealthCheckTargets {
  readonly table: dynamodb.ITable;
  readonly bucket: s3.IBucket;
  readonly queue: sqs.IQueue;
}

/**
 * Sets `TABLE_NAME`, `BUCKET_NAME` and `OCR_QUEUE_URL` and grants only the metadata calls a readiness check
 * needs (DescribeTable, HeadBucket via ListBucket, GetQueueAttributes): the health function reads no data.
 */
export function bindHealthChecks(fn: lambda.Function, targets: HealthCheckTargets): void {
  const { table, bucket, queue } = targets;
  fn.addEnvironment(ENV.tableName, table.tableName);
  fn.addEnvironment(ENV.bucketName, bucket.bucketName);
  fn.addEnvironment(ENV.ocrQueueUrl, queue.queueUrl);
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['dynamodb:DescribeTable'], resources: [table.tableArn] }));
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['sqs:GetQueueAttributes'], resources: [queue.queueArn] }));
}

/**
 * Sets `WEBSOCKET_ENDPOINT` to the stage's callback URL and grants `execute-api:ManageConnections` for POST
 * (push) and DELETE (close), or only the given methods, on that stage's `@connections` only: narrower than
 * `WebSocketApi.grantManageConnections`, which allows every stage and method.
 */
export function bindWebSocket(
  fn: lambda.Function,
  api: apigwv2.IWebSocketApi,
  stage: apigwv2.IWebSocketStage,
  methods: readonly ('POST' | 'DELETE')[] = ['POST', 'DELETE'],
): void {
  fn.addEnvironment(ENV.websocketEndpoint, stage.callbackUrl);
  const stack = Stack.of(fn);
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['execute-api:ManageConnections'],
      resources: methods.map((method) =>
        stack.formatArn({
          service: 'execute-api',
          resource: api.apiId,
          arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
          resourceName: `${stage.stageName}/${method}/@connections/*`,
        }),
      ),
    }),
  );
}

/**
 * HTTP verbs a function that only searches sends: `_search` goes out as POST (the query is a JSON body), and
 * CDK's `grantRead` allows only GET and HEAD (aws-cdk issue 17761), which made every cloud search a 403.
 */
export const SEARCH_READ_ACTIONS = ['es:ESHttpGet', 'es:ESHttpHead', 'es:ESHttpPost'] as const;

/**
 * Sets `OPENSEARCH_ENDPOINT` and grants HTTP access to the search domain's indexes: GET, HEAD and POST for
 * functions that only search, every verb for those that keep the index in step or migrate it.
 */
export function bindSearch(fn: lambda.Function, domain: opensearch.IDomain, access: DataAccess): void {
  fn.addEnvironment(ENV.opensearchEndpoint, domain.domainEndpoint);
  if (access === 'readWrite') {
    domain.grantReadWrite(fn);
    return;
  }
  fn.addToRolePolicy(
    new iam.PolicyStatement({ actions: [...SEARCH_READ_ACTIONS], resources: [domain.domainArn, `${domain.domainArn}/*`] }),
  );
}

/**
 * A statement granting `actions` on the table's items whose partition key matches `pattern` only
 * (`dynamodb:LeadingKeys`), with any further conditions: what lets a function that otherwise only reads the table
 * write its own kind of item and nothing else.
 */
function keyedItems(table: dynamodb.ITable, actions: string[], pattern: string, conditions: Record<string, unknown> = {}): iam.PolicyStatement {
  return new iam.PolicyStatement({
    actions,
    resources: [table.tableArn],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [pattern] }, ...conditions },
  });
}

/** Partition keys of the rate-limit buckets (shared/adapters/aws/dynamodb/keys.ts `rateLimit`). */
export const RATE_LIMIT_KEY_PATTERN = 'RATE#*';

/**
 * Sets `RATE_LIMIT_*` and grants the limiter's two calls (a conditional UpdateItem, a GetItem) on the table's
 * rate-limit items only (`dynamodb:LeadingKeys` `RATE#*`): a function that only reads data, such as search,
 * may count its requests without being able to write anything else.
 */
export function bindRateLimits(fn: lambda.Function, table: dynamodb.ITable, limits: RateLimitSettings): void {
  fn.addEnvironment(ENV.rateLimitPerMinute, String(limits.perMinute));
  fn.addEnvironment(ENV.rateLimitBurst, String(limits.burst));
  fn.addEnvironment(ENV.uploadRateLimitPerMinute, String(limits.uploadPerMinute));
  fn.addEnvironment(ENV.ipRateLimitPerMinute, String(limits.ipPerMinute));
  fn.addEnvironment(ENV.ipRateLimitBurst, String(limits.ipBurst));
  fn.addToRolePolicy(keyedItems(table, ['dynamodb:GetItem', 'dynamodb:UpdateItem'], RATE_LIMIT_KEY_PATTERN));
}

/** Partition keys of the workspaces' usage counters (shared/adapters/aws/dynamodb/keys.ts `usageMonth`). */
export const USAGE_KEY_PATTERN = 'WS#*#USAGE*';

/**
 * Grants adding to the workspaces' usage counters (UpdateItem with ADD), and only those items
 * (`dynamodb:LeadingKeys` `WS#*#USAGE`): a function that otherwise only reads the table, such as search, counts
 * its requests and searches without being able to write anything else.
 */
export function bindUsageMeter(fn: lambda.Function, table: dynamodb.ITable): void {
  fn.addToRolePolicy(keyedItems(table, ['dynamodb:UpdateItem'], USAGE_KEY_PATTERN));
}

/**
 * Sets the `OIDC_*` variables of single sign-on and, for a confidential client, `OIDC_CLIENT_SECRET_ARN` with
 * reading that one secret (its complete ARN, so no other secret whose name starts the same).
 */
export function bindOidc(fn: lambda.Function, oidc: OidcDeployment): void {
  for (const [name, value] of Object.entries(oidc.environment)) fn.addEnvironment(name, value);
  if (oidc.clientSecretArn === undefined) return;
  const secret = secretsmanager.Secret.fromSecretCompleteArn(fn, 'OidcClientSecret', oidc.clientSecretArn);
  bindSecret(fn, secret, ENV.oidcClientSecretArn);
}

/** Partition keys of the stream consumers' ledger (shared/adapters/aws/dynamodb/change-ledger.ts `changeLedgerKey`). */
export const CHANGE_LEDGER_KEY_PATTERN = 'STREAMSEEN#*';

/**
 * Grants the change ledger's one call (a transaction of conditional puts, which IAM authorises as PutItem of
 * each item) on the ledger's items only (`dynamodb:LeadingKeys` `STREAMSEEN#*`): a stream consumer that otherwise only
 * reads the table records which changes it acted on without being able to write anything else.
 */
export function bindChangeLedger(fn: lambda.Function, table: dynamodb.ITable): void {
  fn.addToRolePolicy(keyedItems(table, ['dynamodb:PutItem'], CHANGE_LEDGER_KEY_PATTERN));
}

/** Partition keys of the WebSocket connection records and of the users' items (keys.ts `connection`, `connectionCount`). */
export const CONNECTION_KEY_PATTERN = 'CONN#*';
export const USER_KEY_PATTERN = 'USER#*';
/** The attribute of a user's connection count item that lists its live connections (connection-repository.ts). */
export const CONNECTION_COUNT_ATTRIBUTE = 'live';

/**
 * Grants what a publisher that only reads the table does when a connection is gone or its session ended: it
 * deletes or marks the connection's record (`CONN#*`) and takes the connection out of its user's count, an
 * UpdateItem on `USER#*` items limited to the count's attribute and the keys, so that no profile (role, token
 * version) can be written.
 */
export function bindConnectionCleanup(fn: lambda.Function, table: dynamodb.ITable): void {
  fn.addToRolePolicy(keyedItems(table, ['dynamodb:DeleteItem', 'dynamodb:UpdateItem'], CONNECTION_KEY_PATTERN));
  fn.addToRolePolicy(
    keyedItems(table, ['dynamodb:UpdateItem'], USER_KEY_PATTERN, {
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': [TABLE_SCHEMA.partitionKey, TABLE_SCHEMA.sortKey, CONNECTION_COUNT_ATTRIBUTE] },
    }),
  );
}

/**
 * Sets `AUDIT_TABLE_NAME` and grants the audit table: `append` puts entries (`dynamodb:PutItem` alone, each
 * conditioned on being new by the code), `read` queries them. No grant ever updates or deletes an entry (nor
 * BatchWriteItem, which deletes too): only the table's TTL removes one.
 */
export function bindAuditLog(fn: lambda.Function, table: dynamodb.ITable, access: 'append' | 'read'): void {
  fn.addEnvironment(ENV.auditTableName, table.tableName);
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: access === 'append' ? ['dynamodb:PutItem'] : ['dynamodb:Query'], resources: [table.tableArn] }));
}
