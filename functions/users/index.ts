import { awsAppContainer } from '../../shared/container/aws';
import { createUsersHandler } from './handler';

export const handler = createUsersHandler(awsAppContainer());
