import * as z from '../zod';
import { ApiGatewayConnectionSender } from '../adapters/aws/apigateway/connection-sender';
import { createConnectionsClient, createDynamoDocumentClient } from '../adapters/aws/clients';
import { OpenSearchSearchIndex } from '../adapters/aws/opensearch/search-index';
import { createS3Client } from '../adapters/aws/s3/client';
import { S3WorkspaceEraser } from '../adapters/aws/s3/workspace-eraser';
import type { EraseWorkspaceDeps } from '../domain/erasure/erase-workspace';
import { tokenlessContainer } from './aws';
import { EVENT_SEND_TIMEOUT_MS } from './build-app-container';
import { envText, parseEnv } from './config';
import { dynamoConnections } from './connection-store';
import { eraserDepsOf } from './eraser';

const eraserEnvSchema = z.lazy(() =>
  z.object({
    TABLE_NAME: envText,
    BUCKET_NAME: envText,
    OPENSEARCH_ENDPOINT: envText,
    AWS_REGION: z._default(envText, 'us-east-1'),
    WEBSOCKET_ENDPOINT: z.url(),
  }),
);

/**
 * The eraser: the table, the versioned bucket (every version and delete marker), the OpenSearch index and the
 * @connections API (to close the workspace's connections). No JWT key.
 */
export function awsEraserDependencies(env: NodeJS.ProcessEnv = process.env): EraseWorkspaceDeps {
  const config = parseEnv(eraserEnvSchema, env);
  const container = tokenlessContainer(config.TABLE_NAME, env, {
    connectionStore: dynamoConnections,
    connectionSender: new ApiGatewayConnectionSender(() =>
      createConnectionsClient({ endpoint: config.WEBSOCKET_ENDPOINT, requestTimeoutMs: EVENT_SEND_TIMEOUT_MS }),
    ),
  });
  const index = OpenSearchSearchIndex.forDomain(config.OPENSEARCH_ENDPOINT, config.AWS_REGION);
  return eraserDepsOf(container, {
    db: createDynamoDocumentClient(),
    tableName: config.TABLE_NAME,
    objects: new S3WorkspaceEraser(createS3Client(), config.BUCKET_NAME, true),
    index: { erase: (workspaceId) => index.eraseWorkspace(workspaceId) },
  });
}
