import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { BUSINESS_METRICS_NAMESPACE, ENV, FALLBACK_ROUTE_KEY, HTTP_ROUTES, WS_ROUTES, type HttpGroup } from '../../shared/manifest';
import type { ApiFunctionName } from '../../lib/stacks/api-stack';
import { BOOTSTRAP_DATA_VERSION } from '../../lib/stacks/deploy-time-setup';
import {
  buildStacks,
  environmentOf,
  functionIdOf,
  grantsOf,
  logicalIdOf,
  resolveImports,
  statementsOf,
  type BuiltStacks,
} from './build-stacks';

const stacks = buildStacks();
const ALL_FUNCTIONS: ApiFunctionName[] = ['auth', 'users', 'settings', 'health', 'fallback', 'realtime', 'bootstrap', 'ingest', 'ocr', 'notifications', 'ocr-worker', 'ocr-sweeper', 'sources', 'source-sync', 'source-scheduler'];
const DATA_FUNCTIONS = ['auth', 'users', 'settings'] as const;
const ROUTES = (Object.keys(HTTP_ROUTES) as HttpGroup[]).flatMap((group) =>
  HTTP_ROUTES[group].map((routeKey) => [routeKey, group] as const),
);

const tableRef = (built: BuiltStacks) => ({ Ref: logicalIdOf(built.stateful.table) });
const tableArn = (built: BuiltStacks) => ({ 'Fn::GetAtt': [logicalIdOf(built.stateful.table), 'Arn'] });
const jwtSecretRef = (built: BuiltStacks) => ({ Ref: logicalIdOf(built.stateful.jwtSecret) });

/** The function an API Gateway v2 route's integration invokes, as the integration's URI. */
function integrationUriOfRoute(built: BuiltStacks, apiId: string, routeKey: string): unknown {
  const routes = built.apiTemplate.findResources('AWS::ApiGatewayV2::Route', {
    Properties: { ApiId: { Ref: apiId }, RouteKey: routeKey },
  });
  const [route, ...others] = Object.values(routes);
  if (!route || others.length > 0) throw new Error(`Expected exactly one route ${routeKey}`);
  const target = route.Properties.Target as { 'Fn::Join': [string, [string, { Ref: string }]] };
  const [prefix, integrationRef] = target['Fn::Join'][1];
  expect(prefix).toBe('integrations/');
  const integration = built.apiTemplate.toJSON().Resources[integrationRef.Ref];
  expect(integration.Type).toBe('AWS::ApiGatewayV2::Integration');
  return integration.Properties.IntegrationUri;
}

describe('HTTP API', () => {
  it.each(ROUTES)('routes %s to the %s function', (routeKey, group) => {
    // Arrange
    const apiId = logicalIdOf(stacks.api.httpApi);

    // Act
    const uri = integrationUriOfRoute(stacks, apiId, routeKey);

    // Assert
    expect(uri).toEqual({ 'Fn::GetAtt': [functionIdOf(stacks, group), 'Arn'] });
  });

  it('has exactly one route per route key of HTTP_ROUTES plus $default', () => {
    // Arrange
    const apiId = logicalIdOf(stacks.api.httpApi);

    // Act
    const routeKeys = Object.values(
      stacks.apiTemplate.findResources('AWS::ApiGatewayV2::Route', { Properties: { ApiId: { Ref: apiId } } }),
    ).map((route) => route.Properties.RouteKey as string);

    // Assert
    expect(routeKeys.sort()).toEqual([...ROUTES.map(([routeKey]) => routeKey), FALLBACK_ROUTE_KEY].sort());
  });

  it('sends the $default route to the fallback function', () => {
    // Arrange
    const apiId = logicalIdOf(stacks.api.httpApi);

    // Act
    const uri = integrationUriOfRoute(stacks, apiId, FALLBACK_ROUTE_KEY);

    // Assert
    expect(uri).toEqual({ 'Fn::GetAtt': [functionIdOf(stacks, 'fallback'), 'Arn'] });
  });

  it('leaves CORS preflights to the functions', () => {
    // Arrange
    const apiId = logicalIdOf(stacks.api.httpApi);

    // Act
    const api = stacks.apiTemplate.toJSON().Resources[apiId];

    // Assert
    expect(api.Properties.ProtocolType).toBe('HTTP');
    expect(api.Properties.CorsConfiguration).toBeUndefined();
  });
});

