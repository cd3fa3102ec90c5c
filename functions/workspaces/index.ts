import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsAppContainer } from '../../shared/container/aws';
import { awsErasureQueue } from '../../shared/container/aws-queues';
import { dynamoSourceStores } from '../../shared/container/source-stores';
import { createWorkspacesHandler } from './handler';

// The sources' stores: a workspace's overview counts its sources against its plan.
export const handler = lambdaEntry(createWorkspacesHandler(awsAppContainer(process.env, { sourceStores: dynamoSourceStores, erasureQueue: awsErasureQueue(process.env) })));
