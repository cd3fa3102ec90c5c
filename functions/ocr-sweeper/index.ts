import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsOcrSweeperDependencies } from '../../shared/container/aws-ocr';
import { createOcrSweeperHandler } from './handler';

export const handler = lambdaEntry(createOcrSweeperHandler(awsOcrSweeperDependencies()));
