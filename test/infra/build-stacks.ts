import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { App, RemovalPolicy, Stack, type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { inject } from 'vitest';
import type { CustomDomain, OidcDeployment } from '../../lib/context';
import { ApiStack, type ApiFunctionName } from '../../lib/stacks/api-stack';
import type { RateLimitSettings } from '../../lib/stacks/limits';
import { StatefulStack, type SearchDomainProfile } from '../../lib/stacks/stateful-stack';
import { stackNames } from '../../lib/stage';
import type { RegistrationMode } from '../../shared/manifest';

/** The deployment configuration `bin/app.ts` reads from context, as the stacks take it. */
export interface InfraConfig {
  corsOrigins: string[];
  registrationMode: RegistrationMode;
  apiTokenMaxDays: number | undefined;
  adminUsername: string;
  adminEmail: string;
  removalPolicy: RemovalPolicy;
  searchDomainProfile: SearchDomainProfile;
  alarmEmail: string | undefined;
  textractTps: number | undefined;
  rateLimits: RateLimitSettings | undefined;
  oidc: OidcDeployment | undefined;
  edge: boolean | undefined;
  customDomain: CustomDomain | undefined;
  /** The stage (`-c stage=...`): it names the stacks; none keeps `DocService-Stateful` and `DocService-Api`. */
  stage: string | undefined;
}

/** What `bin/app.ts` deploys without context, but with an alarm email. */
export const DEFAULT_CONFIG: InfraConfig = {
  corsOrigins: [],
  registrationMode: 'workspace',
  apiTokenMaxDays: undefined,
  adminUsername: 'admin',
  adminEmail: 'admin@docservice.local',
  removalPolicy: RemovalPolicy.RETAIN,
  searchDomainProfile: 'dev',
  alarmEmail: 'ops@example.com',
  textractTps: undefined,
  rateLimits: undefined,
  oidc: undefined,
  edge: undefined,
  customDomain: undefined,
  stage: undefined,
};

export interface BuiltStacks {
  stateful: StatefulStack;
  api: ApiStack;
  statefulTemplate: Template;
  apiTemplate: Template;
}

/** An App that synthesizes into the run's folder for cloud assemblies (test/infra/global-setup.ts). */
export function testApp(context: Record<string, unknown> = {}): App {
  return new App({ outdir: mkdtempSync(join(inject('infraCdkOut'), 'app-')), context });
}

/** Builds both stacks the way `bin/app.ts` does, without running esbuild. */
export function buildStacks(overrides: Partial<InfraConfig> = {}, beforeTemplates?: (app: App) => void): BuiltStacks {
  const config = { ...DEFAULT_CONFIG, ...overrides };
  // An empty bundling-stacks list makes the functions' assets skip bundling: tests only read templates.
  const app = testApp({ 'aws:cdk:bundling-stacks': [] });
  const names = stackNames(config.stage);
  const stateful = new StatefulStack(app, names.stateful, {
    removalPolicy: config.removalPolicy,
    corsOrigins: config.corsOrigins,
    searchDomainProfile: config.searchDomainProfile,
  });
  const api = new ApiStack(app, names.api, {
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
    alarmEmail: config.alarmEmail,
    textractTps: config.textractTps,
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
    corsOrigins: config.corsOrigins,
    registrationMode: config.registrationMode,
    apiTokenMaxDays: config.apiTokenMaxDays,
    adminUsername: config.adminUsername,
    adminEmail: config.adminEmail,
    removalPolicy: config.removalPolicy,
    rateLimits: config.rateLimits,
    oidc: config.oidc,
    edge: config.edge,
    customDomain: config.customDomain,
  });
  // Aspects (cdk-nag) must be added before the first template is made: synthesis runs them once.
  beforeTemplates?.(app);
  return { stateful, api, statefulTemplate: Template.fromStack(stateful), apiTemplate: Template.fromStack(api) };
}

/** Logical ID of a construct's CloudFormation resource (the construct itself or its default child). */
export function logicalIdOf(construct: IConstruct): string {
  const element = (construct.node.defaultChild ?? construct) as CfnElement;
  return Stack.of(element).getLogicalId(element);
}

/** Logical ID of the AWS::Lambda::Function of one of the API stack's functions. */
export function functionIdOf(stacks: BuiltStacks, name: ApiFunctionName): string {
  return logicalIdOf(stacks.api.functions[name].function);
}

/** Environment variables of one of the API stack's functions, cross-stack imports resolved. */
export function environmentOf(stacks: BuiltStacks, name: ApiFunctionName): Record<string, unknown> {
  const resource = stacks.apiTemplate.toJSON().Resources[functionIdOf(stacks, name)];
  return resolveImports(stacks, resource.Properties.Environment.Variables) as Record<string, unknown>;
}

export interface PolicyStatement {
  Effect: string;
  Action: string[];
  Resource: unknown[];
  Condition?: unknown;
}

/** Every IAM statement of a template (identity policies and inline role policies), with Action/Resource as arrays. */
export function allStatementsOf(template: Template): PolicyStatement[] {
  const documents = [
    ...Object.values(template.findResources('AWS::IAM::Policy')).map((policy) => policy.Properties.PolicyDocument),
    ...Object.values(template.findResources('AWS::IAM::ManagedPolicy')).map((policy) => policy.Properties.PolicyDocument),
    ...Object.values(template.findResources('AWS::IAM::Role')).flatMap((role) =>
      ((role.Properties.Policies ?? []) as { PolicyDocument: unknown }[]).map((policy) => policy.PolicyDocument),
    ),
  ] as { Statement: Record<string, unknown>[] }[];
  return documents.flatMap((document) => document.Statement.map(normalizeStatement));
}

/** IAM statements attached to one function's role, cross-stack imports resolved. */
export function statementsOf(stacks: BuiltStacks, name: ApiFunctionName): PolicyStatement[] {
  const role = stacks.api.functions[name].function.role;
  if (!role) throw new Error(`Function ${name} has no role`);
  const roleRef = { Ref: logicalIdOf(role) };
  const policies = Object.values(stacks.apiTemplate.findResources('AWS::IAM::Policy')).filter((policy) =>
    (policy.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify(roleRef)),
  );
  return policies.flatMap((policy) =>
    (policy.Properties.PolicyDocument.Statement as Record<string, unknown>[]).map((statement) =>
      normalizeStatement(resolveImports(stacks, statement) as Record<string, unknown>),
    ),
  );
}

/** Statements of a function's role without the X-Ray statement every traced function gets. */
export function grantsOf(stacks: BuiltStacks, name: ApiFunctionName): PolicyStatement[] {
  return statementsOf(stacks, name).filter((statement) => !statement.Action.every((a) => a.startsWith('xray:')));
}

/**
 * Replaces every `Fn::ImportValue` in an API stack value by the value the stateful stack exports under that
 * name, so that assertions can compare against `{ Ref: <table> }` instead of generated export names.
 */
export function resolveImports(stacks: BuiltStacks, value: unknown): unknown {
  const outputs = stacks.statefulTemplate.toJSON().Outputs as Record<string, { Value: unknown; Export?: { Name: string } }>;
  const resolve = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(resolve);
    if (node && typeof node === 'object') {
      const entries = Object.entries(node);
      const [first] = entries;
      if (entries.length === 1 && first && first[0] === 'Fn::ImportValue') {
        const exported = Object.values(outputs).find((output) => output.Export?.Name === first[1]);
        if (!exported) throw new Error(`No export named ${JSON.stringify(first[1])}`);
        return exported.Value;
      }
      return Object.fromEntries(entries.map(([key, child]) => [key, resolve(child)]));
    }
    return node;
  };
  return resolve(value);
}

