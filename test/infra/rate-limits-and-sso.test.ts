import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV, HTTP_ROUTES, type HttpGroup } from '../../shared/manifest';
import { RATE_LIMIT_KEY_PATTERN, USAGE_KEY_PATTERN } from '../../lib/constructs/bindings';
import { RATE_LIMITER_FAILURE_LOG, rateLimiterFailureMetric } from '../../lib/constructs/monitoring';
import type { OidcDeployment } from '../../lib/context';
import { RATE_LIMITED_GROUPS, type ApiFunctionName } from '../../lib/stacks/api-stack';
import { checkThrottlesAdmit, DEFAULT_RATE_LIMITS } from '../../lib/stacks/limits';
import { commonEnvSchema } from '../../shared/container/kit/config';
import { buildStacks, environmentOf, grantsOf, logicalIdOf, statementsOf } from './build-stacks';

const stacks = buildStacks();
const RATE_ENV = [ENV.rateLimitPerMinute, ENV.rateLimitBurst, ENV.uploadRateLimitPerMinute, ENV.ipRateLimitPerMinute, ENV.ipRateLimitBurst];
const OIDC_ENV = [
  ENV.oidcIssuer,
  ENV.oidcClientId,
  ENV.oidcClientSecretArn,
  ENV.oidcRedirectUri,
  ENV.oidcScopes,
  ENV.oidcFrontendUrl,
  ENV.oidcDefaultRole,
  ENV.oidcRoleClaim,
  ENV.oidcRoleMap,
];
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:docservice/oidc-AbC123';
const SSO: OidcDeployment = {
  environment: {
    [ENV.oidcIssuer]: 'https://login.example.com',
    [ENV.oidcClientId]: 'docservice',
    [ENV.oidcRedirectUri]: 'https://api.example.com/api/auth/oidc/callback',
    [ENV.oidcDefaultRole]: 'editor',
  },
  clientSecretArn: SECRET_ARN,
};
const tableArn = { 'Fn::GetAtt': [logicalIdOf(stacks.stateful.table), 'Arn'] };

