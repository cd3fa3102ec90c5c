import { awsAppContainer } from '../../shared/container/aws';
import { createAuthHandler } from './handler';

export const handler = createAuthHandler(awsAppContainer());
