import { describe, expect, it } from 'vitest';
import { usernameField } from '../../../../shared/http/fields';
import { placeNewSsoUser, usernameBase, usernameCandidate } from '../../../../shared/domain/sso/new-sso-user';
import type { SsoUserPolicy, VerifiedIdentity } from '../../../../shared/domain/sso/ports';

const identity = (claims: Record<string, unknown>): VerifiedIdentity => ({
  issuer: 'https://idp.example',
  subject: 'sub',
  email: 'someone@example.com',
  email_verified: true,
  preferred_username: null,
  name: null,
  claims,
});

const SALES = '7f0c2f4e-3b1d-4c55-9a61-0d2b8e4f1a77';
const policy: SsoUserPolicy = { workspaceId: SALES, defaultRole: 'viewer', roleClaim: 'groups', roleMap: { writers: 'editor', owners: 'admin' } };

/** Sign-up's rule for usernames, which an SSO user's generated name must also meet. */
const isValidUsername = (username: string) => usernameField().safeParse(username).success;

describe('the role of a first SSO login', () => {
  it('is the default role when no value of the claim is mapped', () => {
    expect(placeNewSsoUser(identity({ groups: ['readers'] }), policy).role).toBe('viewer');
  });

  it('is the highest role any value of the claim maps to', () => {
    expect(placeNewSsoUser(identity({ groups: ['writers', 'owners', 'readers'] }), policy).role).toBe('admin');
  });

  it('reads a claim that is a single string', () => {
    expect(placeNewSsoUser(identity({ groups: 'writers' }), policy).role).toBe('editor');
  });

  it('ignores a claim value named like an Object property', () => {
    expect(placeNewSsoUser(identity({ groups: ['constructor', 'toString'] }), policy).role).toBe('viewer');
  });
});

describe('the workspace of a first SSO login', () => {
  it('is the configured workspace, whatever the claims', () => {
    expect(placeNewSsoUser(identity({ groups: ['owners'] }), policy).workspaceId).toBe(SALES);
  });
});

describe('the username of a first SSO login', () => {
  it.each([
    [{ preferred_username: 'jane.doe', email: 'x@example.com' }, 'jane.doe'],
    [{ preferred_username: null, email: 'john.smith@example.com' }, 'john.smith'],
    [{ preferred_username: 'José Müller', email: null }, 'Jose_Muller'],
    [{ preferred_username: '__x', email: null }, 'user_x'],
    [{ preferred_username: null, email: null }, 'user'],
    [{ preferred_username: 'DOMAIN\\user@corp', email: null }, 'DOMAIN_user_corp'],
  ])('is derived from %o as %s, under the register rules', (source, expected) => {
    const username = usernameBase(source);

    expect(username).toBe(expected);
    expect(isValidUsername(username)).toBe(true);
  });

  it('is cut to 64 characters, suffix included', () => {
    const base = usernameBase({ preferred_username: 'a'.repeat(100), email: null });

    expect(base).toHaveLength(64);
    expect(usernameCandidate(base, 12)).toHaveLength(64);
    expect(usernameCandidate(base, 12).endsWith('-12')).toBe(true);
    expect(isValidUsername(usernameCandidate(base, 12))).toBe(true);
  });
});