describe('rate limits in the cloud', () => {
  it('counts requests in every HTTP function but health, which the runtime never limits', () => {
    // Arrange
    const groups = Object.keys(HTTP_ROUTES) as HttpGroup[];

    // Act
    const counted = [...RATE_LIMITED_GROUPS].sort();

    // Assert
    expect(counted).toEqual(groups.filter((group) => group !== 'health').sort());
  });

  it.each(RATE_LIMITED_GROUPS)('gives the %s function the default limits of profile P', (name) => {
    // Arrange
    const expected = { RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_BURST: '20', UPLOAD_RATE_LIMIT_PER_MINUTE: '10', IP_RATE_LIMIT_PER_MINUTE: '60', IP_RATE_LIMIT_BURST: '20' };

    // Act
    const environment = environmentOf(stacks, name);

    // Assert
    expect(environment).toMatchObject(expected);
  });

  it('passes the limits from context to the functions', () => {
    // Arrange
    const built = buildStacks({ rateLimits: { perMinute: 60, burst: 10, uploadPerMinute: 5, ipPerMinute: 30, ipBurst: 5 } });

    // Act
    const environment = environmentOf(built, 'documents');

    // Assert
    expect(environment).toMatchObject({ RATE_LIMIT_PER_MINUTE: '60', RATE_LIMIT_BURST: '10', UPLOAD_RATE_LIMIT_PER_MINUTE: '5', IP_RATE_LIMIT_PER_MINUTE: '30', IP_RATE_LIMIT_BURST: '5' });
  });

  it.each(['health', 'fallback', 'realtime', 'bootstrap', 'ingest', 'ocr-worker', 'ocr-sweeper'] as const)(
    'gives the %s function, which counts no request, no limit',
    (name) => {
      // Arrange
      const environment = environmentOf(stacks, name);

      // Act
      const given = RATE_ENV.filter((variable) => variable in environment);

      // Assert
      expect(given).toEqual([]);
    },
  );

  it.each(RATE_LIMITED_GROUPS)("lets the %s function get and update the rate-limit items, and only those, of the table", (name) => {
    // Arrange
    const condition = { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [RATE_LIMIT_KEY_PATTERN] } };

    // Act
    const statement = statementsOf(stacks, name).find((s) => JSON.stringify(s).includes(RATE_LIMIT_KEY_PATTERN));

    // Assert
    expect(statement).toEqual({ Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], Resource: [tableArn], Condition: condition });
  });

  it('lets the search function write nothing in the table but rate-limit items and usage counters', () => {
    // Arrange
    const writes = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:TransactWriteItems'];

    // Act
    const writing = grantsOf(stacks, 'search').filter((s) => s.Action.some((action) => writes.includes(action)));

    // Assert
    expect(writing).toHaveLength(2);
    expect(JSON.stringify(writing[0])).toContain(RATE_LIMIT_KEY_PATTERN);
    expect(writing[1]).toEqual({
      Effect: 'Allow',
      Action: ['dynamodb:UpdateItem'],
      Resource: [tableArn],
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [USAGE_KEY_PATTERN] } },
    });
  });

  it('keys usage counters under the pattern the search function may update', async () => {
    // Arrange
    const { dataKeys } = await import('../../shared/adapters/aws/dynamodb/keys');

    // Act
    const key = dataKeys('6d7f1d2e-0000-4000-8000-000000000001').usageMonth('2026-01');

    // Assert
    expect(key.pk).toMatch(new RegExp(`^${USAGE_KEY_PATTERN.replace('*', '[^#]+')}$`));
  });

  it('keys rate-limit items under the prefix the grant allows', async () => {
    // Arrange
    const { keys } = await import('../../shared/adapters/aws/dynamodb/keys');

    // Act
    const key = keys.rateLimit('user#42');

    // Assert
    expect(RATE_LIMIT_KEY_PATTERN).toBe('RATE#*');
    expect(key.pk.startsWith('RATE#')).toBe(true);
  });

  it.each(RATE_LIMITED_GROUPS)('counts the limiter failures the %s function logs', (name) => {
    // Arrange
    const logGroup = { Ref: logicalIdOf(stacks.api.functions[name].logGroup) };

    // Act
    const filters = Object.values(stacks.apiTemplate.findResources('AWS::Logs::MetricFilter')).filter(
      (filter) => JSON.stringify(filter.Properties.LogGroupName) === JSON.stringify(logGroup),
    );

    // Assert
    expect(filters.map((filter) => filter.Properties)).toEqual([
      {
        LogGroupName: logGroup,
        FilterPattern: RATE_LIMITER_FAILURE_LOG,
        MetricTransformations: [{ MetricNamespace: 'DocService/DocService-Api', MetricName: 'RateLimiterFailures', MetricValue: '1' }],
      },
    ]);
  });

  it('alarms when the limiter failed in three 5-minute periods in a row', () => {
    // Arrange
    const construct = stacks.api.monitoring.alarms['RateLimiterFailures'];

    // Act
    const alarm = stacks.apiTemplate.toJSON().Resources[logicalIdOf(construct!)].Properties;

    // Assert
    expect(alarm).toMatchObject({
      Namespace: rateLimiterFailureMetric('DocService-Api').namespace,
      MetricName: rateLimiterFailureMetric('DocService-Api').metricName,
      Statistic: 'Sum',
      Period: 300,
      EvaluationPeriods: 3,
      Threshold: 0,
      ComparisonOperator: 'GreaterThanThreshold',
      TreatMissingData: 'notBreaching',
    });
  });

  it('matches the message the runtime logs when its limiter fails', async () => {
    // Arrange
    const source = await readFile(path.resolve(import.meta.dirname, '../../shared/container/kit/request-gate.ts'), 'utf8');

    // Act
    const logged = /logger\.warn\(`(rate limit: )\$\{what\} failed/u.exec(source)?.[1];

    // Assert
    expect(`"${logged?.trim()}"`).toBe(RATE_LIMITER_FAILURE_LOG);
  });

  it('admits one caller\'s whole allowance in every throttle at the default limits', () => {
    // Arrange
    const limits = DEFAULT_RATE_LIMITS;

    // Act
    const problems = checkThrottlesAdmit(limits);

    // Assert
    expect(problems).toEqual([]);
  });

  it('stops synth when one user\'s burst would meet the stage throttle first', () => {
    // Arrange
    const rateLimits = { ...DEFAULT_RATE_LIMITS, burst: 300 };

    // Act
    const build = () => buildStacks({ rateLimits });

    // Assert
    expect(build).toThrow("one caller's burst of 300 is above the HTTP stage throttle (burst 200)");
  });

  it('stops synth when one user\'s uploads would meet an upload route\'s throttle first', () => {
    // Arrange
    const rateLimits = { ...DEFAULT_RATE_LIMITS, uploadPerMinute: 15 };

    // Act
    const problems = checkThrottlesAdmit(rateLimits);

    // Assert
    expect(problems).toEqual(["one caller's burst of 15 is above the throttle of POST /api/documents/bulk-upload (burst 10)"]);
  });

  it('stops synth when one user\'s steady rate is above a route\'s throttle', () => {
    // Arrange
    const rateLimits = { ...DEFAULT_RATE_LIMITS, perMinute: 180 };

    // Act
    const problems = checkThrottlesAdmit(rateLimits);

    // Assert
    expect(problems).toContain("one caller's 180 requests a minute are above the throttle of POST /api/users/change-password (2/s)");
  });
});

describe('single sign-on in the cloud', () => {
  const withSso = buildStacks({ oidc: SSO });

  it('gives the auth function the OIDC settings and the client secret ARN', () => {
    // Arrange
    const expected = { ...SSO.environment, [ENV.oidcClientSecretArn]: SECRET_ARN };

    // Act
    const environment = environmentOf(withSso, 'auth');

    // Assert
    expect(environment).toMatchObject(expected);
  });

  it.each(Object.keys(withSso.api.functions).filter((name) => name !== 'auth') as ApiFunctionName[])(
    'gives the %s function no OIDC setting',
    (name) => {
      // Arrange
      const environment = environmentOf(withSso, name);

      // Act
      const given = OIDC_ENV.filter((variable) => variable in environment);

      // Assert
      expect(given).toEqual([]);
    },
  );

  it("lets the auth function read exactly the client secret, besides the JWT key and the edge's origin token", () => {
    // Arrange
    const jwtSecret = { Ref: logicalIdOf(withSso.stateful.jwtSecret) };
    const edgeToken = { Ref: logicalIdOf(withSso.api.edge!.originToken) };

    // Act
    const secretResources = grantsOf(withSso, 'auth')
      .filter((s) => s.Action.includes('secretsmanager:GetSecretValue'))
      .flatMap((s) => s.Resource);

    // Assert
    expect(secretResources).toEqual(expect.arrayContaining([jwtSecret, SECRET_ARN, edgeToken]));
    expect(secretResources).toHaveLength(3);
  });

  it('grants no function but auth the client secret', () => {
    // Arrange
    const others = Object.keys(withSso.api.functions).filter((name) => name !== 'auth') as ApiFunctionName[];

    // Act
    const readers = others.filter((name) => JSON.stringify(statementsOf(withSso, name)).includes(SECRET_ARN));

    // Assert
    expect(readers).toEqual([]);
  });

  it('sets no secret ARN and grants no extra secret for a public client', () => {
    // Arrange
    const built = buildStacks({ oidc: { environment: SSO.environment } });

    // Act
    const environment = environmentOf(built, 'auth');
    const secretResources = grantsOf(built, 'auth')
      .filter((s) => s.Action.includes('secretsmanager:GetSecretValue'))
      .flatMap((s) => s.Resource);

    // Assert
    expect(environment[ENV.oidcIssuer]).toBe('https://login.example.com');
    expect(environment[ENV.oidcClientSecretArn]).toBeUndefined();
    expect(secretResources).toEqual(expect.arrayContaining([{ Ref: logicalIdOf(built.stateful.jwtSecret) }, { Ref: logicalIdOf(built.api.edge!.originToken) }]));
    expect(secretResources).toHaveLength(2);
  });

  it('gives no function OIDC settings when single sign-on is not configured', () => {
    // Arrange
    const names = Object.keys(stacks.api.functions) as ApiFunctionName[];

    // Act
    const configured = names.filter((name) => OIDC_ENV.some((variable) => variable in environmentOf(stacks, name)));

    // Assert
    expect(configured).toEqual([]);
  });
});

describe('variables shared with the runtime', () => {
  // OIDC_CLIENT_SECRET_ARN is the cloud's own, read by the auth function's entry (functions/auth/index.ts).
  const shared = [...RATE_ENV, ...OIDC_ENV].filter((variable) => variable !== ENV.oidcClientSecretArn);

  it.each(shared)('sets %s, which the runtime reads', (variable) => {
    // Arrange
    const shape = commonEnvSchema.shape as Record<string, unknown>;

    // Act
    const read = variable in shape;

    // Assert
    expect(read).toBe(true);
  });
});
