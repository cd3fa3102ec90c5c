import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoQuotaCounts } from '../../shared/adapters/aws/dynamodb/quota-counts';
import { DynamoSourceRepository } from '../../shared/adapters/aws/dynamodb/source-repository';
import { DynamoSyncStateStore } from '../../shared/adapters/aws/dynamodb/sync-state-store';
import { WebDavFolders } from '../../shared/adapters/webdav/webdav-client';
import { awsHttp } from '../../shared/container/kit/aws-http';
import { awsSyncQueue } from '../../shared/container/kit/aws-queues';
import { awsCredentialVault } from '../../shared/container/kit/aws-vault';
import { createSourcesHandler } from './handler';

const { gate, table, config } = awsHttp();

export const handler = lambdaEntry(
  createSourcesHandler({
    ...gate,
    quotaCounts: new DynamoQuotaCounts(table.db, table.name),
    vault: awsCredentialVault(process.env),
    syncQueue: awsSyncQueue(process.env),
    remoteFolders: new WebDavFolders({
      allowPrivateNetworks: config.SOURCES_ALLOW_PRIVATE_NETWORKS,
      requestTimeoutMs: config.SOURCE_REQUEST_TIMEOUT_SECONDS * 1000,
    }),
    forWorkspace: (workspaceId) => ({
      workspaceId,
      sources: new DynamoSourceRepository(table.db, table.name, workspaceId),
      syncState: new DynamoSyncStateStore(table.db, table.name, workspaceId),
    }),
  }),
);
