import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { join } from 'node:path';

/** The part of a CloudFormation template this suite reads. */
export interface Template {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown>; Metadata?: Record<string, unknown> }>;
  Outputs?: Record<string, { Value: unknown; Export?: { Name: string } }>;
}

/** One of our Lambda functions as the Api stack deploys it, with its environment pointed at the emulators. */
export interface BundledFunction {
  /** The function's asset directory in cdk.out: index.mjs and whatever the bundling put beside it. */
  asset: string;
  /** Lambda's name of the function's architecture, as Node spells it: `arm64` or `x64`. */
  architecture: string;
  /** What this machine runs: the asset itself, or a copy with this machine's build of its native addons. */
  runnableAsset: string;
  environment: Record<string, string>;
  memorySize: number;
  timeout: number;
}

export interface BundledFunctions {
  /** By construct id: the logical id without CDK's hash (`AuthFunction`, `OcrWorkerFunction`, ...). */
  byName: Record<string, BundledFunction>;
  /** SQS event source mappings: which function reads which queue (stateful logical id), in batches of how many. */
  eventSources: { function: string; queue: string; batchSize: number; reportBatchItemFailures: boolean }[];
  /** Event source mappings on the table's stream: which function consumes it, in batches of how many, how it retries. */
  streamSources: { function: string; batchSize: number; reportBatchItemFailures: boolean; bisectBatchOnFunctionError: boolean; maximumRetryAttempts: number }[];
  /** EventBridge rules: which function runs on which schedule. */
  schedules: { function: string; expression: string }[];
  /** The queue (stateful logical id) that receives the bucket's object-created events, and their key prefix. */
  bucketNotificationQueue: string;
  bucketNotificationPrefix: string;
}

/** What the emulators hold for the stateful stack. */
export interface LocalStack {
  tableName: string;
  bucketName: string;
  queues: Record<string, { url: string; arn: string }>;
  endpoints: { dynamodb: string; s3: string; sqs: string };
  jwtSecret: string;
  /** What the edge would send as its origin token (EDGE_ORIGIN_SECRET_ARN becomes EDGE_ORIGIN_TOKEN). */
  edgeOriginToken: string;
  unreachable: string;
}

/**
 * One queue in the emulator per queue of the stateful template, with its visibility timeout and its redrive
 * policy to the dead-letter queue it names. Returns URL and ARN by logical id.
 */
export async function provisionQueues(sqs: SQSClient, stateful: Template): Promise<Record<string, { url: string; arn: string }>> {
  const queues: Record<string, { url: string; arn: string }> = {};
  const entries = Object.entries(stateful.Resources).filter(([, resource]) => resource.Type === 'AWS::SQS::Queue');
  // Dead-letter queues first: the others name them.
  const redrive = (properties: Record<string, unknown> | undefined) => properties?.['RedrivePolicy'] as { deadLetterTargetArn: { 'Fn::GetAtt': [string, string] }; maxReceiveCount: number } | undefined;
  entries.sort(([, a], [, b]) => Number(Boolean(redrive(a.Properties))) - Number(Boolean(redrive(b.Properties))));
  for (const [logicalId, resource] of entries) {
    const policy = redrive(resource.Properties);
    const attributes: Record<string, string> = {};
    const visibility = resource.Properties?.['VisibilityTimeout'];
    if (visibility !== undefined) attributes['VisibilityTimeout'] = String(visibility);
    if (policy) {
      const target = queues[policy.deadLetterTargetArn['Fn::GetAtt'][0]];
      if (!target) throw new Error(`${logicalId}: dead-letter queue not provisioned`);
      attributes['RedrivePolicy'] = JSON.stringify({ deadLetterTargetArn: target.arn, maxReceiveCount: policy.maxReceiveCount });
    }
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `bundles-${logicalId}`, Attributes: attributes }));
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
    queues[logicalId] = { url: QueueUrl!, arn: Attributes!['QueueArn']! };
  }
  return queues;
}

/** `AuthFunction10B56468` → `AuthFunction`. */
const constructName = (logicalId: string) => logicalId.replace(/[0-9A-F]{8}$/, '');

/** CDK's AwsCustomResource runs as a singleton function of its own (a CommonJS bundle): not one of ours. */
const AWS_CUSTOM_RESOURCE = 'AWS679f53fac002430cb0da5b7982bd2287';

