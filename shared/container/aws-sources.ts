import { WebDavFolders } from '../adapters/webdav/webdav-client';
import type { AppContainer } from './app-container';
import { awsAppContainer, awsCredentialVault, awsSyncQueue, tokenlessContainer, type SourceParts } from './aws';
import { awsStorageParts } from './aws-storage';
import { parseEnv, tableEnvSchema } from './config';
import { dynamoSourceStores } from './source-stores';

/*
 * The sources part of the cloud composition root, apart from aws.ts so that only the functions that check and
 * sync sources' folders bundle the WebDAV client and its XML parser.
 */

const sourceParts = (env: NodeJS.ProcessEnv): Required<SourceParts> => ({
  vault: awsCredentialVault(env),
  syncQueue: awsSyncQueue(env),
  remoteFolders: (policy) => new WebDavFolders(policy),
  sourceStores: dynamoSourceStores,
});

/** The source endpoints: the app container, the sources' stores, the credentials key (KMS), the sync queue and the WebDAV client. */
export function awsSourcesContainer(env: NodeJS.ProcessEnv = process.env): AppContainer {
  return awsAppContainer(env, sourceParts(env));
}

/** The sync worker: the repositories, the bucket, the OCR queues and the source parts; no JWT key. */
export function awsSourceSyncDependencies(env: NodeJS.ProcessEnv = process.env): AppContainer {
  return tokenlessContainer(parseEnv(tableEnvSchema, env).TABLE_NAME, env, { ...awsStorageParts(env), ...sourceParts(env) });
}
