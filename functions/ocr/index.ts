import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsOcrContainer } from '../../shared/container/aws-ocr';
import { createOcrHandler } from './handler';

export const handler = lambdaEntry(createOcrHandler(awsOcrContainer()));
