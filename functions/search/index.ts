import { awsSearchContainer } from '../../shared/container/aws';
import { createSearchHandler } from './handler';

export const handler = createSearchHandler(awsSearchContainer());
