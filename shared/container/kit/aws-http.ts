import * as z from '../../zod';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { createDynamoDocumentClient, createSecretsClient } from '../../adapters/aws/clients';
import { readSecretString } from '../../adapters/aws/secrets/secret-string';
import { onFirstUse } from '../../adapters/first-use';
import { joseTokens } from '../../adapters/jwt/jose-token-service';
import { systemClock } from '../../domain/clock';
import type { EdgeOrigin } from '../../http/edge';
import { commonEnvSchema, envText, parseEnv } from './config';
import { requestGate, type RequestGate } from './request-gate';
import type { Table } from './table';

// The schema of the environment is built when parsed (z.lazy): a function builds only those of its own parts.

const httpEnvSchema = () => z.extend(commonEnvSchema, {
  TABLE_NAME: envText,
  /** The JWT signing key's secret in Secrets Manager: what the stack sets. */
  JWT_SECRET_ARN: z.optional(envText),
  /**
   * The key itself, for running the bundled functions against the emulators (test/bundles), where there is no
   * Secrets Manager. Refused beside JWT_SECRET_ARN, so a deployed function never reads a key from its environment.
   */
  JWT_SECRET: z.optional(z.string().check(z.minLength(32))),
  /** The OIDC client secret, kept in Secrets Manager rather than in the function's environment. */
  OIDC_CLIENT_SECRET_ARN: z.optional(envText),
  /** The CloudFront edge's origin token: set, the function answers only requests that came through the edge. */
  EDGE_ORIGIN_SECRET_ARN: z.optional(envText),
  /** The token itself, for the bundled functions against the emulators (test/bundles); refused beside the ARN. */
  EDGE_ORIGIN_TOKEN: z.optional(z.string().check(z.minLength(32))),
  /** Set by Lambda: the function's memory in MB, what the system metrics measure memory use against. */
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: z.optional(z.coerce.number().check(z.int(), z.positive())),
});

/** Exactly one source of the JWT key, and of the edge's token. */
export const httpConfigSchema = z.lazy(() => httpEnvSchema().check(z.superRefine((env, ctx) => {
  if (env.JWT_SECRET_ARN && env.JWT_SECRET) ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'must not be set with JWT_SECRET_ARN' });
  if (!env.JWT_SECRET_ARN && !env.JWT_SECRET) ctx.addIssue({ code: 'custom', path: ['JWT_SECRET_ARN'], message: 'is required' });
  if (env.EDGE_ORIGIN_SECRET_ARN && env.EDGE_ORIGIN_TOKEN) ctx.addIssue({ code: 'custom', path: ['EDGE_ORIGIN_TOKEN'], message: 'must not be set with EDGE_ORIGIN_SECRET_ARN' });
})));

export type HttpConfig = z.output<typeof httpConfigSchema>;

/**
 * The edge in front of the function, if any. Its origin token is read on the first request and kept; a failed
 * read is tried again on the next.
 */
export function edgeOrigin(config: Pick<HttpConfig, 'EDGE_ORIGIN_SECRET_ARN' | 'EDGE_ORIGIN_TOKEN'>, secrets: SecretsManagerClient): EdgeOrigin | undefined {
  const { EDGE_ORIGIN_SECRET_ARN: secretArn, EDGE_ORIGIN_TOKEN: fixed } = config;
  if (fixed) return { originToken: async () => fixed };
  if (!secretArn) return undefined;
  return { originToken: onFirstUse(() => readSecretString(secrets, secretArn)) };
}

/** What an HTTP function's entry composes its deps from: the gate and its stores, the table, the parsed environment. */
export interface AwsHttp {
  gate: RequestGate;
  table: Table;
  config: HttpConfig;
  secrets: SecretsManagerClient;
}

/**
 * The cloud's part of every HTTP function: the environment parsed once at init (a bad variable fails the cold
 * start with its name), the table, and the gate with the JWT key read from Secrets Manager on first use.
 */
export function awsHttp(env: NodeJS.ProcessEnv = process.env): AwsHttp {
  const config = parseEnv(httpConfigSchema, env);
  const table = { db: createDynamoDocumentClient(), name: config.TABLE_NAME };
  const secrets = createSecretsClient();
  const clock = systemClock;
  const tokens = joseTokens(async () => new TextEncoder().encode(config.JWT_SECRET ?? (await readSecretString(secrets, config.JWT_SECRET_ARN!))))({
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    ttlSeconds: config.JWT_TTL_SECONDS,
    clock,
  });
  return { gate: requestGate({ table, env: config, clock, tokens, edge: edgeOrigin(config, secrets) }), table, config, secrets };
}
