import { RemovalPolicy } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { TABLE_SCHEMA } from '../../shared/manifest';
import { NONCURRENT_VERSION_DAYS, SEARCH_DOMAIN_PROFILES } from '../../lib/stacks/stateful-stack';
import { STAGING_PREFIX } from '../../shared/manifest';
import { bucketKey, stagedObject } from '../../shared/domain/documents/bucket-layout';
import { fileKeys } from '../../shared/domain/files/file-keys';
import { buildStacks, logicalIdOf, type InfraConfig } from './build-stacks';

const stacks = buildStacks();
const resourceOf = (id: string) => stacks.statefulTemplate.toJSON().Resources[id];

describe('table', () => {
  it('has the key schema of TABLE_SCHEMA with string keys', () => {
    // Arrange
    const id = logicalIdOf(stacks.stateful.table);

    // Act
    const { Properties } = resourceOf(id);

    // Assert
    expect(Properties.KeySchema).toEqual([
      { AttributeName: TABLE_SCHEMA.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_SCHEMA.sortKey, KeyType: 'RANGE' },
    ]);
    expect(Properties.AttributeDefinitions).toEqual(
      expect.arrayContaining([
        { AttributeName: TABLE_SCHEMA.partitionKey, AttributeType: 'S' },
        { AttributeName: TABLE_SCHEMA.sortKey, AttributeType: 'S' },
      ]),
    );
  });

  it.each(TABLE_SCHEMA.indexes.map((index) => [index.name, index] as const))(
    'has the global secondary index %s from TABLE_SCHEMA',
    (_name, index) => {
      // Arrange
      const id = logicalIdOf(stacks.stateful.table);

      // Act
      const { Properties } = resourceOf(id);

      // Assert
      expect(Properties.GlobalSecondaryIndexes).toContainEqual({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      });
      expect(Properties.AttributeDefinitions).toEqual(
        expect.arrayContaining([
          { AttributeName: index.partitionKey, AttributeType: 'S' },
          { AttributeName: index.sortKey, AttributeType: 'S' },
        ]),
      );
    },
  );

  it('has exactly the indexes of TABLE_SCHEMA', () => {
    // Arrange
    const id = logicalIdOf(stacks.stateful.table);

    // Act
    const names = (resourceOf(id).Properties.GlobalSecondaryIndexes as { IndexName: string }[]).map((i) => i.IndexName);

    // Assert
    expect(names).toEqual(TABLE_SCHEMA.indexes.map((index) => index.name));
  });

  it('expires items by the TTL attribute of TABLE_SCHEMA', () => {
    // Arrange
    const id = logicalIdOf(stacks.stateful.table);

    // Act
    const { Properties } = resourceOf(id);

    // Assert
    expect(Properties.TimeToLiveSpecification).toEqual({ AttributeName: TABLE_SCHEMA.ttlAttribute, Enabled: true });
  });

  it('bills per request with point-in-time recovery and encryption at rest', () => {
    // Arrange
    const id = logicalIdOf(stacks.stateful.table);

    // Act
    const { Properties } = resourceOf(id);

    // Assert
    expect(Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
    });
  });

  it('is retained by default', () => {
    // Arrange
    const id = logicalIdOf(stacks.stateful.table);

    // Act
    const table = resourceOf(id);

    // Assert
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
  });

  it('is deleted with the stack when the removal policy is destroy', () => {
    // Arrange
    const built = buildStacks({ removalPolicy: RemovalPolicy.DESTROY });

    // Act
    const table = built.statefulTemplate.toJSON().Resources[logicalIdOf(built.stateful.table)];

    // Assert
    expect(table.DeletionPolicy).toBe('Delete');
    expect(table.Properties.DeletionProtectionEnabled).toBe(false);
  });

  it('refuses deletion through the API while it is retained', () => {
    // Arrange
    const id = logicalIdOf(stacks.stateful.table);

    // Act
    const { Properties } = resourceOf(id);

    // Assert
    expect(Properties.DeletionProtectionEnabled).toBe(true);
  });
});

