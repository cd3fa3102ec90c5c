import { REGISTRATION_MODES } from '../shared/manifest';
import { App, RemovalPolicy, Tags } from 'aws-cdk-lib';
import { customDomainFromContext, oidcFromContext, plansFromContext, rateLimitsFromContext } from '../lib/context';
import { ApiStack } from '../lib/stacks/api-stack';
import { TRACING_LAYER_CONTEXT } from '../lib/constructs/tracing';
import { DEFAULT_TEXTRACT_TPS } from '../lib/stacks/limits';
import { StatefulStack } from '../lib/stacks/stateful-stack';
import { readStageFile, stackNames, stageFromContext, withStageSettings } from '../lib/stage';
import { parseCommandLine } from './support/cli';

/*
 * CDK app entry. Stacks are environment-agnostic (no lookups), so `cdk synth` works offline and one template
 * deploys to any account and region. Configuration comes from context (`cdk deploy -c key=value`); values given
 * on the command line are strings, values from cdk.json or a stage file may be JSON, so both are accepted.
 * With `-c stage=<name>` the settings of deploy/stages/<name>.json apply beneath the context given, and the stacks
 * are named after the stage (lib/stage.ts); without it, the stacks keep their original names.
 */

parseCommandLine({
  name: 'app',
  usage: 'npx cdk synth | npx cdk deploy --all [-c stage=<name>] [-c key=value ...]   (cdk.json runs this file as the CDK app)',
  summary: [
    'The CDK app of both stacks, DocService-Stateful and DocService-Api. It takes no options: cdk runs it, and it is',
    'configured by CDK context, checked at synth (a bad value stops it naming the key). Deploying: docs/operating.md.',
    '',
    'With -c stage=<name> every key below is read from deploy/stages/<name>.json as well (an unknown key there is an',
    'error at synth), and the stacks are DocService-<Name>-Stateful and DocService-<Name>-Api. A -c key=value given',
    'on the command line overrides the stage file. Without a stage the stacks keep the names above.',
  ],
  options: {},
  settings: [
    {
      heading: 'CDK context (-c key=value, or in the stage file)',
      entries: [
        { name: 'stage', description: 'the stage: its file deploy/stages/<stage>.json and the stack names (command line only)', default: 'none: DocService-Stateful, DocService-Api' },
        { name: 'corsOrigins', description: 'allowed origins, comma-separated, or * by explicit choice', default: 'none' },
        { name: 'registrationMode', description: 'workspace or closed', default: 'workspace' },
        { name: 'apiTokenMaxDays', description: 'the longest a personal API token may live, in days (1..3650)', default: '365' },
        { name: 'adminUsername', description: 'the first admin, created at deploy time', default: 'admin' },
        { name: 'adminEmail', description: 'its email', default: 'admin@docservice.local' },
        { name: 'removalPolicy', description: 'retain, or destroy for dev stacks', default: 'retain' },
        { name: 'searchDomain', description: 'dev, or production (three zones, dedicated masters)', default: 'dev' },
        { name: 'alarmEmail', description: "the alarm topic's email subscription", default: 'none, with a synth warning' },
        { name: 'textractTps', description: "Textract calls a second the OCR worker stays within", default: String(DEFAULT_TEXTRACT_TPS) },
        { name: 'edge', description: 'CloudFront in front of the HTTP API: true or false', default: 'true' },
        {
          name: 'tracingCollectorLayerArn',
          description: "every function's OpenTelemetry collector layer (a layer version ARN), or none for no spans of their own",
          default: 'the ADOT collector layer (docs/tracing.md)',
        },
        {
          name: 'domainName, certificateArn',
          description: "the edge's custom domain and its ACM certificate, which must be in us-east-1 (both or none)",
          default: 'the *.cloudfront.net name',
        },
        { name: 'hostedZoneId, hostedZoneName', description: 'a Route 53 zone to create the alias A/AAAA records in (both or none)', default: 'no records' },
        { name: 'rateLimitPerMinute, rateLimitBurst', description: "each user's token bucket", default: '100, 20' },
        { name: 'uploadRateLimitPerMinute', description: 'uploads per user on top', default: '10' },
        { name: 'ipRateLimitPerMinute, ipRateLimitBurst', description: 'requests without a user, per client IP', default: '60, 20' },
        { name: 'plans', description: 'the plans and their quotas, JSON as PLANS (docs/plans-and-quotas.md)', default: 'one plan, default, without limits' },
        { name: 'defaultPlan', description: 'the plan of a workspace without its own', default: 'the first of plans' },
        {
          name: 'oidc*',
          description:
            'single sign-on: oidcIssuer, oidcClientId, oidcRedirectUri (all three or none), oidcClientSecretArn, oidcScopes, oidcFrontendUrl, oidcWorkspaceId, oidcDefaultRole, oidcRoleClaim, oidcRoleMap',
          default: 'unset',
        },
      ],
    },
  ],
});

