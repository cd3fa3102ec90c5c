import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SourceSchedule } from '../../../domain/sources/ports';
import { keys } from './keys';
import { queryAll } from './queries';

/** The schedule across workspaces: enabled sources due now, and syncs whose worker vanished. */
export class DynamoSourceSchedule implements SourceSchedule {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  due(now: string, limit: number): Promise<Array<{ workspaceId: string; sourceId: string }>> {
    // '$' sorts right after '#': every `<now>#…` key too, so a source due exactly now is due.
    return this.before(keys.sourceScheduleIndex, `${now}$`, limit, ([workspaceId, sourceId]) => ({ workspaceId: workspaceId!, sourceId: sourceId! }));
  }

  /** Unfinished syncs whose lease (or, never leased, whose queueing) ended before `before`. */
  stalled(before: string, limit: number): Promise<Array<{ workspaceId: string; sourceId: string; jobId: string }>> {
    return this.before(keys.activeSyncsIndex, `${before}#`, limit, ([workspaceId, sourceId, jobId]) => ({
      workspaceId: workspaceId!,
      sourceId: sourceId!,
      jobId: jobId!,
    }));
  }

  /** The index entries of a partition whose sort key is below `bound`. */
  private async before<T>(partition: string, bound: string, limit: number, toEntry: (ids: string[]) => T): Promise<T[]> {
    const items = await queryAll(
      this.db,
      {
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :partition AND gsi1sk < :before',
        ExpressionAttributeValues: { ':partition': partition, ':before': bound },
      },
      limit,
    );
    return items.map((item) => toEntry(String(item['gsi1sk']).split('#').slice(1)));
  }
}