describe('documents bucket', () => {
  it('blocks all public access', () => {
    // Arrange
    const id = logicalIdOf(stacks.stateful.documentsBucket);

    // Act
    const { Properties } = resourceOf(id);

    // Assert
    expect(Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
  });

  it('encrypts objects with S3-managed keys', () => {
    // Arrange
    const id = logicalIdOf(stacks.stateful.documentsBucket);

    // Act
    const { Properties } = resourceOf(id);

    // Assert
    expect(Properties.BucketEncryption).toEqual({
      ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
    });
  });

  it('denies every request that does not use TLS', () => {
    // Arrange
    const bucketRef = { Ref: logicalIdOf(stacks.stateful.documentsBucket) };

    // Act & Assert
    stacks.statefulTemplate.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: bucketRef,
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Deny',
            Action: 's3:*',
            Principal: { AWS: '*' },
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          }),
        ]),
      },
    });
  });

  it('aborts incomplete multipart uploads after one day', () => {
    // Arrange
    const id = logicalIdOf(stacks.stateful.documentsBucket);

    // Act
    const rules = resourceOf(id).Properties.LifecycleConfiguration.Rules;

    // Assert
    expect(rules).toContainEqual(expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' }));
  });

  it('keeps every version of an object and expires old versions after 30 days', () => {
    // Arrange
    const id = logicalIdOf(stacks.stateful.documentsBucket);

    // Act
    const { Properties } = resourceOf(id);

    // Assert
    expect(Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(Properties.LifecycleConfiguration.Rules).toContainEqual(
      expect.objectContaining({ NoncurrentVersionExpiration: { NoncurrentDays: NONCURRENT_VERSION_DAYS }, ExpiredObjectDeleteMarker: true }),
    );
    expect(NONCURRENT_VERSION_DAYS).toBe(30);
  });

  it('keeps the old version of a staged upload one day only', () => {
    // Arrange
    const id = logicalIdOf(stacks.stateful.documentsBucket);

    // Act
    const rules = resourceOf(id).Properties.LifecycleConfiguration.Rules;

    // Assert
    expect(rules).toContainEqual(expect.objectContaining({ Prefix: STAGING_PREFIX, NoncurrentVersionExpiration: { NoncurrentDays: 1 } }));
  });

  it('allows no browser origin when none is configured', () => {
    // Arrange
    const built = buildStacks({ corsOrigins: [] });

    // Act
    const bucket = built.statefulTemplate.toJSON().Resources[logicalIdOf(built.stateful.documentsBucket)];

    // Assert
    expect(bucket.Properties.CorsConfiguration).toBeUndefined();
  });

  it('warns at synth time when a stack that keeps its data allows any origin', () => {
    // Arrange
    const built = buildStacks({ corsOrigins: ['*'] });

    // Act
    const warnings = Annotations.fromStack(built.stateful).findWarning('*', Match.stringLikeRegexp('corsOrigins is "\\*"'));

    // Assert
    expect(warnings).toHaveLength(1);
  });

  it.each<[string, Partial<InfraConfig>]>([
    ['named origins', { corsOrigins: ['https://app.example'] }],
    ['"*" on a destroyable dev stack', { corsOrigins: ['*'], removalPolicy: RemovalPolicy.DESTROY }],
  ])('does not warn about origins for %s', (_name, config) => {
    // Arrange
    const built = buildStacks(config);

    // Act
    const warnings = Annotations.fromStack(built.stateful).findWarning('*', Match.stringLikeRegexp('corsOrigins'));

    // Assert
    expect(warnings).toEqual([]);
  });

  it('allows presigned PUT and GET from the configured origins', () => {
    // Arrange
    const built = buildStacks({ corsOrigins: ['https://app.example'] });

    // Act
    const bucket = built.statefulTemplate.toJSON().Resources[logicalIdOf(built.stateful.documentsBucket)];

    // Assert
    expect(bucket.Properties.CorsConfiguration.CorsRules).toEqual([
      expect.objectContaining({ AllowedMethods: ['PUT', 'GET'], AllowedOrigins: ['https://app.example'] }),
    ]);
  });
});

