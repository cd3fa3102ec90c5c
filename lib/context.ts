import { ENV } from '../shared/manifest';
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from './stacks/limits';

/*
 * Deployment settings read from CDK context (`cdk deploy -c key=value`, or cdk.json) and checked at synth time,
 * so that a bad value stops `cdk synth` naming the context key instead of a cold start naming a variable.
 */

/** Reads one context value: `app.node.tryGetContext`. */
export type ContextReader = (key: string) => unknown;

/** A context value as text; undefined when absent or empty. Command-line values are strings, cdk.json's may be JSON. */
function contextText(get: ContextReader, key: string): string | undefined {
  const value = get(key);
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value).trim();
  throw new Error(`Context "${key}" must be a string, got ${JSON.stringify(value)}`);
}

/** Context key of each rate limit. */
export const RATE_LIMIT_CONTEXT = {
  rateLimitPerMinute: 'perMinute',
  rateLimitBurst: 'burst',
  uploadRateLimitPerMinute: 'uploadPerMinute',
  ipRateLimitPerMinute: 'ipPerMinute',
  ipRateLimitBurst: 'ipBurst',
} as const satisfies Record<string, keyof RateLimitSettings>;

/** The per-caller rate limits from context, each a whole number of at least 1; the runtime's defaults otherwise. */
export function rateLimitsFromContext(get: ContextReader): RateLimitSettings {
  const limits: Record<keyof RateLimitSettings, number> = { ...DEFAULT_RATE_LIMITS };
  for (const [key, field] of Object.entries(RATE_LIMIT_CONTEXT)) {
    const text = contextText(get, key);
    if (text === undefined) continue;
    if (!/^\d+$/u.test(text) || Number(text) < 1) {
      throw new Error(`Context "${key}" must be a whole number of at least 1, got "${text}"`);
    }
    limits[field] = Number(text);
  }
  return limits;
}

/** Single sign-on as the auth function gets it. */
export interface OidcDeployment {
  /** The `OIDC_*` variables of the auth function (the client secret's ARN apart). */
  readonly environment: Readonly<Record<string, string>>;
  /** Complete ARN of the Secrets Manager secret holding the client secret; none for a public client (PKCE only). */
  readonly clientSecretArn?: string;
}

/** Context key of each OIDC variable but the secret's ARN. */
export const OIDC_CONTEXT = {
  oidcIssuer: ENV.oidcIssuer,
  oidcClientId: ENV.oidcClientId,
  oidcRedirectUri: ENV.oidcRedirectUri,
  oidcScopes: ENV.oidcScopes,
  oidcFrontendUrl: ENV.oidcFrontendUrl,
  oidcDefaultRole: ENV.oidcDefaultRole,
  oidcWorkspaceId: ENV.oidcWorkspaceId,
  oidcRoleClaim: ENV.oidcRoleClaim,
  oidcRoleMap: ENV.oidcRoleMap,
} as const;

const OIDC_REQUIRED = ['oidcIssuer', 'oidcClientId', 'oidcRedirectUri'] as const;

/** A Secrets Manager ARN with the six characters Secrets Manager appends to the name: it names one secret only. */
const COMPLETE_SECRET_ARN = /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[\w/+=.@-]+-[A-Za-z0-9]{6}$/u;

/**
 * The roles a user may get (shared/domain/users/user.ts `ROLES`; lib/ imports no runtime code, and
 * test/infra/context.test.ts checks that these checks accept what the runtime accepts).
 */
export const OIDC_ROLES = ['viewer', 'editor', 'admin'] as const;

const isRole = (value: string): boolean => (OIDC_ROLES as readonly string[]).includes(value);

/** An https URL (loopback http means nothing in a Lambda), without a fragment: the token goes there. */
function httpsUrlProblem(value: string): string | null {
  if (!URL.canParse(value) || new URL(value).protocol !== 'https:') return 'must be an https URL';
  return value.includes('#') ? 'must not have a fragment (the token goes there)' : null;
}

/** What is wrong with each value the runtime parses in its own way (shared/container/kit/config.ts oidcEnvShape). */
const OIDC_CHECKS: Partial<Record<keyof typeof OIDC_CONTEXT, (value: string) => string | null>> = {
  oidcIssuer: httpsUrlProblem,
  oidcRedirectUri: httpsUrlProblem,
  oidcFrontendUrl: httpsUrlProblem,
  oidcDefaultRole: (value) => (isRole(value) ? null : `must be one of ${OIDC_ROLES.join(', ')}`),
  oidcWorkspaceId: (value) => (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu.test(value) ? null : 'must be a workspace id (a UUID)'),
  oidcRoleMap: (value) => {
    const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
    const bad = entries.find((entry) => entry.lastIndexOf('=') <= 0 || !isRole(entry.slice(entry.lastIndexOf('=') + 1).trim()));
    return bad === undefined ? null : `"${bad}" is not <claim value>=<${OIDC_ROLES.join('|')}>`;
  },
};

