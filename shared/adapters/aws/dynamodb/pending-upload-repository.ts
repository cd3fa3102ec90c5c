import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PENDING_UPLOAD_RETENTION_SECONDS } from '../../../domain/documents/request-upload-url';
import type { PendingUpload, PendingUploadRepository } from '../../../domain/documents/ports';
import type { Clock } from '../../../domain/clock';
import { dataKeys, ttlOf, withoutKeys, type DataKeys, type WorkspaceTable } from './keys';

const retainUntil = (from: Date) => ttlOf(new Date(from.getTime() + PENDING_UPLOAD_RETENTION_SECONDS * 1000));

/** Announced uploads (`UPLOAD#id / PENDING`), removed by the table's TTL a day after their URL expired. */
export class DynamoPendingUploadRepository implements PendingUploadRepository {
  /** The workspace's keys: every item this repository reads or writes is the workspace's. */
  private readonly keys: DataKeys;
  private readonly table: WorkspaceTable;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    workspaceId: string,
    private readonly clock: Clock,
  ) {
    this.table = { tableName, keys: dataKeys(workspaceId) };
    this.keys = this.table.keys;
  }

  async create(upload: PendingUpload): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...this.keys.pendingUpload(upload.id), ...upload, ttl: retainUntil(new Date(upload.expires_at)) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async get(id: string): Promise<PendingUpload | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.keys.pendingUpload(id) }));
    // TTL deletion lags by up to days: an expired item is gone as far as callers are concerned.
    if (!Item || (typeof Item['ttl'] === 'number' && Item['ttl'] * 1000 < this.clock.now().getTime())) return null;
    return withoutKeys<PendingUpload>(Item);
  }

  async reject(id: string, reason: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.keys.pendingUpload(id),
        UpdateExpression: 'SET #state = :rejected, #reason = :reason, #ttl = :ttl',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#state': 'state', '#reason': 'reason', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':rejected': 'rejected', ':reason': reason, ':ttl': retainUntil(this.clock.now()) },
      }),
    ).catch((error: unknown) => {
      if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    });
  }

  async delete(id: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: this.keys.pendingUpload(id) }));
  }
}
