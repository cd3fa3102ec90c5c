import { describe, expect, it } from 'vitest';
import { getSettings } from '../../../../shared/domain/settings/get-settings';
import { DEFAULT_SETTINGS } from '../../../../shared/domain/settings/settings';
import { updateSettings } from '../../../../shared/domain/settings/update-settings';
import { accountStores } from '../users/account-stores';

/** Partial settings updates over the real settings store. */
describe('updateSettings', () => {
  it('answers every setting after the change, the defaults filling what was never set', async () => {
    // Arrange
    const stores = await accountStores();

    // Act
    const settings = await updateSettings(stores, crypto.randomUUID(), { theme: 'dark' });

    // Assert
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, theme: 'dark' });
  });

  it('keeps the fields a change does not name', async () => {
    // Arrange
    const stores = await accountStores();
    const userId = crypto.randomUUID();
    await updateSettings(stores, userId, { language: 'fr', ocr_default_language: 'fra' });

    // Act
    const settings = await updateSettings(stores, userId, { notifications_enabled: false });

    // Assert
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, language: 'fr', ocr_default_language: 'fra', notifications_enabled: false });
  });

  it('keeps both of two concurrent changes of different fields', async () => {
    // Arrange
    const stores = await accountStores();
    const userId = crypto.randomUUID();

    // Act
    await Promise.all([updateSettings(stores, userId, { theme: 'dark' }), updateSettings(stores, userId, { items_per_page: 100 })]);

    // Assert
    expect(await getSettings(stores, userId)).toEqual({ ...DEFAULT_SETTINGS, theme: 'dark', items_per_page: 100 });
  });

  it("changes only the caller's settings", async () => {
    // Arrange
    const stores = await accountStores();
    const [me, other] = [crypto.randomUUID(), crypto.randomUUID()];

    // Act
    await updateSettings(stores, me, { theme: 'dark' });

    // Assert
    expect(await getSettings(stores, other)).toEqual(DEFAULT_SETTINGS);
  });
});
