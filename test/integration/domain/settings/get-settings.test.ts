import { describe, expect, it } from 'vitest';
import { getSettings } from '../../../../shared/domain/settings/get-settings';
import { DEFAULT_SETTINGS } from '../../../../shared/domain/settings/settings';
import { accountStores } from '../users/account-stores';

/** A user's settings read over the real settings store. */
describe('getSettings', () => {
  it('answers the defaults to a user who never saved settings', async () => {
    // Arrange
    const stores = await accountStores();

    // Act
    const settings = await getSettings(stores, crypto.randomUUID());

    // Assert
    expect(settings).toEqual(DEFAULT_SETTINGS);
  });

  it('answers the stored fields with the defaults filling the rest', async () => {
    // Arrange
    const stores = await accountStores();
    const userId = crypto.randomUUID();
    await stores.settings.update(userId, { theme: 'dark', items_per_page: 50 }, stores.clock.now().toISOString());

    // Act
    const settings = await getSettings(stores, userId);

    // Assert
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, theme: 'dark', items_per_page: 50 });
  });

  it("never answers another user's settings", async () => {
    // Arrange
    const stores = await accountStores();
    await stores.settings.update(crypto.randomUUID(), { language: 'de' }, stores.clock.now().toISOString());

    // Act
    const settings = await getSettings(stores, crypto.randomUUID());

    // Assert
    expect(settings.language).toBe(DEFAULT_SETTINGS.language);
  });
});
