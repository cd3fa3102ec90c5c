import * as z from '../../shared/zod';
import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { OpenSearchSearchIndex } from '../../shared/adapters/aws/opensearch/search-index';
import { createS3Client } from '../../shared/adapters/aws/s3/client';
import { S3WorkspaceEraser } from '../../shared/adapters/aws/s3/workspace-eraser';
import { systemClock } from '../../shared/domain/clock';
import { envText, parseEnv } from '../../shared/container/kit/config';
import { DynamoConnectionRepository } from '../../shared/adapters/aws/dynamodb/connection-repository';
import { eraserDepsOf } from '../../shared/container/kit/eraser';
import { awsConnectionSender } from '../../shared/container/kit/aws-connections';
import { awsTable } from '../../shared/container/kit/aws-table';
import { createEraserHandler } from './handler';

/*
 * The eraser: the table, the versioned bucket (every version and delete marker), the OpenSearch index and the
 * @connections API (to close the workspace's connections). No JWT key.
 */
const config = parseEnv(z.object({ BUCKET_NAME: envText, OPENSEARCH_ENDPOINT: envText, AWS_REGION: z._default(envText, 'us-east-1') }), process.env);
const table = awsTable();
const index = OpenSearchSearchIndex.forDomain(config.OPENSEARCH_ENDPOINT, config.AWS_REGION);

export const handler = lambdaEntry(
  createEraserHandler(
    eraserDepsOf(
      { clock: systemClock, connections: new DynamoConnectionRepository(table.db, table.name, systemClock), connectionSender: awsConnectionSender(process.env) },
      {
        db: table.db,
        tableName: table.name,
        objects: new S3WorkspaceEraser(createS3Client(), config.BUCKET_NAME, true),
        index: { erase: (workspaceId) => index.eraseWorkspace(workspaceId) },
      },
    ),
  ),
);
