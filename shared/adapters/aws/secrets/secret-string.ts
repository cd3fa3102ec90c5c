import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/** Reads a Secrets Manager string secret; the caller memoizes it (read once per cold start). */
export async function readSecretString(client: SecretsManagerClient, secretArn: string): Promise<string> {
  const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretArn }));
  if (!SecretString) throw new Error(`Secret ${secretArn} has no string value`);
  return SecretString;
}
