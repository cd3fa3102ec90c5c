import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoSettingsRepository } from '../../../../../shared/adapters/aws/dynamodb/settings-repository';
import { freshTable } from '../../../../support/aws-resources';

describe('DynamoSettingsRepository', () => {
  let settings: DynamoSettingsRepository;

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    settings = new DynamoSettingsRepository(db, tableName);
  });

  it('has nothing stored for a user who never saved settings', async () => {
    expect(await settings.get(crypto.randomUUID())).toEqual({});
  });

  it('stores only the fields given and returns every stored field', async () => {
    const userId = crypto.randomUUID();

    await settings.update(userId, { theme: 'dark' }, new Date().toISOString());
    const after = await settings.update(userId, { items_per_page: 50 }, new Date().toISOString());

    expect(after).toEqual({ theme: 'dark', items_per_page: 50 });
    expect(await settings.get(userId)).toEqual({ theme: 'dark', items_per_page: 50 });
  });

  it('loses no field when partial updates race each other', async () => {
    const userId = crypto.randomUUID();

    await Promise.all([
      settings.update(userId, { theme: 'dark' }, new Date().toISOString()),
      settings.update(userId, { language: 'de' }, new Date().toISOString()),
      settings.update(userId, { notifications_enabled: false }, new Date().toISOString()),
      settings.update(userId, { ocr_default_language: 'deu' }, new Date().toISOString()),
    ]);

    expect(await settings.get(userId)).toEqual({
      theme: 'dark',
      language: 'de',
      notifications_enabled: false,
      ocr_default_language: 'deu',
    });
  });
});
