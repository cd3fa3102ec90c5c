import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Erasure, ErasureCounts, ErasureStep, ScanSegmentPosition } from '../../../domain/erasure/erasure';
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
          // The step's scan positions go with it: the next step's scan starts from the beginning.
          UpdateExpression: `SET steps_done = list_append(steps_done, :step)${counts.map((_, i) => `, counts.#c${i} = counts.#c${i} + :n${i}`).join('')} REMOVE #scan`,
          // A step recorded already (a message delivered twice) is not recorded or counted again.
          ConditionExpression: 'attribute_exists(pk) AND NOT contains(steps_done, :name)',
          ExpressionAttributeNames: { '#scan': 'scan', ...Object.fromEntries(counts.map(([name], i) => [`#c${i}`, name])) },
          ExpressionAttributeValues: { ':step': [step], ':name': step, ...Object.fromEntries(counts.map(([, n], i) => [`:n${i}`, n])) },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  async saveScanPosition(workspaceId: string, step: ErasureStep, segment: number, position: ScanSegmentPosition): Promise<void> {
    const key = erasureKeys.erasure(workspaceId);
    // Segments save at once: each sets its own entry of the step's map, or starts the map when it is another step's.
    for (let attempt = 0; attempt < 4; attempt++) {
      try {
        await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: key,
            UpdateExpression: 'SET #scan.#positions.#segment = :position',
            ConditionExpression: '#scan.#step = :step AND NOT contains(steps_done, :step)',
            ExpressionAttributeNames: { '#scan': 'scan', '#positions': 'positions', '#step': 'step', '#segment': String(segment) },
            ExpressionAttributeValues: { ':position': position, ':step': step },
          }),
        );
        return;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      try {
        await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: key,
            UpdateExpression: 'SET #scan = :scan',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#scan) OR #scan.#step <> :step) AND NOT contains(steps_done, :step)',
            ExpressionAttributeNames: { '#scan': 'scan', '#step': 'step' },
            ExpressionAttributeValues: { ':scan': { step, positions: { [String(segment)]: position } }, ':step': step },
          }),
        );
        return;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      // Another segment started the map between the two writes; or the step is done (then nothing is saved).
      const current = await this.find(workspaceId);
      if (!current || current.steps_done.includes(step)) return;
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
