import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsAppContainer } from '../../shared/container/aws';
import { createLabelsHandler } from './handler';

export const handler = lambdaEntry(createLabelsHandler(awsAppContainer()));
