import { awsOcrWorkerDependencies } from '../../shared/container/aws';
import { awsSearchParts } from '../../shared/container/aws-search';
import { createOcrWorkerHandler } from './handler';

export const handler = createOcrWorkerHandler(awsOcrWorkerDependencies(process.env, awsSearchParts()));
