import { awsAppContainer } from '../../shared/container/aws';
import { createLabelsHandler } from './handler';

export const handler = createLabelsHandler(awsAppContainer());
