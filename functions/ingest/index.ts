import { awsIngestDependencies } from '../../shared/container/aws';
import { awsSearchParts } from '../../shared/container/aws-search';
import { createIngestHandler } from './handler';

export const handler = createIngestHandler(awsIngestDependencies(process.env, awsSearchParts()));
