import { REGISTRATION_MODES } from '../../manifest';
import * as z from '../../zod';
import { ROLES, type Role } from '../../domain/principal';
import { BOOTSTRAP_WORKSPACE_ID } from '../../domain/workspaces/workspace';
import { parsePlans, type PlanCatalog } from '../../domain/quotas/plans';
import { parseCorsOrigins } from '../../http/cors';
import { LOG_FORMATS, LOG_LEVELS } from '../../observability/log-lines';

/**
 * A variable of the environment that is missing or wrong. Its message is one line naming the variable, which is
 * all a start that fails on it prints (bin/local.ts).
 */
export class ConfigurationError extends Error {
  constructor(problems: string) {
    super(`Invalid configuration: ${problems}`);
    this.name = 'ConfigurationError';
  }
}

/** An environment variable that is set and not empty. */
export const envText = z.string().check(z.minLength(1));

/** `group=role,group=role`: which value of the role claim gives which role. */
const roleMapSchema = z.pipe(
  z.string(),
  z.transform((text, ctx) => {
    const entries: [string, Role][] = [];
    const pairs = text.split(',').map((part) => part.trim()).filter(Boolean);
    for (const entry of pairs) {
      const at = entry.lastIndexOf('=');
      const [value, role] = [entry.slice(0, at).trim(), entry.slice(at + 1).trim()];
      if (at <= 0 || !(ROLES as readonly string[]).includes(role)) {
        ctx.issues.push({
          code: 'custom',
          message: `"${entry}" is not <claim value>=<${ROLES.join('|')}>`,
          input: text,
        });
        return z.NEVER;
      }
      entries.push([value, role as Role]);
    }
    // fromEntries defines own properties, so even a value named __proto__ is an ordinary key.
    return Object.fromEntries(entries);
  }),
);

/** Single sign-on (OIDC): all optional here; {@link oidcSettings} checks that they come together. */
function oidcEnvShape() {
  return {
    OIDC_ISSUER: z.optional(z.url()),
    OIDC_CLIENT_ID: z.optional(envText),
    /** Locally; the cloud reads it from Secrets Manager (OIDC_CLIENT_SECRET_ARN). None: a public client. */
    OIDC_CLIENT_SECRET: z.optional(envText),
    OIDC_REDIRECT_URI: z.optional(z.url()),
    OIDC_SCOPES: z._default(envText, 'openid email profile'),
    /** Where the callback sends the browser with the token in the fragment; without it the callback answers JSON. */
    OIDC_FRONTEND_URL: z.optional(
      z.url().check(z.refine((url) => !url.includes('#'), 'must not have a fragment (the token goes there)')),
    ),
    /** The workspace a first SSO login joins; default: the first workspace (the operator's). */
    OIDC_WORKSPACE_ID: z._default(z.uuid(), BOOTSTRAP_WORKSPACE_ID),
    OIDC_DEFAULT_ROLE: z._default(z.enum(ROLES), 'viewer'),
    OIDC_ROLE_CLAIM: z.optional(envText),
    OIDC_ROLE_MAP: z.optional(roleMapSchema),
  };
}

/** TABLE_NAME alone. */
export const tableEnvSchema = z.lazy(() => z.object({ TABLE_NAME: envText }));

