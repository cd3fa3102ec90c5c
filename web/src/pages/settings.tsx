/** The caller's settings and password. */
import { useState } from 'preact/hooks';
import { changePassword, getSettings, saveSettings } from '../api';
import { ErrorNote, Field, Page, useAction, useLoad } from '../ui';

export function SettingsPage() {
  const settings = useLoad(getSettings, []);
  const save = useAction();
  const password = useAction();
  const [saved, setSaved] = useState('');
  const value = settings.value;
  return (
    <Page title="Settings">
      <ErrorNote error={settings.error} />
      {value ? (
        <form
          class="stack"
          aria-label="Settings"
          onSubmit={(event) => {
            event.preventDefault();
            const form = new FormData(event.currentTarget);
            void save
              .run(() =>
                saveSettings({
                  theme: form.get('theme') === 'dark' ? 'dark' : 'light',
                  language: String(form.get('language')),
                  ocr_default_language: String(form.get('ocr_default_language')),
                  items_per_page: Number(form.get('items_per_page')),
                  notifications_enabled: form.get('notifications_enabled') === 'on',
                }),
              )
              .then((ok) => ok && (setSaved('Settings saved.'), settings.reload()));
          }}
        >
          <div class="field">
            <label for="field-theme">Theme</label>
            <select id="field-theme" name="theme" value={value.theme}>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
          </div>
          <Field label="Language" name="language" defaultValue={value.language} error={save.error} />
          <Field label="Default OCR language" name="ocr_default_language" defaultValue={value.ocr_default_language} error={save.error} />
          <Field label="Items per page" name="items_per_page" type="number" min={1} max={100} defaultValue={String(value.items_per_page)} error={save.error} />
          <label class="check">
            <input type="checkbox" name="notifications_enabled" defaultChecked={value.notifications_enabled} /> Notifications
          </label>
          <ErrorNote error={save.error} />
          {saved ? <p role="status">{saved}</p> : null}
          <button type="submit" class="primary" disabled={save.busy}>
            Save settings
          </button>
        </form>
      ) : null}
      <form
        class="stack"
        aria-label="Change password"
        onSubmit={(event) => {
          event.preventDefault();
          const formElement = event.currentTarget;
          const form = new FormData(formElement);
          void password.run(() => changePassword(String(form.get('current_password')), String(form.get('new_password')))).then((ok) => ok && formElement.reset());
        }}
      >
        <h2>Change password</h2>
        <Field label="Current password" name="current_password" type="password" autocomplete="current-password" required error={password.error} />
        <Field label="New password" name="new_password" type="password" autocomplete="new-password" required error={password.error} />
        <ErrorNote error={password.error} />
        <button type="submit" disabled={password.busy}>
          Change password
        </button>
      </form>
    </Page>
  );
}