/**
 * Single sign-on from context, or undefined when no `oidc*` key is given. `oidcIssuer`, `oidcClientId` and
 * `oidcRedirectUri` come together or not at all, as the runtime requires; every value is checked as the runtime
 * checks it (plus https), errors naming the context key.
 */
export function oidcFromContext(get: ContextReader): OidcDeployment | undefined {
  const given = Object.fromEntries(
    [...Object.keys(OIDC_CONTEXT), 'oidcClientSecretArn'].flatMap((key) => {
      const text = contextText(get, key);
      return text === undefined ? [] : [[key, text]];
    }),
  ) as Record<string, string>;
  if (Object.keys(given).length === 0) return undefined;
  const missing = OIDC_REQUIRED.filter((key) => given[key] === undefined);
  if (missing.length > 0) {
    const present = Object.keys(given).map((key) => `"${key}"`).join(', ');
    throw new Error(`Context ${missing.map((key) => `"${key}"`).join(', ')} missing: single sign-on needs oidcIssuer, oidcClientId and oidcRedirectUri together (given: ${present})`);
  }
  if (given['oidcRoleMap'] !== undefined && given['oidcRoleClaim'] === undefined) {
    throw new Error('Context "oidcRoleClaim" missing: "oidcRoleMap" maps values of that claim');
  }
  const environment: Record<string, string> = {};
  for (const [key, envName] of Object.entries(OIDC_CONTEXT) as [keyof typeof OIDC_CONTEXT, string][]) {
    const value = given[key];
    if (value === undefined) continue;
    const problem = OIDC_CHECKS[key]?.(value);
    if (problem) throw new Error(`Context "${key}" ${problem}, got "${value}"`);
    environment[envName] = value;
  }
  const clientSecretArn = given['oidcClientSecretArn'];
  if (clientSecretArn !== undefined && !COMPLETE_SECRET_ARN.test(clientSecretArn)) {
    throw new Error(`Context "oidcClientSecretArn" must be the complete ARN of a Secrets Manager secret (ending in -XXXXXX), got "${clientSecretArn}"`);
  }
  return { environment, ...(clientSecretArn === undefined ? {} : { clientSecretArn }) };
}

/** A custom domain for the CloudFront edge, and optionally the Route 53 zone its alias records go in. */
export interface CustomDomain {
  /** The name clients use, e.g. `api.example.com`. */
  readonly domainName: string;
  /** An ACM certificate in us-east-1 (CloudFront takes no other region) covering `domainName`. */
  readonly certificateArn: string;
  /** The public hosted zone to create the alias A and AAAA records in; none: the operator points the name. */
  readonly hostedZone?: { readonly id: string; readonly name: string };
}

const CUSTOM_DOMAIN_KEYS = ['domainName', 'certificateArn', 'hostedZoneId', 'hostedZoneName'] as const;
const DOMAIN_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/u;
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:([a-z0-9-]+):\d{12}:certificate\/[0-9a-f-]{36}$/u;
const HOSTED_ZONE_ID = /^Z[A-Z0-9]{1,31}$/u;

/**
 * The edge's custom domain from context, or undefined when none of its keys is given. `domainName` and
 * `certificateArn` come together, the certificate in us-east-1; `hostedZoneId` and `hostedZoneName` come together,
 * the zone containing the domain. Needs the edge (`edge` not false).
 */
