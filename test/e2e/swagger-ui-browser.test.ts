import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { E2E_ADMIN } from './global-setup';

/**
 * Swagger UI as a user meets it: Debian's Chromium (scripts/ensure-deps.sh installs it), driven headless by
 * playwright-core against the e2e runtime. Every wait is on the page's state, never a sleep, with timeouts sized
 * for a loaded two-core machine (Swagger UI parses and renders the whole contract before anything shows).
 */

const CHROMIUM = '/usr/bin/chromium';
const UI_TIMEOUT_MS = 60_000;
const SCREENSHOT = fileURLToPath(new URL('../../test-results/swagger-ui.png', import.meta.url));

const baseUrl = inject('baseUrl');

interface OpenApiDocument {
  paths: Record<string, Record<string, { tags?: string[] }>>;
}

/** The tags the document's operations carry: Swagger UI shows a section for each. */
const operationTags = (document: OpenApiDocument): string[] =>
  [...new Set(Object.values(document.paths).flatMap((item) => Object.values(item).flatMap((operation) => operation.tags ?? [])))].sort();

/** The operation's block in the UI, under the first tag that lists it. */
const operationBlock = (page: Page, method: string, path: string): Locator =>
  page
    .locator(`.opblock.opblock-${method}`)
    .filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) })
    .first();

describe('Swagger UI in Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: scripts/ensure-deps.sh installs Debian's chromium`);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, timeout: UI_TIMEOUT_MS });
  }, 2 * UI_TIMEOUT_MS);

  afterAll(async () => {
    await browser?.close();
  });

  it('shows every tag, takes a token under Authorize and runs GET /api/documents with it: 200', { timeout: 4 * UI_TIMEOUT_MS }, async () => {
    // Arrange: the tags the served contract has, and the admin's token from a login through the API.
    const document = (await (await fetch(`${baseUrl}/api-docs/openapi.json`)).json()) as OpenApiDocument;
    const tags = operationTags(document);
    const { token } = await new ApiClient(baseUrl).login(E2E_ADMIN.username, E2E_ADMIN.password);
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    // What the page's CSP refused (Chromium reports each refusal on the console) and what the page threw.
    const refused: string[] = [];
    const thrown: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) refused.push(message.text());
    });
    page.on('pageerror', (error) => thrown.push(error.message));

    try {
      // Act: open the UI and wait for each tag's section.
      await page.goto(`${baseUrl}/swagger-ui`, { waitUntil: 'load', timeout: UI_TIMEOUT_MS });
      for (const tag of tags) await page.locator(`.opblock-tag[data-tag=${JSON.stringify(tag)}]`).waitFor();
      const shownTags = await page.locator('.opblock-tag').evaluateAll((sections) => sections.map((section) => section.getAttribute('data-tag')));

      // Act: Authorize with the token.
      await page.locator('.auth-wrapper button.authorize').click();
      const dialog = page.locator('.dialog-ux .modal-ux');
      const bearer = dialog.locator('.auth-container').filter({ hasText: 'bearerAuth' });
      await bearer.locator('input').fill(token!);
      await bearer.locator('button[type="submit"]').click();
      // Swagger UI swaps the field for "Logout" once it holds the token (the button's accessible name is not its text).
      await bearer.locator('button', { hasText: 'Logout' }).waitFor();
      await dialog.locator('button.btn-done').click();
      await dialog.waitFor({ state: 'detached' });

      // Act: open the documents tag (tags start closed), expand GET /api/documents, "Try it out", "Execute".
      await page.locator('.opblock-tag[data-tag="documents"]').click();
      const operation = operationBlock(page, 'get', '/api/documents');
      await operation.locator('.opblock-summary').first().click();
      await operation.locator('button.try-out__btn').click();
      await operation.locator('button.execute').click();
      const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
      await status.waitFor();
      await status.scrollIntoViewIfNeeded();

      // Assert
      expect(tags.length).toBeGreaterThan(0);
      expect(shownTags).toEqual(expect.arrayContaining(tags));
      expect((await status.textContent())?.trim()).toBe('200');
      // The call went to this origin, with the token entered under Authorize.
      expect(await operation.locator('.request-url').first().textContent()).toContain(`${baseUrl}/api/documents`);
      expect(await operation.locator('.curl-command').first().textContent()).toContain(`Bearer ${token}`);
      expect(refused).toEqual([]);
      expect(thrown).toEqual([]);
    } finally {
      // The artefact, also of a failed run: what the page showed last.
      await mkdir(dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, timeout: UI_TIMEOUT_MS });
      await context.close();
    }
  });
});
