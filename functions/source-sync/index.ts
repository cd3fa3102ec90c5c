import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsSourceSyncDependencies } from '../../shared/container/aws';
import { awsSearchParts } from '../../shared/container/aws-search';
import { createSourceSyncHandler } from './handler';

export const handler = lambdaEntry(createSourceSyncHandler(awsSourceSyncDependencies(process.env, awsSearchParts())));
