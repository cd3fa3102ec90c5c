import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WorkspaceChanges, WorkspaceRepository } from '../../../domain/workspaces/ports';
import { DEFAULT_PLAN_NAME, type NewWorkspace, type Workspace } from '../../../domain/workspaces/workspace';
import { isConditionFailure } from './errors';
import { withoutKeys } from './keys';
import { indexPartition } from './queries';
import { workspaceKeys } from './workspace-keys';

/**
 * A workspace as stored, listed in the operator's gsi1 partition by creation time. A plan or status not given is
 * not stored: the workspace follows the default plan, and reads as `active`.
 */
export const workspaceItem = (workspace: NewWorkspace): Record<string, unknown> => ({
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
    /** The plan of a workspace stored without one (DEFAULT_PLAN). */
    private readonly defaultPlan: string = DEFAULT_PLAN_NAME,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(workspace: NewWorkspace): Promise<boolean> {
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
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: workspaceKeys.workspace(id), ConsistentRead: true }));
    return Item ? this.read(Item) : null;
  }

  async list(): Promise<Workspace[]> {
    return (await indexPartition(this.db, this.tableName, workspaceKeys.workspacesIndex)).map((item) => this.read(item));
  }

  async update(id: string, changes: WorkspaceChanges): Promise<Workspace | null> {
    const fields = Object.entries({ ...changes, updated_at: this.now().toISOString() }).filter(([, value]) => value !== undefined);
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: workspaceKeys.workspace(id),
          UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(fields.map(([, value], i) => [`:v${i}`, value])),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes ? this.read(Attributes) : null;
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }

  updateName(id: string, name: string): Promise<Workspace | null> {
    return this.update(id, { name });
  }

  setPlanAndStatus(id: string, changes: Pick<WorkspaceChanges, 'plan' | 'status'>): Promise<Workspace | null> {
    return this.update(id, { plan: changes.plan, status: changes.status });
  }

  private read(item: Record<string, unknown>): Workspace {
    const stored = withoutKeys<Partial<Workspace> & Pick<Workspace, 'id' | 'name' | 'created_at'>>(item);
    return { ...stored, plan: stored.plan ?? this.defaultPlan, status: stored.status ?? 'active' };
  }
}
