import { awsSourceSyncDependencies } from '../../shared/container/aws';
import { awsSearchParts } from '../../shared/container/aws-search';
import { createSourceSyncHandler } from './handler';

export const handler = createSourceSyncHandler(awsSourceSyncDependencies(process.env, awsSearchParts()));
