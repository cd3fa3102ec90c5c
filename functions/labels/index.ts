import { awsAppContainer } from '../../shared/container/aws';
import { awsSearchParts } from '../../shared/container/aws-search';
import { createLabelsHandler } from './handler';

export const handler = createLabelsHandler(awsAppContainer(process.env, awsSearchParts()));
