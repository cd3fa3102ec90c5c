import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { describe, expect, it } from 'vitest';
import { ENV } from '../../shared/manifest';
import { bindBucket, bindHealthChecks, bindQueue, bindSecret, bindTable } from '../../lib/constructs/bindings';
import { allStatementsOf, buildStacks, logicalIdOf, testApp, type PolicyStatement } from './build-stacks';

/** Actions that can only be granted on "*": their services have no resource-level permissions. */
const ALLOWED_ON_ANY_RESOURCE = [
  'xray:PutTraceSegments',
  'xray:PutTelemetryRecords',
  'textract:DetectDocumentText',
  'textract:StartDocumentTextDetection',
  'textract:GetDocumentTextDetection',
];
/**
 * Data-service actions that read no data and can only be granted on "*": the names of the table's streams,
 * which a stream consumer's event source lists (CDK's grantStreamRead).
 */
const METADATA_ON_ANY_RESOURCE = ['dynamodb:ListStreams'];
const DATA_SERVICES = ['dynamodb:', 's3:', 'sqs:', 'secretsmanager:'];

function wildcardViolations(statements: PolicyStatement[]): PolicyStatement[] {
  return statements
    .filter((s) => s.Effect === 'Allow')
    .filter(
      (s) =>
        s.Action.some((a) => a === '*' || a.endsWith(':*')) ||
        (s.Resource.includes('*') &&
          s.Action.some(
            (a) => !METADATA_ON_ANY_RESOURCE.includes(a) && (!ALLOWED_ON_ANY_RESOURCE.includes(a) || DATA_SERVICES.some((p) => a.startsWith(p))),
          )),
    );
}

/** A stack with one plain function (no bundling) and one resource of each kind, for the bind helpers. */
function bindingFixture() {
  const stack = new Stack(testApp());
  const fn = new lambda.Function(stack, 'Fn', {
    runtime: lambda.Runtime.NODEJS_22_X,
    handler: 'index.handler',
    code: lambda.Code.fromInline('exports.handler = async () => {};'),
  });
  const table = new dynamodb.Table(stack, 'Table', {
    partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
  });
  const bucket = new s3.Bucket(stack, 'Bucket');
  const queue = new sqs.Queue(stack, 'Queue');
  const secret = new secretsmanager.Secret(stack, 'Secret');
  const statements = () => allStatementsOf(Template.fromStack(stack));
  const environment = (): Record<string, unknown> =>
    Template.fromStack(stack).toJSON().Resources[logicalIdOf(fn)].Properties.Environment.Variables;
  const actions = () => statements().flatMap((s) => s.Action);
  return { stack, fn, table, bucket, queue, secret, statements, environment, actions };
}

describe('stack policies', () => {
  it('grants no wildcard action and no data-service action on "*" in the stateful stack', () => {
    // Arrange
    const built = buildStacks({ removalPolicy: RemovalPolicy.DESTROY });

    // Act
    const violations = wildcardViolations(allStatementsOf(built.statefulTemplate));

    // Assert
    expect(violations).toEqual([]);
  });

  it('grants no wildcard action and no data-service action on "*" in the API stack', () => {
    // Arrange
    const built = buildStacks();

    // Act
    const violations = wildcardViolations(allStatementsOf(built.apiTemplate));

    // Assert
    expect(violations).toEqual([]);
  });
});