describe('functions', () => {
  it.each(ALL_FUNCTIONS)('runs the %s function on nodejs22.x and arm64 with active tracing', (name) => {
    // Arrange
    const id = functionIdOf(stacks, name);

    // Act
    const fn = stacks.apiTemplate.toJSON().Resources[id];

    // Assert
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'index.handler',
      TracingConfig: { Mode: 'Active' },
    });
  });

  it.each(ALL_FUNCTIONS)('logs the %s function to its own log group kept 30 days', (name) => {
    // Arrange
    const id = functionIdOf(stacks, name);
    const logGroupId = logicalIdOf(stacks.api.functions[name].logGroup);

    // Act
    const fn = stacks.apiTemplate.toJSON().Resources[id];

    // Assert
    expect(fn.Properties.LoggingConfig.LogGroup).toEqual({ Ref: logGroupId });
    expect(stacks.apiTemplate.toJSON().Resources[logGroupId].Properties.RetentionInDays).toBe(30);
  });

  it('keeps every log group of the API stack for 30 days', () => {
    // Arrange
    const logGroups = Object.values(stacks.apiTemplate.findResources('AWS::Logs::LogGroup'));

    // Act
    const retentions = logGroups.map((logGroup) => logGroup.Properties.RetentionInDays);

    // Assert
    expect(retentions.length).toBeGreaterThanOrEqual(ALL_FUNCTIONS.length);
    expect(new Set(retentions)).toEqual(new Set([30]));
  });

  it('gives HTTP functions 512 MB and 10 s by default', () => {
    // Arrange
    const id = functionIdOf(stacks, 'users');

    // Act
    const fn = stacks.apiTemplate.toJSON().Resources[id];

    // Assert
    expect(fn.Properties).toMatchObject({ MemorySize: 512, Timeout: 10 });
  });

  it('enables source maps in every function', () => {
    // Arrange
    const names = ALL_FUNCTIONS;

    // Act
    const nodeOptions = names.map((name) => environmentOf(stacks, name).NODE_OPTIONS);

    // Assert
    expect(new Set(nodeOptions)).toEqual(new Set(['--enable-source-maps']));
  });
});

describe('environment bindings', () => {
  it.each(DATA_FUNCTIONS)('points TABLE_NAME of the %s function at the table', (name) => {
    // Arrange
    const expected = tableRef(stacks);

    // Act
    const environment = environmentOf(stacks, name);

    // Assert
    expect(environment[ENV.tableName]).toEqual(expected);
  });

  it.each(DATA_FUNCTIONS)('points JWT_SECRET_ARN of the %s function at the JWT secret', (name) => {
    // Arrange
    const expected = jwtSecretRef(stacks);

    // Act
    const environment = environmentOf(stacks, name);

    // Assert
    expect(environment[ENV.jwtSecretArn]).toEqual(expected);
  });

  it('passes the JWT settings, REGISTRATION_MODE and CORS_ORIGINS to the HTTP functions', () => {
    // Arrange
    const built = buildStacks({ registrationMode: 'closed', corsOrigins: ['https://a.example', 'https://b.example'] });

    // Act
    const environment = environmentOf(built, 'auth');

    // Assert
    expect(environment).toMatchObject({
      [ENV.jwtIssuer]: 'docservice',
      [ENV.jwtAudience]: 'docservice-api',
      [ENV.jwtTtlSeconds]: '3600',
      [ENV.jwtRefreshGraceSeconds]: '604800',
      [ENV.registrationMode]: 'closed',
      [ENV.corsOrigins]: 'https://a.example,https://b.example',
    });
  });

  it('gives the users function API_TOKEN_MAX_DAYS from context apiTokenMaxDays (365 by default), and no other function', () => {
    // Arrange
    const built = buildStacks({ apiTokenMaxDays: 30 });

    // Act
    const users = environmentOf(built, 'users');
    const others = (['auth', 'documents'] as const).map((name) => environmentOf(built, name));

    // Assert
    expect(users[ENV.apiTokenMaxDays]).toBe('30');
    expect(environmentOf(buildStacks(), 'users')[ENV.apiTokenMaxDays]).toBe('365');
    for (const environment of others) expect(environment).not.toHaveProperty(ENV.apiTokenMaxDays);
  });

  it.each([0, 3651, 1.5, Number.NaN])('refuses context apiTokenMaxDays %s at synth, naming it', (days) => {
    expect(() => buildStacks({ apiTokenMaxDays: days })).toThrow(/apiTokenMaxDays/);
  });

  it('gives the fallback function CORS_ORIGINS and nothing about data or secrets', () => {
    // Arrange
    const name = 'fallback';

    // Act
    const environment = environmentOf(stacks, name);

    // Assert
    expect(environment).toEqual({
      NODE_OPTIONS: '--enable-source-maps',
      OTEL_TRACES_EXPORTER: 'otlp',
      POWERTOOLS_SERVICE_NAME: stacks.api.stackName,
      POWERTOOLS_METRICS_NAMESPACE: BUSINESS_METRICS_NAMESPACE,
      [ENV.corsOrigins]: '',
    });
  });

  it('points the health function at the table, the bucket and the OCR queue', () => {
    // Arrange
    const { stateful } = stacks;

    // Act
    const environment = environmentOf(stacks, 'health');

    // Assert
    expect(environment).toMatchObject({
      [ENV.tableName]: { Ref: logicalIdOf(stateful.table) },
      [ENV.bucketName]: { Ref: logicalIdOf(stateful.documentsBucket) },
      [ENV.ocrQueueUrl]: { Ref: logicalIdOf(stateful.ocrQueue) },
    });
  });

  it.each(['documents', 'ocr-worker'] as const)('runs one imaging worker in the %s function, whose 1.5 GB holds its worst case', (name) => {
    // Act
    const environment = environmentOf(stacks, name);

    // Assert
    expect(environment[ENV.imagingWorkers]).toBe('1');
  });
});

