import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { customDomainFromContext, type ContextReader } from '../../lib/context';
import { acknowledgeNagFindings, awsSolutionsFindings } from '../../lib/nag';
import { parseStageSettings, readStageFile, STAGE_SETTING_KEYS, stackNames, stageFromContext, withStageSettings } from '../../lib/stage';
import { buildStacks } from './build-stacks';

const STAGES = new URL('../../deploy/stages/', import.meta.url);
const contextOf =
  (values: Record<string, unknown>): ContextReader =>
  (key) =>
    values[key];

describe('stack names', () => {
  it('keeps the original names without a stage, so an existing deployment is updated in place', () => {
    // Act
    const names = stackNames(undefined);

    // Assert
    expect(names).toEqual({ stateful: 'DocService-Stateful', api: 'DocService-Api' });
  });

  it('carries the stage, so two stages live in one account and region', () => {
    // Act
    const names = stackNames('prod');

    // Assert
    expect(names).toEqual({ stateful: 'DocService-Prod-Stateful', api: 'DocService-Prod-Api' });
  });

  it.each(['Prod', 'pr-od', '1dev', 'a'.repeat(17), 'prod.json'])('refuses the stage %s, naming the key', (stage) => {
    // Act
    const read = () => stageFromContext(contextOf({ stage }));

    // Assert
    expect(read).toThrow('Context "stage" must be lower-case letters and digits');
  });

  it('reads no stage when none is given', () => {
    // Act
    const stage = stageFromContext(contextOf({}));

    // Assert
    expect(stage).toBeUndefined();
  });
});

