import { createHmac, randomBytes } from 'node:crypto';

/**
 * The Standard Webhooks signature scheme (https://www.standardwebhooks.com): what a receiver checks with any of
 * the scheme's libraries, given the endpoint's secret.
 */

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** The three headers a signed delivery carries. */
export type SignatureHeaders = Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string>;

/** What is signed: the delivery's id (the same on every attempt), when this attempt is signed, and the body sent. */
export interface SignatureInput {
  id: string;
  timestamp: Date;
  body: string;
  /** The secrets that sign, each `whsec_<base64 key>`: more than one while a rotated secret is still valid. */
  secrets: readonly string[];
}

/** A new signing secret: `whsec_` and the base64 of 32 random bytes. */
export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The HMAC key of a secret: the bytes its base64 part stands for (the prefix is optional, as in the libraries). */
const keyOf = (secret: string): Buffer =>
  Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');

/**
 * The `webhook-id`, `webhook-timestamp` (integer seconds) and `webhook-signature` headers of a delivery: one
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per secret, space-separated, so that a receiver still holding
 * the previous secret verifies during a rotation.
 */
export function signatureHeaders({ id, timestamp, body, secrets }: SignatureInput): SignatureHeaders {
  const seconds = Math.floor(timestamp.getTime() / 1000);
  const signed = `${id}.${seconds}.${body}`;
  const signatures = secrets.map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(signed).digest('base64')}`);
  return { 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': signatures.join(' ') };
}
