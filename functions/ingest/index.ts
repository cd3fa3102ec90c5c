import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsIngestDependencies } from '../../shared/container/aws-storage';
import { createIngestHandler } from './handler';

export const handler = lambdaEntry(createIngestHandler(awsIngestDependencies()));
