import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsOcrWorkerDependencies } from '../../shared/container/aws-ocr-worker';
import { createOcrWorkerHandler } from './handler';

export const handler = lambdaEntry(createOcrWorkerHandler(awsOcrWorkerDependencies()));