describe('OCR queues', () => {
  it('moves a message to the DLQ after 5 receives', () => {
    // Arrange
    const queueId = logicalIdOf(stacks.stateful.ocrQueue);
    const dlqId = logicalIdOf(stacks.stateful.ocrDeadLetterQueue);

    // Act
    const { Properties } = resourceOf(queueId);

    // Assert
    expect(Properties.RedrivePolicy).toEqual({
      deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
      maxReceiveCount: 5,
    });
  });

  it('hides a received message for 6 times the 15-minute worker timeout', () => {
    // Arrange
    const queueId = logicalIdOf(stacks.stateful.ocrQueue);

    // Act
    const { Properties } = resourceOf(queueId);

    // Assert
    expect(Properties.VisibilityTimeout).toBe(5400);
  });

  it('keeps dead letters for 14 days', () => {
    // Arrange
    const dlqId = logicalIdOf(stacks.stateful.ocrDeadLetterQueue);

    // Act
    const { Properties } = resourceOf(dlqId);

    // Assert
    expect(Properties.MessageRetentionPeriod).toBe(14 * 24 * 3600);
  });

  it.each(['ocrQueue', 'ocrDeadLetterQueue'] as const)('encrypts the %s and denies requests without TLS', (name) => {
    // Arrange
    const id = logicalIdOf(stacks.stateful[name]);

    // Act
    const { Properties } = resourceOf(id);

    // Assert
    expect(Properties.SqsManagedSseEnabled).toBe(true);
    stacks.statefulTemplate.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: id }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });
});

describe('secrets', () => {
  it('generates a 64-character JWT signing key without punctuation', () => {
    // Arrange
    const id = logicalIdOf(stacks.stateful.jwtSecret);

    // Act
    const { Properties } = resourceOf(id);

    // Assert
    expect(Properties.GenerateSecretString).toEqual({ PasswordLength: 64, ExcludePunctuation: true });
  });

  it('generates a 24-character admin password', () => {
    // Arrange
    const id = logicalIdOf(stacks.stateful.adminPasswordSecret);

    // Act
    const { Properties } = resourceOf(id);

    // Assert
    expect(Properties.GenerateSecretString).toEqual({ PasswordLength: 24 });
  });
});

describe('presigned upload events', () => {
  it('sends object-created events of the staging prefix, and only those, to the ingest queue', () => {
    // Arrange
    const queueArn = { 'Fn::GetAtt': [logicalIdOf(stacks.stateful.ingestQueue), 'Arn'] };

    // Act
    const notifications = Object.values(stacks.statefulTemplate.findResources('Custom::S3BucketNotifications'));

    // Assert
    expect(notifications).toHaveLength(1);
    expect(notifications[0]!.Properties.NotificationConfiguration).toEqual({
      QueueConfigurations: [
        {
          Events: ['s3:ObjectCreated:*'],
          QueueArn: queueArn,
          Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: STAGING_PREFIX }] } },
        },
      ],
    });
  });

  it('notifies the ingest of the keys where a workspace stages its uploads', () => {
    // Arrange
    const workspaceId = crypto.randomUUID();
    const id = crypto.randomUUID();

    // Act
    const key = bucketKey(workspaceId, fileKeys.staged(id));

    // Assert
    expect(key.startsWith(STAGING_PREFIX)).toBe(true);
    expect(stagedObject(key)).toEqual({ workspaceId, key: fileKeys.staged(id) });
  });

  it('moves an upload event to the ingest DLQ after 5 receives', () => {
    // Arrange
    const queueId = logicalIdOf(stacks.stateful.ingestQueue);
    const dlqId = logicalIdOf(stacks.stateful.ingestDeadLetterQueue);

    // Act
    const { Properties } = resourceOf(queueId);

    // Assert
    expect(Properties.RedrivePolicy).toEqual({ deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: 5 });
    expect(Properties.VisibilityTimeout).toBe(6 * 300);
  });

  it('expires staged files left behind after two days', () => {
    // Arrange
    const bucketId = logicalIdOf(stacks.stateful.documentsBucket);

    // Act
    const rules = resourceOf(bucketId).Properties.LifecycleConfiguration.Rules;

    // Assert
    expect(rules).toEqual(expect.arrayContaining([expect.objectContaining({ Prefix: STAGING_PREFIX, ExpirationInDays: 2, Status: 'Enabled' })]));
  });
});

