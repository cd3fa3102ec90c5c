import { awsSearchContainer } from '../../shared/container/aws-search';
import { createSearchHandler } from './handler';

export const handler = createSearchHandler(awsSearchContainer());
