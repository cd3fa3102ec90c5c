import type { AppContainer } from '../../shared/container/app-container';
import { buildAppContainer, type ContainerParts } from '../../shared/container/build-app-container';
import { commonEnvSchema, parseEnv } from '../../shared/container/config';
import { freshTable } from './aws-resources';
import { joseTokens } from '../../shared/adapters/jwt/jose-token-service';
import { dynamoConnections } from '../../shared/container/connection-store';
import { requestServing } from '../../shared/container/request-serving';
import { dynamoLegacyItems } from '../../shared/container/legacy-data';
import { auditOver } from '../../shared/container/kit/audit';
import { absentParts } from './absent-parts';

/** A JWT key for tests that issue tokens. */
export const TEST_JWT_KEY = new TextEncoder().encode('k'.repeat(64));

/**
 * The container both runtimes share, over a fresh table of the integration tests' DynamoDB Local: default
 * settings (`env` overrides them), a test JWT key, the connections' store, what serving requests needs (passwords,
 * rate limits, host probe), the adoption of the table's pre-workspace items and no health probes; `parts` adds
 * stores or replaces any of it (`auditTableName`: the audit log over that table); the parts it gives none of refuse use.
 */
export async function testContainer(
  parts: Partial<Omit<ContainerParts, 'env'>> & { env?: Record<string, string>; auditTableName?: string } = {},
): Promise<{ c: AppContainer; db: ContainerParts['db']; tableName: string }> {
  const { db, tableName } = await freshTable();
  const { env, auditTableName, ...rest } = parts;
  const c = buildAppContainer({
    // What the test does not give refuses use, naming itself.
    ...absentParts(),
    ...(auditTableName ? { audit: auditOver(auditTableName) } : {}),
    db,
    tableName,
    tokens: joseTokens(async () => TEST_JWT_KEY),
    env: parseEnv(commonEnvSchema, env ?? {}),
    healthProbes: [],
    connectionStore: dynamoConnections,
    serving: requestServing,
    legacyData: dynamoLegacyItems,
    ...rest,
  });
  return { c, db, tableName };
}
