/** A user's preferences, exactly the P settings fields. */
export interface Settings {
  theme: 'dark' | 'light';
  language: string;
  notifications_enabled: boolean;
  ocr_default_language: string;
  items_per_page: number;
}

/** What a user who never saved settings gets. */
export const DEFAULT_SETTINGS: Settings = {
  theme: 'light',
  language: 'en',
  notifications_enabled: true,
  ocr_default_language: 'eng',
  items_per_page: 20,
};

/** Per-user settings storage; only the fields a user has set are stored, defaults fill the rest on read. */
export interface SettingsRepository {
  get(userId: string): Promise<Partial<Settings>>;
  /** Sets the given fields only, atomically, and returns every stored field afterwards. */
  update(userId: string, changes: Partial<Settings>, updatedAt: string): Promise<Partial<Settings>>;
}

export async function getSettings(deps: { settings: SettingsRepository }, userId: string): Promise<Settings> {
  return { ...DEFAULT_SETTINGS, ...(await deps.settings.get(userId)) };
}

/** Applies a partial update: fields not in `changes` keep their value, even under concurrent updates. */
export async function updateSettings(
  deps: { settings: SettingsRepository; clock: { now(): Date } },
  userId: string,
  changes: Partial<Settings>,
): Promise<Settings> {
  const stored = await deps.settings.update(userId, changes, deps.clock.now().toISOString());
  return { ...DEFAULT_SETTINGS, ...stored };
}
