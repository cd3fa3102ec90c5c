import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../shared/local/emulators/ports';
import { buildConsole } from '../../web/build';
import { launchChromium, openConsole, screenshot, seriousViolations, type ConsolePage } from '../support/console-browser';
import { startOidcProvider, type TestOidcProvider } from '../support/oidc-provider';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';

/**
 * "Sign in with SSO" in the web console, in Chromium: a local runtime of its own configured for a real OpenID
 * Provider (oidc-provider) on loopback, with OIDC_FRONTEND_URL naming the console, so that the whole trip is the
 * browser's: the console, the runtime's login, the provider's pages, the runtime's callback, and back to the
 * console with the token in the fragment.
 */

const UI_TIMEOUT_MS = 60_000;
const CLIENT = { client_id: 'docservice-console', client_secret: 'console-secret' };
const ACCOUNT = { sub: 'dana-sub', email: 'dana@corp.example', email_verified: true, preferred_username: 'dana.sso', name: 'Dana Scully' };

describe('single sign-on in the web console in Chromium', () => {
  let runtime: RuntimeProcess;
  let provider: TestOidcProvider;
  let browser: Browser;
  let ui: ConsolePage;

  beforeAll(async () => {
    const providerPort = await freePort();
    const issuer = `http://127.0.0.1:${providerPort}`;
    runtime = await startRuntimeProcess({
      env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: CLIENT.client_id, OIDC_CLIENT_SECRET: CLIENT.client_secret },
      envFor: (baseUrl) => ({ OIDC_REDIRECT_URI: `${baseUrl}/api/auth/oidc/callback`, OIDC_FRONTEND_URL: `${baseUrl}/` }),
    });
    provider = await startOidcProvider({
      port: providerPort,
      clients: [{ ...CLIENT, redirect_uris: [`${runtime.baseUrl}/api/auth/oidc/callback`] }],
      accounts: [ACCOUNT],
    });
    buildConsole();
    browser = await launchChromium(UI_TIMEOUT_MS);
  }, 4 * UI_TIMEOUT_MS);

  afterAll(async () => {
    await ui?.context.close();
    await browser?.close();
    await provider?.stop();
    await runtime?.stop();
  });

  it('signs in through the provider and lands on the documents page, signed in, with the token gone from the address', { timeout: 3 * UI_TIMEOUT_MS }, async () => {
    ui = await openConsole(browser, runtime.baseUrl, { timeoutMs: UI_TIMEOUT_MS });
    const { page } = ui;
    // The provider's pages and the callback are redirects: seen as navigation requests, not as committed pages.
    const requested: string[] = [];
    const visited: string[] = [];
    page.on('request', (request) => request.isNavigationRequest() && requested.push(request.url()));
    page.on('framenavigated', (frame) => frame === page.mainFrame() && visited.push(frame.url()));
    const ssoLink = page.getByRole('link', { name: 'Sign in with SSO' });
    await ssoLink.waitFor();
    const audit = await seriousViolations(page);
    await ssoLink.click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Documents' }).waitFor();
    await page.getByText('No documents match.').waitFor();
    await screenshot(page, 'sso-documents');
    const stored = (await page.evaluate('JSON.stringify([Object.keys(localStorage), Object.keys(sessionStorage)])')) as string;

    expect(requested.some((url) => url.startsWith(`${provider.issuer}/auth`))).toBe(true);
    expect(requested.some((url) => url.startsWith(`${runtime.baseUrl}/api/auth/oidc/callback?`))).toBe(true);
    expect(visited.some((url) => url.includes('#token='))).toBe(true);
    expect(page.url()).toBe(`${runtime.baseUrl}/#/documents`);
    expect(await page.locator('.who').textContent()).toBe('dana.sso (viewer)');
    expect(stored).not.toMatch(/token/i);
    expect(audit).toEqual([]);
    expect(ui.problems).toEqual({ csp: [], thrown: [], dialogs: [] });
  });

  it('signs out back to the sign-in page, where SSO is offered again', { timeout: 2 * UI_TIMEOUT_MS }, async () => {
    const { page } = ui;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in with SSO' }).waitFor();

    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to docservice');
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
  });
});
