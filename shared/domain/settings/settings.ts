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
