import { hasRole, ROLES, type Role } from '../principal';
import type { SsoUserPolicy, VerifiedIdentity } from './ports';

/** Where and as what a first SSO login lands: the configured workspace, with the mapped or default role. */
export function placeNewSsoUser(identity: VerifiedIdentity, policy: SsoUserPolicy): { workspaceId: string; role: Role } {
  return { workspaceId: policy.workspaceId, role: mappedRole(identity.claims, policy) ?? policy.defaultRole };
}

/** The highest role any value of the role claim maps to; null when none does. */
function mappedRole(claims: Record<string, unknown>, policy: SsoUserPolicy): Role | null {
  if (!policy.roleClaim) return null;
  const value = claims[policy.roleClaim];
  const values = Array.isArray(value) ? value : [value];
  const roles = values.flatMap((v) => (typeof v === 'string' && Object.hasOwn(policy.roleMap, v) ? [policy.roleMap[v]!] : []));
  return roles.reduce<Role | null>((best, role) => (best === null || hasRole(role, best) ? role : best), null);
}

const USERNAME_MAX = 64;
const USERNAME_MIN = 3;

/**
 * A username under the register rules (3-64 of letters, digits, `.`, `_`, `-`, starting with a letter or digit)
 * from the provider's preferred_username, else the email's local part, else `user`.
 */
export function usernameBase(identity: Pick<VerifiedIdentity, 'preferred_username' | 'email'>): string {
  const source = identity.preferred_username ?? identity.email?.split('@')[0] ?? '';
  const cleaned = source
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^A-Za-z0-9._-]+/gu, '_')
    .replace(/^[^A-Za-z0-9]+/u, '')
    .slice(0, USERNAME_MAX);
  if (cleaned.length >= USERNAME_MIN) return cleaned;
  return cleaned ? `user_${cleaned}` : 'user';
}

/** The nth candidate for a taken base: `base`, `base-2`, `base-3`, ... kept within 64 characters. */
export function usernameCandidate(base: string, attempt: number): string {
  if (attempt <= 1) return base;
  const suffix = `-${attempt}`;
  return `${base.slice(0, USERNAME_MAX - suffix.length)}${suffix}`;
}

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);
