import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoQuotaCounts } from '../../shared/adapters/aws/dynamodb/quota-counts';
import { readSecretString } from '../../shared/adapters/aws/secrets/secret-string';
import { lazyOpenIdClient } from '../../shared/adapters/oidc/lazy-openid-client';
import { DynamoConnectionRepository } from '../../shared/adapters/aws/dynamodb/connection-repository';
import { authenticationEvents } from '../../shared/container/kit/audit';
import { optionalAuditTableName } from '../../shared/container/kit/aws-env';
import { awsHttp } from '../../shared/container/kit/aws-http';
import { oidcServices } from '../../shared/container/kit/oidc';
import { passwordHasher } from '../../shared/container/kit/serving';
import { createAuthHandler } from './handler';

const { gate, table, config, secrets } = awsHttp();
const secretArn = config.OIDC_CLIENT_SECRET_ARN;

export const handler = lambdaEntry(
  createAuthHandler({
    ...gate,
    passwords: passwordHasher(config),
    // A logout, a refresh or a password change ends or moves the caller's WebSocket sessions.
    connections: new DynamoConnectionRepository(table.db, table.name, gate.clock),
    quotaCounts: new DynamoQuotaCounts(table.db, table.name),
    registrationMode: config.REGISTRATION_MODE,
    refreshGraceSeconds: config.JWT_REFRESH_GRACE_SECONDS,
    authEvents: authenticationEvents(table.db, optionalAuditTableName(process.env), gate.clock),
    // openid-client loads on the first OIDC request only: most of this function's requests are logins and refreshes.
    oidc: oidcServices({
      table,
      env: config,
      clock: gate.clock,
      client: lazyOpenIdClient,
      // Read once, when the OIDC client first discovers the provider (it keeps the result).
      ...(secretArn ? { clientSecret: async () => readSecretString(secrets, secretArn) } : {}),
    }),
  }),
);
