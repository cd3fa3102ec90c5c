import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { awsLabelsContainer } from '../../shared/container/aws-labels';
import { createLabelsHandler } from './handler';

export const handler = lambdaEntry(createLabelsHandler(awsLabelsContainer()));
