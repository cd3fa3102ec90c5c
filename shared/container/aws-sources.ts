import { WebDavFolders } from '../adapters/webdav/webdav-client';
import type { AppContainer } from './app-container';
import { awsAppContainer, awsCredentialVault, type SourceParts } from './aws';
import { awsSyncQueue } from './kit/aws-queues';
import { dynamoSourceStores } from './source-stores';

/*
 * The sources part of the cloud composition root, apart from aws.ts so that only the functions that check and
 * sync sources' folders bundle the WebDAV client and its XML parser.
 */

/** The sources' parts of a container: the credentials key, the sync queue, the WebDAV client, the sources' stores. */
export const sourceParts = (env: NodeJS.ProcessEnv): Required<SourceParts> => ({
  vault: awsCredentialVault(env),
  syncQueue: awsSyncQueue(env),
  remoteFolders: (policy) => new WebDavFolders(policy),
  sourceStores: dynamoSourceStores,
});

/** The source endpoints: the app container, the sources' stores, the credentials key (KMS), the sync queue and the WebDAV client. */
export function awsSourcesContainer(env: NodeJS.ProcessEnv = process.env): AppContainer {
  return awsAppContainer(env, sourceParts(env));
}
