import type { ThrottleSettings } from 'aws-cdk-lib/aws-apigatewayv2';
import type { RouteKey } from '../../shared/manifest';

/*
 * How much traffic the deployment takes, in one place: the README's "Deploying to AWS" quotes these numbers.
 * API Gateway answers 429 above them, before any Lambda runs or costs. They are stage-wide, for all callers
 * together, a coarse backstop; the per-caller limits of profile P ({@link RateLimitSettings}) are the
 * application's job, and each throttle admits at least one caller's whole allowance (checked at synth time by
 * {@link checkThrottlesAdmit}), so a caller within its limits never meets the gateway's bare 429.
 */

/** Every HTTP route: 100 requests/s steady (60 users at P's per-user rate), bursts of 200. */
export const HTTP_STAGE_THROTTLE = { rateLimit: 100, burstLimit: 200 } as const satisfies ThrottleSettings;

/**
 * Routes that cost more than the rest, tighter: password checks (an Argon2id hash each, and the target of guessing), uploads
 * and thumbnails (whole files in a 1.5 GB function), and searches (one small OpenSearch node in `dev`). Each
 * burst holds one caller's burst at the default limits (20, uploads 10).
 */
export const HTTP_ROUTE_THROTTLES = {
  'POST /api/auth/login': { rateLimit: 10, burstLimit: 20 },
  'POST /api/auth/register': { rateLimit: 2, burstLimit: 20 },
  'POST /api/users/change-password': { rateLimit: 2, burstLimit: 20 },
  'POST /api/documents/upload': { rateLimit: 10, burstLimit: 20 },
  'POST /api/documents/bulk-upload': { rateLimit: 2, burstLimit: 10 },
  'POST /api/documents/upload-url': { rateLimit: 10, burstLimit: 20 },
  'GET /api/documents/{id}/thumbnail': { rateLimit: 20, burstLimit: 40 },
  'GET /api/search': { rateLimit: 20, burstLimit: 40 },
  'POST /api/search/advanced': { rateLimit: 20, burstLimit: 40 },
} as const satisfies Partial<Record<RouteKey, ThrottleSettings>>;

/**
 * The per-caller limits of profile P, as the functions that count requests read them (`RATE_LIMIT_*`; CDK
 * context `rateLimitPerMinute`, `rateLimitBurst`, `uploadRateLimitPerMinute`, `ipRateLimitPerMinute`,
 * `ipRateLimitBurst`).
 */
export interface RateLimitSettings {
  /** Each user's token bucket: refilled at this many requests a minute... */
  readonly perMinute: number;
  /** ...holding this many at once. */
  readonly burst: number;
  /** Uploads per user, on top of the general bucket; the burst is the same number. */
  readonly uploadPerMinute: number;
  /** Requests without a user (register, login, refresh, OIDC), per client IP... */
  readonly ipPerMinute: number;
  /** ...at most this many at once. */
  readonly ipBurst: number;
}

/** The runtime's defaults (shared/container/kit/config.ts). */
export const DEFAULT_RATE_LIMITS: RateLimitSettings = { perMinute: 100, burst: 20, uploadPerMinute: 10, ipPerMinute: 60, ipBurst: 20 };

/** Routes whose requests also draw from the caller's upload bucket (`route.rateLimit === 'upload'` in the handlers). */
export const UPLOAD_ROUTES = [
  'POST /api/documents/upload',
  'POST /api/documents/bulk-upload',
  'POST /api/documents/upload-url',
] as const satisfies readonly RouteKey[];

/**
 * The most requests one caller may send to a route at once and per second under `limits`: an upload is held
 * by both of the user's buckets; any other route by the user's or, without a token, the client IP's.
 */
export function callerAllowance(limits: RateLimitSettings, routeKey: RouteKey | '*'): { burst: number; perSecond: number } {
  if ((UPLOAD_ROUTES as readonly string[]).includes(routeKey)) {
    return { burst: Math.min(limits.burst, limits.uploadPerMinute), perSecond: Math.min(limits.perMinute, limits.uploadPerMinute) / 60 };
  }
  return { burst: Math.max(limits.burst, limits.ipBurst), perSecond: Math.max(limits.perMinute, limits.ipPerMinute) / 60 };
}

/**
 * Problems with `limits` against the gateway's throttles, empty when every throttle admits one caller's whole
 * allowance: the stage and route throttles are a backstop for all callers together, and a caller within its
 * own limits must get the application's 429 (P body, X-RateLimit-* headers), never the gateway's.
 */
