import { describe, expect, it } from 'vitest';
import { CHANGE_CONSUMER_DELIVERY, ENV, INDEX_RECONCILE_HOURS, isReconcileEvent } from '../../shared/manifest';
import { changeLedgerKey } from '../../shared/adapters/aws/dynamodb/change-ledger';
import { CHANGE_LEDGER_KEY_PATTERN } from '../../lib/constructs/bindings';
import type { ApiFunctionName } from '../../lib/stacks/api-stack';
import { CHANGE_MAX_ITERATOR_AGE_MINUTES, CHANGE_PARALLELIZATION_FACTOR } from '../../lib/stacks/limits';
import { buildStacks, environmentOf, functionIdOf, grantsOf, logicalIdOf, resolveImports } from './build-stacks';

/*
 * Issue 17: the search index and the WebSocket events follow the table's stream. Two consumers (indexer,
 * events), each with a failure queue and alarms; only they and the functions that must (search, realtime, the
 * index setup, the eraser) reach OpenSearch or the connections.
 */

const stacks = buildStacks();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- template JSON, read by the assertions
type Json = any;
const resources = () => stacks.apiTemplate.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, Json>; DependsOn?: string[] }>;
const CONSUMERS = ['indexer', 'events'] as const satisfies readonly ApiFunctionName[];
const FUNCTION_NAMES = Object.keys(stacks.api.functions) as ApiFunctionName[];
const tableOf = () => stacks.statefulTemplate.toJSON().Resources[logicalIdOf(stacks.stateful.table)].Properties;
const tableArn = () => ({ 'Fn::GetAtt': [logicalIdOf(stacks.stateful.table), 'Arn'] });
const auditTableArn = () => ({ 'Fn::GetAtt': [logicalIdOf(stacks.stateful.auditTable), 'Arn'] });
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** A statement on the audit table alone (its own table; its grants are checked in audit.test.ts). */
const onAuditTableOnly = (statement: { Resource: unknown }) => same(statement.Resource, [auditTableArn()]);

/** The event source mapping of one consumer, its table reference resolved. */
function mappingOf(name: ApiFunctionName): Record<string, Json> {
  const mappings = Object.values(resources())
    .filter((resource) => resource.Type === 'AWS::Lambda::EventSourceMapping')
    .map((resource) => resolveImports(stacks, resource.Properties) as Record<string, Json>)
    .filter((properties) => same(properties.FunctionName, { Ref: functionIdOf(stacks, name) }));
  expect(mappings).toHaveLength(1);
  return mappings[0]!;
}

/** The alarm of the monitoring construct with this id, as its template resource. */
function alarm(id: string) {
  const construct = stacks.api.monitoring.alarms[id];
  if (!construct) throw new Error(`No alarm ${id}`);
  return resources()[logicalIdOf(construct)]!.Properties;
}

const esActions = (name: ApiFunctionName) => grantsOf(stacks, name).flatMap((s) => s.Action).filter((a) => a.startsWith('es:'));
const manageConnections = (name: ApiFunctionName) => grantsOf(stacks, name).filter((s) => s.Action.includes('execute-api:ManageConnections'));

describe("the table's stream", () => {
  it('carries new and old images of every change', () => {
    // Arrange
    const table = tableOf();

    // Act
    const stream = table.StreamSpecification;

    // Assert
    expect(stream).toEqual({ StreamViewType: 'NEW_AND_OLD_IMAGES' });
  });
});

