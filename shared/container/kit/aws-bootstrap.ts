import * as z from '../../zod';
import { createSecretsClient } from '../../adapters/aws/clients';
import { readSecretString } from '../../adapters/aws/secrets/secret-string';
import { systemClock } from '../../domain/clock';
import type { AdminAccount, EnsureAdminDeps } from '../../domain/users/ensure-admin';
import { envText, parseEnv } from './config';
import { dynamoLegacyItems } from './legacy-data';
import { accountStores, workspaceDirectory } from './accounts';
import { awsWorker } from './aws-worker';
import { passwordHasher } from './serving';

const bootstrapEnvSchema = z.lazy(() =>
  z.object({
    ADMIN_USERNAME: envText,
    ADMIN_EMAIL: z.email(),
    ADMIN_PASSWORD_SECRET_ARN: envText,
  }),
);

/**
 * What the deploy-time admin bootstrap needs: the users and workspaces, the password hasher, the adoption of the
 * table's items from before workspaces, and the admin account from its secret (read when the resource runs).
 */
export function awsBootstrapDependencies(env: NodeJS.ProcessEnv = process.env): { accounts: EnsureAdminDeps; admin: () => Promise<AdminAccount> } {
  const config = parseEnv(bootstrapEnvSchema, env);
  const { table, env: common } = awsWorker(env);
  const secrets = createSecretsClient();
  return {
    accounts: {
      users: accountStores(table).users,
      workspaces: workspaceDirectory(table, common, systemClock).workspaces,
      passwords: passwordHasher(common),
      clock: systemClock,
      legacyData: dynamoLegacyItems(table.db, table.name),
    },
    admin: async () => ({
      username: config.ADMIN_USERNAME,
      email: config.ADMIN_EMAIL,
      password: await readSecretString(secrets, config.ADMIN_PASSWORD_SECRET_ARN),
    }),
  };
}
