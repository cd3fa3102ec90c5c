import { beforeAll, describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoRevokedTokenStore } from '../../../../../shared/adapters/aws/dynamodb/revoked-token-store';
import { freshTable, testClients } from '../../../../support/aws-resources';

describe('DynamoRevokedTokenStore', () => {
  let store: DynamoRevokedTokenStore;
  let tableName: string;

  beforeAll(async () => {
    const table = await freshTable();
    tableName = table.tableName;
    store = new DynamoRevokedTokenStore(table.db, tableName);
  });

  it('knows a revoked token and not another', async () => {
    const jti = crypto.randomUUID();

    await store.revoke(jti, new Date(Date.now() + 60_000));

    expect(await store.isRevoked(jti)).toBe(true);
    expect(await store.isRevoked(crypto.randomUUID())).toBe(false);
  });

  it('revokes a token once: a second revocation reports it was already revoked', async () => {
    const jti = crypto.randomUUID();

    const outcomes = await Promise.all([1, 2, 3].map(() => store.revoke(jti, new Date(Date.now() + 60_000))));

    expect(outcomes.filter(Boolean)).toHaveLength(1);
  });

  it('stores the revocation with a TTL in epoch seconds so that DynamoDB removes it later', async () => {
    const jti = crypto.randomUUID();
    const keepUntil = new Date('2030-01-01T00:00:00Z');

    await store.revoke(jti, keepUntil);

    const { Item } = await testClients().dynamo.send(
      new GetCommand({ TableName: tableName, Key: { pk: `REVOKED#${jti}`, sk: 'TOKEN' } }),
    );
    expect(Item?.['ttl']).toBe(keepUntil.getTime() / 1000);
  });
});
