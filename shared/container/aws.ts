import * as z from '../zod';
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { createDynamoDocumentClient, createSecretsClient } from '../adapters/aws/clients';
import { tableProbe } from '../adapters/aws/dynamodb/table-probe';
import { readSecretString } from '../adapters/aws/secrets/secret-string';
import { onFirstUse } from '../adapters/first-use';
import { joseTokens } from '../adapters/jwt/jose-token-service';
import type { AppContainer } from './app-container';
import { buildAppContainer, type ContainerParts } from './build-app-container';
import { commonEnvSchema, envText, parseEnv } from './config';
import type { EdgeOrigin } from '../http/edge';
import { dynamoConnections } from './connection-store';
import { lambdaBusinessMetrics } from '../adapters/powertools/powertools-metrics';
import { requestServing } from './request-serving';
import { dynamoLegacyItems } from './legacy-data';
import { auditTableNameOf } from './aws-audit';

/**
 * The cloud composition root. Each function's index.ts calls the builder it needs once, at module scope, so
 * clients live across invocations and a bad configuration fails the cold start with the variable's name.
 * Nothing here does I/O at init: secrets are read on first use. Business metrics go out as embedded metrics,
 * published by each function's entry (`lambdaEntry`) when its invocation ends.
 */

// The schemas of the environment are built when parsed (z.lazy): a function builds only those of its own parts.

const appEnvSchema = () => z.extend(commonEnvSchema, {
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

/** Exactly one source of the JWT key. */
const appConfigSchema = z.lazy(() => appEnvSchema().check(z.superRefine((env, ctx) => {
  if (env.JWT_SECRET_ARN && env.JWT_SECRET) ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'must not be set with JWT_SECRET_ARN' });
  if (!env.JWT_SECRET_ARN && !env.JWT_SECRET) ctx.addIssue({ code: 'custom', path: ['JWT_SECRET_ARN'], message: 'is required' });
  if (env.EDGE_ORIGIN_SECRET_ARN && env.EDGE_ORIGIN_TOKEN) ctx.addIssue({ code: 'custom', path: ['EDGE_ORIGIN_TOKEN'], message: 'must not be set with EDGE_ORIGIN_SECRET_ARN' });
})));

/** What a function that searches or keeps the search index in step adds to its container (see `aws-search.ts`). */
export type SearchParts = Pick<ContainerParts, 'search' | 'files'>;

/**
 * The connections and the @connections API of the WebSocket stage, for the functions that push to connections
 * (realtime, events: see `aws-events.ts`, which alone bundles the client). The others have none and publish nothing.
 */
export type ConnectionParts = Pick<ContainerParts, 'connectionSender' | 'connectionStore'>;

/** The bucket and the OCR queues, for the functions the stack binds to them (see `aws-storage.ts`). */
export type StorageParts = Pick<ContainerParts, 'files' | 'ocrQueues'>;

/**
 * The source credentials key, the sync queue and the WebDAV client, for the functions that manage and sync
 * sources (see `aws-sources.ts`, which alone bundles the WebDAV client).
 */
export type SourceParts = Pick<ContainerParts, 'vault' | 'syncQueue' | 'remoteFolders' | 'sourceStores'>;

/** What the function that serves single sign-on adds to its container (see `aws-auth.ts`). */
export type OidcParts = Pick<ContainerParts, 'oidcClient'>;
/** The queue of rule runs' steps: the labels function starts runs, the rule-jobs worker continues them. */
export type RuleParts = Pick<ContainerParts, 'ruleJobs'>;
/** The queue of workspace erasures: the workspaces function queues the deletions it accepts. */
export type ErasureParts = Pick<ContainerParts, 'erasureQueue'>;

/**
 * The edge in front of the function, if any. Its origin token is read on the first request and kept; a failed
 * read is tried again on the next.
 */
function edgeOrigin(config: Pick<z.infer<typeof appConfigSchema>, 'EDGE_ORIGIN_SECRET_ARN' | 'EDGE_ORIGIN_TOKEN'>, secrets: SecretsManagerClient): { edge?: EdgeOrigin } {
  const { EDGE_ORIGIN_SECRET_ARN: secretArn, EDGE_ORIGIN_TOKEN: fixed } = config;
  if (fixed) return { edge: { originToken: async () => fixed } };
  if (!secretArn) return {};
  return { edge: { originToken: onFirstUse(() => readSecretString(secrets, secretArn)) } };
}