describe.each(CONSUMERS)('the %s consumer of the stream', (name) => {
  it('reads the table stream from the oldest record kept, in batches of the named size', () => {
    // Arrange
    const streamArn = { 'Fn::GetAtt': [logicalIdOf(stacks.stateful.table), 'StreamArn'] };

    // Act
    const mapping = mappingOf(name);

    // Assert
    expect(mapping.EventSourceArn).toEqual(streamArn);
    expect(mapping.StartingPosition).toBe('TRIM_HORIZON');
    expect(mapping.BatchSize).toBe(CHANGE_CONSUMER_DELIVERY.batchSize);
  });

  it('keeps the changes of an item in order: one batch per shard at a time', () => {
    // Arrange
    const mapping = mappingOf(name);

    // Act
    const factor = mapping.ParallelizationFactor;

    // Assert
    expect(CHANGE_PARALLELIZATION_FACTOR).toBe(1);
    expect(factor).toBe(CHANGE_PARALLELIZATION_FACTOR);
  });

  it('reports partial batch failures, splits a failing batch and retries a bounded number of times', () => {
    // Arrange
    const mapping = mappingOf(name);

    // Act
    const { FunctionResponseTypes, BisectBatchOnFunctionError, MaximumRetryAttempts } = mapping;

    // Assert
    expect(FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    expect(BisectBatchOnFunctionError).toBe(true);
    expect(MaximumRetryAttempts).toBe(CHANGE_CONSUMER_DELIVERY.retryAttempts);
  });

  it('sends what it gave up on to a failure queue of its own, encrypted and reached over TLS only', () => {
    // Arrange
    const queue = stacks.api.changeConsumers.failureQueues[name]!;
    const queueId = logicalIdOf(queue);

    // Act
    const destination = mappingOf(name).DestinationConfig?.OnFailure?.Destination;

    // Assert
    expect(destination).toEqual({ 'Fn::GetAtt': [queueId, 'Arn'] });
    expect(resources()[queueId]!.Properties.SqsManagedSseEnabled).toBe(true);
    const policies = Object.values(resources()).filter((r) => r.Type === 'AWS::SQS::QueuePolicy' && JSON.stringify(r.Properties.Queues).includes(queueId));
    expect(JSON.stringify(policies)).toContain('"aws:SecureTransport":"false"');
  });

  it('alarms on the first message in its failure queue', () => {
    // Arrange
    const queueId = logicalIdOf(stacks.api.changeConsumers.failureQueues[name]!);

    // Act
    const properties = alarm(`Dlq-${name}`);

    // Assert
    expect(properties.MetricName).toBe('ApproximateNumberOfMessagesVisible');
    expect(properties.Dimensions).toEqual([{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }]);
    expect(properties.Threshold).toBe(0);
    expect(properties.ComparisonOperator).toBe('GreaterThanThreshold');
    expect(properties.AlarmActions).toHaveLength(1);
  });

  it(`alarms when it falls more than ${CHANGE_MAX_ITERATOR_AGE_MINUTES} minutes behind the changes`, () => {
    // Arrange
    const functionRef = { Ref: functionIdOf(stacks, name) };

    // Act
    const properties = alarm(`IteratorAge-${name}`);

    // Assert
    expect(properties.MetricName).toBe('IteratorAge');
    expect(properties.Dimensions).toEqual([{ Name: 'FunctionName', Value: functionRef }]);
    expect(properties.Threshold).toBe(CHANGE_MAX_ITERATOR_AGE_MINUTES * 60_000);
  });

  it('may write nothing in the table but the change ledger and connection records', () => {
    // Arrange
    const writes = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

    // Act
    // The events function also appends audit entries, to the audit table alone.
    const unconditional = grantsOf(stacks, name).filter((s) => s.Condition === undefined && s.Action.some((a) => writes.includes(a)) && !onAuditTableOnly(s));

    // Assert
    expect(unconditional).toEqual([]);
  });
});

describe('the indexer function', () => {
  it('reads the table and the bucket (long texts), and writes the search index', () => {
    // Arrange
    const environment = environmentOf(stacks, 'indexer');

    // Act
    const actions = grantsOf(stacks, 'indexer').flatMap((s) => s.Action);

    // Assert
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 's3:GetObject*', 'es:ESHttpPut', 'es:ESHttpDelete']));
    expect(actions.filter((a) => a.startsWith('s3:Put') || a.startsWith('s3:Delete'))).toEqual([]);
    expect(Object.keys(environment)).toEqual(expect.arrayContaining([ENV.tableName, ENV.bucketName, ENV.opensearchEndpoint]));
  });

  it('is deployed only after the search index is set up', () => {
    // Arrange
    const setupId = logicalIdOf(stacks.api.searchIndexSetup);

    // Act
    const dependsOn = resources()[functionIdOf(stacks, 'indexer')]!.DependsOn;

    // Assert
    expect(dependsOn).toContain(setupId);
  });

  it(`reconciles the index with the table every ${INDEX_RECONCILE_HOURS} hours`, () => {
    // Arrange
    const indexerArn = { 'Fn::GetAtt': [functionIdOf(stacks, 'indexer'), 'Arn'] };

    // Act
    const rules = Object.values(resources()).filter((r) => r.Type === 'AWS::Events::Rule' && (r.Properties.Targets as { Arn: unknown }[]).some((t) => same(t.Arn, indexerArn)));

    // Assert
    expect(rules).toHaveLength(1);
    expect(rules[0]!.Properties.ScheduleExpression).toBe(`rate(${INDEX_RECONCILE_HOURS} hours)`);
    expect(isReconcileEvent(JSON.parse(rules[0]!.Properties.Targets[0].Input))).toBe(true);
  });
});