describe('stage files', () => {
  it.each(['dev', 'prod'])('accepts the checked-in %s.json', (stage) => {
    // Act
    const settings = readStageFile(STAGES, stage);

    // Assert
    expect(Object.keys(settings).length).toBeGreaterThan(0);
    expect(settings).not.toHaveProperty('$schema');
  });

  it('refuses an unknown key at synth, naming it', () => {
    // Arrange
    const content = { corsOrigin: 'https://app.example.com', alarmEmail: 'ops@example.com' };

    // Act
    const parse = () => parseStageSettings(content, 'deploy/stages/prod.json');

    // Assert
    expect(parse).toThrow('Stage file deploy/stages/prod.json: unknown key "corsOrigin"');
  });

  it('refuses a value that is an object, naming its key', () => {
    // Arrange
    const content = { rateLimitBurst: { value: 5 } };

    // Act
    const parse = () => parseStageSettings(content, 'x.json');

    // Assert
    expect(parse).toThrow('"rateLimitBurst" must be a string, number, boolean or list of strings');
  });

  it('names the missing file of an unknown stage, and a file that is not JSON', () => {
    // Arrange
    const directory = mkdtempSync(join(inject('infraCdkOut'), 'stages-'));
    writeFileSync(join(directory, 'broken.json'), '{ "edge": ');
    const url = pathToFileURL(`${directory}/`);

    // Act
    const missing = () => readStageFile(url, 'qa');
    const broken = () => readStageFile(url, 'broken');

    // Assert
    expect(missing).toThrow(`no stage file ${directory}/qa.json`);
    expect(broken).toThrow(`Stage file ${directory}/broken.json is not JSON`);
  });

  it('lets context given on the command line override the file, and the file fill in the rest', () => {
    // Arrange
    const settings = parseStageSettings({ alarmEmail: 'file@example.com', corsOrigins: ['https://a.example.com'] }, 'x.json');
    const read = withStageSettings(contextOf({ alarmEmail: 'cli@example.com', stage: 'prod' }), settings);

    // Act
    const values = [read('alarmEmail'), read('corsOrigins'), read('oidcIssuer')];

    // Assert
    expect(values).toEqual(['cli@example.com', ['https://a.example.com'], undefined]);
  });

  it('has a JSON schema for editors with exactly the keys the synth check accepts', () => {
    // Arrange
    const schema = JSON.parse(readFileSync(new URL('stage.schema.json', STAGES), 'utf8')) as { properties: Record<string, unknown>; additionalProperties: boolean };

    // Act
    const keys = Object.keys(schema.properties).filter((key) => key !== '$schema');

    // Assert
    expect(schema.additionalProperties).toBe(false);
    expect(keys.sort()).toEqual([...STAGE_SETTING_KEYS].sort());
  });

  it('lets the stage file set every context key bin/app.ts reads', () => {
    // Arrange
    const source = readFileSync(new URL('../../bin/app.ts', import.meta.url), 'utf8');
    const read = [...source.matchAll(/context(?:String|Choice)\('([A-Za-z]+)'/gu)].map((match) => match[1]);

    // Act
    const missing = read.filter((key) => !(STAGE_SETTING_KEYS as readonly string[]).includes(key!));

    // Assert
    expect(read.length).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });
});

describe('stacks of a stage', () => {
  const stacks = buildStacks({ stage: 'prod' });

  it('are named after it, the API stack importing from its own stateful stack', () => {
    // Act
    const imports = JSON.stringify(stacks.apiTemplate.toJSON()).match(/"Fn::ImportValue":"[^":]+:/gu) ?? [];

    // Assert
    expect([stacks.stateful.stackName, stacks.api.stackName]).toEqual(['DocService-Prod-Stateful', 'DocService-Prod-Api']);
    expect(new Set(imports)).toEqual(new Set(['"Fn::ImportValue":"DocService-Prod-Stateful:']));
  });

  it('give no resource a fixed physical name that another stage would collide with', () => {
    // Arrange
    const named = /^(TableName|QueueName|FunctionName|BucketName|RoleName|DomainName|TopicName|LogGroupName|SecretName|Name|ApiName|DashboardName|AliasName)$/u;
    const templates = [
      [stacks.stateful.stackName, stacks.statefulTemplate.toJSON()],
      [stacks.api.stackName, stacks.apiTemplate.toJSON()],
    ] as const;

    // Act
    const fixed = templates.flatMap(([stackName, template]) =>
      Object.entries(template.Resources as Record<string, { Type: string; Properties?: Record<string, unknown> }>).flatMap(([id, resource]) =>
        Object.entries(resource.Properties ?? {})
          .filter(([key, value]) => named.test(key) && typeof value === 'string' && !value.includes(stackName))
          // Route 53 record names are the operator's own domain; API Gateway stage names are per API.
          .filter(() => !['AWS::Route53::RecordSet', 'AWS::ApiGatewayV2::Stage'].includes(resource.Type))
          .map(([key, value]) => `${id} ${resource.Type} ${key}=${String(value)}`),
      ),
    );

    // Assert
    expect(fixed).toEqual([]);
  });

  it("names the API's resources that carry a name after the stage's stack", () => {
    // Act
    const apis = Object.values(stacks.apiTemplate.findResources('AWS::ApiGatewayV2::Api')).map((api) => api.Properties.Name);
    const dashboards = Object.values(stacks.apiTemplate.findResources('AWS::CloudWatch::Dashboard')).map((dashboard) => dashboard.Properties.DashboardName);

    // Assert
    expect(apis.sort()).toEqual(['DocService-Prod-Api-http', 'DocService-Prod-Api-ws']);
    expect(dashboards).toEqual(['DocService-Prod-Api']);
  });

  it("counts rate-limiter failures under the stage's own namespace", () => {
    // Act
    const alarm = stacks.apiTemplate.toJSON().Resources;
    const namespaces = Object.values(alarm as Record<string, { Type: string; Properties: Record<string, unknown> }>)
      .filter((resource) => resource.Type === 'AWS::CloudWatch::Alarm' && resource.Properties['MetricName'] === 'RateLimiterFailures')
      .map((resource) => resource.Properties['Namespace']);

    // Assert
    expect(namespaces).toEqual(['DocService/DocService-Prod-Api']);
  });

  it("leave nothing to cdk-nag that the unstaged stacks' acknowledgments do not cover", () => {
    // Arrange
    let app: Parameters<typeof acknowledgeNagFindings>[0] | undefined;
    buildStacks({ stage: 'prod' }, (built) => {
      app = built;
    });
    acknowledgeNagFindings(app!);

    // Act
    const remaining = awsSolutionsFindings(app!).map((finding) => `${finding.rule} at ${finding.path}`);

    // Assert
    expect(remaining).toEqual([]);
  });
});

