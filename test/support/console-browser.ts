import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * The web console in Debian's Chromium (scripts/ensure-deps.sh installs it), driven headless by playwright-core:
 * pages that record what their CSP refused, what they threw and any dialog they opened (a script a document
 * smuggled in would open one), axe-core's audit, and screenshots kept as test artefacts.
 */

export const CHROMIUM = '/usr/bin/chromium';
/** Where the screenshots go (gitignored, kept by CI as artefacts). */
export const SCREENSHOTS = resolve(import.meta.dirname, '../../test-results/console');
const AXE = resolve(import.meta.dirname, '../../web/node_modules/axe-core/axe.min.js');

export interface ConsolePage {
  page: Page;
  context: BrowserContext;
  /** CSP refusals (Chromium reports each on the console), page errors and dialogs, in order. */
  problems: { csp: string[]; thrown: string[]; dialogs: string[] };
}

export async function launchChromium(timeoutMs: number): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: scripts/ensure-deps.sh installs Debian's chromium`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, timeout: timeoutMs });
}

/** Opens the console in a context of its own; `colorScheme` is what the page's prefers-color-scheme reports. */
export async function openConsole(
  browser: Browser,
  baseUrl: string,
  options: { width?: number; timeoutMs: number; colorScheme?: 'light' | 'dark' },
): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 }, baseURL: baseUrl, colorScheme: options.colorScheme ?? 'light' });
  const page = await context.newPage();
  page.setDefaultTimeout(options.timeoutMs);
  const problems: ConsolePage['problems'] = { csp: [], thrown: [], dialogs: [] };
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) problems.csp.push(message.text());
  });
  page.on('pageerror', (error) => problems.thrown.push(error.message));
  page.on('dialog', (dialog) => {
    problems.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    // The console asks before deleting; every other dialog is a finding.
    void (dialog.type() === 'confirm' ? dialog.accept() : dialog.dismiss());
  });
  await page.goto('/', { waitUntil: 'load' });
  return { page, context, problems };
}

export async function signIn(console: ConsolePage, username: string, password: string): Promise<void> {
  const { page } = console;
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Goes to a hash route and waits for its heading. */
export async function visit(console: ConsolePage, route: string, heading: string): Promise<void> {
  await console.page.evaluate(`location.hash = ${JSON.stringify(route)}`);
  await console.page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

let axeSource: string | undefined;

/**
 * axe-core's audit of the page as it is, its serious and critical violations only. The script is evaluated
 * through the DevTools protocol, which the page's CSP does not govern (the page itself may run no such script).
 */
export async function seriousViolations(page: Page): Promise<{ id: string; impact: string | null; help: string; targets: string[] }[]> {
  axeSource ??= await readFile(AXE, 'utf8');
  if (!(await page.evaluate("'axe' in window"))) await page.evaluate(axeSource);
  const violations = (await page.evaluate('axe.run(document).then((result) => result.violations)')) as AxeViolation[];
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.map((node) => JSON.stringify(node.target)) }));
}

/** Saves the page as `<name>.png` under {@link SCREENSHOTS}. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
