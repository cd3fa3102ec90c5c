import { awsDocumentsContainer } from '../../shared/container/aws';
import { awsSearchParts } from '../../shared/container/aws-search';
import { createDocumentsHandler } from './handler';

export const handler = createDocumentsHandler(awsDocumentsContainer(process.env, awsSearchParts()));