describe('IAM', () => {
  it('lets the auth function read and write the table and its indexes', () => {
    // Arrange
    const arn = tableArn(stacks);

    // Act
    // The rate-limit grant (its own statement, on RATE# items only) is checked in rate-limits-and-sso.test.ts; the
    // audit log's (PutItem of login entries, on the audit table only) in audit.test.ts.
    const auditTableId = logicalIdOf(stacks.stateful.auditTable);
    const dynamo = grantsOf(stacks, 'auth').filter(
      (s) => s.Action.some((a) => a.startsWith('dynamodb:')) && s.Condition === undefined && !JSON.stringify(s.Resource).includes(auditTableId),
    );

    // Assert
    const actions = dynamo.flatMap((s) => s.Action);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:Query']));
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:UpdateItem', 'dynamodb:DeleteItem']));
    for (const statement of dynamo) {
      expect(statement.Resource).toEqual([arn, { 'Fn::Join': ['', [arn, '/index/*']] }]);
    }
  });

  it("lets the auth function read the JWT secret and no other secret but the edge's origin token", () => {
    // Arrange
    const secret = jwtSecretRef(stacks);
    const edgeToken = { Ref: logicalIdOf(stacks.api.edge!.originToken) };

    // Act
    const secrets = grantsOf(stacks, 'auth')
      .filter((s) => s.Action.some((a) => a.startsWith('secretsmanager:')))
      .filter((s) => JSON.stringify(s.Resource) !== JSON.stringify([edgeToken]));

    // Assert
    expect(secrets.flatMap((s) => s.Action)).toContain('secretsmanager:GetSecretValue');
    expect(secrets.flatMap((s) => s.Resource)).toEqual(secrets.flatMap(() => [secret]));
    expect(secrets.length).toBeGreaterThan(0);
  });

  it('gives the fallback function no permission beyond tracing', () => {
    // Arrange
    const name = 'fallback';

    // Act
    const statements = statementsOf(stacks, name);

    // Assert
    expect(statements.flatMap((s) => s.Action).filter((a) => a.startsWith('dynamodb:'))).toEqual([]);
    expect(grantsOf(stacks, name)).toEqual([]);
  });

  it('lets the health function only describe the table, list the bucket and read queue attributes', () => {
    // Arrange
    const { stateful } = stacks;

    // Act
    const grants = grantsOf(stacks, 'health');

    // Assert
    expect(grants).toEqual([
      { Effect: 'Allow', Action: ['dynamodb:DescribeTable'], Resource: [tableArn(stacks)] },
      {
        Effect: 'Allow',
        Action: ['s3:ListBucket'],
        Resource: [{ 'Fn::GetAtt': [logicalIdOf(stateful.documentsBucket), 'Arn'] }],
      },
      {
        Effect: 'Allow',
        Action: ['sqs:GetQueueAttributes'],
        Resource: [{ 'Fn::GetAtt': [logicalIdOf(stateful.ocrQueue), 'Arn'] }],
      },
    ]);
  });

  it('lets the bootstrap function read the admin password secret, not the JWT secret', () => {
    // Arrange
    const adminSecret = { Ref: logicalIdOf(stacks.stateful.adminPasswordSecret) };

    // Act
    const secrets = grantsOf(stacks, 'bootstrap').filter((s) => s.Action.some((a) => a.startsWith('secretsmanager:')));

    // Assert
    expect(secrets.length).toBeGreaterThan(0);
    expect(secrets.flatMap((s) => s.Resource)).toEqual(secrets.flatMap(() => [adminSecret]));
  });
});

