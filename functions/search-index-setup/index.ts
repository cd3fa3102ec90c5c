import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsSearchIndexSetupDependencies } from '../../shared/container/aws-search';
import { createSearchIndexSetupHandler } from './handler';

export const handler = lambdaEntry(createSearchIndexSetupHandler(awsSearchIndexSetupDependencies()));
