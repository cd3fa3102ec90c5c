import * as z from '../../zod';
import { createKmsClient } from '../../adapters/aws/clients';
import { KmsCredentialVault } from '../../adapters/aws/kms/credential-vault';
import { envText, parseEnv } from './config';

const vaultEnvSchema = z.lazy(() => z.object({ SOURCE_CREDENTIALS_KEY_ARN: envText }));

/**
 * The source credentials key (SOURCE_CREDENTIALS_KEY_ARN). The KMS client is made on first use: most
 * invocations of the functions that hold it seal or open nothing.
 */
export const awsCredentialVault = (env: NodeJS.ProcessEnv): KmsCredentialVault => {
  let client: ReturnType<typeof createKmsClient> | undefined;
  return new KmsCredentialVault(() => (client ??= createKmsClient()), parseEnv(vaultEnvSchema, env).SOURCE_CREDENTIALS_KEY_ARN);
};