describe('WebSocket API', () => {
  it.each(WS_ROUTES)('routes %s to the realtime function', (routeKey) => {
    // Arrange
    const apiId = logicalIdOf(stacks.api.webSocketApi);

    // Act
    const uri = JSON.stringify(integrationUriOfRoute(stacks, apiId, routeKey));

    // Assert
    expect(uri).toContain(JSON.stringify({ 'Fn::GetAtt': [functionIdOf(stacks, 'realtime'), 'Arn'] }));
  });

  it('sends the realtime function\'s answer to $default messages back to the client', () => {
    // Arrange
    const apiId = logicalIdOf(stacks.api.webSocketApi);

    // Act & Assert
    stacks.apiTemplate.hasResourceProperties('AWS::ApiGatewayV2::Route', {
      ApiId: { Ref: apiId },
      RouteKey: '$default',
      RouteResponseSelectionExpression: '$default',
    });
  });

  it('deploys the prod stage automatically', () => {
    // Arrange
    const apiId = logicalIdOf(stacks.api.webSocketApi);

    // Act & Assert
    stacks.apiTemplate.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      ApiId: { Ref: apiId },
      StageName: 'prod',
      AutoDeploy: true,
    });
  });

  it("scopes ManageConnections to POST and DELETE on the connections of this API's prod stage", () => {
    // Arrange
    const apiRef = { Ref: logicalIdOf(stacks.api.webSocketApi) };

    // Act
    const manage = statementsOf(stacks, 'realtime').filter((s) => s.Action.includes('execute-api:ManageConnections'));

    // Assert
    expect(manage).toHaveLength(1);
    const resources = (manage[0]?.Resource ?? []) as { 'Fn::Join': [string, unknown[]] }[];
    expect(resources.map((resource) => resource['Fn::Join'][1].at(-1))).toEqual([
      '/prod/POST/@connections/*',
      '/prod/DELETE/@connections/*',
    ]);
    for (const resource of resources) expect(resource['Fn::Join'][1]).toContainEqual(apiRef);
  });

  it('tells the realtime function the stage callback URL', () => {
    // Arrange
    const apiRef = { Ref: logicalIdOf(stacks.api.webSocketApi) };

    // Act
    const endpoint = environmentOf(stacks, 'realtime')[ENV.websocketEndpoint];

    // Assert
    expect(endpoint).toEqual({
      'Fn::Join': ['', ['https://', apiRef, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/prod']],
    });
  });

  it('binds the realtime function to the table and the JWT secret', () => {
    // Arrange
    const expected = { [ENV.tableName]: tableRef(stacks), [ENV.jwtSecretArn]: jwtSecretRef(stacks) };

    // Act
    const environment = environmentOf(stacks, 'realtime');

    // Assert
    expect(environment).toMatchObject(expected);
  });
});

describe('admin bootstrap', () => {
  it('runs the bootstrap function through a custom resource provider', () => {
    // Arrange
    const bootstrapArn = { 'Fn::GetAtt': [functionIdOf(stacks, 'bootstrap'), 'Arn'] };
    const [providerId] = Object.keys(
      stacks.apiTemplate.findResources('AWS::Lambda::Function', {
        Properties: { Environment: { Variables: { USER_ON_EVENT_FUNCTION_ARN: bootstrapArn } } },
      }),
    );

    // Act
    const resources = stacks.apiTemplate.findResources('Custom::AdminBootstrap');

    // Assert
    expect(providerId).toBeDefined();
    expect(Object.values(resources)).toHaveLength(1);
    expect(Object.values(resources)[0]?.Properties.ServiceToken).toEqual({ 'Fn::GetAtt': [providerId, 'Arn'] });
  });

  it('re-runs the bootstrap when the admin username changes', () => {
    // Arrange
    const built = buildStacks({ adminUsername: 'root' });

    // Act & Assert
    built.apiTemplate.hasResourceProperties('Custom::AdminBootstrap', { AdminUsername: 'root' });
  });

  it('re-runs the bootstrap on an upgrade whose data version moved (the first workspace of an older stack)', () => {
    // Arrange
    const built = buildStacks();

    // Act & Assert
    built.apiTemplate.hasResourceProperties('Custom::AdminBootstrap', { DataVersion: BOOTSTRAP_DATA_VERSION });
  });

  it('gives the bootstrap function the admin username, email and password secret ARN', () => {
    // Arrange
    const built = buildStacks({ adminUsername: 'root', adminEmail: 'root@example.com' });

    // Act
    const environment = environmentOf(built, 'bootstrap');

    // Assert
    expect(environment).toMatchObject({
      [ENV.adminUsername]: 'root',
      [ENV.adminEmail]: 'root@example.com',
      [ENV.adminPasswordSecretArn]: { Ref: logicalIdOf(built.stateful.adminPasswordSecret) },
      [ENV.tableName]: tableRef(built),
    });
  });
});

