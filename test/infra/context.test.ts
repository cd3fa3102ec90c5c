import { describe, expect, it } from 'vitest';
import { ENV } from '../../shared/manifest';
import { OIDC_CONTEXT, OIDC_ROLES, oidcFromContext, rateLimitsFromContext, type ContextReader } from '../../lib/context';
import { DEFAULT_RATE_LIMITS } from '../../lib/stacks/limits';
import { commonEnvSchema, oidcSettings, parseEnv } from '../../shared/container/kit/config';
import { ROLES } from '../../shared/domain/principal';

/** Context as `cdk -c key=value` gives it: strings (cdk.json may give numbers). */
const contextOf =
  (values: Record<string, unknown>): ContextReader =>
  (key) =>
    values[key];

const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:docservice/oidc-client-AbC123';
const SSO = { oidcIssuer: 'https://login.example.com', oidcClientId: 'docservice', oidcRedirectUri: 'https://api.example.com/api/auth/oidc/callback' };

describe('rate limits from context', () => {
  it("uses the runtime's defaults when no rate-limit key is given", () => {
    // Arrange
    const context = contextOf({});

    // Act
    const limits = rateLimitsFromContext(context);

    // Assert
    expect(limits).toEqual({ perMinute: 100, burst: 20, uploadPerMinute: 10, ipPerMinute: 60, ipBurst: 20 });
    expect(limits).toEqual(DEFAULT_RATE_LIMITS);
  });

  it('reads every key, from command-line strings and cdk.json numbers', () => {
    // Arrange
    const context = contextOf({ rateLimitPerMinute: '120', rateLimitBurst: 30, uploadRateLimitPerMinute: '5', ipRateLimitPerMinute: '30', ipRateLimitBurst: '10' });

    // Act
    const limits = rateLimitsFromContext(context);

    // Assert
    expect(limits).toEqual({ perMinute: 120, burst: 30, uploadPerMinute: 5, ipPerMinute: 30, ipBurst: 10 });
  });

  it.each(['0', '-5', '1.5', 'many', '1e3'])('refuses rateLimitBurst=%s, naming the key', (value) => {
    // Arrange
    const context = contextOf({ rateLimitBurst: value });

    // Act
    const read = () => rateLimitsFromContext(context);

    // Assert
    expect(read).toThrow(`Context "rateLimitBurst" must be a whole number of at least 1, got "${value}"`);
  });
});

