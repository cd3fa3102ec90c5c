import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '../../../../shared/adapters/aws/dynamodb/keys';
import { ensureBootstrapWorkspace } from '../../../../shared/domain/users/ensure-bootstrap-workspace';
import { BOOTSTRAP_WORKSPACE_ID, BOOTSTRAP_WORKSPACE_NAME } from '../../../../shared/domain/workspaces/workspace';
import { aUser } from '../../../support/builders';
import { accountStores, type AccountStores } from './account-stores';

/** The first workspace and the adoption of what was written before workspaces, on the real table. */
describe('ensureBootstrapWorkspace', () => {
  let stores: AccountStores;

  /** A user stored as a version before workspaces wrote it: no workspace anywhere. */
  const storeLegacyUser = async () => {
    const user = aUser();
    const { workspace_id: _none, ...legacy } = user;
    await stores.db.send(new PutCommand({ TableName: stores.tableName, Item: { ...keys.user(user.id), gsi1pk: 'USERS', gsi1sk: `${user.created_at}#${user.id}`, ...legacy } }));
    await stores.db.send(new PutCommand({ TableName: stores.tableName, Item: { ...keys.usernameLock(user.username), user_id: user.id } }));
    return user;
  };

  beforeEach(async () => {
    stores = await accountStores();
  });

  it('creates the first workspace when it is missing', async () => {
    // Act
    await ensureBootstrapWorkspace(stores);

    // Assert
    expect(await stores.workspaces.findById(BOOTSTRAP_WORKSPACE_ID)).toMatchObject({
      id: BOOTSTRAP_WORKSPACE_ID,
      name: BOOTSTRAP_WORKSPACE_NAME,
      created_at: stores.clock.now().toISOString(),
    });
  });

  it('leaves the first workspace as it is on a later start', async () => {
    // Arrange
    await ensureBootstrapWorkspace(stores);
    const first = await stores.workspaces.findById(BOOTSTRAP_WORKSPACE_ID);
    stores.clock.advanceSeconds(3600);

    // Act
    await ensureBootstrapWorkspace(stores);

    // Assert
    expect(await stores.workspaces.findById(BOOTSTRAP_WORKSPACE_ID)).toEqual(first);
  });

  it('adopts users written before workspaces into it, once', async () => {
    // Arrange
    const legacy = await storeLegacyUser();

    // Act
    const adopted = [await ensureBootstrapWorkspace(stores), await ensureBootstrapWorkspace(stores)];

    // Assert
    expect(adopted).toEqual([1, 0]);
    expect((await stores.users.list(BOOTSTRAP_WORKSPACE_ID)).map((u) => u.id)).toEqual([legacy.id]);
  });
});