/**
 * Our functions in the Api template, each with its environment resolved against the emulators: references to
 * the stateful stack (through its exports) become the local table, bucket and queues. What has no emulator is
 * named by variable: WEBSOCKET_ENDPOINT and OPENSEARCH_ENDPOINT point at a loopback port nobody listens on, a KMS
 * key's ARN stays an ARN (nothing here serves KMS), and
 * JWT_SECRET_ARN becomes JWT_SECRET and EDGE_ORIGIN_SECRET_ARN EDGE_ORIGIN_TOKEN (the composition root's options
 * for running without Secrets Manager). Any
 * other reference this resolver does not know fails the setup, so a new binding cannot be skipped silently.
 */
export function deployedFunctions(cdkOut: string, api: Template, stateful: Template, local: LocalStack): BundledFunctions {
  const exports = new Map(
    Object.values(stateful.Outputs ?? {}).flatMap((output) => (output.Export ? [[output.Export.Name, output.Value] as const] : [])),
  );

  const statefulValue = (value: unknown, variable: string): string => {
    const ref = (value as { Ref?: string }).Ref;
    const getAtt = (value as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt'];
    const logicalId = ref ?? getAtt?.[0];
    const type = logicalId ? stateful.Resources[logicalId]?.Type : undefined;
    const attribute = getAtt?.[1] ?? 'Ref';
    if (type === 'AWS::DynamoDB::Table' && attribute === 'Ref') return local.tableName;
    if (type === 'AWS::S3::Bucket' && attribute === 'Ref') return local.bucketName;
    if (type === 'AWS::SQS::Queue' && logicalId && local.queues[logicalId]) {
      if (attribute === 'Ref') return local.queues[logicalId].url;
      if (attribute === 'Arn') return local.queues[logicalId].arn;
    }
    // No KMS here: the ARN names the key, and a bundle that encrypts or decrypts fails on its own (the vaults run in their own tests).
    if (type === 'AWS::KMS::Key' && attribute === 'Arn') return `arn:aws:kms:us-east-1:000000000000:key/${logicalId}`;
    if (type === 'AWS::SecretsManager::Secret' && attribute === 'Ref') {
      return `arn:aws:secretsmanager:us-east-1:000000000000:secret:${logicalId}`;
    }
    throw new Error(`${variable}: no local counterpart for ${JSON.stringify(value)} (${type ?? 'unknown resource'})`);
  };

  const resolveValue = (value: unknown, variable: string): string => {
    if (typeof value === 'string') return value;
    const imported = (value as { 'Fn::ImportValue'?: string })['Fn::ImportValue'];
    if (imported !== undefined) {
      if (!exports.has(imported)) throw new Error(`${variable}: the stateful stack exports no ${imported}`);
      return statefulValue(exports.get(imported), variable);
    }
    throw new Error(`${variable}: cannot resolve ${JSON.stringify(value)} locally`);
  };

  const byLogicalId = new Map<string, string>();
  const byName: Record<string, BundledFunction> = {};
  for (const [logicalId, resource] of Object.entries(api.Resources)) {
    const properties = resource.Properties ?? {};
    if (resource.Type !== 'AWS::Lambda::Function' || properties['Handler'] !== 'index.handler' || logicalId.startsWith(AWS_CUSTOM_RESOURCE)) continue;
    // CDK's BucketDeployment handler (Python), which fills the docs bucket at deploy time: not one of ours either.
    if (!String(properties['Runtime']).startsWith('nodejs')) continue;
    const asset = resource.Metadata?.['aws:asset:path'];
    if (typeof asset !== 'string') throw new Error(`${logicalId}: no asset path`);
    const variables = ((properties['Environment'] as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {}) as Record<string, unknown>;
    const environment: Record<string, string> = {};
    for (const [name, value] of Object.entries(variables)) {
      if (name === 'WEBSOCKET_ENDPOINT') environment[name] = `http://${local.unreachable}`;
      else if (name === 'OPENSEARCH_ENDPOINT') environment[name] = `http://${local.unreachable}`;
      else if (name === 'JWT_SECRET_ARN') environment['JWT_SECRET'] = local.jwtSecret;
      else if (name === 'EDGE_ORIGIN_SECRET_ARN') environment['EDGE_ORIGIN_TOKEN'] = local.edgeOriginToken;
      else environment[name] = resolveValue(value, `${logicalId}.${name}`);
    }
    const name = constructName(logicalId);
    byLogicalId.set(logicalId, name);
    const architecture = ((properties['Architectures'] as string[] | undefined) ?? ['x86_64'])[0] === 'arm64' ? 'arm64' : 'x64';
    byName[name] = {
      asset: join(cdkOut, asset),
      architecture,
      runnableAsset: join(cdkOut, asset),
      environment,
      memorySize: Number(properties['MemorySize']),
      timeout: Number(properties['Timeout']),
    };
  }

  const functionOf = (reference: unknown): string => {
    const id = (reference as { Ref?: string }).Ref ?? (reference as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt']?.[0];
    const name = id ? byLogicalId.get(id) : undefined;
    if (!name) throw new Error(`not one of our functions: ${JSON.stringify(reference)}`);
    return name;
  };
  const queueOf = (reference: unknown): string => {
    const imported = (reference as { 'Fn::ImportValue': string })['Fn::ImportValue'];
    const value = exports.get(imported) as { 'Fn::GetAtt'?: [string, string] } | undefined;
    const queue = value?.['Fn::GetAtt']?.[0];
    if (!queue || !local.queues[queue]) throw new Error(`event source on an unknown queue: ${JSON.stringify(reference)}`);
    return queue;
  };

  /** Whether an event source is the stream of the stateful stack's table. */
  const isTableStream = (reference: unknown): boolean => {
    const imported = (reference as { 'Fn::ImportValue'?: string })['Fn::ImportValue'];
    const value = imported === undefined ? undefined : (exports.get(imported) as { 'Fn::GetAtt'?: [string, string] } | undefined);
    const [logicalId, attribute] = value?.['Fn::GetAtt'] ?? [];
    return attribute === 'StreamArn' && stateful.Resources[logicalId!]?.Type === 'AWS::DynamoDB::Table';
  };

  const eventSources: BundledFunctions['eventSources'] = [];
  const streamSources: BundledFunctions['streamSources'] = [];
  const schedules: BundledFunctions['schedules'] = [];
  for (const resource of Object.values(api.Resources)) {
    const properties = resource.Properties ?? {};
    if (resource.Type === 'AWS::Lambda::EventSourceMapping' && isTableStream(properties['EventSourceArn'])) {
      streamSources.push({
        function: functionOf(properties['FunctionName']),
        batchSize: Number(properties['BatchSize'] ?? 100),
        reportBatchItemFailures: ((properties['FunctionResponseTypes'] as string[] | undefined) ?? []).includes('ReportBatchItemFailures'),
        bisectBatchOnFunctionError: properties['BisectBatchOnFunctionError'] === true,
        maximumRetryAttempts: Number(properties['MaximumRetryAttempts'] ?? -1),
      });
    } else if (resource.Type === 'AWS::Lambda::EventSourceMapping') {
      eventSources.push({
        function: functionOf(properties['FunctionName']),
        queue: queueOf(properties['EventSourceArn']),
        batchSize: Number(properties['BatchSize'] ?? 10),
        reportBatchItemFailures: ((properties['FunctionResponseTypes'] as string[] | undefined) ?? []).includes('ReportBatchItemFailures'),
      });
    }
    if (resource.Type === 'AWS::Events::Rule' && typeof properties['ScheduleExpression'] === 'string') {
      for (const target of (properties['Targets'] as { Arn: unknown }[] | undefined) ?? []) {
        schedules.push({ function: functionOf(target.Arn), expression: properties['ScheduleExpression'] });
      }
    }
  }

  const notification = Object.values(stateful.Resources).find((resource) => resource.Type === 'Custom::S3BucketNotifications');
  const queueConfiguration = (
    notification?.Properties?.['NotificationConfiguration'] as
      | { QueueConfigurations?: { QueueArn: { 'Fn::GetAtt': [string, string] }; Filter?: { Key?: { FilterRules?: { Name: string; Value: string }[] } } }[] }
      | undefined
  )?.QueueConfigurations?.[0];
  if (!queueConfiguration) throw new Error('the stateful stack sends the bucket events nowhere');

  return {
    byName,
    eventSources,
    streamSources,
    schedules,
    bucketNotificationQueue: queueConfiguration.QueueArn['Fn::GetAtt'][0],
    bucketNotificationPrefix: queueConfiguration.Filter?.Key?.FilterRules?.find((rule) => rule.Name === 'prefix')?.Value ?? '',
  };
}
