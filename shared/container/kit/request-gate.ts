import { DynamoApiTokenRepository } from '../../adapters/aws/dynamodb/api-token-repository';
import { DynamoRateLimitStore } from '../../adapters/aws/dynamodb/rate-limit-store';
import { DynamoUsageRepository } from '../../adapters/aws/dynamodb/usage-repository';
import type { HotReadStores } from '../../adapters/local/remembered-reads';
import { authenticate } from '../../domain/auth/authenticate';
import type { TokenService } from '../../domain/auth/ports';
import type { Clock } from '../../domain/clock';
import { AppError } from '../../domain/errors';
import { limitRequest, type RateLimits, type RequestOrigin } from '../../domain/limits/limit-request';
import { checkLoginAllowed, recordLoginFailure } from '../../domain/limits/login-failures';
import type { LoginAttemptGuard, RateLimitStore } from '../../domain/limits/ports';
import type { RateDecision } from '../../domain/limits/rate-policy';
import { RequestLimiter } from '../../domain/limits/take-request';
import type { Principal } from '../../domain/principal';
import { authenticateApiToken } from '../../domain/tokens/authenticate-token';
import type { ApiTokenRepository } from '../../domain/tokens/ports';
import { looksLikeApiToken } from '../../domain/tokens/token-format';
import type { MeteredRequests, UsageMeter, UsageRepository } from '../../domain/usage/ports';
import { monthOf } from '../../domain/usage/usage';
import { requireServingWorkspace } from '../../domain/workspaces/workspace-status';
import type { CorsOrigins } from '../../http/cors';
import type { EdgeOrigin } from '../../http/edge';
import { logger } from '../../observability/logger';
import type { CommonEnv } from './config';
import { accountStores, workspaceDirectory, type WorkspaceDirectory } from './accounts';
import type { Table } from './table';

/** What every HTTP handler hands its pipeline (`httpHandler`): who may call, and how often. */
export interface HttpGate {
  corsOrigins: CorsOrigins;
  /** Behind the cloud's CloudFront edge: the HTTP handlers answer only requests that came through it. */
  edge?: EdgeOrigin;
  /** Resolves a bearer token (a session's JWT or a personal API token, `dst_...`) to its caller. */
  authenticate(token: string): Promise<Principal>;
  /**
   * Counts a request against its caller's rate limits (RATE_LIMIT_*), failing open, and an authenticated one
   * (`origin.workspaceId`) in its workspace's usage (`api_requests`), which never fails or refuses it.
   */
  limits(origin: RequestOrigin): Promise<RateDecision | null>;
}

/** Counts requests in their workspace's usage of the month; never fails (a failed count is logged). */
export type RequestMeter = (workspaceId: string, counts: MeteredRequests) => Promise<void>;

/** The usage by month over the table, and the meter of requests over it (`wrap`: the local runtime writes behind). */
export function requestMeter(table: Table, clock: Clock, wrap?: (meter: UsageMeter) => UsageMeter): { usage: UsageRepository; meter: RequestMeter } {
  const usage = new DynamoUsageRepository(table.db, table.name);
  const counted = wrap?.(usage) ?? usage;
  return {
    usage,
    meter: (workspaceId, counts) =>
      counted.add(workspaceId, monthOf(clock.now()), counts).catch((error: unknown) => {
        logger.warn('usage: counting a request failed', { workspace_id: workspaceId, counts, error });
      }),
  };
}

/** Resolves a session's JWT or a personal API token (never one tried as the other), refusing a suspended workspace's callers. */
export function authenticator(deps: {
  tokens: TokenService;
  users: HotReadStores['users'];
  revokedTokens: HotReadStores['revokedTokens'];
  apiTokens: ApiTokenRepository;
  workspaceStatus: WorkspaceDirectory['workspaceStatus'];
  clock: Clock;
}): HttpGate['authenticate'] {
  const { tokens, users, revokedTokens, apiTokens, clock } = deps;
  return async (token) =>
    requireServingWorkspace(
      deps.workspaceStatus,
      looksLikeApiToken(token) ? await authenticateApiToken({ apiTokens, users, clock }, token) : await authenticate({ tokens, revokedTokens, users }, token),
    );
}

