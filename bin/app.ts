import { REGISTRATION_MODES } from '../shared/manifest';
import { App, RemovalPolicy, Tags } from 'aws-cdk-lib';
import { oidcFromContext, rateLimitsFromContext } from '../lib/context';
import { ApiStack } from '../lib/stacks/api-stack';
import { DEFAULT_TEXTRACT_TPS } from '../lib/stacks/limits';
import { StatefulStack } from '../lib/stacks/stateful-stack';

/*
 * CDK app entry. Stacks are environment-agnostic (no lookups), so `cdk synth` works offline and one template
 * deploys to any account and region. Configuration comes from context (`cdk deploy -c key=value`); values given
 * on the command line are strings, values from cdk.json may be JSON, so both are accepted.
 */

const app = new App();

// No origin by default: a browser page may then call nothing. `*` only when asked for (a synth warning follows
// on a stack that keeps its data).
const corsOrigins = contextString('corsOrigins', '')
  .split(',')
  .map((origin) => origin.trim())
  .filter((origin) => origin.length > 0);
const registrationMode = contextChoice('registrationMode', 'workspace', REGISTRATION_MODES);
const adminUsername = contextString('adminUsername', 'admin');
const adminEmail = contextString('adminEmail', 'admin@docservice.local');
const removalPolicy =
  contextChoice('removalPolicy', 'retain', ['retain', 'destroy']) === 'destroy'
    ? RemovalPolicy.DESTROY
    : RemovalPolicy.RETAIN;
const searchDomainProfile = contextChoice('searchDomain', 'dev', ['dev', 'production']);
const alarmEmail = contextString('alarmEmail', '') || undefined;
const textractTps = Number(contextString('textractTps', String(DEFAULT_TEXTRACT_TPS)));
const readContext = (key: string): unknown => app.node.tryGetContext(key);
const rateLimits = rateLimitsFromContext(readContext);
const oidc = oidcFromContext(readContext);
// CloudFront in front of the HTTP API (lib/constructs/api-edge.ts); `false` for an operator who fronts it themselves.
const edge = contextChoice('edge', 'true', ['true', 'false']) === 'true';

const stateful = new StatefulStack(app, 'DocService-Stateful', {
  description: 'DocService data: table, documents bucket, OCR, ingest and source sync queues, secrets, source credentials key',
  removalPolicy,
  corsOrigins,
  searchDomainProfile,
});

new ApiStack(app, 'DocService-Api', {
  description: 'DocService APIs: HTTP and WebSocket APIs, Lambda functions, admin bootstrap',
  table: stateful.table,
  documentsBucket: stateful.documentsBucket,
  ocrQueue: stateful.ocrQueue,
  ocrHighQueue: stateful.ocrHighQueue,
  deadLetterQueues: {
    ocr: stateful.ocrDeadLetterQueue,
    ingest: stateful.ingestDeadLetterQueue,
    'source-sync': stateful.sourceSyncDeadLetterQueue,
  },
  searchDomain: stateful.searchDomain,
  searchDomainSize: stateful.searchDomainSize,
  ingestQueue: stateful.ingestQueue,
  sourceSyncQueue: stateful.sourceSyncQueue,
  sourceCredentialsKey: stateful.sourceCredentialsKey,
  jwtSecret: stateful.jwtSecret,
  adminPasswordSecret: stateful.adminPasswordSecret,
  corsOrigins,
  alarmEmail,
  textractTps,
  registrationMode,
  adminUsername,
  adminEmail,
  removalPolicy,
  rateLimits,
  oidc,
  edge,
});

Tags.of(app).add('app', 'docservice');

app.synth();

function contextString(key: string, fallback: string): string {
  const value: unknown = app.node.tryGetContext(key);
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
