import { DEFAULT_SETTINGS, type Settings } from './settings';
import type { SettingsRepository } from './ports';

export async function getSettings(deps: { settings: SettingsRepository }, userId: string): Promise<Settings> {
  return { ...DEFAULT_SETTINGS, ...(await deps.settings.get(userId)) };
}