describe('search domain', () => {
  const domain = () => resourceOf(logicalIdOf(stacks.stateful.searchDomain)).Properties;

  it('is one small t3 node on 10 GB of gp3', () => {
    // Arrange
    const properties = domain();

    // Act
    const { ClusterConfig, EBSOptions } = properties;

    // Assert
    expect(ClusterConfig).toMatchObject({ InstanceCount: 1, InstanceType: 't3.small.search', ZoneAwarenessEnabled: false });
    expect(ClusterConfig.DedicatedMasterEnabled).toBe(false);
    expect(EBSOptions).toEqual({ EBSEnabled: true, VolumeSize: 10, VolumeType: 'gp3' });
  });

  it('runs OpenSearch, not Elasticsearch', () => {
    // Arrange
    const properties = domain();

    // Act
    const version: string = properties.EngineVersion;

    // Assert
    expect(version).toMatch(/^OpenSearch_2\./);
  });

  it('encrypts at rest and between nodes', () => {
    // Arrange
    const properties = domain();

    // Act
    const { EncryptionAtRestOptions, NodeToNodeEncryptionOptions } = properties;

    // Assert
    expect(EncryptionAtRestOptions).toEqual({ Enabled: true });
    expect(NodeToNodeEncryptionOptions).toEqual({ Enabled: true });
  });

  it('accepts only HTTPS with TLS 1.2 or later', () => {
    // Arrange
    const properties = domain();

    // Act
    const { DomainEndpointOptions } = properties;

    // Assert
    expect(DomainEndpointOptions).toMatchObject({ EnforceHTTPS: true, TLSSecurityPolicy: 'Policy-Min-TLS-1-2-2019-07' });
  });

  it('leaves its access policy to the API stack, where the roles it names are, and allows no anonymous access', () => {
    // Arrange
    const properties = domain();

    // Act
    const policy = properties.AccessPolicies;

    // Assert
    expect(policy).toBeUndefined();
    expect(properties.AdvancedSecurityOptions?.AnonymousAuthEnabled ?? false).toBe(false);
  });

  it('spreads a production domain over three zones with three dedicated masters', () => {
    // Arrange
    const built = buildStacks({ searchDomainProfile: 'production' });

    // Act
    const { ClusterConfig, EBSOptions } = built.statefulTemplate.toJSON().Resources[logicalIdOf(built.stateful.searchDomain)].Properties;

    // Assert
    expect(ClusterConfig).toMatchObject({
      InstanceCount: 3,
      InstanceType: SEARCH_DOMAIN_PROFILES.production.dataNodeType,
      DedicatedMasterEnabled: true,
      DedicatedMasterCount: 3,
      ZoneAwarenessEnabled: true,
      ZoneAwarenessConfig: { AvailabilityZoneCount: 3 },
    });
    expect(EBSOptions).toMatchObject({ EBSEnabled: true, VolumeSize: 20 });
    expect(built.stateful.searchDomainSize.indexReplicas).toBe(1);
  });

  it('asks for no replica on the one-node dev domain', () => {
    // Arrange
    const size = stacks.stateful.searchDomainSize;

    // Act
    const replicas = size.indexReplicas;

    // Assert
    expect(replicas).toBe(0);
  });

  it('is retained by default', () => {
    // Arrange
    const id = logicalIdOf(stacks.stateful.searchDomain);

    // Act
    const resource = resourceOf(id);

    // Assert
    expect(resource.DeletionPolicy).toBe('Retain');
    expect(resource.UpdateReplacePolicy).toBe('Retain');
  });
});
