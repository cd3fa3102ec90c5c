import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsSourceSyncDependencies } from '../../shared/container/aws-source-sync';
import { createSourceSyncHandler } from './handler';

export const handler = lambdaEntry(createSourceSyncHandler(awsSourceSyncDependencies()));
