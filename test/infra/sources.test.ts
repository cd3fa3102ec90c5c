import { RemovalPolicy } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ENV, HTTP_ROUTES, MAX_RECEIVES, SOURCE_SCHEDULE_MINUTES, SOURCE_SYNC_TIMEOUT_SECONDS, SYNC_STAGING_PREFIX, v2RouteKey } from '../../shared/manifest';
import type { ApiFunctionName } from '../../lib/stacks/api-stack';
import { SOURCE_SYNC_CONCURRENCY } from '../../lib/stacks/limits';
import {
  allStatementsOf,
  buildStacks,
  environmentOf,
  functionAlarmPart,
  functionIdOf,
  grantsOf,
  logicalIdOf,
  resolveImports,
  statementsOf,
  type BuiltStacks,
} from './build-stacks';

const stacks = buildStacks();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- template JSON, read by the assertions
type Json = any;
const statefulResource = (construct: Parameters<typeof logicalIdOf>[0], built: BuiltStacks = stacks): Json =>
  built.statefulTemplate.toJSON().Resources[logicalIdOf(construct)];
const apiResource = (id: string): Json => stacks.apiTemplate.toJSON().Resources[id];
const arnOf = (construct: Parameters<typeof logicalIdOf>[0]) => ({ 'Fn::GetAtt': [logicalIdOf(construct), 'Arn'] });
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const FUNCTION_NAMES = Object.keys(stacks.api.functions) as ApiFunctionName[];
const SOURCE_FUNCTIONS = ['sources', 'source-sync'] as const satisfies readonly ApiFunctionName[];
/** Issue 36: the webhooks API seals the signing secrets with the same key, the delivery worker opens them. */
const KEY_USERS = [...SOURCE_FUNCTIONS, 'webhooks', 'webhook-delivery'] as const satisfies readonly ApiFunctionName[];
/** Every function the key's ARN is given to: its users, and the portability worker, which only seals (imported sources' empty passwords). */
const KEY_HOLDERS = [...KEY_USERS, 'portability-worker'] as const satisfies readonly ApiFunctionName[];
/** The functions whose role may use the credentials key for `action`. */
const kmsUsersOf = (action: string) =>
  FUNCTION_NAMES.filter((name) =>
    grantsOf(stacks, name).some((s) => s.Action.includes(action) && s.Resource.some((r) => same(r, arnOf(stacks.stateful.sourceCredentialsKey)))),
  );
const SOURCES_V1_ROUTES = [
  'GET /api/sources',
  'POST /api/sources',
  'PUT /api/sources/{id}',
  'DELETE /api/sources/{id}',
  'POST /api/sources/{id}/sync',
  'GET /api/sources/{id}/sync-status',
] as const;

