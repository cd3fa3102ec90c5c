import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsSearchIndexSetupDependencies } from '../../shared/container/kit/aws-search-index';
import { createSearchIndexSetupHandler } from './handler';

export const handler = lambdaEntry(createSearchIndexSetupHandler(awsSearchIndexSetupDependencies()));
