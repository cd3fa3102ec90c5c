import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WorkspaceRepository } from '../../../domain/workspaces/ports';
import type { Workspace } from '../../../domain/workspaces/workspace';
import { isConditionFailure } from './errors';
import { withoutKeys } from './keys';
import { indexPartition } from './queries';
import { workspaceKeys } from './workspace-keys';

/** A workspace as stored, listed in the operator's gsi1 partition by creation time. */
export const workspaceItem = (workspace: Workspace): Record<string, unknown> => ({
  ...workspaceKeys.workspace(workspace.id),
  gsi1pk: workspaceKeys.workspacesIndex,
  gsi1sk: `${workspace.created_at}#${workspace.id}`,
  ...workspace,
});

/** Workspaces in the application table (keys: workspace-keys.ts). */
export class DynamoWorkspaceRepository implements WorkspaceRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(workspace: Workspace): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: workspaceItem(workspace),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async findById(id: string): Promise<Workspace | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: workspaceKeys.workspace(id) }));
    return Item ? withoutKeys<Workspace>(Item) : null;
  }

  async list(): Promise<Workspace[]> {
    return (await indexPartition(this.db, this.tableName, workspaceKeys.workspacesIndex)).map((item) => withoutKeys<Workspace>(item));
  }
}