describe('the events function', () => {
  it("records the changes it published in the ledger's items only, and appends the audit entries it derives to the audit table", () => {
    // Arrange
    const [prefix] = changeLedgerKey('events', 'id').pk.split('#');

    // Act
    const writes = grantsOf(stacks, 'events').filter((s) => s.Action.some((action) => ['dynamodb:PutItem', 'dynamodb:BatchWriteItem'].includes(action)));

    // Assert
    expect(CHANGE_LEDGER_KEY_PATTERN).toBe(`${prefix}#*`);
    expect(writes).toEqual([
      {
        Effect: 'Allow',
        Action: ['dynamodb:PutItem'],
        Resource: [tableArn()],
        Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [CHANGE_LEDGER_KEY_PATTERN] } },
      },
      { Effect: 'Allow', Action: ['dynamodb:PutItem'], Resource: [auditTableArn()] },
    ]);
  });

  it('updates users only in the list of their live connections', () => {
    // Arrange
    const userWrites = grantsOf(stacks, 'events').filter((s) => JSON.stringify(s.Condition ?? {}).includes('USER#'));

    // Act
    const conditions = userWrites.map((s) => s.Condition);

    // Assert
    expect(userWrites.flatMap((s) => s.Action)).toEqual(['dynamodb:UpdateItem']);
    expect(conditions).toEqual([
      { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['USER#*'] }, 'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'live'] } },
    ]);
  });

  it("pushes to and closes this API's prod-stage connections, and knows the callback URL", () => {
    // Arrange
    const apiRef = { Ref: logicalIdOf(stacks.api.webSocketApi) };

    // Act
    const resources = manageConnections('events').flatMap((s) => s.Resource) as { 'Fn::Join': [string, unknown[]] }[];

    // Assert
    expect(resources.map((resource) => resource['Fn::Join'][1].at(-1))).toEqual(['/prod/POST/@connections/*', '/prod/DELETE/@connections/*']);
    for (const resource of resources) expect(resource['Fn::Join'][1]).toContainEqual(apiRef);
    expect(JSON.stringify(environmentOf(stacks, 'events')[ENV.websocketEndpoint])).toContain('/prod');
  });
});

describe('who reaches OpenSearch and the connections', () => {
  it("gives OpenSearch access to the indexer, the search function, the index setup and the eraser (a workspace's entries) only", () => {
    // Arrange
    const expected = ['eraser', 'indexer', 'search', 'search-index-setup'];

    // Act
    const reaching = FUNCTION_NAMES.filter((name) => esActions(name).length > 0 || ENV.opensearchEndpoint in environmentOf(stacks, name));

    // Assert
    expect(reaching.sort()).toEqual(expected);
  });

  it("lets the events and realtime functions, and the eraser (closing a workspace's connections), alone manage WebSocket connections", () => {
    // Arrange
    const expected = ['eraser', 'events', 'realtime'];

    // Act
    const reaching = FUNCTION_NAMES.filter((name) => manageConnections(name).length > 0 || ENV.websocketEndpoint in environmentOf(stacks, name));

    // Assert
    expect(reaching.sort()).toEqual(expected);
  });

  it('grants ManageConnections to no other role of the stack', () => {
    // Arrange
    const allowed = ['eraser', 'events', 'realtime'].map((name) => ({ Ref: logicalIdOf(stacks.api.functions[name as ApiFunctionName].function.role!) }));

    // Act
    const roles = Object.values(resources())
      .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.PolicyDocument).includes('execute-api:ManageConnections'))
      .flatMap((r) => r.Properties.Roles as unknown[]);

    // Assert
    expect(roles.map((role) => JSON.stringify(role)).sort()).toEqual(allowed.map((role) => JSON.stringify(role)).sort());
  });

  it('lets the eraser close connections only, never push to one', () => {
    // Arrange
    const apiRef = { Ref: logicalIdOf(stacks.api.webSocketApi) };

    // Act
    const resources = manageConnections('eraser').flatMap((s) => s.Resource) as { 'Fn::Join': [string, unknown[]] }[];

    // Assert
    expect(resources.map((resource) => resource['Fn::Join'][1].at(-1))).toEqual(['/prod/DELETE/@connections/*']);
    for (const resource of resources) expect(resource['Fn::Join'][1]).toContainEqual(apiRef);
  });
});