describe('the CDK app with a stage (bin/app.ts, synthesized without bundling)', () => {
  const run = promisify(execFile);
  let outdir = '';
  let api: { Resources: Record<string, { Type: string; Properties: Record<string, unknown> }>; Outputs: Record<string, { Value: unknown }> };

  beforeAll(async () => {
    outdir = mkdtempSync(join(inject('infraCdkOut'), 'bin-app-'));
    // What `cdk deploy -c stage=prod -c alarmEmail=oncall@example.com` passes to the app.
    const context = { stage: 'prod', alarmEmail: 'oncall@example.com', 'aws:cdk:bundling-stacks': [] };
    await run('npx', ['tsx', 'bin/app.ts'], {
      cwd: new URL('../..', import.meta.url).pathname,
      env: { ...process.env, CDK_OUTDIR: outdir, CDK_CONTEXT_JSON: JSON.stringify(context) },
    });
    api = JSON.parse(readFileSync(join(outdir, 'DocService-Prod-Api.template.json'), 'utf8'));
  }, 120_000);

  it("takes the stage file's settings: single sign-on, CORS and the custom domain survive a deploy without -c flags", () => {
    // Act
    const environments = Object.values(api.Resources)
      .filter((resource) => resource.Type === 'AWS::Lambda::Function')
      .map((resource) => (resource.Properties['Environment'] as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {});
    const variables = environments.find((environment) => environment['OIDC_ISSUER'] !== undefined);

    // Assert
    expect(variables).toMatchObject({ OIDC_ISSUER: 'https://login.example.com', CORS_ORIGINS: 'https://app.example.com', REGISTRATION_MODE: 'closed' });
    expect(api.Outputs['HttpApiUrl']?.Value).toBe('https://api.example.com');
  });

  it('lets -c on the command line override the stage file', () => {
    // Act
    const subscriptions = Object.values(api.Resources).filter((resource) => resource.Type === 'AWS::SNS::Subscription');

    // Assert
    expect(subscriptions.map((subscription) => subscription.Properties['Endpoint'])).toEqual(['oncall@example.com']);
  });
});

describe('custom domain context', () => {
  const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555';

  it('is off when none of its keys is given', () => {
    // Act
    const domain = customDomainFromContext(contextOf({}), true);

    // Assert
    expect(domain).toBeUndefined();
  });

  it('reads the domain, the certificate and the zone', () => {
    // Arrange
    const context = contextOf({ domainName: 'API.example.com.', certificateArn: CERT, hostedZoneId: 'Z0123456789ABC', hostedZoneName: 'example.com' });

    // Act
    const domain = customDomainFromContext(context, true);

    // Assert
    expect(domain).toEqual({ domainName: 'api.example.com', certificateArn: CERT, hostedZone: { id: 'Z0123456789ABC', name: 'example.com' } });
  });

  it.each([
    [{ domainName: 'api.example.com', certificateArn: CERT.replace('us-east-1', 'eu-west-1') }, 'Context "certificateArn" must be a certificate in us-east-1 (CloudFront uses no other region), got one in eu-west-1'],
    [{ domainName: 'api.example.com' }, 'Context "certificateArn" missing'],
    [{ certificateArn: CERT }, 'Context "domainName" missing'],
    [{ domainName: 'api.example.com', certificateArn: 'arn:aws:iam::123456789012:server-certificate/x' }, 'Context "certificateArn" must be the ARN of an ACM certificate'],
    [{ domainName: 'https://api.example.com', certificateArn: CERT }, 'Context "domainName" must be a DNS name'],
    [{ domainName: 'api.example.com', certificateArn: CERT, hostedZoneId: 'Z0123456789ABC' }, 'Context "hostedZoneName" missing'],
    [{ domainName: 'api.example.com', certificateArn: CERT, hostedZoneId: 'Z0123456789ABC', hostedZoneName: 'example.org' }, 'Context "hostedZoneName" must contain "domainName"'],
    [{ domainName: 'api.example.com', certificateArn: CERT, hostedZoneId: 'zone', hostedZoneName: 'example.com' }, 'Context "hostedZoneId" must be a Route 53 hosted zone id'],
  ])('refuses %j, naming the key', (values, message) => {
    // Act
    const read = () => customDomainFromContext(contextOf(values), true);

    // Assert
    expect(read).toThrow(message);
  });

  it('refuses a custom domain without the edge', () => {
    // Act
    const read = () => customDomainFromContext(contextOf({ domainName: 'api.example.com', certificateArn: CERT }), false);

    // Assert
    expect(read).toThrow('Context "domainName" needs the CloudFront edge');
  });
});
