import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoLabelRepository } from '../../shared/adapters/aws/dynamodb/label-repository';
import { DynamoRuleRepository } from '../../shared/adapters/aws/dynamodb/rule-repository';
import { DynamoSourceRepository } from '../../shared/adapters/aws/dynamodb/source-repository';
import { createS3Client } from '../../shared/adapters/aws/s3/client';
import { bucketName } from '../../shared/container/kit/aws-env';
import { awsHttp } from '../../shared/container/kit/aws-http';
import { awsPortabilityQueue } from '../../shared/container/kit/aws-queues';
import { documentRepository } from '../../shared/container/kit/workspace-stores';
import { dynamoPortabilityServices } from '../../shared/container/kit/portability';
import { createPortabilityHandler } from './handler';

const { gate, table } = awsHttp();
const documents = documentRepository(table, gate.clock, gate);

export const handler = lambdaEntry(
  createPortabilityHandler({
    ...gate,
    portability: dynamoPortabilityServices(table.db, table.name, createS3Client(), bucketName(process.env), awsPortabilityQueue(process.env)),
    // An import goes only into an empty workspace: no documents, labels, sources or rules.
    forWorkspace: (workspaceId) => ({
      documents: documents(workspaceId),
      labels: new DynamoLabelRepository(table.db, table.name, workspaceId),
      sources: new DynamoSourceRepository(table.db, table.name, workspaceId),
      rules: new DynamoRuleRepository(table.db, table.name, workspaceId),
    }),
  }),
);
