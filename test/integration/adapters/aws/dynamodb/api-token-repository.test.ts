import { beforeAll, describe, expect, it } from 'vitest';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoApiTokenRepository } from '../../../../../shared/adapters/aws/dynamodb/api-token-repository';
import type { ApiTokenRecord } from '../../../../../shared/domain/tokens/ports';
import { hashToken, newToken } from '../../../../../shared/domain/tokens/token-format';
import { freshTable, testClients } from '../../../../support/aws-resources';

const aToken = (overrides: Partial<ApiTokenRecord> = {}): ApiTokenRecord => {
  const secret = newToken();
  return {
    id: crypto.randomUUID(),
    hash: hashToken(secret),
    user_id: 'u-1',
    workspace_id: 'w-1',
    name: 'scanner',
    prefix: secret.slice(0, 8),
    scopes: ['read', 'write'],
    created_at: new Date().toISOString(),
    last_used_at: null,
    expires_at: '2030-01-01T00:00:00.000Z',
    ...overrides,
  };
};

describe('DynamoApiTokenRepository', () => {
  let repo: DynamoApiTokenRepository;
  let tableName: string;

  beforeAll(async () => {
    const table = await freshTable();
    tableName = table.tableName;
    repo = new DynamoApiTokenRepository(table.db, tableName);
  });

  it('finds a token by its hash in one read, with the fields it was stored with', async () => {
    const token = aToken();
    expect(await repo.create(token, 50)).toBe('created');
    expect(await repo.findByHash(token.hash)).toEqual(token);
    expect(await repo.findByHash(hashToken(newToken()))).toBeNull();
    const { Item } = await testClients().dynamo.send(new GetCommand({ TableName: tableName, Key: { pk: `APITOKEN#${token.hash}`, sk: 'TOKEN' } }));
    expect(Item).toMatchObject({ gsi1pk: 'WS#w-1#APITOKENS', gsi1sk: `u-1#${token.created_at}#${token.id}` });
  });

  it("lists a user's tokens and a workspace's, finds one by id (as its user's or the workspace's) and never another workspace's", async () => {
    const [a, b, c] = [aToken({ user_id: 'u-a', workspace_id: 'w-list' }), aToken({ user_id: 'u-b', workspace_id: 'w-list' }), aToken({ user_id: 'u-a', workspace_id: 'w-other' })];
    for (const token of [a, b, c]) await repo.create(token, 50);
    expect((await repo.listForUser('w-list', 'u-a')).map((t) => t.id)).toEqual([a.id]);
    expect((await repo.listForWorkspace('w-list')).map((t) => t.id).sort()).toEqual([a.id, b.id].sort());
    expect((await repo.findById('w-list', b.id))?.hash).toBe(b.hash);
    expect(await repo.findById('w-list', b.id, 'u-a')).toBeNull();
    expect(await repo.findById('w-list', c.id)).toBeNull();
  });

  it('holds a user to the limit atomically, and a deletion frees a place', async () => {
    const tokens = Array.from({ length: 5 }, () => aToken({ user_id: 'u-limit' }));
    const outcomes = await Promise.all(tokens.map((token) => repo.create(token, 3)));
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'limit')).toHaveLength(2);
    const stored = await repo.listForUser('w-1', 'u-limit');
    expect(stored).toHaveLength(3);
    expect(await repo.delete(stored[0]!)).toBe(true);
    expect(await repo.delete(stored[0]!)).toBe(false);
    expect(await repo.findByHash(stored[0]!.hash)).toBeNull();
    expect(await repo.create(aToken({ user_id: 'u-limit' }), 3)).toBe('created');
    expect(await repo.create(aToken({ user_id: 'u-limit' }), 3)).toBe('limit');
  });

  it('writes last_used_at only when it is older than the bound, and never brings a deleted token back', async () => {
    const token = aToken();
    await repo.create(token, 50);
    await repo.touch(token.hash, '2026-01-01T00:00:00.000Z', '2025-12-31T23:59:00.000Z');
    await repo.touch(token.hash, '2026-01-01T00:00:30.000Z', '2025-12-31T23:59:30.000Z');
    expect((await repo.findByHash(token.hash))?.last_used_at).toBe('2026-01-01T00:00:00.000Z');
    await repo.touch(token.hash, '2026-01-01T00:01:00.000Z', '2026-01-01T00:00:00.000Z');
    expect((await repo.findByHash(token.hash))?.last_used_at).toBe('2026-01-01T00:00:00.000Z');
    await repo.touch(token.hash, '2026-01-01T00:01:01.000Z', '2026-01-01T00:00:01.000Z');
    expect((await repo.findByHash(token.hash))?.last_used_at).toBe('2026-01-01T00:01:01.000Z');
    await repo.delete(token);
    await repo.touch(token.hash, '2026-01-01T00:05:00.000Z', '2026-01-01T00:04:00.000Z');
    expect(await repo.findByHash(token.hash)).toBeNull();
  });

  it("sends a create again when its transaction lost a conflict on the user's count, and stores it once", async () => {
    // Arrange: a client of its own whose first transaction DynamoDB is said to have cancelled for a conflict.
    const { dynamo } = testClients();
    let conflicts = 1;
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand' && conflicts-- > 0) {
          throw new TransactionCanceledException({
            message: 'Transaction cancelled',
            $metadata: {},
            CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }],
          });
        }
        return next(args);
      },
      { step: 'initialize', name: 'conflict-once' },
    );
    const racing = new DynamoApiTokenRepository(dynamo, tableName);
    const token = aToken({ user_id: 'u-conflict' });

    // Act
    const outcome = await racing.create(token, 50);

    // Assert
    expect(outcome).toBe('created');
    expect(conflicts).toBe(-1);
    expect((await repo.listForUser('w-1', 'u-conflict')).map((listed) => listed.id)).toEqual([token.id]);
  });
});
