import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoRevokedTokenStore } from '../../../../shared/adapters/aws/dynamodb/revoked-token-store';
import { DynamoSettingsRepository } from '../../../../shared/adapters/aws/dynamodb/settings-repository';
import { DynamoUserRepository } from '../../../../shared/adapters/aws/dynamodb/user-repository';
import { rememberHotReads, type HotReadStores } from '../../../../shared/adapters/local/remembered-reads';
import { freshTable } from '../../../support/aws-resources';
import { aUser } from '../../../support/builders';

const now = () => new Date().toISOString();

describe("the local runtime's remembered reads, over DynamoDB Local", () => {
  let stores: HotReadStores;
  let tableReadsOfUsers: number;

  beforeEach(async () => {
    const { db, tableName } = await freshTable();
    const users = new DynamoUserRepository(db, tableName);
    tableReadsOfUsers = 0;
    const countedUsers = Object.assign(Object.create(users) as DynamoUserRepository, {
      findById: (id: string) => {
        tableReadsOfUsers++;
        return users.findById(id);
      },
    });
    stores = rememberHotReads({ users: countedUsers, settings: new DynamoSettingsRepository(db, tableName), revokedTokens: new DynamoRevokedTokenStore(db, tableName) });
  });

  it('reads a user from the table once while nothing writes it', async () => {
    const user = aUser();
    await stores.users.create(user);

    await stores.users.findById(user.id);
    await stores.users.findById(user.id);
    const third = await stores.users.findById(user.id);

    expect(third?.username).toBe(user.username);
    expect(tableReadsOfUsers).toBe(1);
  });

  it("answers a member's new role from the next read on", async () => {
    const user = aUser({ role: 'viewer' });
    await stores.users.create(user);
    await stores.users.findById(user.id);

    await stores.users.updateMember(user.workspace_id, user.id, { role: 'editor' }, now());

    expect((await stores.users.findById(user.id))?.role).toBe('editor');
  });

  it('answers the token version of a password change from the next read on', async () => {
    const user = aUser({ token_version: 0 });
    await stores.users.create(user);
    await stores.users.findById(user.id);

    await stores.users.updatePassword(user.id, 'scrypt$1$1$1$bmV3$a2V5', now());

    expect((await stores.users.findById(user.id))?.token_version).toBe(1);
  });

  it('answers a rehashed password from the next read on', async () => {
    const user = aUser({ password_hash: 'scrypt$16384$8$1$b2xk$a2V5' });
    await stores.users.create(user);
    await stores.users.findById(user.id);

    await stores.users.rehashPassword(user.id, user.password_hash, 'scrypt$131072$8$1$bmV3$a2V5');

    expect((await stores.users.findById(user.id))?.password_hash).toBe('scrypt$131072$8$1$bmV3$a2V5');
  });

  it('forgets a deleted user and the settings deleted with them', async () => {
    const user = aUser();
    await stores.users.create(user);
    await stores.settings.update(user.id, { ocr_default_language: 'deu' }, now());
    await stores.users.findById(user.id);
    await stores.settings.get(user.id);

    await stores.users.delete(user.workspace_id, user.id);

    expect(await stores.users.findById(user.id)).toBeNull();
    expect(await stores.settings.get(user.id)).toEqual({});
  });

  it('answers a settings change from the next read on', async () => {
    const user = aUser();
    await stores.settings.get(user.id);

    await stores.settings.update(user.id, { notifications_enabled: false }, now());

    expect(await stores.settings.get(user.id)).toMatchObject({ notifications_enabled: false });
  });

  it('answers a revocation from the next check on', async () => {
    expect(await stores.revokedTokens.isRevoked('token-1')).toBe(false);

    await stores.revokedTokens.revoke('token-1', new Date(Date.now() + 60_000));

    expect(await stores.revokedTokens.isRevoked('token-1')).toBe(true);
  });
});