describe('source sync queue', () => {
  it(`moves a sync step to its own dead-letter queue after ${MAX_RECEIVES} receives, like every queue`, () => {
    // Arrange
    const queues = Object.values(stacks.statefulTemplate.findResources('AWS::SQS::Queue'));

    // Act
    const redrive = statefulResource(stacks.stateful.sourceSyncQueue).Properties.RedrivePolicy;

    // Assert
    expect(redrive).toEqual({ deadLetterTargetArn: arnOf(stacks.stateful.sourceSyncDeadLetterQueue), maxReceiveCount: 5 });
    const counts = queues.flatMap((queue) => (queue.Properties.RedrivePolicy ? [queue.Properties.RedrivePolicy.maxReceiveCount] : []));
    expect(new Set(counts)).toEqual(new Set([MAX_RECEIVES]));
  });

  it('hides a received sync step for 6 times the 15-minute worker timeout', () => {
    // Arrange
    const worker = apiResource(functionIdOf(stacks, 'source-sync'));

    // Act
    const visibility = statefulResource(stacks.stateful.sourceSyncQueue).Properties.VisibilityTimeout;

    // Assert
    expect(worker.Properties.Timeout).toBe(SOURCE_SYNC_TIMEOUT_SECONDS);
    expect(visibility).toBe(6 * SOURCE_SYNC_TIMEOUT_SECONDS);
  });

  it.each(['sourceSyncQueue', 'sourceSyncDeadLetterQueue'] as const)('encrypts the %s with an SQS-managed key and denies requests without TLS', (name) => {
    // Arrange
    const queue = stacks.stateful[name];

    // Act
    const { Properties } = statefulResource(queue);

    // Assert
    expect(Properties.SqsManagedSseEnabled).toBe(true);
    stacks.statefulTemplate.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: logicalIdOf(queue) }],
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  it('keeps failed sync steps 14 days', () => {
    // Arrange
    const dlq = stacks.stateful.sourceSyncDeadLetterQueue;

    // Act
    const { Properties } = statefulResource(dlq);

    // Assert
    expect(Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
  });
});

describe('source credentials key', () => {
  it('is a customer-managed key rotated automatically', () => {
    // Arrange
    const key = stacks.stateful.sourceCredentialsKey;

    // Act
    const { Type, Properties } = statefulResource(key);

    // Assert
    expect(Type).toBe('AWS::KMS::Key');
    expect(Properties.EnableKeyRotation).toBe(true);
  });

  it('is retained by default and deleted with a stack whose removal policy is destroy', () => {
    // Arrange
    const destroyable = buildStacks({ removalPolicy: RemovalPolicy.DESTROY });

    // Act
    const [kept, deleted] = [statefulResource(stacks.stateful.sourceCredentialsKey), statefulResource(destroyable.stateful.sourceCredentialsKey, destroyable)];

    // Assert
    expect([kept.DeletionPolicy, kept.UpdateReplacePolicy]).toEqual(['Retain', 'Retain']);
    expect(deleted.DeletionPolicy).toBe('Delete');
  });

  it('lets only the sources, source-sync, webhooks and webhook-delivery functions decrypt with it', () => {
    // Arrange
    const decryptStatements = allStatementsOf(stacks.apiTemplate).filter((s) => s.Action.includes('kms:Decrypt'));

    // Act
    const decrypters = kmsUsersOf('kms:Decrypt');

    // Assert
    expect(decrypters.sort()).toEqual([...KEY_USERS].sort());
    expect(decryptStatements).toHaveLength(KEY_USERS.length);
  });

  it('lets only the sources and webhooks functions, and the portability worker (imported sources), encrypt with it', () => {
    // Arrange
    const action = 'kms:Encrypt';

    // Act
    const encrypters = kmsUsersOf(action);

    // Assert
    expect(encrypters.sort()).toEqual(['portability-worker', 'sources', 'webhooks']);
  });

  it.each(KEY_HOLDERS)('lets the %s function use it only for calls that carry a workspace_id encryption context', (name) => {
    // Arrange
    const statements = grantsOf(stacks, name).filter((s) => s.Action.some((a) => a.startsWith('kms:')));

    // Act
    const conditions = statements.map((s) => s.Condition);

    // Assert
    expect(statements).toHaveLength(1);
    expect(conditions).toEqual([{ Null: { 'kms:EncryptionContext:workspace_id': 'false' } }]);
  });

  it('is granted by no kms:* and no KMS action on "*" in either stack\'s IAM policies', () => {
    // Arrange
    const statements = [...allStatementsOf(stacks.statefulTemplate), ...allStatementsOf(stacks.apiTemplate)];

    // Act
    const kmsStatements = statements.filter((s) => s.Action.some((a) => a.startsWith('kms:') || a === '*'));

    // Assert
    expect(kmsStatements.flatMap((s) => s.Action)).not.toContain('kms:*');
    expect(kmsStatements.flatMap((s) => s.Action)).not.toContain('*');
    expect(kmsStatements.filter((s) => s.Resource.includes('*'))).toEqual([]);
  });

  it("names no role in its key policy: only the account, whose IAM policies above decide who uses it", () => {
    // Arrange
    const { Properties } = statefulResource(stacks.stateful.sourceCredentialsKey);

    // Act
    const principals = (Properties.KeyPolicy.Statement as Json[]).map((statement) => statement.Principal);

    // Assert
    expect(principals).toEqual([{ AWS: { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::', { Ref: 'AWS::AccountId' }, ':root']] } }]);
  });

  it('tells the functions that use it its ARN, and no other function', () => {
    // Arrange
    const keyArn = arnOf(stacks.stateful.sourceCredentialsKey);

    // Act
    const told = FUNCTION_NAMES.filter((name) => ENV.sourceCredentialsKeyArn in environmentOf(stacks, name));

    // Assert
    expect(told.sort()).toEqual([...KEY_HOLDERS].sort());
    for (const name of KEY_HOLDERS) expect(environmentOf(stacks, name)[ENV.sourceCredentialsKeyArn]).toEqual(keyArn);
  });
});

describe('sync staging in the bucket', () => {
  it(`expires objects under ${SYNC_STAGING_PREFIX} after a day and aborts their incomplete multipart uploads after a day`, () => {
    // Arrange
    const bucket = statefulResource(stacks.stateful.documentsBucket);

    // Act
    const rules = (bucket.Properties.LifecycleConfiguration.Rules as Json[]).filter((rule) => rule.Prefix === SYNC_STAGING_PREFIX);

    // Assert
    expect(rules).toEqual([
      expect.objectContaining({
        Status: 'Enabled',
        ExpirationInDays: 1,
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
        NoncurrentVersionExpiration: { NoncurrentDays: 1 },
      }),
    ]);
  });
});

describe('sources API', () => {
  it.each([...SOURCES_V1_ROUTES, ...SOURCES_V1_ROUTES.map((key) => v2RouteKey(key))])('integrates %s with the sources function', (routeKey) => {
    // Arrange
    const routes = Object.values(stacks.apiTemplate.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: routeKey } }));

    // Act
    const integrationId = (routes[0]?.Properties.Target['Fn::Join'][1][1] as { Ref: string } | undefined)?.Ref ?? '';

    // Assert
    expect(routes).toHaveLength(1);
    expect(HTTP_ROUTES.sources).toContain(routeKey);
    expect(apiResource(integrationId).Properties.IntegrationUri).toEqual({ 'Fn::GetAtt': [functionIdOf(stacks, 'sources'), 'Arn'] });
  });

  it('lets the sources function read and write the table, verify tokens and count requests', () => {
    // Arrange
    const environment = environmentOf(stacks, 'sources');

    // Act
    const actions = grantsOf(stacks, 'sources').flatMap((s) => s.Action);

    // Assert
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:Query', 'secretsmanager:GetSecretValue']));
    expect(environment).toMatchObject({ [ENV.tableName]: { Ref: logicalIdOf(stacks.stateful.table) }, [ENV.jwtSecretArn]: expect.anything(), [ENV.rateLimitPerMinute]: '100' });
  });

  it('lets the sources function queue a sync, and tells it where', () => {
    // Arrange
    const queueArn = arnOf(stacks.stateful.sourceSyncQueue);

    // Act
    const send = grantsOf(stacks, 'sources').filter((s) => s.Resource.some((r) => same(r, queueArn)));

    // Assert
    expect(send.flatMap((s) => s.Action)).toContain('sqs:SendMessage');
    expect(send.flatMap((s) => s.Action)).not.toContain('sqs:ReceiveMessage');
    expect(environmentOf(stacks, 'sources')[ENV.sourceSyncQueueUrl]).toEqual({ Ref: logicalIdOf(stacks.stateful.sourceSyncQueue) });
  });

  it('gives the sources function neither the bucket, the search index, the OCR queues nor the WebSocket API', () => {
    // Arrange
    const environment = environmentOf(stacks, 'sources');

    // Act
    const actions = statementsOf(stacks, 'sources').flatMap((s) => s.Action);

    // Assert
    for (const name of [ENV.bucketName, ENV.opensearchEndpoint, ENV.ocrQueueUrl, ENV.ocrHighQueueUrl, ENV.websocketEndpoint]) expect(environment).not.toHaveProperty(name);
    expect(actions.filter((a) => /^(s3|es|execute-api):/.test(a))).toEqual([]);
  });

  it.each(SOURCE_FUNCTIONS)('refuses private networks in the cloud: SOURCES_ALLOW_PRIVATE_NETWORKS of the %s function is false', (name) => {
    // Arrange
    const environment = environmentOf(stacks, name);

    // Act
    const allowed = environment[ENV.sourcesAllowPrivateNetworks];

    // Assert
    expect(allowed).toBe('false');
  });
});

describe('sync worker', () => {
  const mappings = () =>
    Object.values(stacks.apiTemplate.findResources('AWS::Lambda::EventSourceMapping')).filter((mapping) =>
      same(resolveImports(stacks, mapping.Properties.EventSourceArn), arnOf(stacks.stateful.sourceSyncQueue)),
    );

  it('consumes the sync queue one message at a time, with partial batch failures and a modest concurrency', () => {
    // Arrange
    const worker = functionIdOf(stacks, 'source-sync');

    // Act
    const found = mappings();

    // Assert
    expect(found).toHaveLength(1);
    expect(found[0]!.Properties).toMatchObject({
      FunctionName: { Ref: worker },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: SOURCE_SYNC_CONCURRENCY },
    });
    expect(SOURCE_SYNC_CONCURRENCY).toBeLessThanOrEqual(5);
  });

  it('streams files in 1024 MB', () => {
    // Arrange
    const id = functionIdOf(stacks, 'source-sync');

    // Act
    const { Properties } = apiResource(id);

    // Assert
    expect(Properties.MemorySize).toBe(1024);
  });

  it('reads and writes the table and the bucket', () => {
    // Arrange
    const actions = grantsOf(stacks, 'source-sync').flatMap((s) => s.Action);

    // Act
    const environment = environmentOf(stacks, 'source-sync');

    // Assert
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 's3:PutObject', 's3:GetObject*', 's3:DeleteObject*']));
    expect(environment).toMatchObject({ [ENV.tableName]: expect.anything(), [ENV.bucketName]: expect.anything() });
  });

  it('sends its own continuation to the sync queue and OCR jobs to both OCR queues', () => {
    // Arrange
    const queues = [stacks.stateful.sourceSyncQueue, stacks.stateful.ocrQueue, stacks.stateful.ocrHighQueue].map(arnOf);

    // Act
    const sendable = grantsOf(stacks, 'source-sync')
      .filter((s) => s.Action.includes('sqs:SendMessage'))
      .flatMap((s) => s.Resource);

    // Assert
    for (const queue of queues) expect(sendable).toContainEqual(queue);
    expect(Object.keys(environmentOf(stacks, 'source-sync'))).toEqual(expect.arrayContaining([ENV.sourceSyncQueueUrl, ENV.ocrQueueUrl, ENV.ocrHighQueueUrl]));
  });

  // Issue 17: its sync progress and the documents it writes reach the clients and the index through the table's
  // stream (the events and indexer functions).
  it('reaches neither the WebSocket connections nor the search index', () => {
    // Arrange
    const environment = environmentOf(stacks, 'source-sync');

    // Act
    const actions = statementsOf(stacks, 'source-sync').flatMap((s) => s.Action);

    // Assert
    expect(actions.filter((a) => /^(es|execute-api):/.test(a))).toEqual([]);
    expect(environment).not.toHaveProperty(ENV.websocketEndpoint);
    expect(environment).not.toHaveProperty(ENV.opensearchEndpoint);
  });
});

