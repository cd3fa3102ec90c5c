import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Settings } from '../../../domain/settings/settings';
import type { SettingsRepository } from '../../../domain/settings/ports';
import { keys, withoutKeys } from './keys';

const storedFields = (item: Record<string, unknown> | undefined): Partial<Settings> => {
  if (!item) return {};
  const { updated_at: _updatedAt, ...settings } = withoutKeys<Partial<Settings> & { updated_at?: string }>(item);
  return settings;
};

/** Each user's settings as one item; an update sets only the fields it names. */
export class DynamoSettingsRepository implements SettingsRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(userId: string): Promise<Partial<Settings>> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.settings(userId) }));
    return storedFields(Item);
  }

  async update(userId: string, changes: Partial<Settings>, updatedAt: string): Promise<Partial<Settings>> {
    const fields = Object.entries({ ...changes, updated_at: updatedAt }).filter(([, value]) => value !== undefined);
    const { Attributes } = await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.settings(userId),
        UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(fields.map(([, value], i) => [`:v${i}`, value])),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return storedFields(Attributes);
  }
}
