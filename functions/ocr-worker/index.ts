import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsOcrWorkerDependencies } from '../../shared/container/aws';
import { awsSearchParts } from '../../shared/container/aws-search';
import { createOcrWorkerHandler } from './handler';

export const handler = lambdaEntry(createOcrWorkerHandler(awsOcrWorkerDependencies(process.env, awsSearchParts())));
