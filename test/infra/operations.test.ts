import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { ENV, HTTP_ROUTES, type HttpGroup } from '../../shared/manifest';
import { SEARCH_READ_ACTIONS } from '../../lib/constructs/bindings';
import { DURATION_SHARE_OF_TIMEOUT, FUNCTIONS_PER_ALARM } from '../../lib/constructs/monitoring';
import { SEARCH_WRITE_ACTIONS } from '../../lib/constructs/search-access';
import type { ApiFunctionName } from '../../lib/stacks/api-stack';
import {
  DEFAULT_TEXTRACT_TPS,
  HTTP_ROUTE_THROTTLES,
  HTTP_STAGE_THROTTLE,
  INGEST_CONCURRENCY,
  ocrConcurrency,
  WEBSOCKET_STAGE_THROTTLE,
} from '../../lib/stacks/limits';
import { buildStacks, environmentOf, functionAlarmPart, functionIdOf, grantsOf, logicalIdOf, resolveImports, type BuiltStacks } from './build-stacks';

const stacks = buildStacks();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- template JSON, read by the assertions
type Json = any;
const resources = (built: BuiltStacks = stacks) =>
  built.apiTemplate.toJSON().Resources as Record<string, { Type: string; Properties: Record<string, Json>; DependsOn?: string[] }>;
const ofType = (type: string, built: BuiltStacks = stacks) => Object.entries(resources(built)).filter(([, resource]) => resource.Type === type);
const FUNCTION_NAMES = Object.keys(stacks.api.functions) as ApiFunctionName[];
const ROUTE_KEYS = (Object.keys(HTTP_ROUTES) as HttpGroup[]).flatMap((group) => [...HTTP_ROUTES[group]] as string[]);

/** The alarm of the monitoring construct with this id, as its template resource. */
function alarm(id: string, built: BuiltStacks = stacks) {
  const construct = built.api.monitoring.alarms[id];
  if (!construct) throw new Error(`No alarm ${id}`);
  return resources(built)[logicalIdOf(construct)]!.Properties;
}

/** Event source mappings reading one queue of the stateful stack. */
function mappingsOf(built: BuiltStacks, queue: { node: unknown }) {
  const queueArn = { 'Fn::GetAtt': [logicalIdOf(queue as never), 'Arn'] };
  return ofType('AWS::Lambda::EventSourceMapping', built)
    .map(([, mapping]) => mapping.Properties)
    .filter((properties) => JSON.stringify(resolveImports(built, properties.EventSourceArn)) === JSON.stringify(queueArn));
}

describe('throttles', () => {
  it('throttles every HTTP route of the stage at 100 requests/s, bursts of 200', () => {
    // Arrange
    const stage = resources()[logicalIdOf(stacks.api.httpStage)]!.Properties;

    // Act
    const defaults = stage.DefaultRouteSettings;

    // Assert
    expect(HTTP_STAGE_THROTTLE).toEqual({ rateLimit: 100, burstLimit: 200 });
    expect(defaults).toMatchObject({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 });
    expect(stage.StageName).toBe('$default');
  });

  it.each(Object.entries(HTTP_ROUTE_THROTTLES))('throttles %s tighter, on a route that exists', (routeKey, limit) => {
    // Arrange
    const stage = resources()[logicalIdOf(stacks.api.httpStage)]!.Properties;

    // Act
    const settings = stage.RouteSettings[routeKey];

    // Assert
    expect(ROUTE_KEYS).toContain(routeKey);
    expect(settings).toEqual({ ThrottlingRateLimit: limit.rateLimit, ThrottlingBurstLimit: limit.burstLimit });
    expect(limit.rateLimit).toBeLessThan(HTTP_STAGE_THROTTLE.rateLimit);
  });

  it('creates the HTTP stage after the routes its settings name', () => {
    // Arrange
    const stage = resources()[logicalIdOf(stacks.api.httpStage)]!;

    // Act
    const routeIds = ofType('AWS::ApiGatewayV2::Route').filter(([, route]) => ROUTE_KEYS.includes(route.Properties.RouteKey)).map(([id]) => id);

    // Assert
    expect(stage.DependsOn).toEqual(expect.arrayContaining(routeIds));
  });

  it('throttles WebSocket messages at 50/s, bursts of 100', () => {
    // Arrange
    const stage = resources()[logicalIdOf(stacks.api.webSocketStage)]!.Properties;

    // Act
    const defaults = stage.DefaultRouteSettings;

    // Assert
    expect(WEBSOCKET_STAGE_THROTTLE).toEqual({ rateLimit: 50, burstLimit: 100 });
    expect(defaults).toMatchObject({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 });
  });
});