function normalizeStatement(statement: Record<string, unknown>): PolicyStatement {
  const asArray = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
  return {
    Effect: String(statement.Effect),
    Action: asArray(statement.Action).map(String),
    Resource: asArray(statement.Resource),
    ...(statement.Condition === undefined ? {} : { Condition: statement.Condition }),
  };
}

/** A grouped function alarm's properties (lib/constructs/monitoring.ts), as a function's part of it: its metric, the expression, threshold. */
export interface FunctionAlarmPart {
  metric: { MetricName: string; Dimensions: unknown; Stat: string };
  /** The metric's id in the alarm's expression (`f<i>`). */
  id: string;
  expression: string;
  threshold: number;
}

/** The part of the grouped alarm `alarm` (its template properties) that watches the function with this logical id. */
export function functionAlarmPart(alarm: Record<string, unknown>, functionId: string): FunctionAlarmPart {
  type Query = { Id: string; Expression?: string; MetricStat?: { Metric: { MetricName: string; Dimensions: { Name: string; Value: unknown }[] }; Stat: string } };
  const queries = alarm['Metrics'] as Query[];
  const part = queries.find((query) => query.MetricStat?.Metric.Dimensions.some((d) => JSON.stringify(d.Value) === JSON.stringify({ Ref: functionId })));
  const expression = queries.find((query) => query.Expression)?.Expression;
  if (!part?.MetricStat || !expression) throw new Error(`No part of the alarm watches ${functionId}`);
  return {
    metric: { MetricName: part.MetricStat.Metric.MetricName, Dimensions: part.MetricStat.Metric.Dimensions, Stat: part.MetricStat.Stat },
    id: part.Id,
    expression,
    threshold: alarm['Threshold'] as number,
  };
}