/**
 * The rate limits of P over the shared DynamoDB buckets (`wrap`: the local runtime keeps them in memory). A
 * limiter that fails lets the request through and logs why: a limit is never worth a 5xx. A refusal (an
 * AppError) passes as it is.
 */
export function rateLimits(
  table: Table,
  env: Pick<CommonEnv, 'RATE_LIMIT_PER_MINUTE' | 'RATE_LIMIT_BURST' | 'UPLOAD_RATE_LIMIT_PER_MINUTE' | 'IP_RATE_LIMIT_PER_MINUTE' | 'IP_RATE_LIMIT_BURST'>,
  clock: Clock,
  meter: RequestMeter,
  wrap?: (store: DynamoRateLimitStore) => RateLimitStore,
): { limits: HttpGate['limits']; loginAttempts: LoginAttemptGuard } {
  const stored = new DynamoRateLimitStore(table.db, table.name);
  const limiter = new RequestLimiter(wrap?.(stored) ?? stored, clock);
  const policies: RateLimits = {
    user: { perMinute: env.RATE_LIMIT_PER_MINUTE, burst: env.RATE_LIMIT_BURST },
    upload: { perMinute: env.UPLOAD_RATE_LIMIT_PER_MINUTE, burst: env.UPLOAD_RATE_LIMIT_PER_MINUTE },
    anonymous: { perMinute: env.IP_RATE_LIMIT_PER_MINUTE, burst: env.IP_RATE_LIMIT_BURST },
  };
  const failOpen =
    <T>(what: string, fallback: T) =>
    (error: unknown): T => {
      if (error instanceof AppError) throw error;
      logger.warn(`rate limit: ${what} failed, letting the request through`, { error });
      return fallback;
    };
  return {
    // The usage count runs beside the limiter: a request refused by it was received and authenticated all the same.
    limits: async (origin) => {
      const [decision] = await Promise.all([
        limitRequest(limiter, policies, origin).catch(failOpen('counting the request', null)),
        origin.workspaceId ? meter(origin.workspaceId, { api_requests: 1 }) : undefined,
      ]);
      return decision;
    },
    loginAttempts: {
      check: (username) => checkLoginAllowed(limiter, username).catch(failOpen('checking failed logins', undefined)),
      failed: (username) => recordLoginFailure(limiter, username).catch(failOpen('counting a failed login', undefined)),
    },
  };
}

/** How a runtime adapts the gate's stores (the local runtime: in memory, written behind); none in the cloud. */
export interface GateDecorations {
  rememberHotReads?: (stores: HotReadStores) => HotReadStores;
  rateLimits?: (store: DynamoRateLimitStore) => RateLimitStore;
  usageMeter?: (meter: UsageMeter) => UsageMeter;
}

/** The gate and the stores it reads, which most HTTP handlers use beside it. */
export type RequestGate = HttpGate &
  HotReadStores &
  WorkspaceDirectory & {
    clock: Clock;
    /** Issues and verifies the sessions' JWTs. */
    tokens: TokenService;
    apiTokens: ApiTokenRepository;
    usage: UsageRepository;
    meter: RequestMeter;
    loginAttempts: LoginAttemptGuard;
  };

/** The gate of the HTTP functions over the table: authentication, rate limits and request metering. */
export function requestGate(options: {
  table: Table;
  env: CommonEnv;
  clock: Clock;
  tokens: TokenService;
  edge?: EdgeOrigin | undefined;
  decorate?: GateDecorations;
}): RequestGate {
  const { table, env, clock, tokens, decorate = {} } = options;
  const accounts = accountStores(table, decorate.rememberHotReads);
  const directory = workspaceDirectory(table, env, clock);
  const apiTokens = new DynamoApiTokenRepository(table.db, table.name);
  const { usage, meter } = requestMeter(table, clock, decorate.usageMeter);
  return {
    ...accounts,
    ...directory,
    clock,
    tokens,
    apiTokens,
    usage,
    meter,
    corsOrigins: env.CORS_ORIGINS,
    ...(options.edge ? { edge: options.edge } : {}),
    authenticate: authenticator({ ...accounts, ...directory, tokens, apiTokens, clock }),
    ...rateLimits(table, env, clock, meter, decorate.rateLimits),
  };
}
