import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsHealthDependencies } from '../../shared/container/aws-storage';
import { createHealthHandler } from './handler';

export const handler = lambdaEntry(createHealthHandler(awsHealthDependencies()));
