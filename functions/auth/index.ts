import { awsAuthContainer } from '../../shared/container/aws-auth';
import { createAuthHandler } from './handler';

export const handler = createAuthHandler(awsAuthContainer());