/** Settings read by both runtimes, with their defaults. */
export const commonEnvSchema = z.object({
  /**
   * The logger reads both from the environment on each entry (shared/observability/logger.ts), since it logs before any
   * configuration is parsed; they are here so that a wrong value stops the start like any other.
   */
  LOG_LEVEL: z._default(z.enum(LOG_LEVELS), 'info'),
  LOG_FORMAT: z._default(z.enum(LOG_FORMATS), 'text'),
  JWT_ISSUER: z._default(envText, 'docservice'),
  JWT_AUDIENCE: z._default(envText, 'docservice-api'),
  JWT_TTL_SECONDS: z._default(z.coerce.number().check(z.int(), z.gte(60), z.lte(86_400)), 3600),
  JWT_REFRESH_GRACE_SECONDS: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(30 * 86_400)), 7 * 86_400),
  /** The longest a personal API token may live, in days; a token created without `expires_at` lives this long. */
  API_TOKEN_MAX_DAYS: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(3650)), 365),
  /** `workspace`: a sign-up gets a new, empty workspace and is its admin; `closed`: sign-up answers 403. */
  REGISTRATION_MODE: z._default(z.enum(REGISTRATION_MODES), 'workspace'),
  CORS_ORIGINS: z.pipe(z._default(z.string(), '*'), z.transform(parseCorsOrigins)),
  /** A WebSocket client has this long after connecting to send its auth message. */
  WS_AUTH_TIMEOUT_SECONDS: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(600)), 10),
  /** P limits, per user: a token bucket of RATE_LIMIT_BURST requests refilled at RATE_LIMIT_PER_MINUTE. */
  RATE_LIMIT_PER_MINUTE: z._default(z.coerce.number().check(z.int(), z.gte(1)), 100),
  RATE_LIMIT_BURST: z._default(z.coerce.number().check(z.int(), z.gte(1)), 20),
  /** Uploads per user (upload, bulk-upload, upload-url), on top of the general limit; the burst is the same number. */
  UPLOAD_RATE_LIMIT_PER_MINUTE: z._default(z.coerce.number().check(z.int(), z.gte(1)), 10),
  /**
   * Argon2id's passes (t) at 19 MiB and one lane; unset, the hasher's own, 2 (OWASP's minimum). 1 is for test suites
   * that create many users; a stored hash weaker than this is replaced at its user's next login.
   */
  PASSWORD_HASH_COST: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(10))),
  /** Requests without a user (login, register, refresh, OIDC), per client IP. */
  IP_RATE_LIMIT_PER_MINUTE: z._default(z.coerce.number().check(z.int(), z.gte(1)), 60),
  IP_RATE_LIMIT_BURST: z._default(z.coerce.number().check(z.int(), z.gte(1)), 20),
  /**
   * Whether sources may reach private, loopback and link-local addresses. Off by default (the cloud: a URL a user
   * types must not reach the instance metadata or the VPC); the local runtime turns it on (a NAS on the LAN).
   */
  SOURCES_ALLOW_PRIVATE_NETWORKS: z._default(z.stringbool(), false),
  /** A source's server silent this long (no headers, or no bytes mid-file) fails that request. */
  SOURCE_REQUEST_TIMEOUT_SECONDS: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(600)), 30),
  /** Whether webhooks may be delivered to private, loopback and link-local addresses; as for sources. */
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: z._default(z.stringbool(), false),
  /** The plans (JSON, see docs/plans-and-quotas.md); none: one plan, `default`, without limits. */
  PLANS: z.optional(z.string()),
  /** The plan of a workspace that has none of its own; default: the first plan of PLANS. */
  DEFAULT_PLAN: z.optional(envText),
  ...oidcEnvShape(),
});

export type CommonEnv = z.output<typeof commonEnvSchema>;

/**
 * The plans of the parsed environment. Called at init: a wrong plan stops the process naming PLANS (or
 * DEFAULT_PLAN, when it names no plan).
 */
export function planCatalog(env: Pick<CommonEnv, 'PLANS' | 'DEFAULT_PLAN'>): PlanCatalog {
  try {
    return parsePlans(env.PLANS, env.DEFAULT_PLAN);
  } catch (error) {
    const message = (error as Error).message;
    throw new ConfigurationError(`${message.startsWith('default plan') ? 'DEFAULT_PLAN' : 'PLANS'}: ${message}`);
  }
}

/** Single sign-on as configured, or null when OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_REDIRECT_URI are all unset. */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  redirectUri: string;
  scopes: string;
  frontendUrl: string | null;
  workspaceId: string;
  defaultRole: Role;
  roleClaim: string | null;
  roleMap: Record<string, Role>;
}

/**
 * The OIDC block of the parsed environment. Called at init: a partial configuration stops the process naming
 * the variable that is missing.
 */
export function oidcSettings(env: CommonEnv): OidcSettings | null {
  const required = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_REDIRECT_URI'] as const;
  const missing = required.filter((name) => env[name] === undefined);
  if (missing.length === required.length) return null;
  if (missing.length) {
    throw new ConfigurationError(missing.map((name) => `${name}: is required with ${required.filter((r) => !missing.includes(r)).join(', ')}`).join('; '));
  }
  if (env.OIDC_ROLE_MAP && !env.OIDC_ROLE_CLAIM) {
    throw new ConfigurationError('OIDC_ROLE_CLAIM: is required with OIDC_ROLE_MAP');
  }
  return {
    issuer: env.OIDC_ISSUER!,
    clientId: env.OIDC_CLIENT_ID!,
    clientSecret: env.OIDC_CLIENT_SECRET,
    redirectUri: env.OIDC_REDIRECT_URI!,
    scopes: env.OIDC_SCOPES.split(/\s+/u).includes('openid') ? env.OIDC_SCOPES : `openid ${env.OIDC_SCOPES}`,
    frontendUrl: env.OIDC_FRONTEND_URL ?? null,
    workspaceId: env.OIDC_WORKSPACE_ID,
    defaultRole: env.OIDC_DEFAULT_ROLE,
    roleClaim: env.OIDC_ROLE_CLAIM ?? null,
    roleMap: env.OIDC_ROLE_MAP ?? {},
  };
}

/**
 * Parses the environment once, at init. A bad or missing variable stops the process right away with the
 * variable's name, rather than failing a request later.
 */
export function parseEnv<S extends z.ZodMiniType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
  throw new ConfigurationError(problems);
}

/**
 * CORS_ORIGINS alone: what the fallback function needs. It lives here rather than in the AWS composition root
 * so that the fallback bundle carries no SDK client.
 */
export const corsOriginsFromEnv = (env: NodeJS.ProcessEnv = process.env): CommonEnv['CORS_ORIGINS'] =>
  parseEnv(z.object({ CORS_ORIGINS: commonEnvSchema.shape.CORS_ORIGINS }), env).CORS_ORIGINS;