const app = new App();

// The stage's file beneath the context given: `-c key=value` wins over the file.
const stage = stageFromContext((key) => app.node.tryGetContext(key));
const stageSettings = stage === undefined ? {} : readStageFile(new URL('../deploy/stages/', import.meta.url), stage);
const readContext = withStageSettings((key) => app.node.tryGetContext(key), stageSettings);
const names = stackNames(stage);
// Every AppFunction reads it from the app's context (lib/constructs/tracing.ts): the stage file's value goes there.
const tracingLayer = contextString('tracingCollectorLayerArn', '');
if (tracingLayer) app.node.setContext(TRACING_LAYER_CONTEXT, tracingLayer);

// No origin by default: a browser page may then call nothing. `*` only when asked for (a synth warning follows
// on a stack that keeps its data).
const corsOrigins = contextString('corsOrigins', '')
  .split(',')
  .map((origin) => origin.trim())
  .filter((origin) => origin.length > 0);
const registrationMode = contextChoice('registrationMode', 'workspace', REGISTRATION_MODES);
const apiTokenMaxDays = Number(contextString('apiTokenMaxDays', '365'));
const adminUsername = contextString('adminUsername', 'admin');
const adminEmail = contextString('adminEmail', 'admin@docservice.local');
const removalPolicy =
  contextChoice('removalPolicy', 'retain', ['retain', 'destroy']) === 'destroy'
    ? RemovalPolicy.DESTROY
    : RemovalPolicy.RETAIN;
const searchDomainProfile = contextChoice('searchDomain', 'dev', ['dev', 'production']);
const alarmEmail = contextString('alarmEmail', '') || undefined;
const textractTps = Number(contextString('textractTps', String(DEFAULT_TEXTRACT_TPS)));
const rateLimits = rateLimitsFromContext(readContext);
const oidc = oidcFromContext(readContext);
const plans = plansFromContext(readContext);
// CloudFront in front of the HTTP API (lib/constructs/api-edge.ts); `false` for an operator who fronts it themselves.
const edge = contextChoice('edge', 'true', ['true', 'false']) === 'true';
const customDomain = customDomainFromContext(readContext, edge);

const stateful = new StatefulStack(app, names.stateful, {
  description: 'DocService data: table, documents bucket, OCR, ingest, source sync and webhook delivery queues, secrets, source credentials key',
  removalPolicy,
  corsOrigins,
  searchDomainProfile,
});

new ApiStack(app, names.api, {
  description: 'DocService APIs: HTTP and WebSocket APIs, Lambda functions, admin bootstrap',
  table: stateful.table,
  documentsBucket: stateful.documentsBucket,
  ocrQueue: stateful.ocrQueue,
  ocrHighQueue: stateful.ocrHighQueue,
  deadLetterQueues: {
    ocr: stateful.ocrDeadLetterQueue,
    ingest: stateful.ingestDeadLetterQueue,
    'source-sync': stateful.sourceSyncDeadLetterQueue,
    'webhook-delivery': stateful.webhookDeliveryDeadLetterQueue,
    'rule-jobs': stateful.ruleJobsDeadLetterQueue,
    eraser: stateful.erasureDeadLetterQueue,
    portability: stateful.portabilityDeadLetterQueue,
  },
  searchDomain: stateful.searchDomain,
  searchDomainSize: stateful.searchDomainSize,
  ingestQueue: stateful.ingestQueue,
  sourceSyncQueue: stateful.sourceSyncQueue,
  sourceCredentialsKey: stateful.sourceCredentialsKey,
  webhookDeliveryQueue: stateful.webhookDeliveryQueue,
  ruleJobsQueue: stateful.ruleJobsQueue,
  erasureQueue: stateful.erasureQueue,
  auditTable: stateful.auditTable,
  portabilityQueue: stateful.portabilityQueue,
  jwtSecret: stateful.jwtSecret,
  adminPasswordSecret: stateful.adminPasswordSecret,
  corsOrigins,
  alarmEmail,
  textractTps,
  registrationMode,
  apiTokenMaxDays,
  adminUsername,
  adminEmail,
  removalPolicy,
  rateLimits,
  oidc,
  edge,
  customDomain,
  ...(plans ? { plans } : {}),
});

Tags.of(app).add('app', 'docservice');
if (stage !== undefined) Tags.of(app).add('stage', stage);

app.synth();

function contextString(key: string, fallback: string): string {
  const value: unknown = readContext(key);
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(',');
  throw new Error(`Context "${key}" must be a string, got ${JSON.stringify(value)}`);
}

function contextChoice<T extends string>(key: string, fallback: T, allowed: readonly T[]): T {
  const value = contextString(key, fallback).toLowerCase();
  const choice = allowed.find((option) => option === value);
  if (!choice) throw new Error(`Context "${key}" must be one of ${allowed.join(', ')}, got "${value}"`);
  return choice;
}
