import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsDocumentsContainer } from '../../shared/container/aws';
import { createDocumentsHandler } from './handler';

export const handler = lambdaEntry(createDocumentsHandler(awsDocumentsContainer()));