/** Users, tokens and settings over DynamoDB, with the JWT key from Secrets Manager. */
export function awsAppContainer(env: NodeJS.ProcessEnv = process.env, parts: SearchParts & OidcParts & StorageParts & SourceParts & ConnectionParts & RuleParts & ErasureParts = {}): AppContainer {
  const config = parseEnv(appConfigSchema, env);
  const db = createDynamoDocumentClient();
  const secrets = createSecretsClient();
  return buildAppContainer({
    db,
    tableName: config.TABLE_NAME,
    tokens: joseTokens(async () => new TextEncoder().encode(config.JWT_SECRET ?? (await readSecretString(secrets, config.JWT_SECRET_ARN!)))),
    env: config,
    // Read once, when the OIDC client first discovers the provider (it keeps the result).
    ...(config.OIDC_CLIENT_SECRET_ARN ? { oidcClientSecret: async () => readSecretString(secrets, config.OIDC_CLIENT_SECRET_ARN!) } : {}),
    ...edgeOrigin(config, secrets),
    healthProbes: [tableProbe(db, config.TABLE_NAME)],
    host: {
      dataPath: '/tmp',
      ...(config.AWS_LAMBDA_FUNCTION_MEMORY_SIZE ? { memoryLimitBytes: config.AWS_LAMBDA_FUNCTION_MEMORY_SIZE * 1024 * 1024 } : {}),
    },
    metrics: lambdaBusinessMetrics(),
    serving: requestServing,
    // A logout, a refresh, a password change or a user's removal ends or moves their WebSocket sessions; the
    // system metrics count the open connections.
    connectionStore: dynamoConnections,
    // The functions the stack gives the audit table: auth records logins, audit reads the log.
    auditTableName: auditTableNameOf(env),
    ...parts,
  });
}

export { bucketEnvSchema, ocrQueueUrls, textractLanguages, OCR_STALE_AFTER_SECONDS } from './kit/aws-env';


/**
 * A container for functions that issue no tokens (workers, schedules): the repositories without the JWT key,
 * jose and the connections' store (no worker ends or moves a session).
 */
export function tokenlessContainer(
  tableName: string,
  env: NodeJS.ProcessEnv,
  parts: SearchParts & StorageParts & SourceParts & ConnectionParts & RuleParts & Pick<ContainerParts, 'auditTableName'> = {},
): AppContainer {
  return buildAppContainer({
    db: createDynamoDocumentClient(),
    tableName,
    env: parseEnv(commonEnvSchema, env),
    healthProbes: [],
    metrics: lambdaBusinessMetrics(),
    ...parts,
  });
}

export { awsCredentialVault } from './kit/aws-vault';

const bootstrapEnvSchema = z.lazy(() =>
  z.object({
    TABLE_NAME: envText,
    ADMIN_USERNAME: envText,
    ADMIN_EMAIL: z.email(),
    ADMIN_PASSWORD_SECRET_ARN: envText,
  }),
);

/** What the deploy-time admin bootstrap needs: the app container and the admin account from its secret. */
export function awsBootstrapDependencies(env: NodeJS.ProcessEnv = process.env) {
  const config = parseEnv(bootstrapEnvSchema, env);
  const db = createDynamoDocumentClient();
  const secrets = createSecretsClient();
  const container = buildAppContainer({
    db,
    tableName: config.TABLE_NAME,
    env: parseEnv(commonEnvSchema, env),
    healthProbes: [],
    metrics: lambdaBusinessMetrics(),
    // The admin's password is hashed here, and the table's items from before workspaces are adopted.
    serving: requestServing,
    legacyData: dynamoLegacyItems,
  });
  return {
    container,
    admin: async () => ({
      username: config.ADMIN_USERNAME,
      email: config.ADMIN_EMAIL,
      password: await readSecretString(secrets, config.ADMIN_PASSWORD_SECRET_ARN),
    }),
  };
}
