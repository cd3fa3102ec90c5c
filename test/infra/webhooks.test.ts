/**
 * Issue 36: webhooks in the cloud. The `webhooks` HTTP group manages endpoints (sealing their signing secrets
 * with the credentials key, queueing pings), the `webhook-dispatch` consumer of the table's stream records and
 * queues a delivery per subscribed endpoint, and the `webhook-delivery` worker sends them from the delivery
 * queue (opening the signing secrets, queueing its own retries). Each gets only what it needs.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { CHANGE_CONSUMER_DELIVERY, ENV, HTTP_ROUTES, MAX_RECEIVES, v2RouteKey } from '../../shared/manifest';
import { RATE_LIMITED_GROUPS, type ApiFunctionName } from '../../lib/stacks/api-stack';
import { WEBHOOK_DELIVERY_CONCURRENCY } from '../../lib/stacks/limits';
import { WEBHOOK_DELIVERY_TIMEOUT } from '../../lib/stacks/stateful-stack';
import { buildStacks, environmentOf, functionAlarmPart, functionIdOf, grantsOf, logicalIdOf, resolveImports, statementsOf } from './build-stacks';

const stacks = buildStacks();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- template JSON, read by the assertions
type Json = any;
const statefulResource = (construct: Parameters<typeof logicalIdOf>[0]): Json => stacks.statefulTemplate.toJSON().Resources[logicalIdOf(construct)];
const apiResource = (id: string): Json => stacks.apiTemplate.toJSON().Resources[id];
const arnOf = (construct: Parameters<typeof logicalIdOf>[0]) => ({ 'Fn::GetAtt': [logicalIdOf(construct), 'Arn'] });
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const FUNCTION_NAMES = Object.keys(stacks.api.functions) as ApiFunctionName[];
const WEBHOOK_FUNCTIONS = ['webhooks', 'webhook-dispatch', 'webhook-delivery'] as const satisfies readonly ApiFunctionName[];
const queue = () => stacks.stateful.webhookDeliveryQueue;
const dlq = () => stacks.stateful.webhookDeliveryDeadLetterQueue;
const keyArn = () => arnOf(stacks.stateful.sourceCredentialsKey);
const tableRef = () => ({ Ref: logicalIdOf(stacks.stateful.table) });
const queueUrl = () => ({ Ref: logicalIdOf(queue()) });
/** The actions a function's role may take on a resource. */
const actionsOn = (name: ApiFunctionName, resource: unknown): string[] =>
  grantsOf(stacks, name)
    .filter((s) => s.Resource.some((r) => same(r, resource)))
    .flatMap((s) => s.Action);
const kmsActionsOf = (name: ApiFunctionName) => statementsOf(stacks, name).flatMap((s) => s.Action).filter((a) => a.startsWith('kms:'));
const sqsActionsOf = (name: ApiFunctionName) => statementsOf(stacks, name).flatMap((s) => s.Action).filter((a) => a.startsWith('sqs:'));
const alarm = (id: string): Json => {
  const construct = stacks.api.monitoring.alarms[id];
  if (!construct) throw new Error(`No alarm ${id}`);
  return apiResource(logicalIdOf(construct)).Properties;
};
const mappingsOf = (name: ApiFunctionName): Json[] =>
  Object.values(stacks.apiTemplate.findResources('AWS::Lambda::EventSourceMapping')).filter((mapping) =>
    same(mapping.Properties.FunctionName, { Ref: functionIdOf(stacks, name) }),
  );
/** Every webhooks route, v1 and its v2 twin (HTTP_ROUTES lists both). */
const WEBHOOKS_ROUTES = HTTP_ROUTES.webhooks;

