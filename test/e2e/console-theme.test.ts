import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildConsole } from '../../web/build';
import { ApiClient } from '../support/api-client';
import { launchChromium, openConsole, screenshot, seriousViolations, signIn, visit, type ConsolePage } from '../support/console-browser';
import { pdfDocument } from '../support/fixtures';
import { E2E_ADMIN } from './global-setup';

/**
 * The console's dark theme in Chromium against the e2e runtime: taken from prefers-color-scheme (emulated),
 * every page audited by axe-core in it (its colour-contrast rule included), and the toggle's choice kept
 * across a reload. The light theme's audits are test/e2e/console.test.ts's.
 */

const UI_TIMEOUT_MS = 60_000;
const baseUrl = inject('baseUrl');

/** The page's background and text colours as computed, with the background's relative luminance (WCAG). */
async function colours(page: Page): Promise<{ background: string; text: string; luminance: number }> {
  const [background, text] = (await page.evaluate(
    '[getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.documentElement).color]',
  )) as [string, string];
  const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number).map((channel) => {
    const value = channel / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });
  return { background, text, luminance: 0.2126 * r! + 0.7152 * g! + 0.0722 * b! };
}

const themeButton = (page: Page) => page.getByRole('button', { name: 'Dark theme' });

describe('the dark theme of the web console in Chromium', () => {
  let browser: Browser;
  let api: ApiClient;
  let documentId: string;

  beforeAll(async () => {
    buildConsole();
    api = await new ApiClient(baseUrl).login(E2E_ADMIN.username, E2E_ADMIN.password);
    documentId = await api.uploadDocument('dark-receipt.pdf', pdfDocument('Receipt for a lamp'));
    await api.searchable(documentId, 2 * UI_TIMEOUT_MS);
    browser = await launchChromium(UI_TIMEOUT_MS);
  }, 4 * UI_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
  });

  it('follows a dark system preference, and every page passes axe-core in it', { timeout: 6 * UI_TIMEOUT_MS }, async () => {
    const light = await openConsole(browser, baseUrl, { timeoutMs: UI_TIMEOUT_MS, colorScheme: 'light' });
    const lightColours = await colours(light.page);
    await light.context.close();
    const dark = await openConsole(browser, baseUrl, { timeoutMs: UI_TIMEOUT_MS, colorScheme: 'dark' });
    const audits: Record<string, Awaited<ReturnType<typeof seriousViolations>>> = {};
    const audit = async (name: string) => {
      await dark.page.waitForLoadState('networkidle');
      audits[name] = await seriousViolations(dark.page);
      await screenshot(dark.page, `dark-${name}`);
    };
    try {
      const darkColours = await colours(dark.page);
      // A refused sign-in shows the error box, so that its colours are audited too.
      await dark.page.getByLabel('Username').fill(E2E_ADMIN.username);
      await dark.page.getByLabel('Password').fill('not the password');
      await dark.page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await dark.page.getByRole('alert').first().waitFor();
      await audit('sign-in');
      await signIn(dark, E2E_ADMIN.username, E2E_ADMIN.password);
      const pages: [string, string][] = [
        ['#/documents', 'Documents'],
        [`#/documents/${documentId}?q=lamp`, 'dark-receipt'],
        ['#/search?q=lamp', 'Search'],
        ['#/labels', 'Labels'],
        ['#/sources', 'Sources'],
        ['#/notifications', 'Notifications'],
        ['#/settings', 'Settings'],
        ['#/tokens', 'API tokens'],
        ['#/webhooks', 'Webhooks'],
        ['#/rules', 'Rules'],
        ['#/users', 'Users'],
        ['#/usage', 'Usage'],
        ['#/queue', 'OCR queue'],
        ['#/audit', 'Audit log'],
        ['#/export', 'Export'],
        ['#/workspaces', 'Workspaces'],
      ];
      for (const [route, heading] of pages) {
        await visit(dark, route, heading);
        // The search's highlights are audited too: their colours are the theme's.
        if (heading === 'Search') await dark.page.locator('ol.results mark').first().waitFor();
        await audit(route.slice(2).split(/[/?]/)[0]! + (route.includes(documentId) ? '-page' : ''));
      }

      expect(lightColours.luminance).toBeGreaterThan(0.9);
      expect(darkColours.luminance).toBeLessThan(0.05);
      expect(darkColours.text).not.toBe(lightColours.text);
      expect(await themeButton(dark.page).getAttribute('aria-pressed')).toBe('true');
      expect(Object.fromEntries(Object.entries(audits).filter(([, violations]) => violations.length))).toEqual({});
      expect(dark.problems.csp).toEqual([]);
      expect(dark.problems.thrown).toEqual([]);
    } finally {
      await dark.context.close();
    }
  });

  it('keeps the theme the toggle chose across a reload, against the system preference', { timeout: 3 * UI_TIMEOUT_MS }, async () => {
    const console: ConsolePage = await openConsole(browser, baseUrl, { timeoutMs: UI_TIMEOUT_MS, colorScheme: 'dark' });
    try {
      const { page } = console;
      await themeButton(page).click();
      const chosen = await colours(page);
      await page.reload({ waitUntil: 'load' });
      await themeButton(page).waitFor();
      const reloaded = await colours(page);
      const pressedAfterReload = await themeButton(page).getAttribute('aria-pressed');
      await signIn(console, E2E_ADMIN.username, E2E_ADMIN.password);
      await themeButton(page).click();
      const darkAgain = await colours(page);

      expect(chosen.luminance).toBeGreaterThan(0.9);
      expect(reloaded.background).toBe(chosen.background);
      expect(pressedAfterReload).toBe('false');
      expect(darkAgain.luminance).toBeLessThan(0.05);
      expect(await page.evaluate("localStorage.getItem('docservice.theme')")).toBe('dark');
    } finally {
      await console.context.close();
    }
  });
});