describe('single sign-on from context', () => {
  it('is off when no oidc key is given', () => {
    // Arrange
    const context = contextOf({ corsOrigins: 'https://app.example.com' });

    // Act
    const oidc = oidcFromContext(context);

    // Assert
    expect(oidc).toBeUndefined();
  });

  it('maps every key to the variable the runtime reads', () => {
    // Arrange
    const context = contextOf({
      ...SSO,
      oidcScopes: 'openid email groups',
      oidcFrontendUrl: 'https://app.example.com/sso',
      oidcDefaultRole: 'editor',
      oidcWorkspaceId: '7f0c2f4e-3b1d-4c55-9a61-0d2b8e4f1a77',
      oidcRoleClaim: 'groups',
      oidcRoleMap: 'doc-admins=admin',
      oidcClientSecretArn: SECRET_ARN,
    });

    // Act
    const oidc = oidcFromContext(context);

    // Assert
    expect(oidc).toEqual({
      environment: {
        [ENV.oidcIssuer]: SSO.oidcIssuer,
        [ENV.oidcClientId]: SSO.oidcClientId,
        [ENV.oidcRedirectUri]: SSO.oidcRedirectUri,
        [ENV.oidcScopes]: 'openid email groups',
        [ENV.oidcFrontendUrl]: 'https://app.example.com/sso',
        [ENV.oidcDefaultRole]: 'editor',
        [ENV.oidcWorkspaceId]: '7f0c2f4e-3b1d-4c55-9a61-0d2b8e4f1a77',
        [ENV.oidcRoleClaim]: 'groups',
        [ENV.oidcRoleMap]: 'doc-admins=admin',
      },
      clientSecretArn: SECRET_ARN,
    });
  });

  it('sets only the given variables of a public client, so the runtime keeps its defaults', () => {
    // Arrange
    const context = contextOf(SSO);

    // Act
    const oidc = oidcFromContext(context);

    // Assert
    expect(oidc).toEqual({
      environment: { [ENV.oidcIssuer]: SSO.oidcIssuer, [ENV.oidcClientId]: SSO.oidcClientId, [ENV.oidcRedirectUri]: SSO.oidcRedirectUri },
    });
  });

  it.each(['oidcIssuer', 'oidcClientId', 'oidcRedirectUri'] as const)('stops synth naming %s when it alone is missing', (missing) => {
    // Arrange
    const { [missing]: _left, ...rest } = SSO;
    const context = contextOf(rest);

    // Act
    const read = () => oidcFromContext(context);

    // Assert
    expect(read).toThrow(`Context "${missing}" missing`);
  });

  it('stops synth naming the three required keys when only the secret ARN is given', () => {
    // Arrange
    const context = contextOf({ oidcClientSecretArn: SECRET_ARN });

    // Act
    const read = () => oidcFromContext(context);

    // Assert
    expect(read).toThrow('Context "oidcIssuer", "oidcClientId", "oidcRedirectUri" missing');
  });

  it('stops synth when a role map comes without the claim it maps', () => {
    // Arrange
    const context = contextOf({ ...SSO, oidcRoleMap: 'doc-admins=admin' });

    // Act
    const read = () => oidcFromContext(context);

    // Assert
    expect(read).toThrow('Context "oidcRoleClaim" missing');
  });

  it.each([
    ['oidcDefaultRole', 'owner'],
    ['oidcWorkspaceId', 'sales'],
    ['oidcRoleMap', 'doc-admins=root'],
    ['oidcFrontendUrl', 'https://app.example.com/#done'],
  ])('refuses %s=%s as the runtime would, naming the context key', (key, value) => {
    // Arrange
    const context = contextOf({ ...SSO, oidcRoleClaim: 'groups', [key]: value });

    // Act
    const read = () => oidcFromContext(context);

    // Assert
    expect(read).toThrow(`Context "${key}"`);
  });

  it.each(['oidcIssuer', 'oidcRedirectUri', 'oidcFrontendUrl'])('refuses a plain-http %s', (key) => {
    // Arrange
    const context = contextOf({ ...SSO, [key]: 'http://login.example.com/x' });

    // Act
    const read = () => oidcFromContext(context);

    // Assert
    expect(read).toThrow(`Context "${key}" must be an https URL`);
  });

  it.each([
    'arn:aws:secretsmanager:eu-west-1:123456789012:secret:docservice/oidc',
    'arn:aws:secretsmanager:eu-west-1:123456789012:secret:*',
    'docservice/oidc-client',
  ])('refuses the client secret %s, which is not one complete secret ARN', (arn) => {
    // Arrange
    const context = contextOf({ ...SSO, oidcClientSecretArn: arn });

    // Act
    const read = () => oidcFromContext(context);

    // Assert
    expect(read).toThrow('Context "oidcClientSecretArn" must be the complete ARN');
  });
});

describe('synth-time checks and the runtime agree', () => {
  /** Whether the runtime starts with SSO plus this variable (shared/container/kit/config.ts). */
  const runtimeAccepts = (envName: string, value: string): boolean => {
    try {
      const env = { OIDC_ISSUER: SSO.oidcIssuer, OIDC_CLIENT_ID: SSO.oidcClientId, OIDC_REDIRECT_URI: SSO.oidcRedirectUri, OIDC_ROLE_CLAIM: 'groups', [envName]: value };
      oidcSettings(parseEnv(commonEnvSchema, env));
      return true;
    } catch {
      return false;
    }
  };
  const synthAccepts = (key: string, value: string): boolean => {
    try {
      oidcFromContext(contextOf({ ...SSO, oidcRoleClaim: 'groups', [key]: value }));
      return true;
    } catch {
      return false;
    }
  };

  it('knows the roles the runtime knows', () => {
    // Arrange
    const runtime = [...ROLES];

    // Act
    const synth = [...OIDC_ROLES];

    // Assert
    expect(synth).toEqual(runtime);
  });

  it.each([
    ['oidcDefaultRole', 'viewer'],
    ['oidcDefaultRole', 'admin'],
    ['oidcDefaultRole', 'Admin'],
    ['oidcDefaultRole', 'owner'],
    ['oidcWorkspaceId', 'sales'],
    ['oidcRoleMap', 'doc-editors=editor, doc-admins=admin'],
    ['oidcRoleMap', 'a=b=admin'],
    ['oidcRoleMap', '=admin'],
    ['oidcRoleMap', 'doc-admins'],
    ['oidcRoleMap', 'doc-admins=root'],
    ['oidcFrontendUrl', 'https://app.example.com/sso?x=1'],
    ['oidcFrontendUrl', 'https://app.example.com/#done'],
    ['oidcIssuer', 'https://login.example.com/realms/docs'],
    ['oidcIssuer', 'https://'],
    ['oidcRedirectUri', 'not a url'],
  ] as const)('decides %s=%s as the runtime does', (key, value) => {
    // Arrange
    const envName = OIDC_CONTEXT[key];

    // Act
    const synth = synthAccepts(key, value);

    // Assert
    expect(synth).toBe(runtimeAccepts(envName, value));
  });
});
