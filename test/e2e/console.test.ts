import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildConsole } from '../../web/build';
import { ApiClient } from '../support/api-client';
import { eventually } from '../support/until';
import { launchChromium, openConsole, screenshot, seriousViolations, signIn, visit, type ConsolePage } from '../support/console-browser';
import { pdfDocument } from '../support/fixtures';
import { textPdf } from '../support/text-pdf';
import { startRcloneDav, type RunningDav } from '../support/webdav-servers';
import { E2E_ADMIN } from './global-setup';

/**
 * The web console (web/) as people use it, in Debian's Chromium against the e2e runtime: one signed-up
 * workspace whose admin goes through the journeys in order (each test builds on the one before), every
 * page audited by axe-core and photographed (test-results/console/). Waits are on the page's state, sized for
 * a loaded two-core machine; OCR runs for real.
 */

const UI_TIMEOUT_MS = 60_000;
const OCR_TIMEOUT_MS = 180_000;
const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus/ocrmypdf');
const baseUrl = inject('baseUrl');

/** A real PDF grown to `megabytes` with comment lines after %%EOF, which PDF readers ignore. */
const paddedPdf = (megabytes: number): Buffer =>
  Buffer.concat([readFileSync(join(CORPUS, 'cardinal.pdf')), Buffer.from(`\n%${'x'.repeat(1022)}`.repeat(megabytes * 1024))]);

