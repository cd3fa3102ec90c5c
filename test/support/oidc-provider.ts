import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** A person the provider can sign in; `login_hint=<sub>` on the authorization request picks them. */
export interface TestAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  name?: string;
  groups?: string[];
}

export interface TestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

/** How the provider spoils the next ID token it issues: a real, signed token, with one thing wrong. */
export type IdTokenFault = { kind: 'audience'; clientId: string } | { kind: 'expired'; secondsAgo: number };

export interface TestOidcProvider {
  issuer: string;
  /** The next ID token is issued with this fault (once). */
  spoilNextIdToken(fault: IdTokenFault): void;
  stop(): Promise<void>;
}

/**
 * A real OpenID Provider (oidc-provider) on 127.0.0.1: code flow with PKCE required, RS256 ID tokens, and an
 * interaction handler that signs in the account named by `login_hint` (else the first) and grants the
 * requested scopes at once, as a user clicking through would.
 */
export async function startOidcProvider(options: { port: number; clients: TestClient[]; accounts: TestAccount[] }): Promise<TestOidcProvider> {
  const issuer = `http://127.0.0.1:${options.port}`;
  const accounts = new Map(options.accounts.map((account) => [account.sub, account]));
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    clients: options.clients.map((client) => ({ ...client, grant_types: ['authorization_code'], response_types: ['code'] })),
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'test-key', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: ['test-cookie-key'] },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      return account ? { accountId: sub, claims: () => ({ ...account }) } : undefined;
    },
  });
  let fault: IdTokenFault | null = null;
  const issue = provider.IdToken.prototype.issue;
  provider.IdToken.prototype.issue = async function (this: { client: unknown }, issueOptions) {
    const spoil = issueOptions?.use === 'idtoken' ? fault : null;
    fault = spoil ? null : fault;
    if (spoil?.kind === 'audience') this.client = await provider.Client.find(spoil.clientId);
    const expiresAt = spoil?.kind === 'expired' ? Math.floor(Date.now() / 1000) - spoil.secondsAgo : issueOptions?.expiresAt;
    return issue.call(this, { ...issueOptions, expiresAt: expiresAt ?? null });
  };
  const callback = provider.callback();
  const server: Server = createServer((req, res) => {
    if (!req.url?.startsWith('/interaction/')) return callback(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const accountId = details.session?.accountId ?? details.params['login_hint'] ?? options.accounts[0]!.sub;
      if (details.prompt.name === 'login') {
        await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
        return;
      }
      const grant = new provider.Grant({ accountId, clientId: details.params['client_id']! });
      grant.addOIDCScope(details.params['scope'] ?? 'openid');
      await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port, '127.0.0.1', resolve));
  return {
    issuer,
    spoilNextIdToken: (next) => {
      fault = next;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Plays the browser at the provider: follows the redirects from the authorization URL (with a cookie jar of
 * its own, so each sign-in starts without a provider session) until the provider sends it to a URL that
 * starts with `redirectUri`, and returns that URL without visiting it.
 */
export async function signInAtProvider(authorizationUrl: string, redirectUri: string, loginHint?: string): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = new URL(authorizationUrl);
  if (loginHint) url.searchParams.set('login_hint', loginHint);
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`the provider answered ${response.status} at ${url.href}: ${await response.text()}`);
    url = new URL(location, url);
    if (url.href.startsWith(redirectUri)) return url;
  }
  throw new Error('the provider never sent the browser back');
}