describe('webhook delivery queue', () => {
  it(`moves a delivery message to its own dead-letter queue after ${MAX_RECEIVES} receives, like every queue`, () => {
    // Arrange
    const expected = { deadLetterTargetArn: arnOf(dlq()), maxReceiveCount: MAX_RECEIVES };

    // Act
    const { Properties } = statefulResource(queue());

    // Assert
    expect(Properties.RedrivePolicy).toEqual(expected);
    expect(Properties.FifoQueue).toBeUndefined();
  });

  it('hides a received batch for 6 times the 30-second worker timeout', () => {
    // Arrange
    const worker = apiResource(functionIdOf(stacks, 'webhook-delivery'));

    // Act
    const visibility = statefulResource(queue()).Properties.VisibilityTimeout;

    // Assert
    expect(worker.Properties.Timeout).toBe(30);
    expect(WEBHOOK_DELIVERY_TIMEOUT.toSeconds()).toBe(30);
    expect(visibility).toBeGreaterThanOrEqual(6 * worker.Properties.Timeout);
  });

  it.each(['webhookDeliveryQueue', 'webhookDeliveryDeadLetterQueue'] as const)('encrypts the %s with an SQS-managed key and denies requests without TLS', (name) => {
    // Arrange
    const target = stacks.stateful[name];

    // Act
    const { Properties } = statefulResource(target);

    // Assert
    expect(Properties.SqsManagedSseEnabled).toBe(true);
    stacks.statefulTemplate.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: logicalIdOf(target) }],
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  it('keeps failed delivery messages 14 days', () => {
    // Arrange
    const target = dlq();

    // Act
    const { Properties } = statefulResource(target);

    // Assert
    expect(Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
  });

  it('alarms on the first message in the webhook-delivery dead-letter queue', () => {
    // Arrange
    const queueName = { 'Fn::GetAtt': [logicalIdOf(dlq()), 'QueueName'] };

    // Act
    const properties = alarm('Dlq-webhook-delivery');

    // Assert
    expect(properties).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    expect(properties.AlarmActions).toHaveLength(1);
    expect(resolveImports(stacks, properties.Dimensions)).toEqual([{ Name: 'QueueName', Value: queueName }]);
  });

  it('is sent to by the three webhook functions alone, and received from by the delivery worker alone', () => {
    // Arrange
    const arn = arnOf(queue());

    // Act
    const senders = FUNCTION_NAMES.filter((name) => actionsOn(name, arn).includes('sqs:SendMessage'));
    const receivers = FUNCTION_NAMES.filter((name) => actionsOn(name, arn).includes('sqs:ReceiveMessage'));

    // Assert
    expect(senders.sort()).toEqual([...WEBHOOK_FUNCTIONS].sort());
    expect(receivers).toEqual(['webhook-delivery']);
  });

  it('is named to the three webhook functions alone', () => {
    // Arrange
    const url = queueUrl();

    // Act
    const told = FUNCTION_NAMES.filter((name) => ENV.webhookDeliveryQueueUrl in environmentOf(stacks, name));

    // Assert
    expect(told.sort()).toEqual([...WEBHOOK_FUNCTIONS].sort());
    for (const name of WEBHOOK_FUNCTIONS) expect(environmentOf(stacks, name)[ENV.webhookDeliveryQueueUrl]).toEqual(url);
  });
});

describe('webhooks API', () => {
  it('serves 8 v1 routes and their v2 twins', () => {
    // Arrange
    const v1 = WEBHOOKS_ROUTES.filter((key) => !key.includes(' /api/v2/'));

    // Act
    const twins = v1.map((key) => v2RouteKey(key));

    // Assert
    expect(v1).toHaveLength(8);
    expect([...v1, ...twins].sort()).toEqual([...WEBHOOKS_ROUTES].sort());
  });

  it.each([...WEBHOOKS_ROUTES])('integrates %s with the webhooks function', (routeKey) => {
    // Arrange
    const routes = Object.values(stacks.apiTemplate.findResources('AWS::ApiGatewayV2::Route', { Properties: { RouteKey: routeKey } }));

    // Act
    const integrationId = (routes[0]?.Properties.Target['Fn::Join'][1][1] as { Ref: string } | undefined)?.Ref ?? '';

    // Assert
    expect(routes).toHaveLength(1);
    expect(apiResource(integrationId).Properties.IntegrationUri).toEqual({ 'Fn::GetAtt': [functionIdOf(stacks, 'webhooks'), 'Arn'] });
  });

  it('lets the webhooks function read and write the table, verify tokens and count requests', () => {
    // Arrange
    const environment = environmentOf(stacks, 'webhooks');

    // Act
    const actions = grantsOf(stacks, 'webhooks').flatMap((s) => s.Action);

    // Assert
    expect(RATE_LIMITED_GROUPS).toContain('webhooks');
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:DeleteItem', 'secretsmanager:GetSecretValue']));
    expect(environment).toMatchObject({
      [ENV.tableName]: tableRef(),
      [ENV.jwtSecretArn]: expect.anything(),
      [ENV.rateLimitPerMinute]: '100',
      [ENV.ipRateLimitPerMinute]: expect.anything(),
    });
  });

  it('lets the webhooks function seal and open signing secrets with the credentials key, only under a workspace_id context', () => {
    // Arrange
    const statements = grantsOf(stacks, 'webhooks').filter((s) => s.Action.some((a) => a.startsWith('kms:')));

    // Act
    const [statement] = statements;

    // Assert
    expect(statements).toHaveLength(1);
    expect(statement!.Action.sort()).toEqual(['kms:Decrypt', 'kms:Encrypt']);
    expect(statement!.Resource).toEqual([keyArn()]);
    expect(statement!.Condition).toEqual({ Null: { 'kms:EncryptionContext:workspace_id': 'false' } });
    expect(environmentOf(stacks, 'webhooks')[ENV.sourceCredentialsKeyArn]).toEqual(keyArn());
  });

  it('lets the webhooks function send pings to the delivery queue, never receive or delete from it', () => {
    // Arrange
    const arn = arnOf(queue());

    // Act
    const actions = sqsActionsOf('webhooks');

    // Assert
    expect(actionsOn('webhooks', arn)).toContain('sqs:SendMessage');
    expect(actions).not.toContain('sqs:ReceiveMessage');
    expect(actions).not.toContain('sqs:DeleteMessage');
    expect(actions).not.toContain('sqs:ChangeMessageVisibility');
  });

  it('gives the webhooks function neither the bucket, the search index, the OCR or sync queues, the WebSocket API nor the address policy', () => {
    // Arrange
    const environment = environmentOf(stacks, 'webhooks');

    // Act
    const actions = statementsOf(stacks, 'webhooks').flatMap((s) => s.Action);

    // Assert
    for (const name of [ENV.bucketName, ENV.opensearchEndpoint, ENV.ocrQueueUrl, ENV.ocrHighQueueUrl, ENV.sourceSyncQueueUrl, ENV.websocketEndpoint, ENV.webhooksAllowPrivateNetworks]) {
      expect(environment).not.toHaveProperty(name);
    }
    expect(actions.filter((a) => /^(s3|es|execute-api):/.test(a))).toEqual([]);
  });
});

describe('webhook-dispatch stream consumer', () => {
  it('follows the table stream like the other consumers, with partial batch failures and a failure queue of its own', () => {
    // Arrange
    const failureQueue = stacks.api.changeConsumers.failureQueues['webhook-dispatch'];

    // Act
    const mappings = mappingsOf('webhook-dispatch');

    // Assert
    expect(failureQueue).toBeDefined();
    expect(mappings).toHaveLength(1);
    expect(resolveImports(stacks, mappings[0].Properties.EventSourceArn)).toEqual({ 'Fn::GetAtt': [logicalIdOf(stacks.stateful.table), 'StreamArn'] });
    expect(mappings[0].Properties).toMatchObject({
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: CHANGE_CONSUMER_DELIVERY.batchSize,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: CHANGE_CONSUMER_DELIVERY.retryAttempts,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [logicalIdOf(failureQueue!), 'Arn'] } } },
    });
  });

  it('alarms on its failure queue and on falling behind the stream', () => {
    // Arrange
    const ids = ['Dlq-webhook-dispatch', 'IteratorAge-webhook-dispatch'];

    // Act
    const alarms = ids.map(alarm);

    // Assert
    expect(alarms[0]).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 0 });
    expect(alarms[1]).toMatchObject({ MetricName: 'IteratorAge', Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionIdOf(stacks, 'webhook-dispatch') } }] });
  });

  it('reads and writes the table and sends to the delivery queue, and is told both', () => {
    // Arrange
    const environment = environmentOf(stacks, 'webhook-dispatch');

    // Act
    const actions = grantsOf(stacks, 'webhook-dispatch').flatMap((s) => s.Action);

    // Assert
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:Query', 'dynamodb:GetRecords', 'sqs:SendMessage']));
    expect(environment).toMatchObject({ [ENV.tableName]: tableRef(), [ENV.webhookDeliveryQueueUrl]: queueUrl() });
  });

  it('cannot use the credentials key, receive from the queue, read the JWT key or reach the bucket, the index or the connections', () => {
    // Arrange
    const environment = environmentOf(stacks, 'webhook-dispatch');

    // Act
    const actions = statementsOf(stacks, 'webhook-dispatch').flatMap((s) => s.Action);

    // Assert
    expect(kmsActionsOf('webhook-dispatch')).toEqual([]);
    expect(actions).not.toContain('sqs:ReceiveMessage');
    expect(actions.filter((a) => /^(s3|es|execute-api|secretsmanager):/.test(a))).toEqual([]);
    for (const name of [ENV.sourceCredentialsKeyArn, ENV.jwtSecretArn, ENV.bucketName, ENV.opensearchEndpoint, ENV.websocketEndpoint]) {
      expect(environment).not.toHaveProperty(name);
    }
  });
});