describe('outputs', () => {
  it.each(['HttpApiUrl', 'WebSocketUrl', 'AdminPasswordSecretArn', 'TableName', 'BucketName'])(
    'outputs %s',
    (name) => {
      // Arrange
      const template = stacks.apiTemplate;

      // Act & Assert
      template.hasOutput(name, { Value: Match.anyValue() });
    },
  );
});

describe('ingest of presigned uploads', () => {
  it('consumes the ingest queue in batches of 10 with partial batch failures', () => {
    // Arrange
    const queueArn = { 'Fn::GetAtt': [logicalIdOf(stacks.stateful.ingestQueue), 'Arn'] };

    // Act
    const mappings = Object.values(stacks.apiTemplate.findResources('AWS::Lambda::EventSourceMapping')).filter(
      (mapping) => JSON.stringify(resolveImports(stacks, mapping.Properties.EventSourceArn)) === JSON.stringify(queueArn),
    );

    // Assert
    expect(mappings).toHaveLength(1);
    expect(mappings[0]!.Properties).toMatchObject({
      FunctionName: { Ref: functionIdOf(stacks, 'ingest') },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('binds the ingest function to the table, the bucket and the OCR queue, and to no secret', () => {
    // Arrange
    const environment = environmentOf(stacks, 'ingest');

    // Act
    const secretGrants = grantsOf(stacks, 'ingest').filter((s) => s.Action.some((a) => a.startsWith('secretsmanager:')));

    // Assert
    expect(Object.keys(environment).sort()).toEqual(
      expect.arrayContaining([ENV.tableName, ENV.bucketName, ENV.ocrQueueUrl]),
    );
    expect(environment).not.toHaveProperty(ENV.jwtSecretArn);
    expect(secretGrants).toEqual([]);
  });
});

describe('OCR worker and sweep', () => {
  const queueArn = (queue: { node: unknown }) => ({ 'Fn::GetAtt': [logicalIdOf(queue as never), 'Arn'] });
  const mappingsOf = (queue: { node: unknown }) =>
    Object.values(stacks.apiTemplate.findResources('AWS::Lambda::EventSourceMapping')).filter(
      (mapping) => JSON.stringify(resolveImports(stacks, mapping.Properties.EventSourceArn)) === JSON.stringify(queueArn(queue)),
    );

  it.each([
    ['normal', () => stacks.stateful.ocrQueue],
    ['high', () => stacks.stateful.ocrHighQueue],
  ])('feeds the worker from the %s-priority queue with partial batch failures and its own concurrency', (_name, queue) => {
    // Arrange
    const worker = functionIdOf(stacks, 'ocr-worker');

    // Act
    const mappings = mappingsOf(queue());

    // Assert
    expect(mappings).toHaveLength(1);
    expect(mappings[0]!.Properties).toMatchObject({
      FunctionName: { Ref: worker },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: expect.any(Number) },
    });
  });

  it('lets the worker call Textract and nothing else on "*"', () => {
    // Arrange
    const statements = grantsOf(stacks, 'ocr-worker');

    // Act
    const onAnyResource = statements.filter((s) => s.Resource.includes('*'));

    // Assert
    expect(onAnyResource.flatMap((s) => s.Action).sort()).toEqual([
      'textract:DetectDocumentText',
      'textract:GetDocumentTextDetection',
      'textract:StartDocumentTextDetection',
    ]);
  });

  it('lets the worker put a job Textract is throttling back on both OCR queues', () => {
    // Arrange
    const statements = grantsOf(stacks, 'ocr-worker');

    // Act
    const actions = statements.flatMap((s) => s.Action);

    // Assert
    expect(actions).toContain('sqs:SendMessage');
    expect(Object.keys(environmentOf(stacks, 'ocr-worker'))).toEqual(expect.arrayContaining([ENV.ocrQueueUrl, ENV.ocrHighQueueUrl]));
  });

  it('gives the worker 15 minutes, Lambda\'s maximum, and hides its messages for six times that', () => {
    // Arrange
    const worker = stacks.apiTemplate.toJSON().Resources[functionIdOf(stacks, 'ocr-worker')];

    // Act
    const visibility = stacks.statefulTemplate.toJSON().Resources[logicalIdOf(stacks.stateful.ocrHighQueue)].Properties.VisibilityTimeout;

    // Assert
    expect(worker.Properties.Timeout).toBe(900);
    expect(visibility).toBe(5400);
  });

  it('runs the stuck-job sweep every 10 minutes with read access to the table and send access to both queues', () => {
    // Arrange
    const sweeper = functionIdOf(stacks, 'ocr-sweeper');

    // Act
    const rules = Object.values(stacks.apiTemplate.findResources('AWS::Events::Rule'));
    const actions = grantsOf(stacks, 'ocr-sweeper').flatMap((s) => s.Action);

    // Assert
    expect(rules).toContainEqual(
      expect.objectContaining({
        Properties: expect.objectContaining({
          ScheduleExpression: 'rate(10 minutes)',
          Targets: [expect.objectContaining({ Arn: { 'Fn::GetAtt': [sweeper, 'Arn'] } })],
        }),
      }),
    );
    expect(actions).toContain('sqs:SendMessage');
    expect(actions).not.toContain('dynamodb:PutItem');
    expect(Object.keys(environmentOf(stacks, 'ocr-sweeper'))).toEqual(
      expect.arrayContaining([ENV.tableName, ENV.ocrQueueUrl, ENV.ocrHighQueueUrl]),
    );
  });

  it('lets the documents, OCR and ingest functions send to both OCR queues', () => {
    // Arrange
    const senders: ApiFunctionName[] = ['documents', 'ocr', 'ingest'];

    // Act
    const environments = senders.map((name) => environmentOf(stacks, name));

    // Assert
    for (const environment of environments) {
      expect(environment).toHaveProperty(ENV.ocrQueueUrl);
      expect(environment).toHaveProperty(ENV.ocrHighQueueUrl);
    }
  });
});

describe('real-time wiring', () => {
  // Who may push to connections (the events and realtime functions alone) is checked in change-consumers.test.ts.
  it('keeps connection records in the table under its TTL attribute', () => {
    // Arrange
    const template = stacks.statefulTemplate;

    // Act & Assert
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      GlobalSecondaryIndexes: Match.arrayWith([Match.objectLike({ IndexName: 'gsi1' })]),
    });
  });

  it.each(['auth', 'users'] as const)("lets the %s function read and mark any of the user's connection records", (name) => {
    // Arrange
    const table = tableArn(stacks);

    // Act
    const unconditional = grantsOf(stacks, name).filter((s) => s.Condition === undefined && s.Resource.some((r) => JSON.stringify(r) === JSON.stringify(table)));

    // Assert
    expect(unconditional.flatMap((s) => s.Action)).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:UpdateItem']));
  });

  it('binds the realtime function to the table its connections live in', () => {
    // Arrange
    const table = tableArn(stacks);

    // Act
    const resources = grantsOf(stacks, 'realtime')
      .filter((s) => s.Action.includes('dynamodb:TransactWriteItems') || s.Action.includes('dynamodb:UpdateItem'))
      .flatMap((s) => s.Resource);

    // Assert
    expect(resources).toContainEqual(table);
  });
});

describe('search wiring', () => {
  const esActions = (name: ApiFunctionName) =>
    grantsOf(stacks, name)
      .filter((s) => s.Action.some((a) => a.startsWith('es:')))
      .flatMap((s) => s.Action);

  it('lets the search function send GET, HEAD and POST (_search is a POST) and nothing that writes', () => {
    // Arrange
    const name: ApiFunctionName = 'search';

    // Act
    const actions = esActions(name);

    // Assert
    expect(actions.sort()).toEqual(['es:ESHttpGet', 'es:ESHttpHead', 'es:ESHttpPost']);
    expect(environmentOf(stacks, name)).toHaveProperty(ENV.opensearchEndpoint);
  });

  // The indexer's grants, and that no other function but search and the index setup reaches the domain, are
  // checked in change-consumers.test.ts.
});
