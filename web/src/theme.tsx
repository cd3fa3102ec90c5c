/**
 * The colour theme: the system's (prefers-color-scheme, applied by the stylesheet alone) unless the toggle chose
 * one, which is kept in localStorage (a preference, not a secret) and set as `data-theme` on the root element.
 */
import { useEffect, useState } from 'preact/hooks';

export type Theme = 'light' | 'dark';

const KEY = 'docservice.theme';
const systemDark = matchMedia('(prefers-color-scheme: dark)');

/** The theme the toggle chose, if any (storage may be refused, as in some private windows). */
function chosenTheme(): Theme | null {
  try {
    const value = localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch {
    return null;
  }
}

const shownTheme = (): Theme => chosenTheme() ?? (systemDark.matches ? 'dark' : 'light');

/** Sets the chosen theme on the page; called before the first render so that the page starts in it. */
export function applyChosenTheme(): void {
  const theme = chosenTheme();
  if (theme) document.documentElement.dataset['theme'] = theme;
  else delete document.documentElement.dataset['theme'];
}

function chooseTheme(theme: Theme): void {
  try {
    localStorage.setItem(KEY, theme);
  } catch {
    // Not remembered: the choice holds until the page is left.
  }
  document.documentElement.dataset['theme'] = theme;
}

/** A toggle button: pressed while the page is dark. */
export function ThemeToggle() {
  const [theme, setTheme] = useState(shownTheme);
  useEffect(() => {
    const follow = () => setTheme(shownTheme());
    systemDark.addEventListener('change', follow);
    return () => systemDark.removeEventListener('change', follow);
  }, []);
  return (
    <button
      type="button"
      class="theme-toggle"
      aria-pressed={theme === 'dark'}
      onClick={() => {
        const next = theme === 'dark' ? 'light' : 'dark';
        chooseTheme(next);
        setTheme(next);
      }}
    >
      Dark theme
    </button>
  );
}
