import type { S3Client } from '@aws-sdk/client-s3';
import { S3FileStore } from '../../shared/adapters/aws/s3/file-store';
import { AesGcmCredentialVault } from '../../shared/adapters/crypto/aes-gcm-credential-vault';
import { auditLog } from '../../shared/container/kit/audit';
import { dynamoPortabilityServices } from '../../shared/container/kit/portability';
import { dynamoWebhookStores } from '../../shared/container/kit/webhooks';
import { workspaceFileStore } from '../../shared/domain/documents/bucket-layout';
import type { PortabilityQueue } from '../../shared/domain/portability/ports';
import { DynamoConnectionRepository } from '../../shared/adapters/aws/dynamodb/connection-repository';
import { DynamoQuotaCounts } from '../../shared/adapters/aws/dynamodb/quota-counts';
import { joseTokens } from '../../shared/adapters/jwt/jose-token-service';
import { commonEnvSchema, parseEnv } from '../../shared/container/kit/config';
import { requestGate } from '../../shared/container/kit/request-gate';
import { passwordHasher } from '../../shared/container/kit/serving';
import type { Table } from '../../shared/container/kit/table';
import { workspaceTableStores } from '../../shared/container/kit/workspace-data';
import { systemClock, type Clock } from '../../shared/domain/clock';
import { freshTable } from './aws-resources';

/** A JWT key for tests that issue tokens. */
export const TEST_JWT_KEY = new TextEncoder().encode('k'.repeat(64));

/**
 * The kit's builders over a fresh table of the integration tests' DynamoDB Local, as an entry composes them:
 * default settings (`env` overrides them), the HTTP gate with a test JWT key, the password hasher, the
 * connections, the quota counts, and each workspace's table stores by name (`stores('documents', 'labels')`).
 * A test hands its handler or use case the deps it declares from these, and adds what else it exercises.
 */
export async function testKit(options: { env?: Record<string, string>; clock?: Clock } = {}) {
  const { db, tableName } = await freshTable();
  const table: Table = { db, name: tableName };
  const env = parseEnv(commonEnvSchema, options.env ?? {});
  const clock = options.clock ?? systemClock;
  const tokens = joseTokens(async () => TEST_JWT_KEY)({ issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE, ttlSeconds: env.JWT_TTL_SECONDS, clock });
  const gate = requestGate({ table, env, clock, tokens });
  return {
    db,
    tableName,
    table,
    env,
    clock,
    gate,
    stores: workspaceTableStores(table, clock, gate),
    passwords: passwordHasher(env),
    connections: new DynamoConnectionRepository(db, tableName, clock),
    quotaCounts: new DynamoQuotaCounts(db, tableName),
  };
}

export type TestKit = Awaited<ReturnType<typeof testKit>>;

/**
 * What an export reads and an import writes, over the kit's table, the bucket and an audit table: each
 * workspace's stores, its webhooks and members, and a test key for sources' passwords.
 */
export function portabilityDeps(kit: TestKit, options: { s3: S3Client; bucket: string; auditTableName: string; queue?: PortabilityQueue }) {
  const files = new S3FileStore(options.s3, options.bucket);
  return {
    ...kit.gate,
    audit: auditLog(kit.db, options.auditTableName),
    vault: new AesGcmCredentialVault(new Uint8Array(32)),
    webhookStores: dynamoWebhookStores(kit.db, kit.tableName),
    portability: dynamoPortabilityServices(kit.db, kit.tableName, options.s3, options.bucket, options.queue ?? { enqueue: async () => undefined }),
    forWorkspace: (workspaceId: string) => ({
      ...kit.stores('workspaceId', 'documents', 'labels', 'sources', 'rules', 'uploads', 'ocrJobs')(workspaceId),
      files: workspaceFileStore(files, workspaceId),
    }),
  };
}