describe('webhook-delivery worker', () => {
  it('consumes the delivery queue in batches of 10 with partial batch failures and a bounded concurrency', () => {
    // Arrange
    const arn = arnOf(queue());

    // Act
    const mappings = mappingsOf('webhook-delivery');

    // Assert
    expect(mappings).toHaveLength(1);
    expect(resolveImports(stacks, mappings[0].Properties.EventSourceArn)).toEqual(arn);
    expect(mappings[0].Properties).toMatchObject({
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: WEBHOOK_DELIVERY_CONCURRENCY },
    });
    expect(WEBHOOK_DELIVERY_CONCURRENCY).toBeGreaterThanOrEqual(2);
    expect(WEBHOOK_DELIVERY_CONCURRENCY).toBeLessThanOrEqual(10);
  });

  it('is the only consumer of the delivery queue', () => {
    // Arrange
    const arn = arnOf(queue());

    // Act
    const consumers = Object.values(stacks.apiTemplate.findResources('AWS::Lambda::EventSourceMapping')).filter((mapping) =>
      same(resolveImports(stacks, mapping.Properties.EventSourceArn), arn),
    );

    // Assert
    expect(consumers).toHaveLength(1);
  });

  it('reads and writes the table, queues its own retries and refuses private networks', () => {
    // Arrange
    const environment = environmentOf(stacks, 'webhook-delivery');

    // Act
    const onQueue = actionsOn('webhook-delivery', arnOf(queue()));

    // Assert
    expect(grantsOf(stacks, 'webhook-delivery').flatMap((s) => s.Action)).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:Query']));
    expect(onQueue).toEqual(expect.arrayContaining(['sqs:SendMessage', 'sqs:ReceiveMessage', 'sqs:DeleteMessage']));
    expect(environment).toMatchObject({
      [ENV.tableName]: tableRef(),
      [ENV.webhookDeliveryQueueUrl]: queueUrl(),
      [ENV.sourceCredentialsKeyArn]: keyArn(),
      [ENV.webhooksAllowPrivateNetworks]: 'false',
    });
  });

  it('may only decrypt with the credentials key, under a workspace_id context', () => {
    // Arrange
    const statements = grantsOf(stacks, 'webhook-delivery').filter((s) => s.Action.some((a) => a.startsWith('kms:')));

    // Act
    const actions = statements.flatMap((s) => s.Action);

    // Assert
    expect(actions).toEqual(['kms:Decrypt']);
    expect(statements[0]!.Resource).toEqual([keyArn()]);
    expect(statements[0]!.Condition).toEqual({ Null: { 'kms:EncryptionContext:workspace_id': 'false' } });
  });

  it('runs outside any VPC (receivers are on the internet) with a 30-second timeout', () => {
    // Arrange
    const id = functionIdOf(stacks, 'webhook-delivery');

    // Act
    const { Properties } = apiResource(id);

    // Assert
    expect(Properties.VpcConfig).toBeUndefined();
    expect(Properties.Timeout).toBe(30);
  });

  it('reads neither the JWT key nor the bucket, the index, the OCR or sync queues nor the connections', () => {
    // Arrange
    const environment = environmentOf(stacks, 'webhook-delivery');

    // Act
    const actions = statementsOf(stacks, 'webhook-delivery').flatMap((s) => s.Action);

    // Assert
    expect(actions.filter((a) => /^(s3|es|execute-api|secretsmanager):/.test(a))).toEqual([]);
    for (const name of [ENV.jwtSecretArn, ENV.bucketName, ENV.opensearchEndpoint, ENV.ocrQueueUrl, ENV.sourceSyncQueueUrl, ENV.websocketEndpoint]) {
      expect(environment).not.toHaveProperty(name);
    }
  });

  it.each(WEBHOOK_FUNCTIONS)('alarms on errors of the %s function', (name) => {
    // Arrange
    const functionId = functionIdOf(stacks, name);

    // Act
    const part = functionAlarmPart(alarm(`Errors-${name}`) as Record<string, unknown>, functionId);

    // Assert
    expect(part).toMatchObject({ metric: { MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: { Ref: functionId } }] }, threshold: 0 });
  });
});

describe('the credentials key among the webhook functions', () => {
  it('is used by the webhooks API (encrypt, decrypt) and the delivery worker (decrypt), not by the dispatch consumer', () => {
    // Arrange
    const users = WEBHOOK_FUNCTIONS.map((name) => [name, kmsActionsOf(name).sort()] as const);

    // Act
    const byName = Object.fromEntries(users);

    // Assert
    expect(byName).toEqual({ webhooks: ['kms:Decrypt', 'kms:Encrypt'], 'webhook-dispatch': [], 'webhook-delivery': ['kms:Decrypt'] });
  });
});
