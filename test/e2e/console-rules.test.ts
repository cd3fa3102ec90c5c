import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildConsole } from '../../web/build';
import { ApiClient } from '../support/api-client';
import { launchChromium, openConsole, screenshot, seriousViolations, signIn, visit, type ConsolePage } from '../support/console-browser';
import { pdfDocument } from '../support/fixtures';

/**
 * The console's rules page in Chromium against the e2e runtime: one signed-up workspace with two documents and
 * a label, whose admin writes a rule with the keyboard (the server's refusals shown beside their fields), edits
 * it, runs it over the existing documents and watches the run, and deletes it. Each test builds on the one before.
 */

const UI_TIMEOUT_MS = 60_000;
const baseUrl = inject('baseUrl');

describe('the rules page of the web console in Chromium', () => {
  let browser: Browser;
  let admin: ConsolePage;
  let api: ApiClient;
  let invoices: { id: string; name: string };
  let receipts: { id: string; name: string };
  const documents: Record<string, string> = {};

  beforeAll(async () => {
    buildConsole();
    const owner = await new ApiClient(baseUrl).signUp('console_rules');
    api = owner.client;
    invoices = (await api.post('/api/labels', { name: 'Invoices', color: '#aa3311' })).body;
    receipts = (await api.post('/api/labels', { name: 'Receipts', color: '#117733' })).body;
    documents['invoice'] = await api.uploadDocument('invoice-march.pdf', pdfDocument('Invoice for March'));
    documents['letter'] = await api.uploadDocument('letter.pdf', pdfDocument('A letter'));
    browser = await launchChromium(UI_TIMEOUT_MS);
    admin = await openConsole(browser, baseUrl, { timeoutMs: UI_TIMEOUT_MS });
    await signIn(admin, owner.user.username, owner.password);
  }, 4 * UI_TIMEOUT_MS);

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail' && admin) await screenshot(admin.page, `failed-rules-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
  });

  afterAll(async () => {
    await admin?.context.close();
    await browser?.close();
  });

  const newRule = () => admin.page.getByRole('form', { name: 'New rule' });
  const card = (name: string) => admin.page.locator('li.rule').filter({ has: admin.page.getByRole('heading', { level: 2, name, exact: true }) });

  it('shows the refusals of a rule written with the keyboard beside their fields, then creates it', { timeout: 3 * UI_TIMEOUT_MS }, async () => {
    const { page } = admin;
    await visit(admin, '#/rules', 'Rules');
    const form = newRule();
    await form.getByLabel('Name').focus();
    await page.keyboard.type('Invoices by filename');
    await form.getByLabel('Look in').selectOption('filename');
    await form.getByLabel('For', { exact: true }).selectOption('regex');
    await form.getByLabel('Pattern').focus();
    await page.keyboard.type('(invoice');
    await page.keyboard.press('Enter');
    const labelsGroup = form.getByRole('group', { name: 'Labels to add' });
    const labelsRefusal = await labelsGroup.locator('.field-error').textContent();
    await labelsGroup.getByLabel('Invoices').focus();
    await page.keyboard.press('Space');
    await form.getByLabel('Pattern').focus();
    await page.keyboard.press('Enter');
    await form.locator('#new-rule-pattern-error').waitFor();
    const patternRefusal = await form.locator('#new-rule-pattern-error').textContent();
    const patternInvalid = await form.getByLabel('Pattern').getAttribute('aria-invalid');
    await form.getByLabel('Pattern').fill('^invoice');
    await form.getByLabel('Pattern').press('Enter');
    await card('Invoices by filename').waitFor();
    const audit = await seriousViolations(page);
    await screenshot(page, 'rules');
    const stored = (await api.get('/api/rules')).body.rules;

    expect(labelsRefusal).toBeTruthy();
    expect(patternRefusal).toContain('regular expression');
    expect(patternInvalid).toBe('true');
    expect(stored).toMatchObject([{ name: 'Invoices by filename', match: { field: 'filename', algorithm: 'regex', pattern: '^invoice' }, add_labels: [invoices.id] }]);
    expect(await form.getByLabel('Name').inputValue()).toBe('');
    expect(audit).toEqual([]);
  });

  it('edits the rule: its pattern, a condition and a second label', { timeout: 2 * UI_TIMEOUT_MS }, async () => {
    await card('Invoices by filename').getByRole('button', { name: 'Edit Invoices by filename' }).click();
    const form = admin.page.getByRole('form', { name: 'Edit rule Invoices by filename' });
    await form.getByLabel('Name').fill('Invoices and receipts');
    await form.getByLabel('Pattern').fill('^(invoice|receipt)');
    await form.getByLabel('application/pdf').check();
    await form.getByRole('group', { name: 'Labels to add' }).getByLabel('Receipts').check();
    await form.getByRole('button', { name: 'Save rule' }).click();
    await card('Invoices and receipts').waitFor();
    const [stored] = (await api.get('/api/rules')).body.rules;

    expect(await admin.page.getByRole('form', { name: /^Edit rule/ }).count()).toBe(0);
    expect(await card('Invoices and receipts').locator('.chips li').allTextContents()).toEqual(['Invoices', 'Receipts']);
    expect(stored).toMatchObject({ match: { pattern: '^(invoice|receipt)' }, when: { mime_types: ['application/pdf'] } });
    expect(stored.add_labels).toHaveLength(2);
  });

  it('applies the rule to the existing documents and shows the run until it completes', { timeout: 3 * UI_TIMEOUT_MS }, async () => {
    const rule = card('Invoices and receipts');
    await rule.getByRole('button', { name: /^Apply to existing documents/ }).click();
    await rule.getByRole('status').locator('.badge', { hasText: 'completed' }).waitFor();
    const labelled = await api.get(`/api/documents/${documents['invoice']}`);
    const untouched = await api.get(`/api/documents/${documents['letter']}`);

    expect(await rule.locator('.apply-count').textContent()).toBe('2 / 2');
    expect(await rule.getByRole('status').textContent()).toContain('1 labelled');
    expect(await rule.locator('progress').getAttribute('value')).toBe('2');
    expect([...labelled.body.labels].sort()).toEqual([invoices.id, receipts.id].sort());
    expect(untouched.body.labels).toEqual([]);
  });

  it('deletes the rule after asking', { timeout: 2 * UI_TIMEOUT_MS }, async () => {
    await card('Invoices and receipts').getByRole('button', { name: 'Delete Invoices and receipts' }).click();
    await admin.page.getByText('No rules yet.').waitFor();

    expect((await api.get('/api/rules')).body.rules).toEqual([]);
    expect(admin.problems.dialogs).toEqual(['confirm: Delete rule "Invoices and receipts"?']);
    expect(admin.problems.csp).toEqual([]);
    expect(admin.problems.thrown).toEqual([]);
  });
});
