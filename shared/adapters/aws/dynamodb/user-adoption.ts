import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BOOTSTRAP_WORKSPACE_ID } from '../../../domain/workspaces/workspace';
import { failedConditions } from './errors';
import { keys } from './keys';
import { indexPartition } from './queries';
import { adminCountChange, isLegacy, type Item } from './user-items';
import { workspaceKeys } from './workspace-keys';

/*
 * The migration of users written before workspaces (no `workspace_id`): each becomes a member of the bootstrap
 * workspace, all of them on start (ensure-bootstrap-workspace.ts) and any one of them first when a change
 * reaches it before that ran (user-repository.ts).
 */

/**
 * The transaction that stores a user written before workspaces as a member of the bootstrap workspace (and
 * counts them when an admin). Its first item's condition fails when the user was adopted already.
 */
function adoption(tableName: string, item: Item) {
  return [
    {
      Update: {
        TableName: tableName,
        Key: keys.user(item['id'] as string),
        UpdateExpression: 'SET workspace_id = :workspace, gsi1pk = :members',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(workspace_id)',
        ExpressionAttributeValues: {
          ':workspace': BOOTSTRAP_WORKSPACE_ID,
          ':members': workspaceKeys.membersIndex(BOOTSTRAP_WORKSPACE_ID),
        },
      },
    },
    ...(item['role'] === 'admin' ? [adminCountChange(tableName, BOOTSTRAP_WORKSPACE_ID, +1)] : []),
  ];
}

/** Stores a user written before workspaces as a bootstrap member; false when someone else did already. */
export async function adoptLegacyUser(db: DynamoDBDocumentClient, tableName: string, item: Item): Promise<boolean> {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: adoption(tableName, item) }));
    return true;
  } catch (error) {
    if (failedConditions(error)?.includes(0)) return false;
    throw error;
  }
}

/** Adopts every user written before workspaces that is not yet; how many this call adopted. */
export async function adoptLegacyUsers(db: DynamoDBDocumentClient, tableName: string): Promise<number> {
  const legacy = (await indexPartition(db, tableName, workspaceKeys.legacyUsersIndex)).filter(isLegacy);
  let adopted = 0;
  for (const item of legacy) if (await adoptLegacyUser(db, tableName, item)) adopted++;
  return adopted;
}
