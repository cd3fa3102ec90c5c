/**
 * Issue 37: workspace export and import in the cloud. The portability function queues exports and imports and
 * signs links to the archives only; the portability worker reads and writes the workspace's data. Each gets only
 * what it needs, and the queue has its dead-letter queue and alarms.
 */
import { describe, expect, it } from 'vitest';
import { ENV, MAX_RECEIVES, PORTABILITY_TIMEOUT_SECONDS } from '../../shared/manifest';
import type { ApiFunctionName } from '../../lib/stacks/api-stack';
import { PORTABILITY_CONCURRENCY } from '../../lib/stacks/portability';
import { buildStacks, environmentOf, functionIdOf, grantsOf, logicalIdOf, resolveImports, statementsOf } from './build-stacks';

const stacks = buildStacks();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- template JSON, read by the assertions
type Json = any;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const arnOf = (construct: Parameters<typeof logicalIdOf>[0]) => ({ 'Fn::GetAtt': [logicalIdOf(construct), 'Arn'] });
const FUNCTION_NAMES = Object.keys(stacks.api.functions) as ApiFunctionName[];
const queue = () => stacks.stateful.portabilityQueue;
const dlq = () => stacks.stateful.portabilityDeadLetterQueue;
const actionsOn = (name: ApiFunctionName, resource: unknown): string[] =>
  grantsOf(stacks, name)
    .filter((s) => s.Resource.some((r) => same(r, resource)))
    .flatMap((s) => s.Action);
const mappingsOf = (name: ApiFunctionName): Json[] =>
  Object.values(stacks.apiTemplate.findResources('AWS::Lambda::EventSourceMapping')).filter((mapping) =>
    same(mapping.Properties.FunctionName, { Ref: functionIdOf(stacks, name) }),
  );
const alarmProperties = (id: string) => {
  const construct = stacks.api.monitoring.alarms[id];
  return construct && stacks.apiTemplate.toJSON().Resources[logicalIdOf(construct)].Properties;
};

describe('portability queue', () => {
  it(`moves a job to its own dead-letter queue after ${MAX_RECEIVES} receives and hides a received one for 6 worker timeouts`, () => {
    const { Properties } = stacks.statefulTemplate.toJSON().Resources[logicalIdOf(queue())];

    expect(Properties).toMatchObject({ RedrivePolicy: { deadLetterTargetArn: arnOf(dlq()), maxReceiveCount: MAX_RECEIVES }, VisibilityTimeout: PORTABILITY_TIMEOUT_SECONDS * 6 });
  });

  it('alarms on the first message in its dead-letter queue', () => {
    expect(alarmProperties('Dlq-portability')).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
  });

  it('alarms when a job waits too long to start', () => {
    expect(alarmProperties('OldestMessage-portability')).toMatchObject({ MetricName: 'ApproximateAgeOfOldestMessage' });
  });

  it('is sent to by the portability function alone, and received from by the worker alone', () => {
    const arn = arnOf(queue());

    const senders = FUNCTION_NAMES.filter((name) => actionsOn(name, arn).includes('sqs:SendMessage'));
    const receivers = FUNCTION_NAMES.filter((name) => actionsOn(name, arn).includes('sqs:ReceiveMessage'));

    expect({ senders, receivers }).toEqual({ senders: ['portability'], receivers: ['portability-worker'] });
  });

  it('is named to the portability function and its worker alone', () => {
    const functions = FUNCTION_NAMES.filter((name) => ENV.portabilityQueueUrl in environmentOf(stacks, name));

    expect(functions.sort()).toEqual(['portability', 'portability-worker']);
  });
});

describe('portability function', () => {
  it('reaches in the bucket only the export archives (read) and the import archives (read and write)', () => {
    const s3 = statementsOf(stacks, 'portability').filter((s) => s.Action.some((a) => a.startsWith('s3:')));

    expect(s3.map((s) => ({ actions: s.Action.sort(), resources: JSON.stringify(s.Resource) }))).toEqual([
      { actions: ['s3:GetObject'], resources: expect.stringContaining('/workspaces/*/exports/*') },
      { actions: ['s3:GetObject', 's3:PutObject'], resources: expect.stringContaining('/workspaces/*/imports/*') },
    ]);
  });

  it('deletes nothing in the bucket and uses no key', () => {
    const actions = statementsOf(stacks, 'portability').flatMap((s) => s.Action);

    expect(actions.filter((a) => a.startsWith('s3:Delete') || a.startsWith('kms:'))).toEqual([]);
  });
});

describe('portability worker', () => {
  it('consumes the queue one job at a time with partial batch failures and a bounded concurrency', () => {
    const mappings = mappingsOf('portability-worker');

    expect(mappings).toHaveLength(1);
    expect(resolveImports(stacks, mappings[0].Properties.EventSourceArn)).toEqual(arnOf(queue()));
    expect(mappings[0].Properties).toMatchObject({ BatchSize: 1, FunctionResponseTypes: ['ReportBatchItemFailures'], ScalingConfig: { MaximumConcurrency: PORTABILITY_CONCURRENCY } });
  });

  it('runs for up to Lambda\'s 15 minutes', () => {
    expect(stacks.api.functions['portability-worker'].timeout.toSeconds()).toBe(PORTABILITY_TIMEOUT_SECONDS);
  });

  it('may seal with the credentials key (imported sources) but never open a sealed secret', () => {
    const kms = statementsOf(stacks, 'portability-worker').filter((s) => s.Action.some((a) => a.startsWith('kms:')));

    expect(kms.flatMap((s) => s.Action)).toEqual(['kms:Encrypt']);
  });
});
