import type { Settings } from './settings';

/** Per-user settings storage; only the fields a user has set are stored, defaults fill the rest on read. */
export interface SettingsRepository {
  get(userId: string): Promise<Partial<Settings>>;
  /** Sets the given fields only, atomically, and returns every stored field afterwards. */
  update(userId: string, changes: Partial<Settings>, updatedAt: string): Promise<Partial<Settings>>;
}
