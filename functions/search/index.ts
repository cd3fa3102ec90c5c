import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsSearchContainer } from '../../shared/container/aws-search';
import { createSearchHandler } from './handler';

export const handler = lambdaEntry(createSearchHandler(awsSearchContainer()));
