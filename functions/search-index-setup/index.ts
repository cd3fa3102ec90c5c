import { awsSearchIndexSetupDependencies } from '../../shared/container/aws-search';
import { createSearchIndexSetupHandler } from './handler';

export const handler = createSearchIndexSetupHandler(awsSearchIndexSetupDependencies());
