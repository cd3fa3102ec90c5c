/**
 * Issue 37: a workspace's erasure in the cloud. The workspaces function queues it; the eraser works it from its
 * queue (with a dead-letter queue and its alarm), and may delete what an erasure must: object versions included.
 */
import { describe, expect, it } from 'vitest';
import { ENV, ERASER_TIMEOUT_SECONDS, MAX_RECEIVES } from '../../shared/manifest';
import type { ApiFunctionName } from '../../lib/stacks/api-stack';
import { ERASER_CONCURRENCY } from '../../lib/constructs/eraser';
import { buildStacks, environmentOf, functionIdOf, grantsOf, logicalIdOf, resolveImports, statementsOf } from './build-stacks';

const stacks = buildStacks();
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- template JSON, read by the assertions
type Json = any;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const arnOf = (construct: Parameters<typeof logicalIdOf>[0]) => ({ 'Fn::GetAtt': [logicalIdOf(construct), 'Arn'] });
const FUNCTION_NAMES = Object.keys(stacks.api.functions) as ApiFunctionName[];
const queue = () => stacks.stateful.erasureQueue;
const dlq = () => stacks.stateful.erasureDeadLetterQueue;
const actionsOn = (name: ApiFunctionName, resource: unknown): string[] =>
  grantsOf(stacks, name)
    .filter((s) => s.Resource.some((r) => same(resolveImports(stacks, r), resource) || same(r, resource)))
    .flatMap((s) => s.Action);
const mappingsOf = (name: ApiFunctionName): Json[] =>
  Object.values(stacks.apiTemplate.findResources('AWS::Lambda::EventSourceMapping')).filter((mapping) =>
    same(mapping.Properties.FunctionName, { Ref: functionIdOf(stacks, name) }),
  );

describe('erasure queue', () => {
  it(`moves an erasure to its own dead-letter queue after ${MAX_RECEIVES} receives and hides a received one for 6 eraser timeouts`, () => {
    const expected = { RedrivePolicy: { deadLetterTargetArn: arnOf(dlq()), maxReceiveCount: MAX_RECEIVES }, VisibilityTimeout: ERASER_TIMEOUT_SECONDS * 6 };

    const { Properties } = stacks.statefulTemplate.toJSON().Resources[logicalIdOf(queue())];

    expect(Properties).toMatchObject(expected);
  });

  it('alarms on the first message in its dead-letter queue', () => {
    const construct = stacks.api.monitoring.alarms['Dlq-eraser'];

    const properties = construct && stacks.apiTemplate.toJSON().Resources[logicalIdOf(construct)].Properties;

    expect(properties).toMatchObject({ MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
  });

  it('is sent to by the workspaces function alone and received from by the eraser alone', () => {
    const arn = arnOf(queue());

    const senders = FUNCTION_NAMES.filter((name) => actionsOn(name, arn).includes('sqs:SendMessage'));
    const receivers = FUNCTION_NAMES.filter((name) => actionsOn(name, arn).includes('sqs:ReceiveMessage'));

    expect({ senders, receivers }).toEqual({ senders: ['workspaces'], receivers: ['eraser'] });
  });

  it('is named to the workspaces function alone', () => {
    const functions = FUNCTION_NAMES.filter((name) => ENV.erasureQueueUrl in environmentOf(stacks, name));

    expect(functions).toEqual(['workspaces']);
  });
});

describe('eraser', () => {
  it('consumes the queue one erasure at a time with partial batch failures and a bounded concurrency', () => {
    const mappings = mappingsOf('eraser');

    expect(mappings).toHaveLength(1);
    expect(resolveImports(stacks, mappings[0].Properties.EventSourceArn)).toEqual(arnOf(queue()));
    expect(mappings[0].Properties).toMatchObject({ BatchSize: 1, FunctionResponseTypes: ['ReportBatchItemFailures'], ScalingConfig: { MaximumConcurrency: ERASER_CONCURRENCY } });
  });

  it("may list and delete every version of the bucket's objects", () => {
    const actions = statementsOf(stacks, 'eraser').flatMap((s) => s.Action);

    expect(actions).toEqual(expect.arrayContaining(['s3:ListBucketVersions', 's3:DeleteObjectVersion']));
  });

  it('is told the WebSocket endpoint whose connections it closes', () => {
    expect(environmentOf(stacks, 'eraser')).toHaveProperty(ENV.websocketEndpoint);
  });
});
