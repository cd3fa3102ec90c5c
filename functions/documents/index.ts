import { awsDocumentsContainer } from '../../shared/container/aws';
import { createDocumentsHandler } from './handler';

export const handler = createDocumentsHandler(awsDocumentsContainer());