describe('access logs', () => {
  it.each([
    ['HTTP', () => stacks.api.httpStage],
    ['WebSocket', () => stacks.api.webSocketStage],
  ])('logs every %s request as JSON with its request id to a log group kept 30 days', (_name, stage) => {
    // Arrange
    const properties = resources()[logicalIdOf(stage())]!.Properties;

    // Act
    const { DestinationArn, Format } = properties.AccessLogSettings;
    const logGroupId = DestinationArn['Fn::GetAtt'][0];

    // Assert
    expect(JSON.parse(Format)).toMatchObject({ requestId: '$context.requestId', status: '$context.status' });
    expect(resources()[logGroupId]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 30 } });
  });

  it("sets the account's API Gateway logging role before the WebSocket stage, which needs it", () => {
    // Arrange
    const [[accountId] = []] = ofType('AWS::ApiGateway::Account');

    // Act
    const stage = resources()[logicalIdOf(stacks.api.webSocketStage)]!;

    // Assert
    expect(stage.DependsOn).toContain(accountId);
  });
});

describe('event sources', () => {
  it.each([
    ['normal', () => stacks.stateful.ocrQueue],
    ['high', () => stacks.stateful.ocrHighQueue],
  ] as const)('hands the OCR worker one message of the %s queue at a time', (_name, queue) => {
    // Arrange
    const built = stacks;

    // Act
    const [mapping] = mappingsOf(built, queue());

    // Assert
    expect(mapping).toMatchObject({ BatchSize: 1, FunctionResponseTypes: ['ReportBatchItemFailures'] });
  });

  it('holds the OCR worker on both queues to the Textract calls per second, 5 by default', () => {
    // Arrange
    const built = stacks;

    // Act
    const concurrency = [built.stateful.ocrQueue, built.stateful.ocrHighQueue].map(
      (queue) => mappingsOf(built, queue)[0]!.ScalingConfig.MaximumConcurrency as number,
    );

    // Assert
    expect(DEFAULT_TEXTRACT_TPS).toBe(5);
    expect(concurrency).toEqual([3, 2]);
    expect(environmentOf(built, 'ocr')[ENV.ocrWorkers]).toBe('5');
  });

  it('sizes the OCR worker from the textractTps context', () => {
    // Arrange
    const built = buildStacks({ textractTps: 20 });

    // Act
    const concurrency = [built.stateful.ocrQueue, built.stateful.ocrHighQueue].map(
      (queue) => mappingsOf(built, queue)[0]!.ScalingConfig.MaximumConcurrency as number,
    );

    // Assert
    expect(concurrency).toEqual([12, 8]);
  });

  it.each([3, 4.5, 0, 1001])('refuses textractTps %s, which two event sources of at least 2 cannot honour', (tps) => {
    // Arrange
    const size = () => ocrConcurrency(tps);

    // Act & Assert
    expect(size).toThrow(/textractTps must be an integer from 4 to 1000/);
  });

  it.each([4, 5, 7, 10, 100])('never gives the two OCR event sources more than %s together', (tps) => {
    // Arrange
    const size = ocrConcurrency(tps);

    // Act
    const total = size.normal + size.high;

    // Assert
    expect(total).toBe(tps);
    expect(Math.min(size.normal, size.high)).toBeGreaterThanOrEqual(2);
  });

  it('runs the ingest on at most 5 batches at once', () => {
    // Arrange
    const built = stacks;

    // Act
    const [mapping] = mappingsOf(built, built.stateful.ingestQueue);

    // Assert
    expect(mapping!.ScalingConfig).toEqual({ MaximumConcurrency: INGEST_CONCURRENCY });
    expect(INGEST_CONCURRENCY).toBe(5);
  });
});

