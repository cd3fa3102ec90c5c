import type { routes } from '../../../functions/settings/schemas';
import type { GroupDocs } from '../operation-docs';
import { Settings } from '../shapes/settings';

const settings = { theme: 'dark', language: 'de-CH', notifications_enabled: true, ocr_default_language: 'deu+eng', items_per_page: 50 };

export const settingsDocs: GroupDocs<typeof routes> = {
  getSettings: {
    summary: 'Get your settings',
    description:
      'The caller\'s own settings. A field never set has its default: `{theme: "light", language: "en", notifications_enabled: true, ocr_default_language: "eng", items_per_page: 20}`.',
    responses: { 200: { description: 'Every settings field.', schema: Settings, example: settings } },
  },
  updateSettings: {
    summary: 'Change your settings',
    description:
      'Takes any non-empty subset of the fields and answers with the whole record; fields not given keep their value, even under concurrent updates. `language` is a language tag (`en`, `de-CH`), `ocr_default_language` Tesseract codes, alone or joined with `+` (`eng+deu`).',
    requestExample: { theme: 'dark', items_per_page: 50 },
    responses: { 200: { description: 'Every settings field, as changed.', schema: Settings, example: settings } },
  },
};
