import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsDocumentsContainer } from '../../shared/container/aws-documents';
import { createDocumentsHandler } from './handler';

export const handler = lambdaEntry(createDocumentsHandler(awsDocumentsContainer()));