describe('alarms', () => {
  const topicRef = () => ({ Ref: logicalIdOf(stacks.api.monitoring.topic) });

  it('sends every alarm, firing and clearing, to the one topic', () => {
    // Arrange
    const alarms = ofType('AWS::CloudWatch::Alarm');

    // Act
    const actions = alarms.map(([, resource]) => [resource.Properties.AlarmActions, resource.Properties.OKActions]);

    // Assert
    expect(ofType('AWS::SNS::Topic')).toHaveLength(1);
    expect(alarms.length).toBeGreaterThan(Math.ceil(FUNCTION_NAMES.length / FUNCTIONS_PER_ALARM) * 3);
    for (const pair of actions) expect(pair).toEqual([[topicRef()], [topicRef()]]);
  });

  it('subscribes the alarmEmail address to the topic', () => {
    // Arrange
    const built = stacks;

    // Act & Assert
    built.apiTemplate.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: topicRef() });
  });

  it('warns at synth time when no alarmEmail is given', () => {
    // Arrange
    const built = buildStacks({ alarmEmail: undefined });

    // Act
    const warnings = Annotations.fromStack(built.api).findWarning('*', Match.stringLikeRegexp('No alarmEmail'));

    // Assert
    expect(warnings).toHaveLength(1);
    expect(built.apiTemplate.findResources('AWS::SNS::Subscription')).toEqual({});
  });

  it.each([
    ['ocr', () => stacks.stateful.ocrDeadLetterQueue],
    ['ingest', () => stacks.stateful.ingestDeadLetterQueue],
    ['source-sync', () => stacks.stateful.sourceSyncDeadLetterQueue],
  ])('alarms on the first message in the %s dead-letter queue', (name, queue) => {
    // Arrange
    const queueName = { 'Fn::GetAtt': [logicalIdOf(queue()), 'QueueName'] };

    // Act
    const properties = alarm(`Dlq-${name}`);

    // Assert
    expect(properties).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
    expect(resolveImports(stacks, properties.Dimensions)).toEqual([{ Name: 'QueueName', Value: queueName }]);
  });

  it.each([
    ['ocr-normal', 3600],
    ['ocr-high', 900],
  ])('alarms when the oldest %s message waits longer than %s s', (name, seconds) => {
    // Arrange
    const id = `OldestMessage-${name}`;

    // Act
    const properties = alarm(id);

    // Assert
    expect(properties).toMatchObject({ MetricName: 'ApproximateAgeOfOldestMessage', Threshold: seconds, ComparisonOperator: 'GreaterThanThreshold' });
  });

  it.each(FUNCTION_NAMES)('alarms on errors, throttles and runs near the timeout of the %s function', (name) => {
    // Arrange
    const functionId = functionIdOf(stacks, name);
    const dimensions = [{ Name: 'FunctionName', Value: { Ref: functionId } }];
    const timeoutMs = stacks.api.functions[name].timeout.toMilliseconds();

    // Act
    const [errors, throttles, duration] = ['Errors', 'Throttles', 'Duration'].map((metric) => functionAlarmPart(alarm(`${metric}-${name}`), functionId));

    // Assert
    if (!errors || !duration) throw new Error('no alarm');
    expect(errors).toMatchObject({ metric: { MetricName: 'Errors', Dimensions: dimensions, Stat: 'Sum' }, threshold: 0 });
    expect(errors.expression).toContain(`FILL(${errors.id}, 0)`);
    expect(throttles).toMatchObject({ metric: { MetricName: 'Throttles', Dimensions: dimensions, Stat: 'Sum' }, threshold: 0 });
    expect(duration).toMatchObject({ metric: { MetricName: 'Duration', Dimensions: dimensions, Stat: 'Maximum' }, threshold: DURATION_SHARE_OF_TIMEOUT });
    expect(duration.expression).toContain(`FILL(${duration.id}, 0) / ${timeoutMs}`);
  });

  it('watches at most ten functions with one errors, throttles or duration alarm', () => {
    // Act
    const groups = new Set(FUNCTION_NAMES.map((name) => alarm(`Errors-${name}`)['Metrics']));

    // Assert
    const sizes = [...groups].map((metrics) => (metrics as { MetricStat?: unknown }[]).filter((query) => query.MetricStat).length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(FUNCTIONS_PER_ALARM);
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(FUNCTION_NAMES.length);
  });

  it('alarms when more than 1 % of at least 20 HTTP requests in 5 minutes answer 5xx', () => {
    // Arrange
    const id = 'Http5xxRate';

    // Act
    const properties = alarm(id);

    // Assert
    expect(properties.Threshold).toBe(1);
    const expression = properties.Metrics.find((metric: { Expression?: string }) => metric.Expression)?.Expression;
    expect(expression).toBe('IF(requests >= 20, 100 * errors / requests, 0)');
    expect(properties.Metrics.map((metric: { MetricStat?: { Metric: { MetricName: string } } }) => metric.MetricStat?.Metric.MetricName).filter(Boolean).sort()).toEqual(['5xx', 'Count']);
  });

  it('alarms when HTTP p95 latency stays above 3 s for 15 minutes', () => {
    // Arrange
    const id = 'HttpLatency';

    // Act
    const properties = alarm(id);

    // Assert
    expect(properties).toMatchObject({ MetricName: 'Latency', ExtendedStatistic: 'p95', Threshold: 3000, EvaluationPeriods: 3, Period: 300 });
  });

  it('alarms on any WebSocket integration error', () => {
    // Arrange
    const apiRef = { Ref: logicalIdOf(stacks.api.webSocketApi) };

    // Act
    const properties = alarm('WebSocketIntegrationErrors');

    // Assert
    expect(properties).toMatchObject({ MetricName: 'IntegrationError', Threshold: 0 });
    expect(properties.Dimensions).toEqual(expect.arrayContaining([{ Name: 'ApiId', Value: apiRef }, { Name: 'Stage', Value: 'prod' }]));
  });

  it.each([
    ['SearchClusterRed', 'ClusterStatus.red', 1],
    ['SearchClusterYellow', 'ClusterStatus.yellow', 1],
    ['SearchWritesBlocked', 'ClusterIndexWritesBlocked', 1],
    ['SearchJvmPressure', 'JVMMemoryPressure', 80],
    // 20 % of the dev domain's 10 GiB, in MiB.
    ['SearchFreeStorage', 'FreeStorageSpace', 2048],
  ])('alarms on the search domain: %s (%s, threshold %s)', (id, metricName, threshold) => {
    // Arrange
    const domainName = { Ref: logicalIdOf(stacks.stateful.searchDomain) };

    // Act
    const properties = alarm(id);

    // Assert
    expect(properties).toMatchObject({ Namespace: 'AWS/ES', MetricName: metricName, Threshold: threshold });
    expect(resolveImports(stacks, properties.Dimensions)).toEqual(expect.arrayContaining([{ Name: 'DomainName', Value: domainName }]));
  });

  it('builds one dashboard', () => {
    // Arrange
    const dashboards = ofType('AWS::CloudWatch::Dashboard');

    // Act
    const count = dashboards.length;

    // Assert
    expect(count).toBe(1);
  });
});

