import { awsSourcesContainer } from '../../shared/container/aws';
import { createSourcesHandler } from './handler';

export const handler = createSourcesHandler(awsSourcesContainer(process.env));
