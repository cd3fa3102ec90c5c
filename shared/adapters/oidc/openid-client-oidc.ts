import * as client from 'openid-client';
import { AppError } from '../../domain/errors';
import type { AuthorizationRequest, CallbackParams, OidcClient, PendingLogin, VerifiedIdentity } from '../../domain/sso/ports';
import { logger } from '../../observability/logger';

export interface OpenIdClientOidcOptions {
  issuer: string;
  clientId: string;
  /** Read when the provider is first discovered (Secrets Manager in the cloud); none for a public client. */
  clientSecret: () => Promise<string | undefined>;
  redirectUri: string;
  scopes: string;
  /** Each request to the provider may take this long. */
  timeoutSeconds?: number;
}

const isLoopback = (url: URL) => ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

/**
 * The OidcClient port on openid-client (a certified relying party): discovery from the issuer, the
 * authorization code flow with PKCE (S256), state and nonce, and the ID token checked for its signature
 * (the provider's JWKS), issuer, audience, nonce and expiry. Discovery is kept per instance once it
 * succeeded and tried again after a failure. Plain http is allowed for a loopback issuer only.
 */
export class OpenIdClientOidc implements OidcClient {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(private readonly options: OpenIdClientOidcOptions) {}

  async startAuthorization(): Promise<AuthorizationRequest> {
    const config = await this.discovered();
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.options.redirectUri,
      scope: this.options.scopes,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state, nonce, codeVerifier };
  }

  async redeem(callback: CallbackParams, login: PendingLogin): Promise<VerifiedIdentity> {
    const config = await this.discovered();
    const response = new URL(this.options.redirectUri);
    response.searchParams.set('code', callback.code);
    response.searchParams.set('state', callback.state);
    if (callback.iss !== undefined) response.searchParams.set('iss', callback.iss);
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, response, {
        pkceCodeVerifier: login.code_verifier,
        expectedState: login.state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      throw this.failure(error, 'code exchange');
    }
    const claims = tokens.claims();
    if (!claims) throw new AppError('UNAUTHORIZED', 'The identity provider returned no ID token');
    return toIdentity(claims, await this.userInfo(config, tokens.access_token, claims.sub));
  }

  /**
   * Many providers put only `sub` in the ID token when they also issue an access token, and the profile
   * (email, name, groups) at the UserInfo endpoint: read it there, for the same subject.
   */
  private async userInfo(config: client.Configuration, accessToken: string, subject: string): Promise<Record<string, unknown>> {
    if (!config.serverMetadata().userinfo_endpoint) return {};
    try {
      return await client.fetchUserInfo(config, accessToken, subject);
    } catch (error) {
      throw this.failure(error, 'userinfo');
    }
  }

  private discovered(): Promise<client.Configuration> {
    this.configuration ??= this.discover().catch((error: unknown) => {
      this.configuration = undefined;
      throw this.failure(error, 'discovery');
    });
    return this.configuration;
  }

  private async discover(): Promise<client.Configuration> {
    const issuer = new URL(this.options.issuer);
    const secret = await this.options.clientSecret();
    const config = await client.discovery(
      issuer,
      this.options.clientId,
      secret ? { client_secret: secret } : undefined,
      secret ? client.ClientSecretBasic(secret) : client.None(),
      {
        timeout: this.options.timeoutSeconds ?? 10,
        execute: [
          // Verifies the ID token's signature with the provider's JWKS (by default TLS alone vouches for it).
          client.enableNonRepudiationChecks,
          ...(issuer.protocol === 'http:' && isLoopback(issuer) ? [client.allowInsecureRequests] : []),
        ],
      },
    );
    return config;
  }

  /**
   * The provider refusing (an OAuth error, a token that does not verify) is the caller's 401; the provider not
   * answering, or answering what is not OAuth, is a 503.
   */
  private failure(error: unknown, step: string): AppError {
    if (error instanceof AppError) return error;
    const refused = step === 'code exchange';
    if (error instanceof client.ResponseBodyError && error.status >= 500) {
      logger.error('oidc: provider failed', { step, status: error.status, error: error.error });
    } else if (refused && (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError)) {
      logger.warn('oidc: the provider refused', { step, error: error.error, description: error.error_description });
      return new AppError('UNAUTHORIZED', 'The identity provider refused this sign-in', { provider_error: error.error });
    } else if (refused && error instanceof client.ClientError && isTokenCheck(error.code)) {
      const reason = error.cause instanceof Error ? error.cause.message : error.message;
      logger.warn('oidc: ID token refused', { step, code: error.code, reason });
      return new AppError('UNAUTHORIZED', 'The identity provider\'s answer is not valid for this service', { reason });
    } else {
      logger.error('oidc: provider unavailable', { step, error });
    }
    return new AppError('SERVICE_UNAVAILABLE', 'The identity provider cannot be reached; try again later', { feature: 'oidc' });
  }
}

/**
 * openid-client's codes for a token response that arrived but does not hold: a claim (aud, iss, nonce, azp), a
 * timestamp (exp, iat), the signature (INVALID_RESPONSE) or no key of the JWKS that fits it.
 */
const TOKEN_CHECK_CODES = new Set([
  'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
  'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
  'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED',
  'OAUTH_INVALID_RESPONSE',
  'OAUTH_PARSE_ERROR',
  'OAUTH_KEY_SELECTION_FAILED',
]);
const isTokenCheck = (code: string | undefined) => code !== undefined && TOKEN_CHECK_CODES.has(code);

const stringClaim = (claims: Record<string, unknown>, name: string): string | null => {
  const value = claims[name];
  return typeof value === 'string' && value.length > 0 ? value : null;
};

/** The ID token's claims, completed by UserInfo's; the verified ID token wins where both have a claim. */
function toIdentity(idToken: client.IDToken, userInfo: Record<string, unknown>): VerifiedIdentity {
  const claims: Record<string, unknown> = { ...userInfo, ...idToken };
  const verified = claims['email_verified'];
  return {
    issuer: idToken.iss,
    subject: idToken.sub,
    email: stringClaim(claims, 'email'),
    email_verified: typeof verified === 'boolean' ? verified : null,
    preferred_username: stringClaim(claims, 'preferred_username'),
    name: stringClaim(claims, 'name'),
    claims,
  };
}