describe('sync scheduler', () => {
  it(`runs the scheduler every ${SOURCE_SCHEDULE_MINUTES} minute(s)`, () => {
    // Arrange
    const scheduler = functionIdOf(stacks, 'source-scheduler');

    // Act
    const rules = Object.values(stacks.apiTemplate.findResources('AWS::Events::Rule')).filter((rule) =>
      (rule.Properties.Targets as Json[]).some((target) => same(target.Arn, { 'Fn::GetAtt': [scheduler, 'Arn'] })),
    );

    // Assert
    expect(rules).toHaveLength(1);
    expect(rules[0]!.Properties.ScheduleExpression).toBe(SOURCE_SCHEDULE_MINUTES === 1 ? 'rate(1 minute)' : `rate(${SOURCE_SCHEDULE_MINUTES} minutes)`);
  });

  it('grants the scheduler the table and sending to the sync queue, and nothing else', () => {
    // Arrange
    const tableId = logicalIdOf(stacks.stateful.table);
    const queueArn = arnOf(stacks.stateful.sourceSyncQueue);

    // Act
    const statements = grantsOf(stacks, 'source-scheduler');

    // Assert
    for (const statement of statements) {
      const onQueue = statement.Resource.every((r) => same(r, queueArn));
      const onTable = statement.Resource.every((r) => JSON.stringify(r).includes(`"${tableId}"`));
      expect(onQueue || onTable).toBe(true);
      if (onQueue) expect(statement.Action.sort()).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
      else expect(statement.Action.every((a) => a.startsWith('dynamodb:'))).toBe(true);
    }
    expect(statements.flatMap((s) => s.Action)).toEqual(expect.arrayContaining(['sqs:SendMessage', 'dynamodb:UpdateItem', 'dynamodb:Query']));
    expect(Object.keys(environmentOf(stacks, 'source-scheduler')).sort()).toEqual([ENV.sourceSyncQueueUrl, ENV.tableName, 'NODE_OPTIONS', 'OTEL_TRACES_EXPORTER', 'POWERTOOLS_SERVICE_NAME', 'POWERTOOLS_METRICS_NAMESPACE'].sort());
  });
});

