import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsDocumentsContainer } from '../../shared/container/aws';
import { awsSearchParts } from '../../shared/container/aws-search';
import { createDocumentsHandler } from './handler';

export const handler = lambdaEntry(createDocumentsHandler(awsDocumentsContainer(process.env, awsSearchParts())));
