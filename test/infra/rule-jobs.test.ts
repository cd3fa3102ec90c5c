/**
 * Issue 36: labelling rules in the cloud. The labels function starts a rule's run over existing documents by
 * sending its first step to the rule-jobs queue; the rule-jobs worker runs each step and sends the next. Each gets
 * only what it needs.
 */
import { describe, expect, it } from 'vitest';
import { ENV, MAX_RECEIVES } from '../../shared/manifest';
import type { ApiFunctionName } from '../../lib/stacks/api-stack';
import { RULE_JOBS_CONCURRENCY } from '../../lib/stacks/limits';
import { RULE_JOBS_TIMEOUT } from '../../lib/stacks/stateful-stack';
import { buildStacks, environmentOf, functionIdOf, grantsOf, logicalIdOf, resolveImports, statementsOf } from './build-stacks';

const stacks = buildStacks();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- template JSON, read by the assertions
type Json = any;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const arnOf = (construct: Parameters<typeof logicalIdOf>[0]) => ({ 'Fn::GetAtt': [logicalIdOf(construct), 'Arn'] });
const FUNCTION_NAMES = Object.keys(stacks.api.functions) as ApiFunctionName[];
const queue = () => stacks.stateful.ruleJobsQueue;
const dlq = () => stacks.stateful.ruleJobsDeadLetterQueue;
const actionsOn = (name: ApiFunctionName, resource: unknown): string[] =>
  grantsOf(stacks, name)
    .filter((s) => s.Resource.some((r) => same(r, resource)))
    .flatMap((s) => s.Action);
const mappingsOf = (name: ApiFunctionName): Json[] =>
  Object.values(stacks.apiTemplate.findResources('AWS::Lambda::EventSourceMapping')).filter((mapping) =>
    same(mapping.Properties.FunctionName, { Ref: functionIdOf(stacks, name) }),
  );

describe('rule-jobs queue', () => {
  it(`moves a step to its own dead-letter queue after ${MAX_RECEIVES} receives and hides a received one for 6 worker timeouts`, () => {
    // Arrange
    const expected = { RedrivePolicy: { deadLetterTargetArn: arnOf(dlq()), maxReceiveCount: MAX_RECEIVES }, VisibilityTimeout: RULE_JOBS_TIMEOUT.toSeconds() * 6 };

    // Act
    const { Properties } = stacks.statefulTemplate.toJSON().Resources[logicalIdOf(queue())];

    // Assert
    expect(Properties).toMatchObject(expected);
  });

  it('alarms on the first message in its dead-letter queue', () => {
    // Arrange
    const construct = stacks.api.monitoring.alarms['Dlq-rule-jobs'];

    // Act
    const properties = construct && stacks.apiTemplate.toJSON().Resources[logicalIdOf(construct)].Properties;

    // Assert
    expect(properties).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
  });

  it('is sent to by the labels function and the worker alone, and received from by the worker alone', () => {
    // Arrange
    const arn = arnOf(queue());

    // Act
    const senders = FUNCTION_NAMES.filter((name) => actionsOn(name, arn).includes('sqs:SendMessage'));
    const receivers = FUNCTION_NAMES.filter((name) => actionsOn(name, arn).includes('sqs:ReceiveMessage'));

    // Assert
    expect({ senders: senders.sort(), receivers }).toEqual({ senders: ['labels', 'rule-jobs'], receivers: ['rule-jobs'] });
  });

  it('is named to the labels function and the worker alone', () => {
    // Arrange
    const named = (name: ApiFunctionName) => ENV.ruleJobsQueueUrl in environmentOf(stacks, name);

    // Act
    const functions = FUNCTION_NAMES.filter(named);

    // Assert
    expect(functions.sort()).toEqual(['labels', 'rule-jobs']);
  });
});

describe('rule-jobs worker', () => {
  it('consumes the queue one step at a time with partial batch failures and a bounded concurrency', () => {
    // Arrange
    const arn = arnOf(queue());

    // Act
    const mappings = mappingsOf('rule-jobs');

    // Assert
    expect(mappings).toHaveLength(1);
    expect(resolveImports(stacks, mappings[0].Properties.EventSourceArn)).toEqual(arn);
    expect(mappings[0].Properties).toMatchObject({ BatchSize: 1, FunctionResponseTypes: ['ReportBatchItemFailures'], ScalingConfig: { MaximumConcurrency: RULE_JOBS_CONCURRENCY } });
  });

  it('reads the bucket but never writes it, and uses no key and no other queue', () => {
    // Arrange
    const actions = statementsOf(stacks, 'rule-jobs').flatMap((s) => s.Action);

    // Act
    const writes = actions.filter((a) => a.startsWith('s3:Put') || a.startsWith('s3:Delete'));
    const kms = actions.filter((a) => a.startsWith('kms:'));

    // Assert
    expect({ reads: actions.includes('s3:GetObject*'), writes, kms }).toEqual({ reads: true, writes: [], kms: [] });
  });
});