describe('bind helpers', () => {
  it('bindTable read sets TABLE_NAME and grants no write', () => {
    // Arrange
    const f = bindingFixture();

    // Act
    bindTable(f.fn, f.table, 'read');

    // Assert
    expect(f.environment()[ENV.tableName]).toEqual({ Ref: logicalIdOf(f.table) });
    expect(f.actions()).toContain('dynamodb:GetItem');
    expect(f.actions()).not.toContain('dynamodb:PutItem');
  });

  it('bindBucket readWrite sets BUCKET_NAME and grants object access on this bucket only', () => {
    // Arrange
    const f = bindingFixture();
    const bucketArn = { 'Fn::GetAtt': [logicalIdOf(f.bucket), 'Arn'] };

    // Act
    bindBucket(f.fn, f.bucket, 'readWrite');

    // Assert
    expect(f.environment()[ENV.bucketName]).toEqual({ Ref: logicalIdOf(f.bucket) });
    expect(f.actions()).toEqual(expect.arrayContaining(['s3:GetObject*', 's3:PutObject']));
    const s3Statements = f.statements().filter((s) => s.Action.some((a) => a.startsWith('s3:')));
    for (const statement of s3Statements) {
      expect(statement.Resource).toEqual([bucketArn, { 'Fn::Join': ['', [bucketArn, '/*']] }]);
    }
  });

  it('bindBucket read grants no put or delete', () => {
    // Arrange
    const f = bindingFixture();

    // Act
    bindBucket(f.fn, f.bucket, 'read');

    // Assert
    expect(f.actions()).toContain('s3:GetObject*');
    expect(f.actions().filter((a) => a.startsWith('s3:Put') || a.startsWith('s3:Delete'))).toEqual([]);
  });

  it('bindQueue send sets OCR_QUEUE_URL and grants sending only', () => {
    // Arrange
    const f = bindingFixture();

    // Act
    bindQueue(f.fn, f.queue, 'send');

    // Assert
    expect(f.environment()[ENV.ocrQueueUrl]).toEqual({ Ref: logicalIdOf(f.queue) });
    expect(f.actions()).toContain('sqs:SendMessage');
    expect(f.actions()).not.toContain('sqs:ReceiveMessage');
  });

  it('bindQueue consume grants receiving and deleting messages', () => {
    // Arrange
    const f = bindingFixture();

    // Act
    bindQueue(f.fn, f.queue, 'consume');

    // Assert
    expect(f.actions()).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage']));
    expect(f.actions()).not.toContain('sqs:SendMessage');
  });

  it('bindSecret puts the ARN, not the value, in the environment and grants reading that secret', () => {
    // Arrange
    const f = bindingFixture();
    const secretRef = { Ref: logicalIdOf(f.secret) };

    // Act
    bindSecret(f.fn, f.secret, ENV.jwtSecretArn);

    // Assert
    expect(f.environment()[ENV.jwtSecretArn]).toEqual(secretRef);
    const read = f.statements().filter((s) => s.Action.includes('secretsmanager:GetSecretValue'));
    expect(read.map((s) => s.Resource)).toEqual([[secretRef]]);
  });

  it('bindHealthChecks grants only DescribeTable, ListBucket and GetQueueAttributes', () => {
    // Arrange
    const f = bindingFixture();

    // Act
    bindHealthChecks(f.fn, { table: f.table, bucket: f.bucket, queue: f.queue });

    // Assert
    expect(f.actions().sort()).toEqual(['dynamodb:DescribeTable', 's3:ListBucket', 'sqs:GetQueueAttributes']);
    expect(Object.keys(f.environment()).sort()).toEqual([ENV.bucketName, ENV.ocrQueueUrl, ENV.tableName].sort());
  });

  it('no bind helper grants a wildcard action or "*" resource', () => {
    // Arrange
    const f = bindingFixture();

    // Act
    bindTable(f.fn, f.table, 'readWrite');
    bindBucket(f.fn, f.bucket, 'readWrite');
    bindQueue(f.fn, f.queue, 'consume');
    bindQueue(f.fn, f.queue, 'send');
    bindSecret(f.fn, f.secret, ENV.adminPasswordSecretArn);
    bindHealthChecks(f.fn, { table: f.table, bucket: f.bucket, queue: f.queue });

    // Assert
    const statements = f.statements();
    expect(statements.flatMap((s) => s.Action).filter((a) => a === '*' || a.endsWith(':*'))).toEqual([]);
    expect(statements.filter((s) => s.Resource.includes('*'))).toEqual([]);
  });
});