describe('sync alarms', () => {
  const alarm = (id: string): Json => {
    const construct = stacks.api.monitoring.alarms[id];
    if (!construct) throw new Error(`No alarm ${id}`);
    return apiResource(logicalIdOf(construct)).Properties;
  };

  it('alarms on the first message in the source-sync dead-letter queue', () => {
    // Arrange
    const queueName = { 'Fn::GetAtt': [logicalIdOf(stacks.stateful.sourceSyncDeadLetterQueue), 'QueueName'] };

    // Act
    const properties = alarm('Dlq-source-sync');

    // Assert
    expect(properties).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    expect(resolveImports(stacks, properties.Dimensions)).toEqual([{ Name: 'QueueName', Value: queueName }]);
  });

  it('alarms on any error of the sync worker', () => {
    // Arrange
    const functionId = functionIdOf(stacks, 'source-sync');

    // Act
    const part = functionAlarmPart(alarm('Errors-source-sync') as Record<string, unknown>, functionId);

    // Assert
    expect(part).toMatchObject({ metric: { MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionId } }] }, threshold: 0 });
  });

  it('alarms when a sync step waits in the queue longer than an hour', () => {
    // Arrange
    const id = 'OldestMessage-source-sync';

    // Act
    const properties = alarm(id);

    // Assert
    expect(properties).toMatchObject({ MetricName: 'ApproximateAgeOfOldestMessage', Threshold: 3600 });
  });
});