export function customDomainFromContext(get: ContextReader, edge: boolean): CustomDomain | undefined {
  const given = Object.fromEntries(
    CUSTOM_DOMAIN_KEYS.flatMap((key) => {
      const text = contextText(get, key);
      return text === undefined ? [] : [[key, text]];
    }),
  ) as Partial<Record<(typeof CUSTOM_DOMAIN_KEYS)[number], string>>;
  if (Object.keys(given).length === 0) return undefined;
  const { domainName, certificateArn, hostedZoneId, hostedZoneName } = given;
  if (!edge) throw new Error('Context "domainName" needs the CloudFront edge: it is off with edge=false');
  if (domainName === undefined || certificateArn === undefined) {
    throw new Error(`Context "${domainName === undefined ? 'domainName' : 'certificateArn'}" missing: a custom domain needs domainName and certificateArn together`);
  }
  const domain = domainName.toLowerCase().replace(/\.$/u, '');
  if (!DOMAIN_NAME.test(domain)) throw new Error(`Context "domainName" must be a DNS name such as api.example.com, got "${domainName}"`);
  const arn = CERTIFICATE_ARN.exec(certificateArn);
  if (!arn) throw new Error(`Context "certificateArn" must be the ARN of an ACM certificate, got "${certificateArn}"`);
  if (arn[1] !== 'us-east-1') {
    throw new Error(`Context "certificateArn" must be a certificate in us-east-1 (CloudFront uses no other region), got one in ${arn[1]}`);
  }
  if ((hostedZoneId === undefined) !== (hostedZoneName === undefined)) {
    throw new Error(`Context "${hostedZoneId === undefined ? 'hostedZoneId' : 'hostedZoneName'}" missing: the alias records need hostedZoneId and hostedZoneName together`);
  }
  if (hostedZoneId === undefined || hostedZoneName === undefined) return { domainName: domain, certificateArn };
  if (!HOSTED_ZONE_ID.test(hostedZoneId)) throw new Error(`Context "hostedZoneId" must be a Route 53 hosted zone id (Z...), got "${hostedZoneId}"`);
  const zone = hostedZoneName.toLowerCase().replace(/\.$/u, '');
  if (domain !== zone && !domain.endsWith(`.${zone}`)) {
    throw new Error(`Context "hostedZoneName" must contain "domainName" (${domain}), got "${hostedZoneName}"`);
  }
  return { domainName: domain, certificateArn, hostedZone: { id: hostedZoneId, name: zone } };
}

/**
 * The plans from context (`plans`: the JSON of PLANS, as text or, in cdk.json or a stage file, as text of it;
 * `defaultPlan`), checked at synth with the runtime's parser, errors naming the context key; the variables every
 * function gets. Undefined without `plans`: one plan, `default`, without limits.
 */
export function plansFromContext(get: ContextReader): Readonly<Record<string, string>> | undefined {
  const raw = get('plans');
  const json = raw !== null && typeof raw === 'object' ? JSON.stringify(raw) : contextText(get, 'plans');
  const defaultPlan = contextText(get, 'defaultPlan');
  if (json === undefined) {
    if (defaultPlan !== undefined) throw new Error('Context "defaultPlan": is given without "plans"');
    return undefined;
  }
  const problem = plansProblem(json, defaultPlan);
  if (problem) throw new Error(`Context "${problem.key}": ${problem.message}`);
  return { [ENV.plans]: json, ...(defaultPlan ? { [ENV.defaultPlan]: defaultPlan } : {}) };
}

/**
 * The quotas a plan sets (shared/domain/quotas/plans.ts `QUOTAS`; lib/ imports no runtime code, and
 * test/infra/plans-context.test.ts checks that these checks accept what the runtime accepts).
 */
export const PLAN_QUOTAS = ['documents_stored', 'bytes_stored', 'ocr_pages_per_month', 'sources', 'members', 'api_tokens'] as const;

/** What is wrong with the plans, as the runtime's parser would refuse them, or null. */
function plansProblem(json: string, defaultPlan: string | undefined): { key: 'plans' | 'defaultPlan'; message: string } | null {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return { key: 'plans', message: 'is not JSON' };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || !Object.keys(raw).length) return { key: 'plans', message: 'must be a JSON object of plans by name' };
  for (const [name, plan] of Object.entries(raw as Record<string, unknown>)) {
    if (!/^[a-z0-9][a-z0-9_-]{0,63}$/u.test(name)) return { key: 'plans', message: `"${name}": a plan's name is lower-case letters, digits, - and _` };
    if (typeof plan !== 'object' || plan === null || Array.isArray(plan)) return { key: 'plans', message: `${name}: must be an object of limits` };
    const limits = plan as Record<string, unknown>;
    const unknown = Object.keys(limits).find((key) => !(PLAN_QUOTAS as readonly string[]).includes(key));
    if (unknown) return { key: 'plans', message: `${name}.${unknown}: is not a quota (${PLAN_QUOTAS.join(', ')})` };
    for (const quota of PLAN_QUOTAS) {
      const limit = limits[quota];
      if (limit !== 'unlimited' && !(typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 0)) {
        return { key: 'plans', message: `${name}.${quota}: must be a whole number of at least 0 or "unlimited"` };
      }
    }
  }
  if (defaultPlan !== undefined && !(defaultPlan in (raw as object))) return { key: 'defaultPlan', message: `"${defaultPlan}" is not one of the plans` };
  return null;
}
