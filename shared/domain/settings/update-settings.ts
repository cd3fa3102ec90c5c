import { DEFAULT_SETTINGS, type Settings } from './settings';
import type { SettingsRepository } from './ports';

/** Applies a partial update: fields not in `changes` keep their value, even under concurrent updates. */
export async function updateSettings(
  deps: { settings: SettingsRepository; clock: { now(): Date } },
  userId: string,
  changes: Partial<Settings>,
): Promise<Settings> {
  const stored = await deps.settings.update(userId, changes, deps.clock.now().toISOString());
  return { ...DEFAULT_SETTINGS, ...stored };
}
