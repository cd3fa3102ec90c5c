import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { DynamoLabelRepository } from '../../shared/adapters/aws/dynamodb/label-repository';
import { DynamoRuleRepository } from '../../shared/adapters/aws/dynamodb/rule-repository';
import { dynamoDocumentCount } from '../../shared/adapters/aws/dynamodb/rule-documents';
import { lazyRe2RegexEngine } from '../../shared/adapters/re2/lazy-re2-regex-engine';
import { awsHttp } from '../../shared/container/kit/aws-http';
import { awsRuleJobQueue } from '../../shared/container/kit/aws-queues';
import { createLabelsHandler } from './handler';

const { gate, table } = awsHttp();

export const handler = lambdaEntry(
  createLabelsHandler({
    ...gate,
    regex: lazyRe2RegexEngine(),
    ruleJobs: awsRuleJobQueue(process.env),
    forWorkspace: (workspaceId) => ({
      workspaceId,
      labels: new DynamoLabelRepository(table.db, table.name, workspaceId),
      rules: new DynamoRuleRepository(table.db, table.name, workspaceId),
      ruleDocuments: dynamoDocumentCount(table.db, table.name, workspaceId),
    }),
  }),
);
