import type { ThrottleSettings } from 'aws-cdk-lib/aws-apigatewayv2';
import type { RouteKey } from '../../functions/manifest';

/*
 * How much traffic the deployment takes, in one place: the README's "Deploying to AWS" quotes these numbers.
 * API Gateway answers 429 above them, before any Lambda runs or costs. They are stage-wide, for all callers
 * together; the per-user limits of profile P (100/min, uploads 10/min) are the application's job.
 */

/** Every HTTP route: 100 requests/s steady (60 users at P's per-user rate), bursts of 200. */
export const HTTP_STAGE_THROTTLE = { rateLimit: 100, burstLimit: 200 } as const satisfies ThrottleSettings;

/**
 * Routes that cost more than the rest, tighter: password checks (scrypt, and the target of guessing), uploads
 * and thumbnails (whole files in a 1.5 GB function), and searches (one small OpenSearch node in `dev`).
 */
export const HTTP_ROUTE_THROTTLES = {
  'POST /api/auth/login': { rateLimit: 10, burstLimit: 20 },
  'POST /api/auth/register': { rateLimit: 2, burstLimit: 5 },
  'POST /api/users/change-password': { rateLimit: 2, burstLimit: 5 },
  'POST /api/documents/upload': { rateLimit: 10, burstLimit: 20 },
  'POST /api/documents/bulk-upload': { rateLimit: 2, burstLimit: 5 },
  'POST /api/documents/upload-url': { rateLimit: 10, burstLimit: 20 },
  'GET /api/documents/{id}/thumbnail': { rateLimit: 20, burstLimit: 40 },
  'GET /api/search': { rateLimit: 20, burstLimit: 40 },
  'POST /api/search/advanced': { rateLimit: 20, burstLimit: 40 },
} as const satisfies Partial<Record<RouteKey, ThrottleSettings>>;

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