export function checkThrottlesAdmit(limits: RateLimitSettings): string[] {
  const throttles: [RouteKey | '*', ThrottleSettings][] = [['*', HTTP_STAGE_THROTTLE], ...(Object.entries(HTTP_ROUTE_THROTTLES) as [RouteKey, ThrottleSettings][])];
  const problems: string[] = [];
  for (const [routeKey, throttle] of throttles) {
    const allowance = callerAllowance(limits, routeKey);
    const where = routeKey === '*' ? 'the HTTP stage throttle' : `the throttle of ${routeKey}`;
    if (allowance.burst > (throttle.burstLimit ?? Infinity)) {
      problems.push(`one caller's burst of ${allowance.burst} is above ${where} (burst ${throttle.burstLimit})`);
    }
    if (allowance.perSecond > (throttle.rateLimit ?? Infinity)) {
      problems.push(`one caller's ${Math.round(allowance.perSecond * 60)} requests a minute are above ${where} (${throttle.rateLimit}/s)`);
    }
  }
  return problems;
}

/** WebSocket messages and connects: 50/s steady, bursts of 100 (5 connections per user, few messages each). */
export const WEBSOCKET_STAGE_THROTTLE = { rateLimit: 50, burstLimit: 100 } as const satisfies ThrottleSettings;

/**
 * Textract calls per second the account may make (its DetectDocumentText / StartDocumentTextDetection quota
 * in the region; context `textractTps`). One OCR worker invocation makes at most about one call per second
 * (a DetectDocumentText call takes a second or more; polls of an asynchronous job start a second apart and
 * double), so the worker's concurrency on both queues together is held to this number.
 */
export const DEFAULT_TEXTRACT_TPS = 5;

/** Concurrency of the OCR worker's two event sources: about 40 % for high priority, the rest for normal. */
export function ocrConcurrency(textractTps: number): { normal: number; high: number } {
  // Lambda's SQS event sources take a maximum concurrency of 2 at least, so two queues need 4.
  if (!Number.isInteger(textractTps) || textractTps < 4 || textractTps > 1000) {
    throw new Error(`textractTps must be an integer from 4 to 1000, got ${textractTps}`);
  }
  const high = Math.max(2, Math.round(textractTps * 0.4));
  return { normal: textractTps - high, high };
}

/** The ingest's concurrency: it only checks and moves files and queues OCR, which is the real bottleneck. */
export const INGEST_CONCURRENCY = 5;

/**
 * Source syncs at once (the sync worker's maximum concurrency, Lambda's minimum for an SQS event source): each
 * streams files into the bucket and queues OCR, which is the real bottleneck; a long sync hands its rest to a
 * new message every step, so other workspaces' syncs take turns with it.
 */
export const SOURCE_SYNC_CONCURRENCY = 2;

/**
 * Webhook delivery batches at once (the delivery worker's maximum concurrency): each sends up to 10 deliveries,
 * at most two in flight per endpoint, so a slow receiver holds few workers and the others keep going; retries
 * wait in the queue rather than in a worker.
 */
export const WEBHOOK_DELIVERY_CONCURRENCY = 5;

/*
 * The consumers of the table's stream (indexer, events: lib/constructs/change-consumers.ts). A stream keeps a
 * record 24 hours; each shard is read by one invocation at a time (parallelization factor 1), so the changes
 * of an item are applied in their order.
 */

/** Invocations per shard at once: one, so that the changes of an item arrive in order. */
export const CHANGE_PARALLELIZATION_FACTOR = 1;

/** How far behind the newest change a consumer may fall (the age of the last record it read) before an alarm. */
export const CHANGE_MAX_ITERATOR_AGE_MINUTES = 5;

/**
 * Timeouts of the stream consumers: a label renamed on many documents reindexes each of them in one run, and
 * the indexer's scheduled reconciliation compares every workspace's documents with the index; an event goes
 * to up to every connection of a workspace, each send bounded (EVENT_SEND_TIMEOUT_MS).
 */
export const INDEXER_TIMEOUT_SECONDS = 300;
export const EVENTS_TIMEOUT_SECONDS = 60;
/** Timeout of webhook-dispatch: for each change of a batch, the subscribed webhooks, a delivery and a message each. */
export const WEBHOOK_DISPATCH_TIMEOUT_SECONDS = 60;

/**
 * Rule-jobs workers at once: each step assigns labels to up to 200 documents in transactions, so a few bound the
 * table writes that many runs started together make, and a run's steps follow one another anyway.
 */
export const RULE_JOBS_CONCURRENCY = 2;