describe('the web console in Chromium', () => {
  let browser: Browser;
  let admin: ConsolePage;
  let api: ApiClient;
  const suffix = randomBytes(4).toString('hex');
  const owner = { username: `console_${suffix}`, password: `console-${suffix}-secret` };
  const audits = new Map<string, Awaited<ReturnType<typeof seriousViolations>>>();

  /** axe-core on the page as shown now, and its screenshot under `name`. */
  const audit = async (page: ConsolePage, name: string) => {
    audits.set(name, await seriousViolations(page.page));
    await screenshot(page.page, name);
  };

  beforeAll(async () => {
    buildConsole();
    browser = await launchChromium(UI_TIMEOUT_MS);
  }, 2 * UI_TIMEOUT_MS);

  // What the page showed when a test failed, beside the audits' screenshots.
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail' && admin) await screenshot(admin.page, `failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });

  afterAll(async () => {
    await admin?.context.close();
    await browser?.close();
  });

  it('serves the page uncached with a strict CSP, and its hashed assets immutable', async () => {
    const page = await fetch(`${baseUrl}/`);
    const html = await page.text();
    const script = /src="(\/assets\/main-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    const asset = await fetch(`${baseUrl}${script}`);

    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self';");
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe');
    expect(html).not.toMatch(/<script>|<script(?![^>]*\bsrc=)[^>]*>/);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('registers a new account, signs in with it and shows its empty documents', { timeout: 4 * UI_TIMEOUT_MS }, async () => {
    admin = await openConsole(browser, baseUrl, { timeoutMs: UI_TIMEOUT_MS });
    const { page } = admin;
    await audit(admin, 'sign-in');
    await page.getByRole('button', { name: 'No account? Register' }).click();
    await page.getByLabel('Username').fill(owner.username);
    await page.getByLabel('Email').fill(`${owner.username}@example.com`);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByText('Account created: sign in with it.').waitFor();

    await signIn(admin, owner.username, owner.password);
    await page.getByText('No documents match.').waitFor();
    api = await new ApiClient(baseUrl).login(owner.username, owner.password);

    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Documents');
    expect(await page.getByText(`${owner.username} (admin)`).count()).toBe(1);
  });

  it('uploads a scan and a PDF through the picker and shows their OCR reach completed live', { timeout: OCR_TIMEOUT_MS + UI_TIMEOUT_MS }, async () => {
    const { page } = admin;
    await page.locator('#upload-files').setInputFiles([
      { name: 'linn-scan.png', mimeType: 'image/png', buffer: readFileSync(join(CORPUS, 'linn.png')) },
      { name: 'invoice.pdf', mimeType: 'application/pdf', buffer: textPdf([['Quarterly invoice 4711 for ACME Corporation']]) },
    ]);
    const rows = page.locator('table.documents tbody tr');

    // Both rows appear and turn completed without a reload: the page follows the WebSocket's events.
    await rows.filter({ hasText: 'linn-scan.png' }).locator('.status-completed').waitFor({ timeout: OCR_TIMEOUT_MS });
    await rows.filter({ hasText: 'invoice.pdf' }).locator('.status-completed').waitFor({ timeout: OCR_TIMEOUT_MS });
    await page.locator('table.documents img').first().waitFor();
    await audit(admin, 'documents');

    expect(await page.getByRole('status').filter({ hasText: 'Uploaded' }).count()).toBe(2);
    expect(await rows.count()).toBe(2);
  });

  it('finds a word of the scan and shows it marked, with facets to narrow by', { timeout: 3 * UI_TIMEOUT_MS }, async () => {
    const { page } = admin;
    const [scan] = (await api.get('/api/documents?per_page=100')).body.data.filter((doc: { filename: string }) => doc.filename === 'linn-scan.png');
    await api.searchable(scan.id, UI_TIMEOUT_MS);
    await visit(admin, '#/search', 'Search');
    await page.getByLabel('Search documents').fill('sequencer');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const hit = page.locator('ol.results li').first();
    await hit.locator('mark').first().waitFor();
    await audit(admin, 'search');

    // Matched by stem: the mark covers the stem ("Sequence" of "Sequencer").
    expect((await hit.locator('mark').first().textContent())?.toLowerCase()).toContain('sequence');
    expect(await page.getByRole('button', { name: /^image\/png \(1\)$/ }).count()).toBe(1);
  });

  it('opens the document from the result, with its text marked and its actions', { timeout: 2 * UI_TIMEOUT_MS }, async () => {
    const { page } = admin;
    await page.locator('ol.results li a').first().click();
    await page.getByRole('heading', { level: 2, name: 'Text' }).waitFor();
    await page.locator('pre.content mark').first().waitFor();
    await audit(admin, 'document');

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    const download = await downloading;

    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('linn-scan');
    for (const action of ['Download', 'Edit', 'Retry OCR', 'Delete']) expect(await page.getByRole('button', { name: action, exact: true }).count()).toBe(1);
    expect(download.suggestedFilename()).toBe('linn-scan.png');
  });

  it('creates a label, assigns it on the document page and filters the list by it', { timeout: 3 * UI_TIMEOUT_MS }, async () => {
    const { page } = admin;
    const documentUrl = page.url();
    await visit(admin, '#/labels', 'Labels');
    await page.getByLabel('Name').fill('Manuals');
    await page.getByRole('button', { name: 'Create label' }).click();
    await page.getByRole('link', { name: 'Manuals' }).waitFor();
    await audit(admin, 'labels');
    await page.goto(documentUrl);
    await page.getByLabel('Add a label').selectOption({ label: 'Manuals' });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.locator('.chips').getByText('Manuals').waitFor();

    // The filtered listing comes from the search index, a moment behind the assignment.
    const labelId = (await api.get('/api/labels')).body.labels[0].id;
    await eventually(() => api.get(`/api/documents?label_ids=${labelId}`), (answer) => answer.body.data.length === 1, UI_TIMEOUT_MS, 'the label filter');
    await visit(admin, '#/documents', 'Documents');
    const rows = page.locator('table.documents tbody tr');
    await rows.filter({ hasText: 'invoice.pdf' }).waitFor();
    await page.getByLabel('Label').selectOption({ label: 'Manuals' });
    await rows.filter({ hasText: 'invoice.pdf' }).waitFor({ state: 'detached' });
    await rows.filter({ hasText: 'linn-scan.png' }).waitFor();

    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('linn-scan.png');
    expect(page.url()).toContain('label_ids=');
  });

  describe('with a WebDAV server', () => {
    let root: string;
    let dav: RunningDav;

    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), 'console-dav-'));
      const { mkdir, writeFile } = await import('node:fs/promises');
      await mkdir(join(root, 'scans'));
      for (let index = 1; index <= 3; index++) await writeFile(join(root, 'scans', `receipt-${index}.pdf`), pdfDocument(`Receipt number ${index}`));
      dav = await startRcloneDav({ root, username: 'sync', password: 'correct horse battery' });
    }, UI_TIMEOUT_MS);

    afterAll(async () => {
      await dav?.stop();
      if (root) await rm(root, { recursive: true, force: true });
    });

    it('creates a source, shows the server refusing a bad field beside it, and shows its first sync progress live', { timeout: 3 * UI_TIMEOUT_MS }, async () => {
      const { page } = admin;
      await visit(admin, '#/sources', 'Sources');
      const form = page.getByRole('form', { name: 'New WebDAV source' });
      await form.getByLabel('Name', { exact: true }).fill('Scanner share');
      await form.getByLabel('URL').fill(dav.url);
      await form.getByLabel('Username', { exact: true }).fill('sync');
      await form.getByLabel('Password', { exact: true }).fill('correct horse battery');
      await form.getByLabel('Sync every (seconds)').fill('5');
      await form.getByRole('button', { name: 'Create source' }).click();
      const refusal = await page.locator('.field-error').first().textContent();
      await form.getByLabel('Sync every (seconds)').fill('3600');
      await form.getByRole('button', { name: 'Create source' }).click();
      const card = page.locator('li.card').filter({ hasText: 'Scanner share' });
      // Creating a source starts its first sync: its progress arrives over the WebSocket.
      await card.waitFor();
      await card.locator('.sync-count', { hasText: /^3 \/ 3$/ }).waitFor();
      await audit(admin, 'sources');

      expect(refusal).toBeTruthy();
      expect(await card.locator('progress').getAttribute('value')).toBe('3');
    });
  });

  it('uploads a 20 MB file through the presigned flow, with its progress', { timeout: 3 * UI_TIMEOUT_MS }, async () => {
    const { page } = admin;
    await visit(admin, '#/documents', 'Documents');
    const puts: string[] = [];
    page.on('request', (request) => request.method() === 'PUT' && puts.push(request.url()));
    await page.locator('#upload-files').setInputFiles([{ name: 'big-scan.pdf', mimeType: 'application/pdf', buffer: paddedPdf(20) }]);
    await page.locator('.uploads li').filter({ hasText: 'big-scan.pdf' }).getByText('Uploaded').waitFor();
    const listed = (await api.get('/api/documents?per_page=100')).body.data.filter((doc: { filename: string }) => doc.filename === 'big-scan.pdf');

    expect(puts.some((url) => url.includes('X-Amz-Signature'))).toBe(true);
    expect(listed).toHaveLength(1);
    expect(listed[0].size).toBeGreaterThan(20 * 1024 * 1024);
  });

  it('takes a file dropped on the drop zone', { timeout: 2 * UI_TIMEOUT_MS }, async () => {
    const { page } = admin;
    await visit(admin, '#/documents', 'Documents');
    const bytes = [...pdfDocument('Dropped receipt')];
    // A drop as the browser makes it: a DataTransfer holding a File, built in the page.
    const dataTransfer = await page.evaluateHandle(
      `(() => { const data = new DataTransfer(); data.items.add(new File([new Uint8Array(${JSON.stringify(bytes)})], 'dropped.pdf', { type: 'application/pdf' })); return data; })()`,
    );
    await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer });
    await page.locator('.uploads li').filter({ hasText: 'dropped.pdf' }).getByText('Uploaded').waitFor();

    expect((await api.get('/api/documents?per_page=100')).body.data.map((doc: { filename: string }) => doc.filename)).toContain('dropped.pdf');
  });

  it('shows a document titled with markup as text: nothing of it runs', { timeout: 2 * UI_TIMEOUT_MS }, async () => {
    const { page } = admin;
    const title = '<img src=x onerror=alert(1)>';
    await api.uploadDocument('hostile.pdf', pdfDocument('Hostile title'), { title });
    await visit(admin, '#/documents', 'Documents');
    await page.getByRole('link', { name: title }).waitFor();
    await page.getByRole('link', { name: title }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();

    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(admin.problems.dialogs).toEqual([]);
  });

  it('lets an admin create a viewer, who then sees no control to change anything', { timeout: 3 * UI_TIMEOUT_MS }, async () => {
    const { page } = admin;
    const viewer = { username: `viewer_${suffix}`, password: `viewer-${suffix}-secret` };
    await visit(admin, '#/users', 'Users');
    const form = page.getByRole('form', { name: 'New user' });
    await form.getByLabel('Username', { exact: true }).fill(viewer.username);
    await form.getByLabel('Email', { exact: true }).fill(`${viewer.username}@example.com`);
    await form.getByLabel('Password', { exact: true }).fill(viewer.password);
    await form.getByLabel('Role').selectOption('viewer');
    await form.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('cell', { name: viewer.username, exact: true }).waitFor();
    await audit(admin, 'users');

    const reader = await openConsole(browser, baseUrl, { timeoutMs: UI_TIMEOUT_MS, width: 360 });
    try {
      await signIn(reader, viewer.username, viewer.password);
      await reader.page.locator('table.documents tbody tr').first().waitFor();
      const uploadShown = await reader.page.locator('#upload-files').count();
      await reader.page.getByRole('link', { name: 'linn-scan', exact: true }).click();
      await reader.page.getByRole('heading', { level: 2, name: 'Text' }).waitFor();
      await screenshot(reader.page, 'viewer-document-360px');

      expect(uploadShown).toBe(0);
      expect(await reader.page.getByRole('button', { name: 'Download' }).count()).toBe(1);
      for (const action of ['Edit', 'Retry OCR', 'Delete', 'Add']) expect(await reader.page.getByRole('button', { name: action, exact: true }).count()).toBe(0);
      expect(await reader.page.getByLabel('Add a label').count()).toBe(0);
    } finally {
      await reader.context.close();
    }
  });

  it('passes axe-core on every other page, at 360 px wide too, where the operator signs in and moves with the keyboard', { timeout: 6 * UI_TIMEOUT_MS }, async () => {
    const pages: [string, string][] = [
      ['#/notifications', 'Notifications'],
      ['#/settings', 'Settings'],
      ['#/tokens', 'API tokens'],
      ['#/webhooks', 'Webhooks'],
      ['#/rules', 'Rules'],
      ['#/usage', 'Usage'],
      ['#/queue', 'OCR queue'],
      ['#/audit', 'Audit log'],
      ['#/export', 'Export'],
    ];
    for (const [route, heading] of pages) {
      await visit(admin, route, heading);
      await admin.page.waitForLoadState('networkidle');
      await audit(admin, heading.toLowerCase().replace(/ /g, '-'));
    }
    const narrow = await openConsole(browser, baseUrl, { timeoutMs: UI_TIMEOUT_MS, width: 360 });
    try {
      // The keyboard only: Tab to each field, Enter to submit; the menu opened and followed with Enter.
      await narrow.page.keyboard.press('Tab');
      await narrow.page.keyboard.type(E2E_ADMIN.username);
      await narrow.page.keyboard.press('Tab');
      await narrow.page.keyboard.type(E2E_ADMIN.password);
      await narrow.page.keyboard.press('Enter');
      await narrow.page.getByRole('button', { name: 'Menu' }).waitFor();
      await narrow.page.getByRole('button', { name: 'Menu' }).focus();
      await narrow.page.keyboard.press('Enter');
      await narrow.page.getByRole('link', { name: 'Workspaces' }).focus();
      await narrow.page.keyboard.press('Enter');
      await narrow.page.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
      await narrow.page.locator('table tbody tr').first().waitFor();
      await audit(narrow, 'workspaces-360px');
      for (const [route, heading] of [
        ['#/documents', 'Documents'],
        ['#/search?q=invoice', 'Search'],
      ] as const) {
        await visit(narrow, route, heading);
        await narrow.page.waitForLoadState('networkidle');
        await audit(narrow, `${heading.toLowerCase()}-360px`);
      }
      const overflow = await narrow.page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');

      expect(overflow).toBeLessThanOrEqual(0);
      expect(narrow.problems.csp).toEqual([]);
    } finally {
      await narrow.context.close();
    }

    expect(Object.fromEntries([...audits].filter(([, violations]) => violations.length))).toEqual({});
    expect(admin.problems.csp).toEqual([]);
    expect(admin.problems.thrown).toEqual([]);
  });
});
