import { validationError } from '../errors';
import type { OcrEngine } from './ports';
import { getSettings } from '../settings/get-settings';
import type { SettingsRepository } from '../settings/ports';

/** The engine's languages, to refuse a request the worker could never serve (400 at the API, not a failed job). */
export async function requireOcrLanguage(deps: { ocrLanguages: OcrEngine['languages'] }, language: string, field = 'language'): Promise<void> {
  const installed = await deps.ocrLanguages();
  const missing = language.split('+').filter((code) => !installed.includes(code));
  if (missing.length) {
    throw validationError('This OCR language is not available', [
      { field, reason: `not available: ${missing.join(', ')} (available: ${installed.join(', ')})` },
    ]);
  }
}

/** The language asked for, or else the user's `ocr_default_language` setting. */
export async function ocrLanguageFor(deps: { settings: SettingsRepository }, userId: string, requested: string | undefined): Promise<string> {
  return requested ?? (await getSettings(deps, userId)).ocr_default_language;
}
