import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsPortabilityWorkerDependencies } from '../../shared/container/aws-portability';
import { createPortabilityWorkerHandler } from './handler';

export const handler = lambdaEntry(createPortabilityWorkerHandler(awsPortabilityWorkerDependencies()));
