import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Erasure, ErasureCounts, ErasureStep } from '../../../domain/erasure/erasure';
import type { ErasureRepository } from '../../../domain/erasure/ports';
import { isConditionFailure } from './errors';
import { withoutKeys } from './keys';
import { indexPartition } from './queries';

/**
 * Item keys of the deletion records: outside every workspace's keys (`WS#…`, `WORKSPACE#…`), so the erasure of
 * a workspace leaves its record; all of them in one gsi1 partition, for a restart's resume and the operator.
 */
export const erasureKeys = {
  erasure: (workspaceId: string) => ({ pk: `ERASURE#${workspaceId}`, sk: 'RECORD' }),
  erasuresIndex: 'ERASURES',
} as const;

/** Deletion records in the application table. */
export class DynamoErasureRepository implements ErasureRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async start(erasure: Erasure): Promise<Erasure> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...erasureKeys.erasure(erasure.workspace_id), gsi1pk: erasureKeys.erasuresIndex, gsi1sk: `${erasure.requested_at}#${erasure.workspace_id}`, ...erasure },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return erasure;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return (await this.find(erasure.workspace_id)) ?? erasure;
    }
  }

  async find(workspaceId: string): Promise<Erasure | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: erasureKeys.erasure(workspaceId), ConsistentRead: true }));
    return Item ? withoutKeys<Erasure>(Item) : null;
  }

  async stepDone(workspaceId: string, step: ErasureStep, removed: Partial<ErasureCounts>): Promise<void> {
    const counts = Object.entries(removed).filter(([, n]) => n !== undefined && n > 0);
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: erasureKeys.erasure(workspaceId),
          UpdateExpression: `SET steps_done = list_append(steps_done, :step)${counts.map((_, i) => `, counts.#c${i} = counts.#c${i} + :n${i}`).join('')}`,
          // A step recorded already (a message delivered twice) is not recorded or counted again.
          ConditionExpression: 'attribute_exists(pk) AND NOT contains(steps_done, :name)',
          ...(counts.length ? { ExpressionAttributeNames: Object.fromEntries(counts.map(([name], i) => [`#c${i}`, name])) } : {}),
          ExpressionAttributeValues: { ':step': [step], ':name': step, ...Object.fromEntries(counts.map(([, n], i) => [`:n${i}`, n])) },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  async complete(workspaceId: string, completedAt: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: erasureKeys.erasure(workspaceId),
        UpdateExpression: 'SET #status = :completed, completed_at = if_not_exists(completed_at, :at)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':completed': 'completed', ':at': completedAt },
      }),
    );
  }

  async unfinished(): Promise<Erasure[]> {
    return (await indexPartition(this.db, this.tableName, erasureKeys.erasuresIndex))
      .map((item) => withoutKeys<Erasure>(item))
      .filter((erasure) => erasure.status !== 'completed');
  }
}