describe('search index setup and access', () => {
  const INDEX_USERS = ['search', 'indexer'] as const;

  /** The domain access policy the deploy-time call writes, with role ARNs as `ROLE:<logical id>`. */
  function accessPolicyOf(built: BuiltStacks) {
    const [[, resource] = []] = ofType('Custom::SearchDomainAccessPolicy', built);
    const parts = resource!.Properties.Create['Fn::Join'][1] as unknown[];
    const text = parts
      .map((part) => (typeof part === 'string' ? part : 'Fn::GetAtt' in (part as object) ? `ROLE:${(part as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]}` : 'TOKEN'))
      .join('');
    const call = JSON.parse(text) as { action: string; parameters: { AccessPolicies: string } };
    return { call, policy: JSON.parse(call.parameters.AccessPolicies) as { Statement: { Principal: { AWS: string[] }; Action: string[]; Resource: string }[] } };
  }
  const roleOf = (name: ApiFunctionName) => `ROLE:${logicalIdOf(stacks.api.functions[name].function.role!)}`;

  it("names only the search function's role with GET, HEAD and POST in the domain's access policy", () => {
    // Arrange
    const { call, policy } = accessPolicyOf(stacks);

    // Act
    const readers = policy.Statement.find((statement) => statement.Action.length === SEARCH_READ_ACTIONS.length);

    // Assert
    expect(call.action).toBe('UpdateDomainConfig');
    expect(readers?.Principal.AWS).toEqual([roleOf('search')]);
    expect(readers?.Action).toEqual([...SEARCH_READ_ACTIONS]);
  });

  it("names exactly the roles of the functions that write the index (the indexer, the eraser), and the setup's, with every verb", () => {
    // Arrange
    const { policy } = accessPolicyOf(stacks);

    // Act
    const writers = policy.Statement.find((statement) => statement.Action.length === SEARCH_WRITE_ACTIONS.length);

    // Assert
    expect(policy.Statement).toHaveLength(2);
    expect(writers?.Principal.AWS.sort()).toEqual(
      (['indexer', 'eraser', 'search-index-setup'] as const).map(roleOf).sort(),
    );
  });

  it('lets the setup function write the index and tells it the replica count', () => {
    // Arrange
    const actions = grantsOf(stacks, 'search-index-setup').flatMap((statement) => statement.Action);

    // Act
    const environment = environmentOf(stacks, 'search-index-setup');

    // Assert
    expect(actions).toEqual(expect.arrayContaining(['es:ESHttpPut', 'es:ESHttpPost', 'es:ESHttpDelete']));
    expect(environment[ENV.searchIndexReplicas]).toBe('0');
    expect(environment).toHaveProperty(ENV.opensearchEndpoint);
  });

  it('migrates the index at deploy time, again whenever the setup code (mapping, index version) or replica count changes', () => {
    // Arrange
    const built = buildStacks({ searchDomainProfile: 'production' });

    // Act
    const [[, resource] = []] = ofType('Custom::SearchIndexSetup', built);
    const [versionId, attribute] = resource!.Properties.CodeVersion['Fn::GetAtt'] as [string, string];

    // Assert
    expect(attribute).toBe('Version');
    expect(resources(built)[versionId]).toMatchObject({
      Type: 'AWS::Lambda::Version',
      Properties: { FunctionName: { Ref: functionIdOf(built, 'search-index-setup') } },
    });
    expect(resource!.Properties.Replicas).toBe(1);
    expect(environmentOf(built, 'search-index-setup')[ENV.searchIndexReplicas]).toBe('1');
  });

  it.each(INDEX_USERS)('deploys the %s function only after the index is set up', (name) => {
    // Arrange
    const setupId = logicalIdOf(stacks.api.searchIndexSetup);

    // Act
    const fn = resources()[functionIdOf(stacks, name)]!;

    // Assert
    expect(fn.DependsOn).toContain(setupId);
  });
});
